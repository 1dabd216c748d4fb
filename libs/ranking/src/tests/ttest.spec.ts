import { analyseSystems } from '../analyse';
import { tTest } from './ttest';

describe('paired t-test plugin', () => {
  it("gives SciPy's ttest_rel on the pair: t = 4.7002, p = 0.01820 for d = [1, 2, 3, 3]", () => {
    // scipy.stats.ttest_rel([1, 2, 3, 4], [0, 0, 0, 1]) → statistic 4.700096710803842, pvalue 0.018203...
    const a = analyseSystems({ systems: ['A', 'B'], instances: ['1', '2', '3', '4'], scores: [[1, 2, 3, 4], [0, 0, 0, 1]] }, { resamples: 100 });
    const r = a.pairs[0]?.tests.ttest;
    expect(r && 'statistic' in r ? r.statistic : NaN).toBeCloseTo(4.700096710803842, 10);
    expect(r?.p).toBeCloseTo(0.0182, 4);
  });

  it('reports t in the input orientation and points to the larger mean when lower is better', () => {
    const run = tTest.prepare({ sign: -1, means: [2, 1] } as unknown as Parameters<typeof tTest.prepare>[0]);
    const d = Float64Array.from([1, 2, 3, 3]);
    const out = run({ i: 0, j: 1, diffs: d, sortedDiffs: () => d });
    expect(out.statistic).toBeCloseTo(-4.700096710803842, 10);
    expect(out.direction).toBe(1);
  });
});
