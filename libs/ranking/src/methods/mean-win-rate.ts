/* eslint-disable @typescript-eslint/no-non-null-assertion -- per-resample kernel over n instances and k systems, indices bounded by those loops */
import { bootstrapCounts, mulberry32 } from '../prng';
import { bootstrapRankIntervals, percentileInterval, sortedColumn, type RankingMethod } from './method';

/**
 * Per-instance win rates: w[i][l] = (#{j ≠ i : x_j[l] < x_i[l]} + ½·#{j ≠ i : x_j[l] = x_i[l]}) / (k − 1),
 * from one sort of the k scores per instance, O(n·k·log k). `x` is oriented (larger is better).
 */
export function instanceWinRates(x: readonly Float64Array[]): Float64Array[] {
  const k = x.length;
  const n = x[0]?.length ?? 0;
  const w = x.map(() => new Float64Array(n));
  if (k < 2) return w;
  const idx = Array.from({ length: k }, (_, i) => i);
  for (let l = 0; l < n; l++) {
    idx.sort((a, b) => x[a]![l]! - x[b]![l]!);
    // runs of equal scores: every member beats the systems below the run and ties the others in it
    for (let start = 0; start < k; ) {
      let end = start + 1;
      while (end < k && x[idx[end]!]![l] === x[idx[start]!]![l]) end++;
      const share = (start + 0.5 * (end - start - 1)) / (k - 1);
      for (let t = start; t < end; t++) w[idx[t]!]![l] = share;
      start = end;
    }
  }
  return w;
}

/**
 * MEAN WIN RATE (HELM, Liang et al. 2022, "Holistic Evaluation of Language Models", §4): for each
 * instance, the share of the other systems whose score the system beats (a tie counts half),
 * averaged over instances. In [0, 1], higher is better whatever the metric's direction (scores
 * are compared in the metric's own direction: lower TER beats higher TER). 95% bootstrap
 * interval and rank interval over instances from the analysis' bootstrap draws (same seed, same
 * multinomial counts per resample as the other methods).
 * @example three systems, one instance with scores 3, 1, 1: win rates 1, ¼, ¼.
 */
export const meanWinRateMethod: RankingMethod = {
  key: 'mean_win_rate',
  label: 'Mean win rate',
  order: 70,
  description: 'HELM mean win rate: per instance, the share of the other systems this one beats (ties count half), averaged over instances; 95% bootstrap interval over instances.',
  intervalKind: 'bootstrap',
  direction: 'higher is better',
  estimate({ x, k, n, R, seed }) {
    const w = instanceWinRates(x);
    const value = w.map((row) => row.reduce((s, v) => s + v, 0) / n);
    // instance-major copy: one contiguous row of k win rates per drawn instance
    const wT = new Float64Array(n * k);
    w.forEach((row, i) => row.forEach((v, l) => (wT[l * k + i] = v)));
    const boot = new Float64Array(R * k);
    const rng = mulberry32(seed);
    const counts = new Int32Array(n);
    const acc = new Float64Array(k);
    for (let r = 0; r < R; r++) {
      bootstrapCounts(n, rng, counts);
      acc.fill(0);
      for (let l = 0; l < n; l++) {
        const c = counts[l]!;
        if (c === 0) continue;
        const base = l * k;
        for (let i = 0; i < k; i++) acc[i]! += c * wT[base + i]!;
      }
      for (let i = 0; i < k; i++) boot[r * k + i] = acc[i]! / n;
    }
    return {
      value,
      interval: value.map((_, i) => percentileInterval(sortedColumn(boot, k, R, i))),
      order: value,
      tolerance: 1e-12,
      rankInterval: bootstrapRankIntervals(boot, k, R, 1e-12),
    };
  },
};
