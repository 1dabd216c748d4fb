import { deflateRawSync } from 'node:zlib';
import { decodeStats, decodeStatsColumns, decodeValues, encodeStats, encodeValues, statsRowCount } from './score-column';
import { defined } from '../../../test/support/defined';
import { mulberry32 } from '@podium/ranking'; // a seeded PRNG, so every run draws the same cases

const EDGE = [0, -0, 1, -1, 127, 128, -128, 16383, 16384, 2 ** 31, -(2 ** 31), 2 ** 52, -(2 ** 52), 2 ** 53 - 1, -(2 ** 53 - 1), 2 ** 53, 2 ** 60,
  0.5, -2.75, 1e-300, 5e-324, -5e-324, Number.MAX_VALUE, -Number.MAX_VALUE, Number.EPSILON, Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY];

/** Same numbers, bit for bit: -0 is not 0, NaN equals NaN. */
function sameRows(a: readonly (readonly number[])[], b: readonly (readonly number[])[]): boolean {
  return a.length === b.length && a.every((row, i) => {
    const other = defined(b[i], `row ${i}`);
    return row.length === other.length && row.every((v, j) => Object.is(v, other[j]));
  });
}

describe('score values (float64 little-endian, position order)', () => {
  it('round-trips every double bit for bit, 8 bytes each', () => {
    const values = [...EDGE, Math.PI, -1 / 3];
    const bytes = encodeValues(values);
    expect(bytes).toHaveLength(8 * values.length);
    expect(sameRows([[...decodeValues(bytes)]], [values])).toBe(true);
  });

  it('writes IEEE 754 little-endian: 1.5 is 00 00 00 00 00 00 f8 3f, NaN 00 … f8 7f as PostgreSQL float8send reversed', () => {
    expect(encodeValues([1.5]).toString('hex')).toBe('000000000000f83f');
    expect(encodeValues([-2.25]).toString('hex')).toBe('00000000000002c0');
    expect(Number.isNaN(decodeValues(Buffer.from('000000000000f87f', 'hex'))[0])).toBe(true);
  });

  it('decodes from any byte offset (a slice of a larger buffer)', () => {
    const inner = encodeValues([3, 4]);
    const outer = Buffer.concat([Buffer.from([9, 9, 9]), inner]);
    expect([...decodeValues(outer.subarray(3))]).toEqual([3, 4]);
  });

  it('refuses a length that is not a multiple of 8', () => {
    expect(() => decodeValues(Buffer.alloc(12))).toThrow(/not a multiple of 8/);
  });
});

