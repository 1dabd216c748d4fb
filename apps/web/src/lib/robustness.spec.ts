import { phenomenonBars, phenomenonLabel, TRADEOFF_MEASURES, tradeoffPartners, tradeoffRows } from './robustness';

describe('robustness bars', () => {
  it('names MENLI phenomena in words and keeps unknown codes', () => {
    expect(phenomenonLabel('neg')).toBe('negation');
    expect(phenomenonLabel('subject_verb_dis')).toBe('subject–verb disagreement');
    expect(phenomenonLabel('new_code')).toBe('new_code');
  });

  it('puts the weakest phenomenon first', () => {
    const bars = phenomenonBars([
      { phenomenon: 'num', accuracy: 0.9, n: 10, passed: 9, ci: { low: 0.7, high: 1 } },
      { phenomenon: 'neg', accuracy: 0.4, n: 10, passed: 4, ci: { low: 0.1, high: 0.7 } },
      { phenomenon: 'typo', accuracy: 0.9, n: 10, passed: 9, ci: { low: null, high: null } },
    ]);
    expect(bars.map((b) => b.label)).toEqual(['negation', 'number', 'typos']);
    expect(bars[0]).toMatchObject({ code: 'neg', low: 0.1, high: 0.7, passed: 4 });
  });
});

describe('trade-off chart rows', () => {
  const ci = (a: number) => ({ low: a - 0.01, high: a + 0.01 });
  const robustness = [
    { with: 'chrf', w: 1, accuracy: 0.213, ci: ci(0.213) },
    { with: 'chrf', w: 0, accuracy: 0.202, ci: ci(0.202) },
    { with: 'ter', w: 0, accuracy: 0.172, ci: ci(0.172) },
    { with: 'chrf', w: 0.5, accuracy: 0.256, ci: { low: null, high: null } },
  ];

  it('lists the partner metrics once each, in stored order', () => {
    expect(tradeoffPartners(robustness)).toEqual(['chrf', 'ter']);
  });

  it('maps one partner’s accuracies (with intervals) and Pearsons to rows sorted by w, one measure each', () => {
    const rows = tradeoffRows('chrf', robustness, [
      { with: 'chrf', w: 1, segmentPearson: 0.319 },
      { with: 'chrf', w: 0, segmentPearson: 0.531 },
      { with: 'chrf', w: 0.5, segmentPearson: null },
      { with: 'ter', w: 0, segmentPearson: 0.415 },
    ]);
    expect(rows).toEqual([
      { w: 0, measure: TRADEOFF_MEASURES.accuracy, value: 0.202, low: expect.closeTo(0.192, 12), high: expect.closeTo(0.212, 12) },
      { w: 0.5, measure: TRADEOFF_MEASURES.accuracy, value: 0.256, low: null, high: null },
      { w: 1, measure: TRADEOFF_MEASURES.accuracy, value: 0.213, low: expect.closeTo(0.203, 12), high: expect.closeTo(0.223, 12) },
      { w: 0, measure: TRADEOFF_MEASURES.pearson, value: 0.531, low: null, high: null },
      { w: 1, measure: TRADEOFF_MEASURES.pearson, value: 0.319, low: null, high: null },
    ]);
  });

  it('draws accuracy only when there is no report card', () => {
    expect(new Set(tradeoffRows('ter', robustness, null).map((r) => r.measure))).toEqual(new Set([TRADEOFF_MEASURES.accuracy]));
    expect(tradeoffRows('bleu', robustness)).toEqual([]);
  });
});
