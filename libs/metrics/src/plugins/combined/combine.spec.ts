import { combineScores, combineWeightFor, combinedSignature, minMaxScale } from './combine';

describe('combineScores', () => {
  // Expected values computed by hand from C = w·N + (1 − w)·M with min–max scaling (M:1265–1271).
  it('min–max scales both components over the population and weights them', () => {
    const r = combineScores([0, 0.5, 1], [10, 30, 20], 0.2, { otherHigherIsBetter: true });
    // N = [0, .5, 1], M = [0, 1, .5] → C = [0, .1 + .8, .2 + .4]
    expect(r.values[0]).toBeCloseTo(0, 12);
    expect(r.values[1]).toBeCloseTo(0.9, 12);
    expect(r.values[2]).toBeCloseTo(0.6, 12);
    expect(r.bounds).toEqual({ nli: [0, 1], other: [10, 30] });
    expect(r.n).toBe(3);
  });

  it('flips a lower-is-better metric so that its lowest score scales to 1', () => {
    const r = combineScores([0.2, 0.2], [0.1, 0.5], 0.5, { otherHigherIsBetter: false });
    // N constant → 0.5 each; M = [1, 0] → C = [.25 + .5, .25]
    expect(r.values[0]).toBeCloseTo(0.75, 12);
    expect(r.values[1]).toBeCloseTo(0.25, 12);
  });

  it('gives C = .2·.9 + .8·0 = .18 and .2·0 + .8·1 = .8 for N = [.9, .1], M = [20, 40], w = .2', () => {
    // N scales to [1, 0], M to [0, 1]: C = [.2, .8].
    const r = combineScores([0.9, 0.1], [20, 40], 0.2, { otherHigherIsBetter: true });
    expect(r.values[0]).toBeCloseTo(0.2, 12);
    expect(r.values[1]).toBeCloseTo(0.8, 12);
  });

  it('changes an instance value when the population changes (bounds are part of the result)', () => {
    const small = combineScores([0, 1], [0, 1], 0.5, { otherHigherIsBetter: true });
    const large = combineScores([0, 1, 2], [0, 1, 2], 0.5, { otherHigherIsBetter: true });
    expect(small.values[1]).toBeCloseTo(1, 12);
    expect(large.values[1]).toBeCloseTo(0.5, 12);
  });

  it('rejects a weight outside [0, 1], length mismatch, empty and non-finite input', () => {
    expect(() => combineScores([1], [1], 1.5, { otherHigherIsBetter: true })).toThrow('weight must lie in [0, 1]');
    expect(() => combineScores([1], [1, 2], 0.5, { otherHigherIsBetter: true })).toThrow('NLI has 1 scores');
    expect(() => combineScores([], [], 0.5, { otherHigherIsBetter: true })).toThrow('empty');
    expect(() => combineScores([NaN], [1], 0.5, { otherHigherIsBetter: true })).toThrow('non-finite');
  });
});

describe('minMaxScale', () => {
  it('maps [2, 4, 6] to [0, .5, 1], flipped to [1, .5, 0], and a constant set to .5', () => {
    expect(minMaxScale([2, 4, 6])).toEqual([0, 0.5, 1]);
    expect(minMaxScale([2, 4, 6], false)).toEqual([1, 0.5, 0]);
    expect(minMaxScale([3, 3])).toEqual([0.5, 0.5]);
  });
});

describe('combinedSignature', () => {
  it('pins both component signatures, the weight, the direction of M, the normalisation set and its bounds', () => {
    expect(
      combinedSignature({
        nliSignature: 'nli|v1',
        otherSignature: 'ter|v1',
        w: 0.2,
        otherHigherIsBetter: false,
        scale: 'phase',
        bounds: { nli: [-0.25, 0.75], other: [40, 60.5] },
        n: 4,
      }),
    ).toBe('combined|nli:(nli|v1)|with:(ter|v1)|w:0.2|M-dir:lower|scale:phase-minmax|N:[-0.25,0.75]|M:[40,60.5]|n:4');
  });
  it('leaves out bounds when there are several normalisation sets and appends extra fields', () => {
    expect(
      combinedSignature({ nliSignature: 'a', otherSignature: 'b', w: 0.30000000000000004, otherHigherIsBetter: true, scale: 'suite-phenomenon', extra: ['seed:7'] }),
    ).toBe('combined|nli:(a)|with:(b)|w:0.3|M-dir:higher|scale:suite-phenomenon-minmax|seed:7');
  });
});

describe('combineWeightFor', () => {
  it("takes the task's weight, else MENLI's .8 for summarisation (M:1466) and .2 otherwise (M:1329–1334)", () => {
    expect(combineWeightFor('mt', 0.5)).toBe(0.5);
    expect(combineWeightFor('summarization', null)).toBe(0.8);
    expect(combineWeightFor('data-to-text')).toBe(0.2);
  });
});
