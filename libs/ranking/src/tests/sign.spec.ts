import { analyseSystems } from '../analyse';

describe('sign test plugin', () => {
  it('gives the exact binomial p = 0.375 for 4 wins and 1 loss (2·P(X ≤ 1), X ~ Bin(5, ½) = 2·6/32)', () => {
    const a = analyseSystems({ systems: ['A', 'B'], instances: ['1', '2', '3', '4', '5'], scores: [[1, 1, 1, 1, 0], [0, 0, 0, 0, 1]] }, { resamples: 100 });
    expect(Object.keys(a.pairs[0]?.tests.sign ?? {})).toEqual(['p']);
    expect(a.pairs[0]?.tests.sign.p).toBeCloseTo(0.375, 12);
  });
});
