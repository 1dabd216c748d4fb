/* eslint-disable @typescript-eslint/no-non-null-assertion -- per-resample kernel over n instances and k systems, indices bounded by those loops */
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
 * multinomial counts per resample as the other methods). Computed from the win points the
 * analysis shares (`SharedEstimates.winPoints`, method.ts): Σ_l w_il = (wins_i + ½·ties_i)/(k − 1).
 * @example three systems, one instance with scores 3, 1, 1: win rates 1, ¼, ¼.
 */
export const meanWinRateMethod: RankingMethod = {
  key: 'mean_win_rate',
  label: 'Mean win rate',
  order: 70,
  description: 'HELM mean win rate: per instance, the share of the other systems this one beats (ties count half), averaged over instances; 95% bootstrap interval over instances.',
  intervalKind: 'bootstrap',
  direction: 'higher is better',
  estimate({ k, n, R, shared }) {
    // Σ_l w_il = (wins_i + ½·ties_i)/(k − 1): the win points the analysis counted once for all
    // pairs (and per resample, from the bootstrap's resampled wins and ties), so this costs
    // O(R·k) rather than an O(R·n·k) pass of its own.
    const scale = k > 1 ? (k - 1) * n : Infinity;
    const value = shared.winPoints.points.map((p) => p / scale);
    const boot = new Float64Array(R * k);
    for (let c = 0; c < R * k; c++) boot[c] = shared.winPoints.boot[c]! / scale;
    return {
      value,
      interval: value.map((_, i) => percentileInterval(sortedColumn(boot, k, R, i))),
      order: value,
      tolerance: 1e-12,
      rankInterval: bootstrapRankIntervals(boot, k, R, 1e-12),
    };
  },
};
