import { analyseSystems } from '../analyse';

describe('Wilcoxon signed-rank plugin', () => {
  it('gives the exact p = 2/32 for five equal positive differences (SciPy ≥ 1.15, method auto)', () => {
    const a = analyseSystems({ systems: ['A', 'B'], instances: ['1', '2', '3', '4', '5'], scores: [[1, 1, 1, 1, 1], [0, 0, 0, 0, 0]] }, { resamples: 100 });
    expect(a.pairs[0]?.tests.wilcoxon).toEqual({ statistic: 0, p: 0.0625 });
  });

  it('is skipped on boards above its cell limit unless asked for', () => {
    const a = analyseSystems({ systems: ['A', 'B'], instances: ['1', '2', '3'], scores: [[1, 2, 3], [0, 2, 1]] }, { resamples: 100, pairTests: ['ttest'] });
    expect(a.settings.skipped_tests).toContain('wilcoxon');
    expect(a.pairs[0]?.tests.wilcoxon.p).toBeNaN();
  });
});
