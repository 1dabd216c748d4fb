/* eslint-disable @typescript-eslint/no-non-null-assertion -- hot kernel: typed-array reads in the paired tests run for every pair (differences, exact Wilcoxon counts, sign counts, merges), indices bounded by the loops over those arrays; a check per access would cost throughput (npm run bench:ranking-scale); results checked by npx jest libs/ranking */
import { at } from './checked';
import { mean } from './descriptive';
import { BRACKET_SAMPLE, bracketOfSample, medianBySelection, middleInBracket } from './selection';
import { binomialTwoSidedP, chiSquareSf, normalCdf, studentTTwoSidedP } from './special-functions';

/** Statistic and two-sided p-value of a test. `statistic` may be ±Infinity (JSON: null). */
export interface TestResult {
  statistic: number;
  p: number;
}

function checkPaired(a: ArrayLike<number>, b: ArrayLike<number>, name: string): void {
  if (a.length !== b.length) throw new RangeError(`${name}: samples must be paired (lengths ${a.length} and ${b.length})`);
}

/**
 * Paired t-test on d_l = a_l − b_l, two-sided (SciPy `ttest_rel`).
 *
 * Formula: t = d̄ / (s_d/√n), ν = n − 1, p = I_{ν/(ν+t²)}(ν/2, 1/2).
 * Reference: Student (1908); Zhao thesis ch. 11 §3.2 pairs it with MEAN.
 * All-zero differences give t = 0, p = 1; constant non-zero differences give t = ±∞, p = 0.
 * @example pairedTTest([1, 2, 3, 4], [0, 0, 0, 1]); // t = 4.7002, p = 0.01820 (d = [1, 2, 3, 3])
 */
export function pairedTTest(a: ArrayLike<number>, b: ArrayLike<number>): TestResult & { df: number; meanDiff: number } {
  checkPaired(a, b, 'pairedTTest');
  const d = new Float64Array(a.length);
  for (let i = 0; i < a.length; i++) d[i] = a[i]! - b[i]!;
  return tTestFromDiffs(d);
}

/** Paired t-test from the differences d (see {@link pairedTTest}). */
export function tTestFromDiffs(d: Float64Array): TestResult & { df: number; meanDiff: number } {
  const n = d.length;
  const md = mean(d);
  let ss = 0;
  for (let i = 0; i < n; i++) {
    const e = d[i]! - md;
    ss += e * e;
  }
  const df = n - 1;
  if (n < 2) return { statistic: NaN, p: NaN, df, meanDiff: md };
  const sd = Math.sqrt(ss / df);
  if (sd === 0 || sd <= 1e-14 * Math.abs(md)) {
    if (md === 0) return { statistic: 0, p: 1, df, meanDiff: md };
    return { statistic: md > 0 ? Infinity : -Infinity, p: 0, df, meanDiff: md };
  }
  const t = md / (sd / Math.sqrt(n));
  return { statistic: t, p: studentTTwoSidedP(t, df), df, meanDiff: md };
}

/**
 * Exact null distribution of 2R⁺ given the (doubled, so integer) ranks: under H0 each rank
 * carries a + sign with probability 1/2 independently, so counts[s] = #{sign patterns with
 * Σ₊ 2·rank = s}. Subset-sum dynamic programme, O(n·Σranks).
 */
function signedRankCounts(doubledRanks: readonly number[]): Float64Array {
  let max = 0;
  for (const r of doubledRanks) max += r;
  const c = new Float64Array(max + 1);
  c[0] = 1;
  let reach = 0;
  for (const r of doubledRanks) {
    reach += r;
    for (let s = reach; s >= r; s--) c[s]! += c[s - r]!;
  }
  return c;
}

/** Result of {@link wilcoxonSignedRank}. */
export type WilcoxonResult = TestResult & { n: number; rPlus: number; rMinus: number; method: 'exact' | 'normal' };

