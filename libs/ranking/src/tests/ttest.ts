import { tTestFromDiffs } from '../paired-tests';
import type { SignificanceTest } from './test';

/** Paired t-test on the differences (SciPy `ttest_rel`; formulas in ../paired-tests.ts). Direction: the mean difference. */
export const tTest = {
  key: 'ttest',
  label: 'paired t-test',
  order: 10,
  corpus: false,
  statistic: true,
  memoisable: true,
  prepare: ({ sign, means }) => (pair) => {
    const t = tTestFromDiffs(pair.diffs);
    return { statistic: sign * t.statistic, p: t.p, direction: (means[pair.i] ?? NaN) - (means[pair.j] ?? NaN) };
  },
} as const satisfies SignificanceTest<'ttest'>;
