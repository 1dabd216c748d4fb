/* eslint-disable @typescript-eslint/no-non-null-assertion -- hot kernel: typed-array reads in the loops of analyseSystems that run per pair, per resample or per instance (k·R·n for randomisation), indices bounded by the loops over those arrays (permutation indices are < n by construction); a check per access would cost throughput (npm run bench:ranking-scale); bit-identical results checked by npx jest libs/ranking and test/golden */
/**
 * The inner loops of `analyseSystems` (analyse.ts), kept apart so that the orchestration there
 * reads with checked indices and these loops stay as tight as the benchmark needs. The column
 * helpers also serve bootstrap.ts and corpus-resampling.ts.
 */
import { mulberry32 } from './prng';
import { fillSwapMask } from './resampling';
import { exactMedianSorted, medianBySelection } from './selection';
import type { PairInput } from './tests/test';

/** `values` read through a permutation: out[t] = values[order[t]] (order: indices below values.length). */
export function gather(values: Float64Array, order: Int32Array): Float64Array {
  const out = new Float64Array(order.length);
  for (let t = 0; t < order.length; t++) out[t] = values[order[t]!]!;
  return out;
}

/** Paired differences into `d`: d[l] = xi[l] − xj[l] for l < d.length (xi, xj at least as long). */
export function differencesInto(d: Float64Array, xi: Float64Array, xj: Float64Array): void {
  for (let l = 0; l < d.length; l++) d[l] = xi[l]! - xj[l]!;
}

/** Column `i` of a row-major R×k buffer (one row per resample): out[r] = buf[r·k + i]. */
export function column(buf: Float64Array, k: number, i: number, R: number): Float64Array {
  const out = new Float64Array(R);
  for (let r = 0; r < R; r++) out[r] = buf[r * k + i]!;
  return out;
}

/** Differences of columns i and j of a row-major R×k buffer into `out` (length R). */
export function columnDifferencesInto(out: Float64Array, buf: Float64Array, k: number, i: number, j: number): void {
  for (let r = 0; r < out.length; r++) out[r] = buf[r * k + i]! - buf[r * k + j]!;
}

/**
 * Approximate randomisation on the mean score for every pair at once, one shared swap mask per
 * trial (O(k·n) per trial), seeded with `seed`: exceed[i·k + j] (i < j) counts the trials whose
 * |swapped sum difference| reaches the observed one. `kept[i]`: system i's swapped sums per trial
 * from a memo (the mask is drawn all the same); `swapped` (R×k) receives every system's sums.
 */
export function randomisationExceedances(x: readonly Float64Array[], n: number, R: number, seed: number, kept: readonly (Float64Array | undefined)[] = [], swapped?: Float64Array): Int32Array {
  const k = x.length;
  const arExceed = new Int32Array(k * k);
  const arRng = mulberry32(seed);
  const mask = new Float64Array(n);
  const sums = x.map((row) => {
    let s = 0;
    for (let l = 0; l < n; l++) s += row[l]!;
    return s;
  });
  const S = new Float64Array(k);
  const swappedIdx = new Int32Array(n);
  for (let r = 0; r < R; r++) {
    fillSwapMask(mask, arRng);
    let m = 0;
    for (let l = 0; l < n; l++) if (mask[l] !== 0) swappedIdx[m++] = l;
    x.forEach((xi, i) => {
      const memo = kept[i];
      if (memo && r < memo.length) S[i] = memo[r]!;
      else {
        let s = 0;
        for (let q = 0; q < m; q++) s += xi[swappedIdx[q]!]!;
        S[i] = s;
      }
      if (swapped) swapped[r * k + i] = S[i]!;
    });
    for (let i = 0; i < k; i++) {
      for (let j = i + 1; j < k; j++) {
        const D = sums[i]! - sums[j]!;
        const obs = Math.abs(D);
        if (Math.abs(D - 2 * (S[i]! - S[j]!)) >= obs - 1e-12 * Math.max(1, obs)) arExceed[i * k + j]!++;
      }
    }
  }
  return arExceed;
}

/**
 * The one pair the tests look at, moved from pair to pair over the rows `x` (n instances each),
 * as `analyseSystems` and `fillAnalysisMemo` run the tests: the differences are taken on first
 * use (a pair whose outcomes a memo holds needs none) and sorted at most once, and
 * `medianDiff()` takes the median of the differences off the sorted ones when a test sorted them,
 * else by selection (the same value either way).
 */
export function pairWorkspace(x: readonly Float64Array[], n: number): { pair: PairInput; select: (i: number, j: number) => void; medianDiff: () => number } {
  const d = new Float64Array(n);
  const sd = new Float64Array(n);
  let diffsReady = false;
  let sortedReady = false;
  const diffsOf = (): Float64Array => {
    if (!diffsReady) {
      differencesInto(d, x[pair.i]!, x[pair.j]!);
      diffsReady = true;
    }
    return d;
  };
  const pair: PairInput = {
    i: 0,
    j: 0,
    get diffs() {
      return diffsOf();
    },
    sortedDiffs: () => {
      if (!sortedReady) {
        sd.set(diffsOf());
        sd.sort();
        sortedReady = true;
      }
      return sd;
    },
  };
  return {
    pair,
    select: (i, j) => {
      pair.i = i;
      pair.j = j;
      diffsReady = false;
      sortedReady = false;
    },
    medianDiff: () => (sortedReady ? exactMedianSorted(sd) : medianBySelection(diffsOf())),
  };
}
