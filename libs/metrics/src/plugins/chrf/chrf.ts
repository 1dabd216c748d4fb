/* eslint-disable @typescript-eslint/no-non-null-assertion -- hot kernel: indices are bounded by the loops over these arrays; a check per access would cost throughput (npm run bench:metrics) */
/**
 * chrF and chrF++ exactly as sacreBLEU 2.x computes them (sacrebleu/metrics/chrf.py;
 * Popović, 2015 and 2017).
 *
 * Statistics per segment, for each character order 1..nc then word order 1..nw:
 * `[hypCount, refCount, matches]` (hypCount is 0 when the reference has no n-gram of that
 * order). Score: average precision P and recall R over the orders where both sides have
 * n-grams (sacreBLEU's effective order), then `100·(1+β²)·P·R / (β²·P + R)`.
 * With several references, a segment keeps the statistics of the reference with the best
 * sentence-level chrF (the first one on ties).
 */
import { MetricInputError } from '../../errors';
import { clippedMatches } from '../../ngram-table';
import { codePoints, isPyWhitespace, pySplit } from '../../text';
import { beginTokenIds, tokenId } from '../../token-table';
import { PODIUM_METRICS_VERSION } from '../../version';

/** Fully resolved chrF options. */
export interface ChrfConfig {
  /** Character n-gram order (sacreBLEU `nc`), default 6. */
  charOrder: number;
  /** Word n-gram order (sacreBLEU `nw`): 0 for chrF, 2 for chrF++. */
  wordOrder: number;
  /** Recall weight β, default 2. */
  beta: number;
  lowercase: boolean;
  /** Keep whitespace inside character n-grams (sacreBLEU `space:yes`), default false. */
  whitespace: boolean;
  /** chrF++.py-style eps smoothing instead of effective order (sacreBLEU `eff:no`), default false. */
  epsSmoothing: boolean;
}

/** Fills defaults (chrF: nw 0; chrF++: nw 2) and validates; throws {@link MetricInputError}. */
export function resolveChrfConfig(o: Partial<ChrfConfig>, plusPlus: boolean): ChrfConfig {
  const c: ChrfConfig = {
    charOrder: o.charOrder ?? 6,
    wordOrder: o.wordOrder ?? (plusPlus ? 2 : 0),
    beta: o.beta ?? 2,
    lowercase: o.lowercase ?? false,
    whitespace: o.whitespace ?? false,
    epsSmoothing: o.epsSmoothing ?? false,
  };
  if (!Number.isInteger(c.charOrder) || c.charOrder < 0 || c.charOrder > 10) {
    throw new MetricInputError(`chrF char order must be an integer in 0..10, got ${c.charOrder}`);
  }
  if (!Number.isInteger(c.wordOrder) || c.wordOrder < 0 || c.wordOrder > 4) {
    throw new MetricInputError(`chrF word order must be an integer in 0..4, got ${c.wordOrder}`);
  }
  if (c.charOrder + c.wordOrder === 0) throw new MetricInputError('chrF needs a positive char or word order');
  if (!(Number.isFinite(c.beta) && c.beta >= 1)) throw new MetricInputError(`chrF beta must be a number >= 1, got ${c.beta}`);
  return c;
}

/** sacreBLEU's chrF signature body, e.g. `nrefs:1|case:mixed|eff:yes|nc:6|nw:0|space:no|version:podium-0.1.0`. */
export function chrfSignature(c: ChrfConfig, nrefs: number): string {
  return [
    `nrefs:${nrefs}`,
    `case:${c.lowercase ? 'lc' : 'mixed'}`,
    `eff:${c.epsSmoothing ? 'no' : 'yes'}`,
    `nc:${c.charOrder}`,
    `nw:${c.wordOrder}`,
    `space:${c.whitespace ? 'yes' : 'no'}`,
    `version:${PODIUM_METRICS_VERSION}`,
  ].join('|');
}

/** ASCII punctuation, Python's `string.punctuation`. */
const PUNCT = new Set('!"#$%&\'()*+,-./:;<=>?@[\\]^_`{|}~');