describe('sufficient statistics encoding', () => {
  it('round-trips random integer and float columns of every width, with the edge values mixed in', () => {
    const gen = mulberry32(20261124);
    const rand = () => gen.next();
    for (let trial = 0; trial < 300; trial++) {
      const n = Math.floor(rand() * 60);
      const w = Math.floor(rand() * 26);
      const style = Array.from({ length: w }, () => Math.floor(rand() * 5));
      const rows = Array.from({ length: n }, (_, i) =>
        style.map((s, j) => {
          if (rand() < 0.03) return defined(EDGE[Math.floor(rand() * EDGE.length)], 'an edge value');
          if (s === 0) return Math.floor(rand() * 50); // small counts
          if (s === 1) return Math.floor(rand() * 2 ** 40) - 2 ** 39; // large signed integers
          if (s === 2) return (rand() - 0.5) * 10 ** Math.floor(rand() * 20); // doubles
          if (s === 3) return Math.max(0, 30 - j + (i % 3)); // follows the previous column
          return Math.floor(rand() * 4) / 2; // halves (TER's averaged reference length)
        }),
      );
      const bytes = encodeStats(rows);
      expect(statsRowCount(bytes)).toBe(n);
      const back = decodeStats(bytes);
      if (!sameRows(back, rows)) throw new Error(`trial ${trial} (n=${n}, w=${w}) did not round-trip`);
      expect(decodeStatsColumns(bytes)).toHaveLength(n > 0 ? w : 0);
      // The worker's row-major form gives the same bytes.
      const flat = { rows: n, width: n > 0 ? w : 0, data: Float64Array.from(rows.flat()) };
      if (!encodeStats(flat).equals(bytes)) throw new Error(`trial ${trial} (n=${n}, w=${w}): row-major statistics encode differently`);
    }
  });

  it('takes one row-major array (data[i * width + j]) and refuses one whose length is not rows × width', () => {
    const bytes = encodeStats({ rows: 2, width: 3, data: Float64Array.from([1, 2, 3, 4, 5, 6.5]) });
    expect(decodeStats(bytes)).toEqual([[1, 2, 3], [4, 5, 6.5]]);
    expect(bytes.equals(encodeStats([[1, 2, 3], [4, 5, 6.5]]))).toBe(true);
    expect(() => encodeStats({ rows: 2, width: 3, data: new Float64Array(5) })).toThrow(/2 rows of 3 values hold 5 values/);
  });

  it('round-trips empty input: no rows, and rows of no statistics', () => {
    expect(decodeStats(encodeStats([]))).toEqual([]);
    expect(decodeStats(encodeStats([[], [], []]))).toEqual([[], [], []]);
    expect(statsRowCount(encodeStats([[], [], []]))).toBe(3);
  });

  it('keeps −0, NaN and ±Infinity in a float column and safe integers beyond 2^52 exact', () => {
    const rows = [[-0, 2 ** 53 - 1], [Number.NaN, -(2 ** 53 - 1)], [Number.POSITIVE_INFINITY, 0], [Number.NEGATIVE_INFINITY, 2 ** 52 + 1]];
    expect(sameRows(decodeStats(encodeStats(rows)), rows)).toBe(true);
  });

  it('stores small counts in about a byte each or less, a BLEU row (sacreBLEU layout) far below its 80 bytes as float64', () => {
    // [hyp len, ref len, matches 1–4, totals 1–4] of a 20-token hypothesis, repeated with small changes.
    const rows = Array.from({ length: 1000 }, (_, i) => {
      const len = 15 + (i % 11);
      return [len, len + (i % 3), len - 2, len - 5, Math.max(0, len - 9), Math.max(0, len - 12), len, len - 1, len - 2, len - 3];
    });
    const bytes = encodeStats(rows);
    expect(sameRows(decodeStats(bytes), rows)).toBe(true);
    expect(bytes.length).toBeLessThan(10 * rows.length);
  });

  it('chooses predictors on a spread of a large column\'s rows: the same bytes for the same numbers, and every row searched when a difference outside the spread does not fit', () => {
    // 10,000 rows: the search compares candidates on every 4th row. Column 1 is column 0 plus one
    // (its best predictor), except at row 9,999, outside the spread, where the difference is 2^53.
    const rows = Array.from({ length: 10_000 }, (_, i) => [1000 + i, 1001 + i]);
    const fits = encodeStats(rows);
    expect(sameRows(decodeStats(fits), rows)).toBe(true);
    expect(Buffer.compare(encodeStats(rows.map((r) => [...r])), fits)).toBe(0);
    const last = defined(rows[9_999], 'row 9,999');
    last[0] = -(2 ** 52);
    last[1] = 2 ** 52;
    const wide = encodeStats(rows);
    expect(sameRows(decodeStats(wide), rows)).toBe(true);
    // Column 1 stored as itself (integers, no predictor): larger than when column 0 predicted it.
    expect(wide.length).toBeGreaterThan(fits.length);
  });

  it('rejects ragged rows and unknown formats', () => {
    expect(() => encodeStats([[1, 2], [3]])).toThrow(/row 1 has 1 values, row 0 has 2/);
    const bytes = encodeStats([[1]]);
    expect(() => decodeStats(Buffer.concat([Buffer.from([9]), bytes.subarray(1)]))).toThrow(/format 9 is not known/);
    expect(() => decodeStats(bytes.subarray(0, bytes.length - 1))).toThrow(/end early/);
  });

  it('reads a hand-written body: version 1, no deflate, 2 rows, 2 columns (integers, then predicted from column 0)', () => {
    // Column 0: kind 0, p = 0 (itself), zigzag(5) = 10, zigzag(−1) = 1. Column 1: kind 0,
    // p = 0, differences zigzag(−1) = 1 and zigzag(0) = 0: values 4 and −1.
    const bytes = Buffer.from([1, 0, 2, 2, 0, 0, 10, 1, 0, 0, 1, 0]);
    expect(decodeStats(bytes)).toEqual([[5, 4], [-1, -1]]);
    // The same body deflated (flag bit 0).
    const deflated = Buffer.concat([Buffer.from([1, 1, 2, 2]), deflateRawSync(bytes.subarray(4))]);
    expect(decodeStats(deflated)).toEqual([[5, 4], [-1, -1]]);
  });
});
