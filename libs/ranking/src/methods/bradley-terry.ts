import { bootstrapRankIntervals, percentileInterval, sortedColumn, type RankingMethod } from './method';

/** Bradley–Terry strength from pairwise wins per instance (ranked by dominance tier, then strength). */
export const bradleyTerryMethod: RankingMethod = {
  key: 'bt',
  label: 'Bradley–Terry',
  order: 40,
  description: 'Bradley–Terry strength fitted to the pairwise wins per instance (within its win-graph component); 95% bootstrap interval over instances.',
  intervalKind: 'bootstrap',
  direction: 'higher is better',
  clusterTest: 'sign', // BT (median of paired differences) ↔ sign test
  estimate({ k, R, shared }) {
    return {
      value: Array.from(shared.bt.strengths),
      interval: shared.bt.key.map((_, i) => percentileInterval(sortedColumn(shared.bt.boot, k, R, i))),
      order: shared.bt.key,
      tolerance: 1e-9,
      rankInterval: bootstrapRankIntervals(shared.bt.bootKey, k, R, 1e-9),
    };
  },
};
