import { wilcoxonFromSortedDiffs } from '../paired-tests';
import type { SignificanceTest } from './test';

/**
 * Pairs × instances above which Wilcoxon's signed-rank test (one sort of the differences per
 * pair) is computed only when asked for: 5·10⁷, e.g. 100 systems × 10,000 instances.
 */
export const WILCOXON_ALL_PAIRS_CELLS = 50_000_000;

/** Wilcoxon signed-rank test (exact for n ≤ 50; ../paired-tests.ts). Direction: R⁺ − R⁻. */
export const wilcoxonTest = {
  key: 'wilcoxon',
  label: 'Wilcoxon signed-rank test (exact for n ≤ 50)',
  order: 20,
  corpus: false,
  statistic: true,
  allPairsCellLimit: WILCOXON_ALL_PAIRS_CELLS,
  memoisable: true,
  prepare: () => (pair) => {
    const w = wilcoxonFromSortedDiffs(pair.sortedDiffs());
    return { statistic: w.statistic, p: w.p, direction: w.rPlus - w.rMinus };
  },
} as const satisfies SignificanceTest<'wilcoxon'>;
