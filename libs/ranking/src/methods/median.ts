import { bootstrapRankIntervals, flipInterval, percentileInterval, sortedColumn, type RankingMethod } from './method';

/** MEDIAN of instance scores; 95% bootstrap interval over instances (shared draws). */
export const medianMethod: RankingMethod = {
  key: 'median',
  label: 'Median',
  order: 30,
  description: 'Median of the instance scores; 95% bootstrap interval over instances.',
  intervalKind: 'bootstrap',
  direction: 'metric',
  clusterTest: 'mood', // MEDIAN ↔ Mood's median test
  estimate({ k, R, sign, shared }) {
    return {
      value: shared.medians.map((m) => sign * m + 0),
      interval: shared.medians.map((_, i) => flipInterval(sign, percentileInterval(sortedColumn(shared.bMedian, k, R, i)))),
      order: shared.medians,
      tolerance: 1e-12,
      rankInterval: bootstrapRankIntervals(shared.bMedian, k, R, 1e-12),
    };
  },
};
