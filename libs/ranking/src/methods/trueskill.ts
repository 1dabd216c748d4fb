import { orderRankIntervals, type RankingMethod } from './method';

/** TrueSkill μ averaged over random game orders (ranked by μ). */
export const trueSkillMethod: RankingMethod = {
  key: 'trueskill',
  label: 'TrueSkill',
  order: 60,
  description: 'TrueSkill skill μ from one game per pair and instance, averaged over random game orders; the rank interval is the spread over the orders.',
  intervalKind: 'game order',
  direction: 'higher is better',
  estimate({ k, shared }) {
    const mu = shared.trueskill.mean.map((r) => r.mu);
    return {
      value: mu,
      interval: mu.map(() => null),
      order: mu,
      tolerance: 1e-9,
      rankInterval: orderRankIntervals(shared.trueskill.runs, k),
    };
  },
};