/**
 * sacreBLEU's `_remove_punctuation` for chrF++ words: splits on whitespace, then detaches
 * one ASCII punctuation mark from the end (else from the start) of each multi-character word.
 * Example: `chrfWords('(hi) there!')` → `['(hi', ')', 'there', '!']`.
 */
export function chrfWords(sent: string): string[] {
  const out: string[] = [];
  for (const w of pySplit(sent)) {
    const cps = codePoints(w);
    if (cps.length === 1) {
      out.push(w);
      continue;
    }
    const last = w[w.length - 1]!;
    if (PUNCT.has(last)) {
      out.push(w.slice(0, -1), last);
    } else if (PUNCT.has(w[0]!)) {
      out.push(w[0]!, w.slice(1));
    } else {
      out.push(w);
    }
  }
  return out;
}


// Scratch buffers reused across segments: character ids (code point + 1) and word ids of the
// hypothesis and of the reference being compared, and the clipped matches per order.
let hypChars = new Int32Array(256);
let refChars = new Int32Array(256);
let hypWords = new Int32Array(64);
let refWords = new Int32Array(64);
const charMatches: number[] = [];
const wordMatches: number[] = [];

/**
 * Writes the characters of `text` as ids (code point + 1, so every id is positive) into `out`
 * and returns how many. Whitespace is dropped unless `keepWhitespace` (sacreBLEU:
 * `''.join(line.split())`); code points, not UTF-16 units, are the characters.
 */
function charIds(text: string, keepWhitespace: boolean, out: Int32Array): number {
  let len = 0;
  const n = text.length;
  for (let i = 0; i < n; i++) {
    let cp = text.charCodeAt(i);
    if (!keepWhitespace && isPyWhitespace(cp)) continue;
    if (cp >= 0xd800 && cp <= 0xdbff && i + 1 < n) {
      const lo = text.charCodeAt(i + 1);
      if (lo >= 0xdc00 && lo <= 0xdfff) {
        cp = (cp - 0xd800) * 0x400 + (lo - 0xdc00) + 0x10000;
        i++;
      }
    }
    out[len++] = cp + 1;
  }
  return len;
}

function isAsciiPunct(c: number): boolean {
  return (c >= 0x21 && c <= 0x2f) || (c >= 0x3a && c <= 0x40) || (c >= 0x5b && c <= 0x60) || (c >= 0x7b && c <= 0x7e);
}

/**
 * The words {@link chrfWords} gives for `text`, as ids of the current token table (see
 * token-table.ts), written into `out` (at least `text.length` long); returns how many.
 * Works on spans of `text`, so no word string is created.
 */
function wordIds(text: string, out: Int32Array): number {
  let len = 0;
  const n = text.length;
  let i = 0;
  while (i < n) {
    while (i < n && isPyWhitespace(text.charCodeAt(i))) i++;
    if (i >= n) break;
    const start = i;
    while (i < n && !isPyWhitespace(text.charCodeAt(i))) i++;
    const end = i;
    const units = end - start;
    const first = text.charCodeAt(start);
    const oneCodePoint = units === 1 || (units === 2 && first >= 0xd800 && first <= 0xdbff && text.charCodeAt(start + 1) >= 0xdc00 && text.charCodeAt(start + 1) <= 0xdfff);
    if (oneCodePoint) {
      out[len++] = tokenId(text, start, end);
    } else if (isAsciiPunct(text.charCodeAt(end - 1))) {
      out[len++] = tokenId(text, start, end - 1);
      out[len++] = tokenId(text, end - 1, end);
    } else if (isAsciiPunct(first)) {
      out[len++] = tokenId(text, start, start + 1);
      out[len++] = tokenId(text, start + 1, end);
    } else {
      out[len++] = tokenId(text, start, end);
    }
  }
  return len;
}

/** Appends `[hypCount, refCount, matches]` for orders 1..maxOrder (hypCount is 0 where the reference has no n-gram). */
function pushOrders(stats: number[], nh: number, nr: number, maxOrder: number, matches: readonly number[]): void {
  for (let n = 1; n <= maxOrder; n++) {
    const hc = Math.max(0, nh - n + 1);
    const rc = Math.max(0, nr - n + 1);
    stats.push(rc > 0 ? hc : 0, rc, matches[n - 1]!);
  }
}

