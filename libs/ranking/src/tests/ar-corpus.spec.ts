import { analyseSystems } from '../analyse';

// As bootstrap-corpus.spec.ts: with the mean as corpus score, paired-ar must equal the AR of the mean.
const scores = [
  [0.1, 0.5, 0.9, 0.3, 0.7, 0.2, 0.8, 0.4],
  [0.9, 0.8, 0.7, 0.9, 0.6, 0.8, 0.9, 0.7],
];
const table = { systems: ['A', 'B'], instances: scores[0]?.map((_, l) => String(l)) ?? [], scores };
const corpus = { stats: scores.map((row) => row.map((x) => [x, 1])), corpusFromStats: (rows: number[][]) => (rows[0]?.[0] ?? NaN) / (rows[0]?.[1] ?? NaN) };

describe('approximate randomisation of the corpus score plugin', () => {
  it('equals the AR of the mean when the corpus score is the mean; NaN when its trials are skipped', () => {
    const a = analyseSystems(table, { resamples: 400, corpus });
    expect(a.pairs[0]?.tests.ar_corpus?.p).toBeCloseTo(a.pairs[0]?.tests.ar.p ?? NaN, 12);
    const skipped = analyseSystems(table, { resamples: 100, corpus: { ...corpus, ar: false } });
    expect(skipped.pairs[0]?.tests.ar_corpus?.p).toBeNaN();
  });
});
