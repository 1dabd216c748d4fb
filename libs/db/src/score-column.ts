/* eslint-disable @typescript-eslint/no-non-null-assertion -- hot kernel: indices are bounded by the loops over these arrays; a check per access would cost throughput (npm run bench:score-writes) */
/**
 * Byte layouts of a `score_column` record (one submission × metric; docs/adr/0010-columnar-scores.md).
 *
 * `values`: the instance scores in test-set position order, 8 bytes each, IEEE 754 float64
 * little-endian; position p is bytes [8p, 8p + 8). NaN marks a position without a score
 * (fixtures and imports may store a subset; the worker always stores every position).
 *
 * `stats`: the per-instance sufficient statistics of a corpus metric (BLEU, chrF, chrF++, TER:
 * `metric.stats(hyp, refs)`), N rows of W numbers, stored column by column:
 *
 *     byte     format version (1)
 *     byte     flags: bit 0 = the body below is deflate-raw compressed
 *     varint   N, rows (instances)
 *     varint   W, columns (statistics per instance)
 *     body     W column blocks, column 0 first:
 *       byte     kind: 0 = integers, 1 = float64
 *       kind 0:  varint p (p ≤ j; p = j: no predictor), then N zigzag varints of
 *                x[i][j] − x[i][p] (x[i][j] itself when p = j)
 *       kind 1:  N float64 little-endian
 *
 * Varints are unsigned LEB128 (7 bits a byte, low group first), zigzag maps 0, −1, 1, −2, … to
 * 0, 1, 2, 3, …. A column is `integers` when every value is a safe integer (not −0) and every
 * difference fits in ±2^52; TER's reference length is an average over references and falls back
 * to float64 when the references differ in length. The predictor is the earlier integer column
 * (or none) whose differences take the fewest bits on a spread of up to
 * {@link PREDICTOR_SAMPLE_ROWS} rows: BLEU's n-gram totals follow the hypothesis length, chrF's
 * counts of order n follow order n − 1 (differences of 0 or −1 where values are in the tens).
 * The body is deflated when that is smaller (runs of equal differences shrink to a few bits).
 */
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import { endianness } from 'node:os';

const STATS_VERSION = 1;
const FLAG_DEFLATED = 1;
const KIND_INTEGERS = 0;
const KIND_FLOAT64 = 1;
/** Differences beyond this cannot be zigzagged exactly in a double. */
const MAX_DELTA = 2 ** 52;
/**
 * Rows the predictor search compares candidates on: all of a smaller column, every k-th row of a
 * larger one. Comparing every earlier column over every row (chrF: 18 columns, 153 candidate
 * pairs) was the larger part of encoding a column (issue #28). Candidates are compared by the bits
 * of their differences, not varint bytes: on a spread, differences that all fit in a byte tie in
 * bytes, while their bits still say which deflate shrinks more. The bytes stay a function of the
 * numbers alone.
 */
const PREDICTOR_SAMPLE_ROWS = 2048;
const LITTLE_ENDIAN_HOST = endianness() === 'LE';

/** Float64 little-endian bytes of `values` (8 per value, position order). */
export function encodeValues(values: ArrayLike<number>): Buffer {
  const out = Buffer.allocUnsafe(8 * values.length);
  if (LITTLE_ENDIAN_HOST && out.byteOffset % 8 === 0) {
    const view = new Float64Array(out.buffer, out.byteOffset, values.length);
    for (let i = 0; i < values.length; i++) view[i] = values[i]!;
    return out;
  }
  for (let i = 0; i < values.length; i++) out.writeDoubleLE(values[i]!, 8 * i);
  return out;
}

/** The values of {@link encodeValues} bytes (a copy; NaN where a position has no score). */
export function decodeValues(bytes: Uint8Array): Float64Array {
  if (bytes.length % 8 !== 0) throw new Error(`score values are ${bytes.length} bytes, not a multiple of 8`);
  const n = bytes.length / 8;
  const out = new Float64Array(n);
  if (LITTLE_ENDIAN_HOST) {
    new Uint8Array(out.buffer).set(bytes);
    return out;
  }
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length);
  for (let i = 0; i < n; i++) out[i] = buf.readDoubleLE(8 * i);
  return out;
}

class ByteWriter {
  private buf = Buffer.allocUnsafe(1024);
  length = 0;