/** Largest number of non-zero differences for which the exact distribution is used. */
export const WILCOXON_EXACT_MAX_N = 50;

/**
 * Wilcoxon signed-rank test, two-sided, `zero_method='wilcox'` (SciPy's default: zero
 * differences are dropped before ranking), `correction=False`. Statistic T = min(R⁺, R⁻), with
 * average ranks for tied |d|.
 *
 * p-value: for n ≤ 50 non-zero differences, exact: the permutation (sign-flip) distribution of
 * R⁺ given the observed ranks, ties included, p = min(1, 2·min(P(R⁺ ≤ r), P(R⁺ ≥ r))). Without
 * ties this is the classical exact distribution (SciPy `method='exact'`); with ties it is what
 * SciPy ≥ 1.15 computes for `method='auto'` on small samples with ties or zeros (an exact
 * permutation test, `PermutationMethod`). So five equal differences give p = 2/32 = 0.0625, never
 * less. For n > 50, the tie-corrected normal approximation
 * z = (T − n(n+1)/4) / √(n(n+1)(2n+1)/24 − Σ(t³ − t)/48), p = 2Φ(−|z|) (SciPy 'asymptotic').
 * Reference: Wilcoxon (1945), Biometrics Bull. 1:80; Conover (1999) §5.7; Pratt (1959) on zeros.
 * @example wilcoxonSignedRank([1, 1, 1, 1, 1], [0, 0, 0, 0, 0]).p; // 0.0625 = 2/32
 */
export function wilcoxonSignedRank(a: ArrayLike<number>, b: ArrayLike<number>): WilcoxonResult {
  checkPaired(a, b, 'wilcoxonSignedRank');
  const d = new Float64Array(a.length);
  for (let i = 0; i < a.length; i++) d[i] = a[i]! - b[i]!;
  return wilcoxonFromSortedDiffs(d.sort());
}

/** {@link wilcoxonSignedRank} from all differences d = a − b sorted ascending (zeros included). */
export function wilcoxonFromSortedDiffs(sorted: Float64Array): WilcoxonResult {
  const len = sorted.length;
  let negEnd = 0;
  while (negEnd < len && sorted[negEnd]! < 0) negEnd++;
  let posStart = negEnd;
  while (posStart < len && sorted[posStart] === 0) posStart++;
  const m = negEnd + len - posStart;
  // Negatives come first (largest |d| first), positives after the zeros: merge by |d| ascending.
  let i = negEnd - 1;
  let j = posStart;
  let rank = 0;
  let rPlus = 0;
  let rMinus = 0;
  let tieTerm = 0;
  const doubled: number[] = [];
  while (i >= 0 || j < len) {
    const next = i < 0 ? sorted[j] : j >= len ? -sorted[i]! : Math.min(-sorted[i]!, sorted[j]!);
    let cNeg = 0;
    let cPos = 0;
    while (i >= 0 && -sorted[i]! === next) {
      cNeg++;
      i--;
    }
    while (j < len && sorted[j] === next) {
      cPos++;
      j++;
    }
    const t = cNeg + cPos;
    const avg = rank + (t + 1) / 2;
    rPlus += cPos * avg;
    rMinus += cNeg * avg;
    rank += t;
    if (t > 1) tieTerm += t * t * t - t;
    if (m <= WILCOXON_EXACT_MAX_N) for (let q = 0; q < t; q++) doubled.push(2 * avg);
  }
  const T = Math.min(rPlus, rMinus);
  if (m === 0) return { statistic: 0, p: 1, n: 0, rPlus: 0, rMinus: 0, method: 'exact' };
  if (m <= WILCOXON_EXACT_MAX_N) {
    const counts = signedRankCounts(doubled);
    const total = Math.pow(2, m);
    const r = Math.round(2 * rPlus);
    let less = 0;
    for (const c of counts.subarray(0, r + 1)) less += c; // 0 ≤ r = 2·R⁺ ≤ the largest sum, counts.length − 1
    let greater = 0;
    for (const c of counts.subarray(r)) greater += c;
    const p = Math.min(1, (2 * Math.min(less, greater)) / total);
    return { statistic: T, p, n: m, rPlus, rMinus, method: 'exact' };
  }
  const mu = (m * (m + 1)) / 4;
  const variance = (m * (m + 1) * (2 * m + 1)) / 24 - tieTerm / 48;
  if (variance <= 0) return { statistic: T, p: 1, n: m, rPlus, rMinus, method: 'normal' };
  const z = (T - mu) / Math.sqrt(variance);
  return { statistic: T, p: Math.min(1, 2 * normalCdf(-Math.abs(z))), n: m, rPlus, rMinus, method: 'normal' };
}

