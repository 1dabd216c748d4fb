import { bootstrapRankIntervals, type RankingMethod } from './method';

/** Corpus score from summed sufficient statistics (sacreBLEU); only with statistics. */
export const corpusMethod: RankingMethod = {
  key: 'corpus',
  label: 'Corpus score',
  order: 10,
  description: 'Corpus score from the summed sufficient statistics (as sacreBLEU); 95% interval of its paired bootstrap.',
  intervalKind: 'bootstrap',
  direction: 'metric',
  clusterTest: 'bootstrap_corpus', // corpus score ↔ paired bootstrap resampling (sacreBLEU paired-bs)
  estimate({ k, R, sign, shared }) {
    const c = shared.corpus;
    if (!c) return null;
    const oriented = sign === 1 ? c.boot : c.boot.map((v) => -v);
    return {
      value: c.scores,
      interval: c.intervals.map((iv) => [iv.lower, iv.upper] as [number, number]),
      order: c.scores.map((v) => sign * v),
      tolerance: 1e-12,
      rankInterval: bootstrapRankIntervals(oriented, k, R, 1e-12),
    };
  },
};