  private reserve(n: number): void {
    if (this.length + n <= this.buf.length) return;
    const next = Buffer.allocUnsafe(Math.max(2 * this.buf.length, this.length + n));
    this.buf.copy(next, 0, 0, this.length);
    this.buf = next;
  }

  byte(b: number): void {
    this.reserve(1);
    this.buf[this.length++] = b;
  }

  /** Unsigned LEB128 of a non-negative integer below 2^53. */
  varint(v: number): void {
    this.reserve(8);
    while (v >= 128) {
      this.buf[this.length++] = (v % 128) | 128;
      v = Math.floor(v / 128);
    }
    this.buf[this.length++] = v;
  }

  float64(v: number): void {
    this.reserve(8);
    this.buf.writeDoubleLE(v, this.length);
    this.length += 8;
  }

  bytes(): Buffer {
    return this.buf.subarray(0, this.length);
  }
}

class ByteReader {
  at = 0;
  constructor(private readonly buf: Buffer) {}

  byte(): number {
    if (this.at >= this.buf.length) throw new Error('statistics end early');
    return this.buf[this.at++]!;
  }

  varint(): number {
    let v = 0;
    let scale = 1;
    for (;;) {
      const b = this.byte();
      v += (b & 127) * scale;
      if (b < 128) return v;
      scale *= 128;
      if (scale > 2 ** 56) throw new Error('statistics hold a varint longer than 8 bytes');
    }
  }

  float64(): number {
    if (this.at + 8 > this.buf.length) throw new Error('statistics end early');
    const v = this.buf.readDoubleLE(this.at);
    this.at += 8;
    return v;
  }
}

const zigzag = (d: number) => (d >= 0 ? 2 * d : -2 * d - 1);
const unzigzag = (z: number) => (z % 2 === 0 ? z / 2 : -(z + 1) / 2);
/** Bytes of the unsigned LEB128 varint of `v` (a non-negative integer below 2^53). */
function varintLength(v: number): number {
  if (v < 0x80) return 1;
  if (v < 0x4000) return 2;
  if (v < 0x200000) return 3;
  if (v < 0x10000000) return 4;
  let n = 4;
  for (v = Math.floor(v / 0x10000000); v >= 1; v = Math.floor(v / 128)) n++;
  return n;
}
const isStoredInteger = (v: number) => Number.isSafeInteger(v) && !Object.is(v, -0);

/** Statistics as {@link encodeStats} takes them: an array per instance, or one row-major array (`data[i * width + j]`). */
export type StatsRows = readonly (readonly number[])[] | FlatStats;

const isFlat = (rows: StatsRows): rows is FlatStats => !Array.isArray(rows);

/** `rows` as one row-major array (the worker's form as it is; arrays per row copied once), checking that every row has the same width. */
function flatOf(rows: StatsRows): FlatStats {
  if (isFlat(rows)) {
    if (rows.data.length !== rows.rows * rows.width) throw new Error(`statistics of ${rows.rows} rows of ${rows.width} values hold ${rows.data.length} values`);
    return rows;
  }
  const n = rows.length;
  const w = n > 0 ? rows[0]!.length : 0;
  const data = new Float64Array(n * w);
  for (let i = 0, at = 0; i < n; i++) {
    const row = rows[i]!;
    if (row.length !== w) throw new Error(`statistics row ${i} has ${row.length} values, row 0 has ${w}`);
    for (let j = 0; j < w; j++, at++) data[at] = row[j]!;
  }
  return { rows: n, width: w, data };
}

/**
 * Varint bytes of column `j` of row-major `data` (`w` values a row) predicted from column `p`
 * (p = j: none, the values themselves); Infinity when a difference does not fit.
 */
function predictedSize(data: Float64Array, w: number, j: number, p: number): number {
  let size = 0;
  for (let at = j, delta = p - j; at < data.length; at += w) {
    const d = p === j ? data[at]! : data[at]! - data[at + delta]!;
    if (d > MAX_DELTA || d < -MAX_DELTA) return Number.POSITIVE_INFINITY;
    size += varintLength(d >= 0 ? 2 * d : -2 * d - 1);
  }
  return size;
}

