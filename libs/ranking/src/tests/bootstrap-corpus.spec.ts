import { analyseSystems } from '../analyse';

// A corpus score that is the mean of the instance scores (Σx / Σ1): its paired bootstrap must
// reproduce the bootstrap of the mean, which draws the same resamples.
const scores = [
  [0.1, 0.5, 0.9, 0.3, 0.7, 0.2, 0.8, 0.4],
  [0.2, 0.4, 0.6, 0.3, 0.5, 0.1, 0.9, 0.2],
  [0.9, 0.8, 0.7, 0.9, 0.6, 0.8, 0.9, 0.7],
];
const table = { systems: ['A', 'B', 'C'], instances: scores[0]?.map((_, l) => String(l)) ?? [], scores };
const corpus = { stats: scores.map((row) => row.map((x) => [x, 1])), corpusFromStats: (rows: number[][]) => (rows[0]?.[0] ?? NaN) / (rows[0]?.[1] ?? NaN) };

describe('paired bootstrap of the corpus score plugin', () => {
  it('equals the bootstrap of the mean when the corpus score is the mean, and exists only with statistics', () => {
    const a = analyseSystems(table, { resamples: 300, corpus });
    for (const p of a.pairs) expect(p.tests.bootstrap_corpus?.p).toBeCloseTo(p.tests.bootstrap.p, 12);
    expect(analyseSystems(table, { resamples: 100 }).pairs[0]?.tests.bootstrap_corpus).toBeUndefined();
  });
});
