import { phenomenonBars, phenomenonLabel } from './robustness';

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