/**
 * What a candidate predictor costs on the rows `rowStep` apart: the bits of each zigzagged
 * difference (plus one), which, unlike varint bytes, still tells apart candidates whose
 * differences all fit in a byte (what deflate then makes of them); Infinity when a difference
 * does not fit. Stops at `limit`.
 */
function predictionBits(data: Float64Array, w: number, j: number, p: number, limit: number, rowStep: number): number {
  let bits = 0;
  const stride = w * rowStep;
  for (let at = j, delta = p - j; at < data.length && bits < limit; at += stride) {
    const d = p === j ? data[at]! : data[at]! - data[at + delta]!;
    if (d > MAX_DELTA || d < -MAX_DELTA) return Number.POSITIVE_INFINITY;
    const z = d >= 0 ? 2 * d : -2 * d - 1;
    bits += z < 2 ** 31 ? 33 - Math.clz32(z) : 1 + Math.ceil(Math.log2(z + 1));
  }
  return bits;
}

/** Writes the LEB128 varint of `v` at `at` of `out`; returns the offset after it. */
function putVarint(out: Buffer, at: number, v: number): number {
  while (v >= 128) {
    out[at++] = (v % 128) | 128;
    v = Math.floor(v / 128);
  }
  out[at++] = v;
  return at;
}

/** True when column `j` holds only values stored as integers; `beyond`: some is beyond ±2^52. */
function columnKind(data: Float64Array, w: number, j: number): { integral: boolean; beyond: boolean } {
  let beyond = false;
  for (let at = j; at < data.length; at += w) {
    const v = data[at]!;
    if (!isStoredInteger(v)) return { integral: false, beyond };
    if (v > MAX_DELTA || v < -MAX_DELTA) beyond = true;
  }
  return { integral: true, beyond };
}

/**
 * Bytes of `rows` (N rows of W numbers, any finite or non-finite doubles) in the layout above,
 * from an array per row or from one row-major {@link FlatStats} (the worker's form, read in
 * place): the same bytes for the same numbers.
 * Example: `decodeStats(encodeStats([[4, 4, 4, 3, 2, 1, 4, 3, 2, 1]]))` → the same row.
 */
export function encodeStats(rows: StatsRows): Buffer {
  const { rows: n, width: w, data } = flatOf(rows);
  const kinds = Array.from({ length: w }, (_, j) => columnKind(data, w, j));
  // Per column: the predictor (an earlier integer column, or itself for none) whose differences
  // take the fewest bits on a spread of rows; -1 for a float64 column.
  const predictor = new Array<number>(w);
  const rowStep = Math.max(1, Math.floor(n / PREDICTOR_SAMPLE_ROWS));
  /** The candidate (an earlier integer column, or j itself) of fewest bits over the rows `step` apart. */
  const search = (j: number, step: number): number => {
    let best = j;
    let bits = predictionBits(data, w, j, j, Number.POSITIVE_INFINITY, step);
    for (let p = 0; p < j; p++) {
      if (!kinds[p]!.integral) continue;
      const candidate = predictionBits(data, w, j, p, bits, step);
      if (candidate < bits) [best, bits] = [p, candidate];
    }
    return best;
  };
  let bodyLength = 0;
  for (let j = 0; j < w; j++) {
    let best = -1;
    let bestSize = 8 * n;
    if (kinds[j]!.integral) {
      best = search(j, rowStep);
      bestSize = predictedSize(data, w, j, best);
      // A difference beyond ±2^52 outside the spread: every row searched.
      if (bestSize === Number.POSITIVE_INFINITY) {
        best = search(j, 1);
        bestSize = predictedSize(data, w, j, best);
      }
      // Values beyond ±2^52 without a predictor that brings them within: float64 after all.
      if (best === j && kinds[j]!.beyond) [best, bestSize] = [-1, 8 * n];
    }
    predictor[j] = best;
    bodyLength += 1 + (best < 0 ? 0 : varintLength(best)) + bestSize;
  }
  const plain = Buffer.allocUnsafe(bodyLength);
  let out = 0;
  for (let j = 0; j < w; j++) {
    const best = predictor[j]!;
    if (best < 0) {
      plain[out++] = KIND_FLOAT64;
      for (let at = j; at < data.length; at += w, out += 8) plain.writeDoubleLE(data[at]!, out);
      continue;
    }
    plain[out++] = KIND_INTEGERS;
    out = putVarint(plain, out, best);
    if (best === j) for (let at = j; at < data.length; at += w) out = putVarint(plain, out, zigzag(data[at]!));
    else for (let at = j, delta = best - j; at < data.length; at += w) out = putVarint(plain, out, zigzag(data[at]! - data[at + delta]!));
  }
  if (out !== bodyLength) throw new Error(`statistics body is ${out} bytes, ${bodyLength} were counted`);
  const deflated = deflateRawSync(plain);
  const useDeflate = deflated.length < plain.length;
  const head = new ByteWriter();
  head.byte(STATS_VERSION);
  head.byte(useDeflate ? FLAG_DEFLATED : 0);
  head.varint(n);
  head.varint(w);
  return Buffer.concat([head.bytes(), useDeflate ? deflated : plain]);
}