/**
 * Sign test, two-sided exact binomial on the instances where a and b differ (ties dropped):
 * p = min(1, 2·P(X ≤ min(w, l))), X ~ Bin(w + l, 1/2).
 * Reference: Conover (1999) §3.4; Zhao thesis ch. 11 §3.2 (the test behind BT / median of differences).
 * @example signTest([1, 1, 1, 1, 0], [0, 0, 0, 0, 1]).p; // 0.375
 */
export function signTest(a: ArrayLike<number>, b: ArrayLike<number>): { p: number; wins: number; losses: number; ties: number } {
  checkPaired(a, b, 'signTest');
  let wins = 0;
  let losses = 0;
  for (let i = 0; i < a.length; i++) {
    if (a[i]! > b[i]!) wins++;
    else if (a[i]! < b[i]!) losses++;
  }
  const ties = a.length - wins - losses;
  return { p: binomialTwoSidedP(wins, wins + losses), wins, losses, ties };
}

/**
 * Mood's median test for two samples, as SciPy `median_test(a, b)` defaults: grand median of the
 * pooled samples; values equal to it count as "below" (`ties='below'`); 2×2 table of counts
 * above/below; Pearson χ² with Yates' continuity correction (|O − E| reduced by min(0.5, |O − E|)),
 * 1 d.f. If every value is at or below the grand median (SciPy raises), returns statistic 0, p 1.
 * Unpaired: it ignores which instances go together (Zhao thesis ch. 11 App. D).
 * Reference: Mood (1950), Introduction to the Theory of Statistics, §16.3.
 * @example moodMedianTest([1, 2, 3, 4, 5, 6], [7, 8, 9, 10, 11, 12]); // χ² = 8.3333, p = 0.00389
 */
export function moodMedianTest(a: ArrayLike<number>, b: ArrayLike<number>): TestResult & { grandMedian: number; table: [[number, number], [number, number]] } {
  return moodMedianTestSorted(Float64Array.from(a).sort(), Float64Array.from(b).sort());
}

function countAbove(sorted: Float64Array, v: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (sorted[mid]! <= v) lo = mid + 1;
    else hi = mid;
  }
  return sorted.length - lo;
}

/**
 * The k-th smallest (0-based) element of the union of two ascending arrays, in O(log n): binary
 * search for how many of the k + 1 smallest come from `a` (the smallest i with b[k−i] ≤ a[i]).
 */
export function kthOfUnion(a: Float64Array, b: Float64Array, k: number): number {
  const take = k + 1;
  let lo = Math.max(0, take - b.length);
  let hi = Math.min(take, a.length);
  while (lo < hi) {
    const i = (lo + hi) >> 1;
    const j = take - i;
    if (j > 0 && i < a.length && b[j - 1]! > a[i]!) lo = i + 1;
    else hi = i;
  }
  const j = take - lo;
  const fromA = lo > 0 ? (a[lo - 1] ?? -Infinity) : -Infinity;
  const fromB = j > 0 ? (b[j - 1] ?? -Infinity) : -Infinity;
  return Math.max(fromA, fromB);
}

