/* eslint-disable @typescript-eslint/no-non-null-assertion -- hot kernel: indices are bounded by the loops over these arrays; a check per access would cost throughput (npm run bench:metrics) */
/**
 * TER exactly as sacreBLEU 2.x computes it (sacrebleu/metrics/ter.py, lib_ter.py, after
 * Snover et al., 2006 and tercom): edit distance with block shifts, found greedily with
 * tercom's heuristics (max shift size 10, max shift distance 50, beam 25 around the
 * length-scaled diagonal, at most 1000 shift candidates per segment).
 *
 * Statistics per segment: `[edits, refLength]` — the fewest edits over the references and
 * the average reference length. Score: `100 · Σ edits / Σ refLength`.
 */
import { MetricInputError } from '../../errors';
import { PairTable } from '../../pair-table';
import { pyRstrip, pySplit } from '../../text';
import { beginTokenIds, tokenId, whitespaceTokenIds } from '../../token-table';
import { PODIUM_METRICS_VERSION } from '../../version';

/** Fully resolved TER options (sacreBLEU's `TER(...)` arguments). */
export interface TerConfig {
  normalized: boolean;
  noPunct: boolean;
  asianSupport: boolean;
  caseSensitive: boolean;
}

/**
 * Fills sacreBLEU's TER defaults (case-insensitive, no normalisation) and validates; throws
 * {@link MetricInputError}. Example: `resolveTerConfig({ lowercase: false }).caseSensitive` → true.
 */
export function resolveTerConfig(o: {
  tokenize?: string;
  lowercase?: boolean;
  normalized?: boolean;
  noPunct?: boolean;
  asianSupport?: boolean;
  caseSensitive?: boolean;
}): TerConfig {
  if (o.tokenize !== undefined && o.tokenize !== 'tercom') {
    throw new MetricInputError(`TER uses its own tokenizer 'tercom' (got '${o.tokenize}'); use normalized/noPunct/asianSupport instead`);
  }
  if (o.lowercase !== undefined && o.caseSensitive !== undefined && o.lowercase === o.caseSensitive) {
    throw new MetricInputError('TER options lowercase and caseSensitive contradict each other');
  }
  return {
    normalized: o.normalized ?? false,
    noPunct: o.noPunct ?? false,
    asianSupport: o.asianSupport ?? false,
    caseSensitive: o.caseSensitive ?? (o.lowercase === undefined ? false : !o.lowercase),
  };
}

/** sacreBLEU's TER signature body, e.g. `nrefs:1|case:lc|tok:tercom|norm:no|punct:yes|asian:no|version:podium-0.1.0`. */
export function terSignature(c: TerConfig, nrefs: number): string {
  const yn = (b: boolean) => (b ? 'yes' : 'no');
  return [
    `nrefs:${nrefs}`,
    `case:${c.caseSensitive ? 'mixed' : 'lc'}`,
    'tok:tercom',
    `norm:${yn(c.normalized)}`,
    `punct:${yn(!c.noPunct)}`,
    `asian:${yn(c.asianSupport)}`,
    `version:${PODIUM_METRICS_VERSION}`,
  ].join('|');
}

const RE_TER_PUNCT = /([\x7b-\x7e\x5b-\x60\x20-\x26\x28-\x2b\x3a-\x40\x2f])/g;
const ASIAN_PUNCT = /([\u3001\u3002\u3008-\u3011\u3014-\u301f\uff61-\uff65\u30fb])/g;
const FULL_WIDTH_PUNCT = /([\uff0e\uff0c\uff1f\uff1a\uff1b\uff01\uff02\uff08\uff09])/g;