/** The statistics of {@link encodeStats} bytes, column by column (columns[j][i] = row i, value j). */
export function decodeStatsColumns(bytes: Uint8Array): Float64Array[] {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length);
  const head = new ByteReader(buf);
  const version = head.byte();
  if (version !== STATS_VERSION) throw new Error(`statistics format ${version} is not known (expected ${STATS_VERSION})`);
  const flags = head.byte();
  const n = head.varint();
  const w = head.varint();
  const rest = buf.subarray(head.at);
  const body = new ByteReader(flags & FLAG_DEFLATED ? inflateRawSync(rest) : rest);
  const columns: Float64Array[] = [];
  for (let j = 0; j < w; j++) {
    const c = new Float64Array(n);
    const kind = body.byte();
    if (kind === KIND_FLOAT64) {
      for (let i = 0; i < n; i++) c[i] = body.float64();
    } else if (kind === KIND_INTEGERS) {
      const p = body.varint();
      if (p > j) throw new Error(`statistics column ${j} is predicted from a later column ${p}`);
      const q = p === j ? null : columns[p]!;
      for (let i = 0; i < n; i++) c[i] = unzigzag(body.varint()) + (q ? q[i]! : 0);
    } else throw new Error(`statistics column ${j} has an unknown kind ${kind}`);
    columns.push(c);
  }
  return columns;
}

/** Statistics of {@link encodeStats} bytes laid out row-major: `data[i * width + j]` = row i, value j. */
export interface FlatStats {
  rows: number;
  width: number;
  data: Float64Array;
}

/**
 * The statistics of {@link encodeStats} bytes in one row-major Float64Array (the form the ranking
 * library resamples in place): no array per instance, so 10⁷ instances cost 8 bytes per value.
 */
export function decodeStatsFlat(bytes: Uint8Array): FlatStats {
  const columns = decodeStatsColumns(bytes);
  const width = columns.length;
  const rows = columns[0]?.length ?? statsRowCount(bytes);
  const data = new Float64Array(rows * width);
  for (let j = 0; j < width; j++) {
    const c = columns[j]!;
    for (let i = 0, at = j; i < rows; i++, at += width) data[at] = c[i]!;
  }
  return { rows, width, data };
}

/** The rows of {@link encodeStats} bytes, as `metric.stats` returned them. */
export function decodeStats(bytes: Uint8Array): number[][] {
  const columns = decodeStatsColumns(bytes);
  const n = columns[0]?.length ?? statsRowCount(bytes);
  const rows = new Array<number[]>(n);
  for (let i = 0; i < n; i++) {
    const row = new Array<number>(columns.length);
    for (let j = 0; j < columns.length; j++) row[j] = columns[j]![i]!;
    rows[i] = row;
  }
  return rows;
}

/** Rows and width of {@link encodeStats} bytes from their head (the first 22 bytes suffice), without the body. */
export function statsShape(head: Uint8Array): { rows: number; width: number } {
  const reader = new ByteReader(Buffer.from(head.buffer, head.byteOffset, head.length));
  const version = reader.byte();
  if (version !== STATS_VERSION) throw new Error(`statistics format ${version} is not known (expected ${STATS_VERSION})`);
  reader.byte();
  const rows = reader.varint();
  return { rows, width: reader.varint() };
}

/** N of {@link encodeStats} bytes without decoding the body. */
export function statsRowCount(bytes: Uint8Array): number {
  const head = new ByteReader(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length));
  head.byte();
  head.byte();
  return head.varint();
}
