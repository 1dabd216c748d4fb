import { combineScores } from './combine';

describe('combineScores', () => {
  // Expected values computed by hand from C = w·N + (1 − w)·M with min–max scaling (M:1265–1271).
  it('min–max scales both components over the population and weights them', () => {
    const r = combineScores([0, 0.5, 1], [10, 30, 20], 0.2, { otherHigherIsBetter: true });
    // N = [0, .5, 1], M = [0, 1, .5] → C = [0, .1 + .8, .2 + .4]
    expect(r.values[0]).toBeCloseTo(0, 12);
    expect(r.values[1]).toBeCloseTo(0.9, 12);
    expect(r.values[2]).toBeCloseTo(0.6, 12);
    expect(r.bounds).toEqual({ nli: [0, 1], other: [10, 30] });
  });

  it('flips a lower-is-better metric so that its lowest score scales to 1', () => {
    const r = combineScores([0.2, 0.2], [0.1, 0.5], 0.5, { otherHigherIsBetter: false });
    // N constant → 0.5 each; M = [1, 0] → C = [.25 + .5, .25]
    expect(r.values[0]).toBeCloseTo(0.75, 12);
    expect(r.values[1]).toBeCloseTo(0.25, 12);
  });

  it('puts weight, population and bounds in the signature', () => {
    const r = combineScores([-0.25, 0.75], [40, 60.5], 0.8, { otherHigherIsBetter: true, population: 'phase:7' });
    expect(r.signature).toBe('combined|w:0.8|scale:minmax|pop:phase:7(n=2)|nli:[-0.25,0.75]|other:[40,60.5]|other-dir:higher');
  });

  it('changes an instance value when the population changes (bounds are part of the result)', () => {
    const small = combineScores([0, 1], [0, 1], 0.5, { otherHigherIsBetter: true });
    const large = combineScores([0, 1, 2], [0, 1, 2], 0.5, { otherHigherIsBetter: true });
    expect(small.values[1]).toBeCloseTo(1, 12);
    expect(large.values[1]).toBeCloseTo(0.5, 12);
  });

  it('rejects a weight outside [0, 1], length mismatch and empty input', () => {
    expect(() => combineScores([1], [1], 1.5, { otherHigherIsBetter: true })).toThrow('weight must lie in [0, 1]');
    expect(() => combineScores([1], [1, 2], 0.5, { otherHigherIsBetter: true })).toThrow('NLI has 1 scores');
    expect(() => combineScores([], [], 0.5, { otherHigherIsBetter: true })).toThrow('empty');
  });
});
