import { moodMedianTestSorted } from '../paired-tests';
import type { SignificanceTest } from './test';

/** Mood's median test (SciPy `median_test` defaults; unpaired). Direction: the difference of medians. */
export const moodTest = {
  key: 'mood',
  label: "Mood's median test",
  order: 40,
  corpus: false,
  statistic: true,
  prepare: ({ sorted, medians }) => ({ i, j }) => {
    const a = sorted[i];
    const b = sorted[j];
    if (!a || !b) throw new RangeError(`mood: no scores for system ${a ? j : i}`);
    const m = moodMedianTestSorted(a, b);
    return { statistic: m.statistic, p: m.p, direction: (medians[i] ?? NaN) - (medians[j] ?? NaN) };
  },
} as const satisfies SignificanceTest<'mood'>;
