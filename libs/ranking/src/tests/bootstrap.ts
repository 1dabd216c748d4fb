import { columnDifferencesInto } from '../analyse-kernels';
import { bootstrapPValue } from '../resampling';
import type { SignificanceTest } from './test';

/** Paired bootstrap of the mean from the shared draws (Koehn 2004; p as in ../resampling.ts). Direction: the mean difference. */
export const bootstrapTest = {
  key: 'bootstrap',
  label: 'paired bootstrap of the mean',
  order: 50,
  corpus: false,
  statistic: false,
  prepare: ({ bMean, k, R, means }) => {
    const diffs = new Float64Array(R);
    return ({ i, j }) => {
      columnDifferencesInto(diffs, bMean, k, i, j);
      const observed = (means[i] ?? NaN) - (means[j] ?? NaN);
      return { p: bootstrapPValue(diffs, observed), direction: observed };
    };
  },
} as const satisfies SignificanceTest<'bootstrap'>;
