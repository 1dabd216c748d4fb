import { bootstrapRankIntervals, flipInterval, percentileInterval, sortedColumn, type RankingMethod } from './method';

/** MEAN of instance scores; 95% bootstrap interval over instances (shared draws). */
export const meanMethod: RankingMethod = {
  key: 'mean',
  label: 'Mean',
  order: 20,
  description: 'Mean of the instance scores; 95% bootstrap interval over instances.',
  intervalKind: 'bootstrap',
  direction: 'metric',
  clusterTest: 'ttest', // MEAN ↔ paired t-test (Zhao thesis ch. 11 §3.2)
  estimate({ k, R, sign, shared }) {
    return {
      value: shared.means.map((m) => sign * m + 0),
      interval: shared.means.map((_, i) => flipInterval(sign, percentileInterval(sortedColumn(shared.bMean, k, R, i)))),
      order: shared.means,
      tolerance: 1e-12,
      rankInterval: bootstrapRankIntervals(shared.bMean, k, R, 1e-12),
    };
  },
};
