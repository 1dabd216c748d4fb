import type { SignificanceTest } from './test';

/** sacreBLEU's paired-bs on the corpus score, from the shared draws (../corpus-resampling.ts). Direction: the corpus-score difference. */
export const bootstrapCorpusTest = {
  key: 'bootstrap_corpus',
  label: 'paired bootstrap resampling of the corpus score (sacreBLEU paired-bs)',
  order: 70,
  corpus: true,
  statistic: false,
  prepare: ({ corpus }) => {
    if (!corpus) throw new RangeError('bootstrap_corpus needs per-instance sufficient statistics');
    return ({ i, j }) => ({ p: corpus.resampling.bootstrapP(i, j), direction: (corpus.key[i] ?? NaN) - (corpus.key[j] ?? NaN) });
  },
} as const satisfies SignificanceTest<'bootstrap_corpus'>;