function normalizeGeneralAndWestern(sent: string): string {
  sent = sent.replace(/\n-/g, '').replace(/\n/g, ' ');
  sent = sent.replace(/&quot;/g, '"').replace(/&amp;/g, '&').replace(/&lt;/g, '<').replace(/&gt;/g, '>');
  sent = ` ${sent} `;
  sent = sent.replace(RE_TER_PUNCT, ' $1 ');
  sent = sent.replace(/'s /g, " 's ").replace(/'s$/, " 's");
  sent = sent.replace(/([^0-9])([.,])/g, '$1 $2 ');
  sent = sent.replace(/([.,])([^0-9])/g, ' $1 $2');
  sent = sent.replace(/([0-9])(-)/g, '$1 $2 ');
  return sent;
}

function normalizeAsian(sent: string): string {
  sent = sent.replace(/([\u4e00-\u9fff\u3400-\u4dbf])/g, ' $1 ');
  sent = sent.replace(/([\u31c0-\u31ef\u2e80-\u2eff])/g, ' $1 ');
  sent = sent.replace(/([\u3300-\u33ff\uf900-\ufaff\ufe30-\ufe4f])/g, ' $1 ');
  sent = sent.replace(/([\u3200-\u3f22])/g, ' $1 ');
  // sacreBLEU's kana rules: the inner '^' only ever matches at the start of the string.
  sent = sent.replace(/(^|^[\u3040-\u309f])([\u3040-\u309f]+)(?=$|^[\u3040-\u309f])/g, '$1 $2 ');
  sent = sent.replace(/(^|^[\u30a0-\u30ff])([\u30a0-\u30ff]+)(?=$|^[\u30a0-\u30ff])/g, '$1 $2 ');
  sent = sent.replace(/(^|^[\u31f0-\u31ff])([\u31f0-\u31ff]+)(?=$|^[\u31f0-\u31ff])/g, '$1 $2 ');
  sent = sent.replace(ASIAN_PUNCT, ' $1 ');
  sent = sent.replace(FULL_WIDTH_PUNCT, ' $1 ');
  return sent;
}

/**
 * sacreBLEU's `TercomTokenizer` followed by `split()`: lowercases unless case-sensitive,
 * optionally normalises (tercom's Western and Asian rules) and removes punctuation.
 * Example: `terTokens(cfg, 'Hello, World!')` → `['hello,', 'world!']` with default options.
 */
export function terTokens(c: TerConfig, line: string): string[] {
  return pySplit(tercomText(c, line));
}

/** The line `TercomTokenizer` returns, before `split()` ('' for a blank line). */
function tercomText(c: TerConfig, line: string): string {
  let sent = pyRstrip(line);
  if (!sent) return '';
  if (!c.caseSensitive) sent = sent.toLowerCase();
  if (c.normalized) {
    sent = normalizeGeneralAndWestern(sent);
    if (c.asianSupport) sent = normalizeAsian(sent);
  }
  if (c.noPunct) {
    sent = sent.replace(/[.,?:;!"()]/g, '');
    if (c.asianSupport) sent = sent.replace(ASIAN_PUNCT, '').replace(FULL_WIDTH_PUNCT, '');
  }
  return sent;
}

/** Word ids of {@link terTokens}, read in place from the tokenized line (see token-table.ts). */
function tercomIds(c: TerConfig, line: string): Int32Array {
  const text = tercomText(c, line);
  const ids = new Int32Array(text.length);
  return ids.subarray(0, whitespaceTokenIds(text, ids));
}

// Math's functions held in a module constant: bestShift and the beam loop call them per cell, and
// a global lookup inside a vm context (Jest runs every spec in one) is a slow interceptor call
// each time. Plain Node is unaffected.
const { abs, floor, max, min } = Math;

const MAX_SHIFT_SIZE = 10;
const MAX_SHIFT_DIST = 50;
const BEAM_WIDTH = 25;
const MAX_CACHE_SIZE = 10000;
const MAX_SHIFT_CANDIDATES = 1000;
/** Matrix cells (5 bytes each) the row pool keeps between segments. */
const POOL_KEEP_CELLS = 1 << 22;
// sacreBLEU uses int(1e16); any value above every reachable distance behaves the same, because a
// cell is only overwritten by a strictly smaller cost and INF + 1 is never smaller than INF.
const INF = 0x3fffffff;
const NO_ALIGN = -2;

const OP_NOP = 0;
const OP_SUB = 1;
const OP_INS = 2;
const OP_DEL = 3;
const OP_UNDEF = 4;

/**
 * sacreBLEU's `BeamEditDistance`: word-level Levenshtein distance to a fixed reference,
 * restricted to a beam around the diagonal, with a prefix cache of matrix rows and the
 * trace of edit operations (ties prefer match/substitution, then deletion, then insertion).
 *
 * One instance is reused for every segment ({@link BeamEditDistance.reset}), so the shift
 * search allocates nothing per candidate: matrix rows live in one pool of typed arrays (row r
 * at offset r·(nRef+1)), the prefix cache is a trie whose edges (node, word) → child sit in a
 * {@link PairTable}, and the trace is written to a reused buffer. Cached rows stay in the pool
 * until the next segment; rows computed once the cache is full are handed back after the call.
 */
class BeamEditDistance {
  private ref: Int32Array = new Int32Array(0);
  private nRef = 0;
  private width = 1;
  private costs = new Int32Array(0);
  private ops = new Uint8Array(0);
  /** Pool rows in use; row 0 is the first matrix row (j insertions). */
  private rowsUsed = 1;
  /** Trie of cached hypothesis prefixes: node 0 is the empty prefix; nodeRow[node] is its matrix row. */
  private readonly edges = new PairTable();
  private nodeRow = new Int32Array(1024);
  private cacheSize = 0;
  /** Pool row of each hypothesis prefix length 0..nH during a call. */
  private rowOf = new Int32Array(64);
  /** Edit operations of the last traced call, hypothesis → reference, in `trace[0..traceLength)`. */
  trace = new Uint8Array(128);
  traceLength = 0;

  /** Starts a segment with reference `ref` (word ids); forgets the cache. */
  reset(ref: Int32Array): void {
    this.ref = ref;
    this.nRef = ref.length;
    this.width = this.nRef + 1;
    this.rowsUsed = 0; // nothing to keep from the previous segment
    // A very long earlier segment may have grown the pool; do not keep more than 16 MiB of it.
    if (this.costs.length > POOL_KEEP_CELLS) {
      this.costs = new Int32Array(0);
      this.ops = new Uint8Array(0);
    }
    this.ensureRows(1);
    for (let j = 0; j <= this.nRef; j++) {
      this.costs[j] = j;
      this.ops[j] = OP_INS;
    }
    this.rowsUsed = 1;
    this.edges.reset();
    this.cacheSize = 0;
  }

  private ensureRows(rows: number): void {
    const need = rows * this.width;
    if (this.costs.length >= need) return;
    const costs = new Int32Array(Math.max(need, 2 * this.costs.length));
    const ops = new Uint8Array(costs.length);
    costs.set(this.costs.subarray(0, this.rowsUsed * this.width));
    ops.set(this.ops.subarray(0, this.rowsUsed * this.width));
    this.costs = costs;
    this.ops = ops;
  }

  /** Edit distance of hyp[0..nH) to the reference; with `wantTrace`, fills {@link trace}. */
  run(hyp: Int32Array, nH: number, wantTrace: boolean): number {
    const nRef = this.nRef;
    const width = this.width;
    if (this.rowOf.length < nH + 1) this.rowOf = new Int32Array(2 * (nH + 1));
    const rowOf = this.rowOf;
    const edges = this.edges;
    rowOf[0] = 0;
    let node = 0;
    let startH = 0;
    while (startH < nH) {
      const child = edges.get(node, hyp[startH]!);
      if (child < 0) break;
      node = child;
      startH++;
      rowOf[startH] = this.nodeRow[child]!;
    }

    const rowsBefore = this.rowsUsed;
    this.ensureRows(rowsBefore + nH - startH);
    const costs = this.costs;
    const ops = this.ops;
    const ref = this.ref;
    const lengthRatio = nH ? nRef / nH : 1;
    const beamWidth = BEAM_WIDTH < lengthRatio / 2 ? Math.ceil(lengthRatio / 2 + BEAM_WIDTH) : BEAM_WIDTH;
    for (let i = startH + 1; i <= nH; i++) {
      const row = this.rowsUsed++;
      rowOf[i] = row;
      const o = row * width;
      const po = rowOf[i - 1]! * width;
      const pseudoDiag = floor(i * lengthRatio);
      const minJ = max(0, pseudoDiag - beamWidth);
      let maxJ = min(nRef + 1, pseudoDiag + beamWidth);
      if (i === nH) maxJ = nRef + 1;
      // Cells outside the beam stay unreachable (sacreBLEU starts each row filled with them).
      costs.fill(INF, o, o + minJ);
      ops.fill(OP_UNDEF, o, o + minJ);
      costs.fill(INF, o + maxJ, o + width);
      ops.fill(OP_UNDEF, o + maxJ, o + width);
      const w = hyp[i - 1];
      let j = minJ;
      if (j === 0 && j < maxJ) {
        costs[o] = costs[po]! + 1;
        ops[o] = OP_DEL;
        j = 1;
      }
      for (; j < maxJ; j++) {
        // The cell starts unreachable; match/substitution, deletion, insertion in that order
        // replace it only when strictly cheaper (sacreBLEU's tie-breaking).
        let best = INF;
        let bestOp = OP_UNDEF;
        const sub = w === ref[j - 1] ? 0 : 1;
        const c1 = costs[po + j - 1]! + sub;
        if (best > c1) {
          best = c1;
          bestOp = sub === 0 ? OP_NOP : OP_SUB;
        }
        const c2 = costs[po + j]! + 1;
        if (best > c2) {
          best = c2;
          bestOp = OP_DEL;
        }
        const c3 = costs[o + j - 1]! + 1;
        if (best > c3) {
          best = c3;
          bestOp = OP_INS;
        }
        costs[o + j] = best;
        ops[o + j] = bestOp;
      }
    }
    const distance = costs[rowOf[nH]! * width + nRef]!;
    if (wantTrace) this.traceBack(nH);

    // sacreBLEU caches every new row while the cache holds fewer than MAX_CACHE_SIZE rows
    // (checked once per call); otherwise the rows of this call are scratch.
    if (this.cacheSize < MAX_CACHE_SIZE) {
      for (let i = startH; i < nH; i++) {
        node = edges.add(node, hyp[i]!);
        if (this.nodeRow.length <= node) {
          const grown = new Int32Array(2 * node);
          grown.set(this.nodeRow);
          this.nodeRow = grown;
        }
        this.nodeRow[node] = rowOf[i + 1]!;
        this.cacheSize++;
      }
    } else {
      this.rowsUsed = rowsBefore;
    }
    return distance;
  }

  private traceBack(nH: number): void {
    const maxLen = nH + this.nRef;
    if (this.trace.length < maxLen) this.trace = new Uint8Array(2 * maxLen);
    const trace = this.trace;
    const width = this.width;
    let len = 0;
    let i = nH;
    let j = this.nRef;
    while (i > 0 || j > 0) {
      const o = this.ops[this.rowOf[i]! * width + j]!;
      trace[len++] = o;
      if (o === OP_SUB || o === OP_NOP) {
        i--;
        j--;
      } else if (o === OP_INS) j--;
      else if (o === OP_DEL) i--;
      else throw new Error('TER: undefined edit operation in trace');
    }
    trace.subarray(0, len).reverse();
    this.traceLength = len;
  }
}

/** sacreBLEU's `_perform_shift` into `out`: moves `words[start:start+length]` to before position `target`. */
function performShift(words: Int32Array, n: number, start: number, length: number, target: number, out: Int32Array): void {
  let k = 0;
  const copy = (from: number, to: number) => {
    for (let i = from; i < to; i++) out[k++] = words[i]!;
  };
  if (target < start) {
    copy(0, target);
    copy(start, start + length);
    copy(target, start);
    copy(start + length, n);
  } else if (target > start + length) {
    copy(0, start);
    copy(start + length, target);
    copy(start, start + length);
    copy(target, n);
  } else {
    copy(0, start);
    copy(start + length, Math.min(n, length + target));
    copy(start, start + length);
    copy(length + target, n);
  }
}

// Scratch reused by every shift round: the shifted candidate, the best candidate so far, and
// the alignment of the trace (see bestShift).
let candidate = new Int32Array(64);
let bestWords = new Int32Array(64);
let align = new Int32Array(64);
let hypErr = new Int32Array(64);
let refErr = new Int32Array(64);

/**
 * One round of sacreBLEU's `_shift`: the gain of the best shift (0 when none helps) and the
 * updated candidate count; the shifted words are left in `bestWords[0..wordsH.length)`.
 */
function bestShift(wordsH: Int32Array, wordsR: Int32Array, ed: BeamEditDistance, checked: number): { delta: number; checked: number } {
  const nH = wordsH.length;
  const nR = wordsR.length;
  const preScore = ed.run(wordsH, nH, true);
  if (candidate.length < nH) {
    candidate = new Int32Array(2 * nH);
    bestWords = new Int32Array(2 * nH);
  }
  if (align.length < nR + 1 || hypErr.length < nH + 1) {
    align = new Int32Array(2 * (nR + 1));
    refErr = new Int32Array(2 * (nR + 1));
    hypErr = new Int32Array(2 * (nH + 1));
  }
  // Flip the trace (insertions <-> deletions) and align reference positions to hypothesis positions.
  // align[r] = hypothesis position aligned to reference position r; -1 is a valid value
  // (before the first hypothesis word), so "unset" is NO_ALIGN. hypErr/refErr are prefix sums.
  align.fill(NO_ALIGN, 0, nR);
  hypErr[0] = 0;
  refErr[0] = 0;
  let posH = -1;
  let posR = -1;
  const trace = ed.trace;
  for (let t = 0; t < ed.traceLength; t++) {
    const o = trace[t];
    if (o === OP_NOP || o === OP_SUB) {
      posH++;
      posR++;
      align[posR] = posH;
      const e = o === OP_SUB ? 1 : 0;
      hypErr[posH + 1] = hypErr[posH]! + e;
      refErr[posR + 1] = refErr[posR]! + e;
    } else if (o === OP_DEL) {
      // flipped: an insertion when rewriting the reference into the hypothesis
      posH++;
      hypErr[posH + 1] = hypErr[posH]! + 1;
    } else {
      // OP_INS flipped into a deletion
      posR++;
      align[posR] = posH;
      refErr[posR + 1] = refErr[posR]! + 1;
    }
  }

  let found = false;
  let bestScore = 0;
  let bestLength = 0;
  let bestNegStart = 0;
  let bestNegIdx = 0;
  outer: for (let startH = 0; startH < nH; startH++) {
    for (let startR = 0; startR < nR; startR++) {
      if (abs(startR - startH) > MAX_SHIFT_DIST) continue;
      let length = 0;
      while (wordsH[startH + length] === wordsR[startR + length] && length < MAX_SHIFT_SIZE) {
        length++;
        // candidate (startH, startR, length)
        const consumed = nH === startH + length || nR === startR + length;
        if (
          hypErr[startH + length]! - hypErr[startH]! !== 0 &&
          refErr[startR + length]! - refErr[startR]! !== 0 &&
          !(startH <= align[startR]! && align[startR]! < startH + length)
        ) {
          let prevIdx = -1;
          for (let offset = -1; offset < length; offset++) {
            let idx: number;
            if (startR + offset === -1) idx = 0;
            else if (startR + offset < nR && align[startR + offset] !== NO_ALIGN) idx = align[startR + offset]! + 1;
            else break;
            if (idx === prevIdx) continue;
            prevIdx = idx;
            performShift(wordsH, nH, startH, length, idx, candidate);
            const score = preScore - ed.run(candidate, nH, false);
            checked++;
            if (
              !found ||
              score > bestScore ||
              (score === bestScore &&
                (length > bestLength ||
                  (length === bestLength && (-startH > bestNegStart || (-startH === bestNegStart && -idx > bestNegIdx)))))
            ) {
              found = true;
              bestScore = score;
              bestLength = length;
              bestNegStart = -startH;
              bestNegIdx = -idx;
              // Keep this candidate: swap buffers instead of copying.
              const t = bestWords;
              bestWords = candidate;
              candidate = t;
            }
          }
          if (checked >= MAX_SHIFT_CANDIDATES) break outer;
        }
        if (consumed) break;
      }
    }
  }
  return { delta: found ? bestScore : 0, checked };
}

/** The edit-distance engine, reused for every segment (scores are computed one at a time). */
const beamEditDistance = new BeamEditDistance();

/**
 * sacreBLEU's `translation_edit_rate` on word-id arrays: `[edits, refLength]`, edits being
 * the number of shifts plus the edit distance after shifting. `wordsH` is shifted in place.
 */
function translationEditRate(wordsH: Int32Array, wordsR: Int32Array): [number, number] {
  if (wordsR.length === 0) return [wordsH.length, 0];
  const ed = beamEditDistance;
  ed.reset(wordsR);
  let shifts = 0;
  let checked = 0;
  for (;;) {
    const r = bestShift(wordsH, wordsR, ed, checked);
    checked = r.checked;
    if (checked >= MAX_SHIFT_CANDIDATES) break;
    if (r.delta <= 0) break;
    shifts++;
    wordsH.set(bestWords.subarray(0, wordsH.length));
  }
  return [shifts + ed.run(wordsH, wordsH.length, false), wordsR.length];
}

/** Ids (token-table.ts) of already split words; call {@link beginTokenIds} first. */
function wordIds(words: readonly string[]): Int32Array {
  const ids = new Int32Array(words.length);
  for (let i = 0; i < words.length; i++) ids[i] = tokenId(words[i]!, 0, words[i]!.length);
  return ids;
}

/**
 * Number of edits (shifts + insertions + deletions + substitutions) turning `hyp` into
 * `ref`, both already tokenized, and the reference length, as sacreBLEU's
 * `translation_edit_rate`. Example: `terEdits(['b','a'], ['a','b'])` → `[1, 2]` (one shift).
 */
export function terEdits(hyp: readonly string[], ref: readonly string[]): [number, number] {
  beginTokenIds();
  return translationEditRate(wordIds(hyp), wordIds(ref));
}

/**
 * TER sufficient statistics of one segment: `[fewest edits over references, average reference length]`.
 * Example: `terStats(cfg, 'a b c', ['a b d'])` → `[1, 3]`.
 */
export function terStats(c: TerConfig, hyp: string, refs: readonly string[]): number[] {
  beginTokenIds();
  const hypIds = tercomIds(c, hyp);
  let refLengths = 0;
  let bestEdits = 1e16;
  for (const ref of refs) {
    // translationEditRate shifts the hypothesis in place: each reference gets a copy.
    const [edits, refLen] = translationEditRate(hypIds.slice(), tercomIds(c, ref));
    refLengths += refLen;
    if (edits < bestEdits) bestEdits = edits;
  }
  return [bestEdits, refLengths / refs.length];
}

/**
 * sacreBLEU's `TER._compute_score_from_stats`: `100 · edits / refLength`; 100 when the
 * references are empty and the hypothesis is not, 0 when both are empty.
 */
export function terFromStats(stats: readonly number[]): number {
  const [edits, refLen] = stats;
  if (edits === undefined || refLen === undefined) throw new RangeError(`TER statistics are [edits, refLength]; got ${stats.length} values`);
  let s: number;
  if (refLen > 0) s = edits / refLen;
  else if (edits > 0) s = 1.0;
  else s = 0.0;
  return 100 * s;
}
