import { checkLabelOrder, confusionMatrix, predictedClass, supportedId2label } from './label-check';

describe('NLI label-order check', () => {
  it('counts gold rows × predicted columns in entailment, neutral, contradiction order', () => {
    expect(confusionMatrix(['entailment', 'neutral', 'contradiction', 'entailment'], ['entailment', 'contradiction', 'contradiction', 'neutral'])).toEqual([
      [1, 1, 0],
      [0, 0, 1],
      [0, 0, 1],
    ]);
  });

  it('keeps the identity when it maximises the diagonal (accuracy by hand: 12/20)', () => {
    const c = checkLabelOrder([
      [5, 2, 1],
      [2, 4, 1],
      [1, 1, 3],
    ]);
    expect(c).toEqual({ accuracy: 12 / 20, supported: { entailment: 'entailment', neutral: 'neutral', contradiction: 'contradiction' }, supportedAccuracy: 12 / 20, consistent: true });
  });

  it('finds the order the data supports when entailment and contradiction are swapped', () => {
    const c = checkLabelOrder([
      [0, 1, 9],
      [1, 8, 1],
      [9, 0, 1],
    ]);
    expect(c.consistent).toBe(false);
    expect(c.supported).toEqual({ entailment: 'contradiction', neutral: 'neutral', contradiction: 'entailment' });
    expect(c.accuracy).toBeCloseTo(9 / 30, 12);
    expect(c.supportedAccuracy).toBeCloseTo(26 / 30, 12);
  });

  it('does not flag a model at chance (ties keep the identity)', () => {
    expect(checkLabelOrder([[1, 1, 1], [1, 1, 1], [1, 1, 1]]).consistent).toBe(true);
  });

  it("renames config.json's outputs as the data supports, and picks the most probable class", () => {
    expect(supportedId2label({ entailment: 1, neutral: 2, contradiction: 0 }, { entailment: 'contradiction', neutral: 'neutral', contradiction: 'entailment' })).toEqual({
      0: 'entailment',
      1: 'contradiction',
      2: 'neutral',
    });
    expect(predictedClass({ e: 0.2, n: 0.5, c: 0.3 })).toBe('neutral');
    expect(predictedClass({ e: 0.1, n: 0.2, c: 0.7 })).toBe('contradiction');
  });
});
