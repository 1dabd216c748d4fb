import { binomialTwoSidedP } from '../special-functions';
import type { SignificanceTest } from './test';

/** Sign test: exact binomial on the instances where the pair differs (ties dropped). Direction: wins − losses. */
export const signTest = {
  key: 'sign',
  label: 'sign test (exact binomial, ties dropped)',
  order: 30,
  corpus: false,
  statistic: false,
  prepare: ({ wins, k }) => ({ i, j }) => {
    const w = wins[i * k + j] ?? 0;
    const l = wins[j * k + i] ?? 0;
    return { p: binomialTwoSidedP(w, w + l), direction: w - l };
  },
} as const satisfies SignificanceTest<'sign'>;
