/* eslint-disable @typescript-eslint/no-non-null-assertion -- hot kernel: median of the n paired differences for every pair (bracket sampling, three-way partition), typed-array indices bounded by lo ≤ i ≤ gt ≤ hi < length and by the sample size; a check per access would cost throughput (npm run bench:ranking-scale); results checked by npx jest libs/ranking (paired-tests.spec: equal to the sorted median) */
import { at } from './checked';

/** Median of an ascending array (mean of the two middle values when the length is even). */
export function exactMedianSorted(sorted: Float64Array): number {
  const n = sorted.length;
  const h = n >> 1;
  return n % 2 === 1 ? at(sorted, h) : (at(sorted, h - 1) + at(sorted, h)) / 2;
}

/**
 * Median of `values` by selection, O(n) instead of a sort; reorders `values`. The same value as
 * {@link exactMedianSorted} of the sorted array. A sample of 1,024 evenly spaced values brackets
 * the middle ranks; one pass counts the values below/at the bracket ends and collects those
 * strictly inside (≈ 1/8), where the middle ranks are selected. When the bracket misses (odd layouts, heavy ties
 * across it), Hoare's FIND with three-way partitioning decides instead.
 */
export function medianBySelection(values: Float64Array): number {
  const n = values.length;
  if (n === 0) return NaN;
  const h = n >> 1;
  if (n >= 4096) {
    const bracketed = medianFromBracket(values, n % 2 === 1 ? h : h - 1, h);
    if (bracketed !== null) return bracketed;
  }
  const upper = selectKth(values, h);
  if (n % 2 === 1) return upper;
  // after selecting h, positions < h hold the h smallest values: the lower middle is their maximum
  let lower = -Infinity;
  for (let l = 0; l < h; l++) {
    const v = values[l]!;
    if (v > lower) lower = v;
  }
  return (lower + upper) / 2;
}

/** Values sampled, evenly spaced, to bracket the middle ranks ({@link bracketOfSample}). */
export const BRACKET_SAMPLE = 1024;
const BRACKET_HALF_WIDTH = 64; // sample ranks either side of the middle: ±4 standard deviations (√(1024/4) = 16)

/** The bracket of the middle ranks: the values BRACKET_HALF_WIDTH ranks either side of the sample's middle (sorts `sample`). */
export function bracketOfSample(sample: Float64Array): { lo: number; hi: number } {
  sample.sort();
  const mid = sample.length >> 1;
  return {
    lo: at(sample, Math.max(0, mid - BRACKET_HALF_WIDTH), 'bracket sample'),
    hi: at(sample, Math.min(sample.length - 1, mid + BRACKET_HALF_WIDTH), 'bracket sample'),
  };
}

/** The mean of the values at ranks r1 and r2 (r1 = r2 for odd n), or null when the bracket misses either. */
function medianFromBracket(values: Float64Array, r1: number, r2: number): number | null {
  const n = values.length;
  const sample = new Float64Array(BRACKET_SAMPLE);
  const stride = n / BRACKET_SAMPLE;
  for (let s = 0; s < BRACKET_SAMPLE; s++) sample[s] = values[Math.floor(s * stride)]!;
  const { lo, hi } = bracketOfSample(sample);
  let below = 0;
  let atLo = 0;
  let atHi = 0;
  let inside = 0;
  const buffer = bracketBuffer(Math.ceil(n / 4)); // ≈ 12.5% of the values fall inside
  for (let l = 0; l < n; l++) {
    const v = values[l]!;
    if (v < lo) below++;
    else if (v === lo) atLo++;
    else if (v < hi) {
      if (inside === buffer.length) return null;
      buffer[inside++] = v;
    } else if (v === hi) atHi++;
  }
  return middleInBracket({ lo, hi, below, atLo, between: buffer.subarray(0, inside), atHi }, r1, r2);
}

let bracketScratch = new Float64Array(0);

/**
 * The buffer the values inside a bracket are collected in, `length` long: one per thread, grown
 * as needed and reused (a pair's median of 100,000 differences otherwise allocated 200 KB, for
 * each of the hundreds of pairs a board adds). Its contents last until the next call.
 */
function bracketBuffer(length: number): Float64Array {
  if (bracketScratch.length < length) bracketScratch = new Float64Array(length);
  return bracketScratch.subarray(0, length);
}

/** What one pass over the values said of a bracket [lo, hi]: counts below and at its ends, the values strictly inside. */
export interface BracketCounts {
  lo: number;
  hi: number;
  below: number;
  atLo: number;
  /** The values strictly inside (reordered by the selection). */
  between: Float64Array;
  atHi: number;
}

/** The mean of the values at ranks r1 and r2 (r1 = r2: that value) from a bracket's counts, or null when either rank lies outside it. */
export function middleInBracket(c: BracketCounts, r1: number, r2: number): number | null {
  // value at rank r: below lo → miss; lo block; inside block; hi block; above → miss
  const valueAtRank = (r: number): number | null => {
    let q = r - c.below;
    if (q < 0) return null;
    if (q < c.atLo) return c.lo;
    q -= c.atLo;
    // the few values strictly inside the bracket: select, do not sort
    if (q < c.between.length) return selectKth(c.between, q);
    q -= c.between.length;
    return q < c.atHi && c.lo !== c.hi ? c.hi : null;
  };
  const first = valueAtRank(r1);
  const second = r2 === r1 ? first : valueAtRank(r2);
  if (first === null || second === null) return null;
  return r2 === r1 ? first : (first + second) / 2;
}


function selectKth(a: Float64Array, kth: number): number {
  let lo = 0;
  let hi = a.length - 1;
  while (hi > lo) {
    const mid = lo + ((hi - lo) >> 1);
    const x = a[lo]!;
    const y = a[mid]!;
    const z = a[hi]!;
    const pivot = x < y ? (y < z ? y : x < z ? z : x) : x < z ? x : y < z ? z : y;
    // three-way partition: [lo, lt) < pivot, [lt, i) = pivot, (gt, hi] > pivot
    let lt = lo;
    let gt = hi;
    let i = lo;
    while (i <= gt) {
      const v = a[i]!;
      if (v < pivot) {
        a[i] = a[lt]!;
        a[lt++] = v;
        i++;
      } else if (v > pivot) {
        a[i] = a[gt]!;
        a[gt--] = v;
      } else i++;
    }
    if (kth < lt) hi = lt - 1;
    else if (kth > gt) lo = gt + 1;
    else return pivot;
  }
  return a[kth]!;
}