/** {@link moodMedianTest} on samples already sorted ascending (used for all-pairs analysis). */
export function moodMedianTestSorted(a: Float64Array, b: Float64Array): TestResult & { grandMedian: number; table: [[number, number], [number, number]] } {
  const total = a.length + b.length;
  const h = total >> 1;
  const grandMedian = total % 2 === 1 ? kthOfUnion(a, b, h) : (kthOfUnion(a, b, h - 1) + kthOfUnion(a, b, h)) / 2;
  return moodFromCounts(a.length, b.length, countAbove(a, grandMedian), countAbove(b, grandMedian), grandMedian);
}

/**
 * {@link moodMedianTestSorted} on samples in any order, in O(n): the grand median by selection
 * (the same value as from the sorted samples), then a count above it, so the same table,
 * statistic and p. For a pair whose rows an analysis did not sort (issue #28: with a memo only
 * the systems it adds are sorted). `scratch` (at least a.length + b.length long) is overwritten.
 * `medians`: the two samples' medians, when known (a bracket for the grand median; the same result).
 */
export function moodMedianTestUnsorted(
  a: Float64Array,
  b: Float64Array,
  scratch: Float64Array = new Float64Array(a.length + b.length),
  medians?: readonly [number, number],
): TestResult & { grandMedian: number; table: [[number, number], [number, number]] } {
  // with the two samples' medians: the grand median lies between them, else a selection on the joined samples
  const within = medians ? moodWithin(a, b, Math.min(medians[0], medians[1]), Math.max(medians[0], medians[1]), scratch) : null;
  if (within) return moodFromCounts(a.length, b.length, within.aAbove, within.bAbove, within.grandMedian);
  const union = scratch.subarray(0, a.length + b.length);
  union.set(a);
  union.set(b, a.length);
  const grandMedian = medianBySelection(union);
  let aAbove = 0;
  for (let l = 0; l < a.length; l++) if (a[l]! > grandMedian) aAbove++;
  let bAbove = 0;
  for (let l = 0; l < b.length; l++) if (b[l]! > grandMedian) bAbove++;
  return moodFromCounts(a.length, b.length, aAbove, bAbove, grandMedian);
}

/**
 * The grand median of `a` and `b` and the counts above it, when it lies in a bracket within
 * [lo, hi] (the two samples' medians: it lies between them but in odd layouts of ties), else
 * null; the same numbers as selecting it from the joined samples. The bracket is [lo, hi]
 * narrowed to the middle ranks of 1,024 values sampled from both (two systems far apart have
 * most values between their medians). One pass over each sample and a selection among the few
 * values inside, instead of joining 2n values first (issue #28: 3.4 ms a pair of 100,000
 * instances in a board's fill). `scratch` (at least a.length + b.length long) is overwritten.
 */
