import { moodMedianTestSorted, moodMedianTestUnsorted } from '../paired-tests';
import type { SignificanceTest } from './test';

/**
 * Mood's median test (SciPy `median_test` defaults; unpaired). Direction: the difference of medians.
 * On the sorted rows in O(log n); a row the analysis did not sort (a system whose medians the memo
 * holds, issue #28) in O(n), the grand median selected between the two medians, with the same
 * outcome. Memoisable: it reads the pair's two rows only.
 */
export const moodTest = {
  key: 'mood',
  label: "Mood's median test",
  order: 40,
  corpus: false,
  statistic: true,
  memoisable: true,
  prepare: ({ x, n, sorted, medians }) => {
    let scratch: Float64Array | null = null;
    return ({ i, j }) => {
      const a = sorted[i];
      const b = sorted[j];
      let m;
      if (a && b && a.length === n && b.length === n) m = moodMedianTestSorted(a, b);
      else {
        const xa = x[i];
        const xb = x[j];
        if (!xa || !xb) throw new RangeError(`mood: no scores for system ${xa ? j : i}`);
        const mi = medians[i];
        const mj = medians[j];
        m = moodMedianTestUnsorted(xa, xb, (scratch ??= new Float64Array(2 * n)), mi !== undefined && mj !== undefined ? [mi, mj] : undefined);
      }
      return { statistic: m.statistic, p: m.p, direction: (medians[i] ?? NaN) - (medians[j] ?? NaN) };
    };
  },
} as const satisfies SignificanceTest<'mood'>;
