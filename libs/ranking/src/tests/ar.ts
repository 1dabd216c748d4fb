import { randomisationExceedances } from '../analyse-kernels';
import type { SignificanceTest } from './test';

/**
 * Approximate randomisation of the mean (Riezler & Maxwell 2005): R trials, one shared swap mask
 * per trial for every pair (seed + 1), p = (exceedances + 1)/(R + 1). Direction: the mean difference.
 */
export const arTest = {
  key: 'ar',
  label: 'paired approximate randomisation of the mean',
  order: 60,
  corpus: false,
  statistic: false,
  prepare: ({ x, n, R, seed, k, means, memo }) => {
    // with a memo: the kept per-system sums of the trials stand for recomputed ones (the same bits), and this analysis' are kept
    const exceed = randomisationExceedances(x, n, R, (seed + 1) >>> 0, memo?.arSums, memo?.arSumsOut);
    return ({ i, j }) => {
      const lo = Math.min(i, j);
      const hi = Math.max(i, j);
      return { p: ((exceed[lo * k + hi] ?? NaN) + 1) / (R + 1), direction: (means[i] ?? NaN) - (means[j] ?? NaN) };
    };
  },
} as const satisfies SignificanceTest<'ar'>;
