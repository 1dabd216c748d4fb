import type { SignificanceTest } from './test';

/** sacreBLEU's paired-ar on the corpus score (../corpus-resampling.ts); NaN when its trials were skipped. Direction: the corpus-score difference. */
export const arCorpusTest = {
  key: 'ar_corpus',
  label: 'paired approximate randomisation of the corpus score (sacreBLEU paired-ar)',
  order: 80,
  corpus: true,
  statistic: false,
  prepare: ({ corpus }) => {
    if (!corpus) throw new RangeError('ar_corpus needs per-instance sufficient statistics');
    return ({ i, j }) => ({ p: corpus.resampling.arP(i, j), direction: (corpus.key[i] ?? NaN) - (corpus.key[j] ?? NaN) });
  },
} as const satisfies SignificanceTest<'ar_corpus'>;
