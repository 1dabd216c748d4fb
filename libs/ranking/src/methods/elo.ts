import { orderRankIntervals, type RankingMethod } from './method';

/** Elo rating averaged over random game orders. */
export const eloMethod: RankingMethod = {
  key: 'elo',
  label: 'Elo',
  order: 50,
  description: 'Elo rating from one game per pair and instance, averaged over random game orders; the rank interval is the spread over the orders.',
  intervalKind: 'game order',
  direction: 'higher is better',
  estimate({ k, shared }) {
    return {
      value: shared.elo.mean,
      interval: shared.elo.mean.map(() => null),
      order: shared.elo.mean,
      tolerance: 1e-9,
      rankInterval: orderRankIntervals(shared.elo.runs, k),
    };
  },
};