export function moodWithin(a: Float64Array, b: Float64Array, lo: number, hi: number, scratch: Float64Array = new Float64Array(a.length + b.length)): { grandMedian: number; aAbove: number; bAbove: number } | null {
  const n = a.length + b.length;
  if (!(lo <= hi) || n === 0 || scratch.length < n) return null;
  if (a.length >= BRACKET_SAMPLE && b.length >= BRACKET_SAMPLE) {
    // half the sample from each row, as the median by selection samples one
    const sample = new Float64Array(BRACKET_SAMPLE);
    const half = BRACKET_SAMPLE >> 1;
    for (let s = 0; s < half; s++) {
      sample[s] = a[Math.floor((s * a.length) / half)]!;
      sample[half + s] = b[Math.floor((s * b.length) / half)]!;
    }
    const { lo: sLo, hi: sHi } = bracketOfSample(sample);
    // the two brackets overlap in all but odd layouts; where they do not, the medians' serves
    if (Math.max(lo, sLo) <= Math.min(hi, sHi)) {
      lo = Math.max(lo, sLo);
      hi = Math.min(hi, sHi);
    }
  }
  const pa = bracketPass(a, lo, hi, scratch, 0);
  const pb = bracketPass(b, lo, hi, scratch, pa.end);
  if (!pa.whole || !pb.whole) return null; // NaN
  const inside = pb.end;
  const h = n >> 1;
  // the selection reorders the values inside: on a copy (room permitting), so that each sample's stay apart for the counts above
  const copy = inside * 2 <= scratch.length;
  const between = copy ? scratch.subarray(inside, 2 * inside) : scratch.subarray(0, inside);
  if (copy) between.set(scratch.subarray(0, inside));
  const grandMedian = middleInBracket({ lo, hi, below: pa.below + pb.below, atLo: pa.atLo + pb.atLo, between, atHi: pa.atHi + pb.atHi }, n % 2 === 1 ? h : h - 1, h);
  if (grandMedian === null) return null;
  const countAbove = (x: Float64Array, p: BracketPass, from: number): number => {
    let c = 0;
    if (!copy) {
      for (let l = 0; l < x.length; l++) c += +(x[l]! > grandMedian);
      return c;
    }
    // lo ≤ grand median ≤ hi: values at hi are above it when it is below hi, values at lo never
    c = p.above + (hi > grandMedian ? p.atHi : 0);
    for (let q = from; q < p.end; q++) c += +(scratch[q]! > grandMedian);
    return c;
  };
  return { grandMedian, aAbove: countAbove(a, pa, 0), bAbove: countAbove(b, pb, pa.end) };
}

/** One sample's counts against a bracket [lo, hi] (lo = hi: every equal value at lo), its values inside written from `start` up to `end`. */
interface BracketPass {
  below: number;
  atLo: number;
  atHi: number;
  above: number;
  end: number;
  /** Every value fell somewhere (none is NaN). */
  whole: boolean;
}

/**
 * {@link moodWithin}'s pass over one sample, without branches (values fall either side of the
 * bracket at random): counts, and each value written to `scratch` but kept (the next one written
 * past it) only when it lies strictly inside.
 */
function bracketPass(x: Float64Array, lo: number, hi: number, scratch: Float64Array, start: number): BracketPass {
  const ends = lo === hi ? 0 : 1;
  let below = 0;
  let atLo = 0;
  let atHi = 0;
  let above = 0;
  let inside = start;
  for (let l = 0; l < x.length; l++) {
    const v = x[l]!;
    below += +(v < lo);
    atLo += +(v === lo);
    atHi += +(v === hi) & ends;
    above += +(v > hi);
    scratch[inside] = v;
    inside += +(v > lo) & +(v < hi);
  }
  return { below, atLo, atHi, above, end: inside, whole: below + atLo + atHi + above + inside - start === x.length };
}

/** Mood's 2×2 table (above / not above the grand median, per sample) and its χ² with Yates' correction. */
function moodFromCounts(na: number, nb: number, aAbove: number, bAbove: number, grandMedian: number): TestResult & { grandMedian: number; table: [[number, number], [number, number]] } {
  const total = na + nb;
  const table: [[number, number], [number, number]] = [
    [aAbove, bAbove],
    [na - aAbove, nb - bAbove],
  ];
  const rows = [aAbove + bAbove, total - aAbove - bAbove];
  const cols = [na, nb];
  if (rows[0] === 0 || rows[1] === 0) return { statistic: 0, p: 1, grandMedian, table };
  let chi2 = 0;
  for (const [r, tableRow] of table.entries()) {
    for (const [c, observed] of tableRow.entries()) {
      const expected = (at(rows, r) * at(cols, c)) / total;
      const diff = expected - observed;
      const adjusted = observed + Math.sign(diff) * Math.min(0.5, Math.abs(diff));
      chi2 += ((adjusted - expected) * (adjusted - expected)) / expected;
    }
  }
  return { statistic: chi2, p: chiSquareSf(chi2, 1), grandMedian, table };
}
