import { analyseSystems } from '../analyse';

describe("Mood's median test plugin", () => {
  it("gives SciPy's median_test: χ² = 8.3333, p = 0.00389 for [1…6] against [7…12]", () => {
    // scipy.stats.median_test([1..6], [7..12]) → statistic 8.333333333333334, pvalue 0.003892...
    const a = analyseSystems({ systems: ['A', 'B'], instances: ['1', '2', '3', '4', '5', '6'], scores: [[1, 2, 3, 4, 5, 6], [7, 8, 9, 10, 11, 12]] }, { resamples: 100 });
    const r = a.pairs[0]?.tests.mood;
    expect(r && 'statistic' in r ? r.statistic : NaN).toBeCloseTo(8.333333333333334, 10);
    expect(r?.p).toBeCloseTo(0.003892, 5);
  });
});