/**
 * chrF sufficient statistics of one segment: `3·(nc+nw)` numbers
 * `[hyp_1, ref_1, match_1, …]` for char orders 1..nc then word orders 1..nw.
 * N-grams are counted by hashing (ngram-table.ts); with several references, the row of the
 * reference with the best sentence chrF is kept (the first one on ties).
 * Example (nc=1, nw=0): `chrfStats(c, 'ab', ['ac'])` → `[2, 2, 1]`.
 */
export function chrfStats(c: ChrfConfig, hypothesis: string, references: readonly string[]): number[] {
  const hyp = c.lowercase ? hypothesis.toLowerCase() : hypothesis;
  if (hypChars.length < hyp.length) hypChars = new Int32Array(2 * hyp.length);
  const nhChars = c.charOrder > 0 ? charIds(hyp, c.whitespace, hypChars) : 0;
  let nhWords = 0;
  if (c.wordOrder > 0) {
    beginTokenIds();
    if (hypWords.length < hyp.length) hypWords = new Int32Array(2 * hyp.length);
    nhWords = wordIds(hyp, hypWords);
  }
  let best: number[] = [];
  let bestF = -1.0;
  for (const reference of references) {
    const ref = c.lowercase ? reference.toLowerCase() : reference;
    const stats: number[] = [];
    if (c.charOrder > 0) {
      if (refChars.length < ref.length) refChars = new Int32Array(2 * ref.length);
      const nr = charIds(ref, c.whitespace, refChars);
      clippedMatches(hypChars, nhChars, refChars, nr, c.charOrder, charMatches);
      pushOrders(stats, nhChars, nr, c.charOrder, charMatches);
    }
    if (c.wordOrder > 0) {
      if (refWords.length < ref.length) refWords = new Int32Array(2 * ref.length);
      const nr = wordIds(ref, refWords);
      clippedMatches(hypWords, nhWords, refWords, nr, c.wordOrder, wordMatches);
      pushOrders(stats, nhWords, nr, c.wordOrder, wordMatches);
    }
    if (references.length === 1) return stats;
    const f = chrfFromStats(stats, c);
    if (f > bestF) {
      bestF = f;
      best = stats;
    }
  }
  return best;
}

/**
 * sacreBLEU's `CHRF._compute_f_score` on a statistics row (0–100).
 * Example (nc=1): `chrfFromStats([2, 2, 1], {charOrder: 1, wordOrder: 0, beta: 2, …})` → 50.
 */
export function chrfFromStats(stats: readonly number[], c: Pick<ChrfConfig, 'charOrder' | 'wordOrder' | 'beta' | 'epsSmoothing'>): number {
  const eps = 1e-16;
  const order = c.charOrder + c.wordOrder;
  const factor = c.beta ** 2;
  let score = 0.0;
  let effectiveOrder = 0;
  let avgPrec = 0.0;
  let avgRec = 0.0;
  for (let i = 0; i < order; i++) {
    const nHyp = stats[3 * i]!;
    const nRef = stats[3 * i + 1]!;
    const nMatch = stats[3 * i + 2]!;
    const prec = nHyp > 0 ? nMatch / nHyp : eps;
    const rec = nRef > 0 ? nMatch / nRef : eps;
    const denom = factor * prec + rec;
    score += denom > 0 ? ((1 + factor) * prec * rec) / denom : eps;
    if (nHyp > 0 && nRef > 0) {
      avgPrec += prec;
      avgRec += rec;
      effectiveOrder += 1;
    }
  }
  if (c.epsSmoothing) return (100 * score) / order;
  if (effectiveOrder === 0) {
    avgPrec = 0.0;
    avgRec = 0.0;
  } else {
    avgPrec /= effectiveOrder;
    avgRec /= effectiveOrder;
  }
  if (avgPrec + avgRec) {
    let s = (1 + factor) * avgPrec * avgRec;
    s /= factor * avgPrec + avgRec;
    return 100 * s;
  }
  return 0.0;
}
