import { InvalidInputError } from '@podium/domain';
import { checkMetricOptions } from './metric-options';

describe('checkMetricOptions (task creation)', () => {
  it('accepts the options sacreBLEU and MENLI define', () => {
    expect(() =>
      checkMetricOptions([
        { key: 'bleu-intl', name: 'bleu', options: { tokenize: 'intl', smooth: 'floor', smoothValue: 0.1 } },
        { key: 'chrf', name: 'chrf++', options: { beta: 2 } },
        { key: 'nli', name: 'nli', options: { formula: 'e-c', direction: 'ref<-hyp' } },
      ]),
    ).not.toThrow();
  });

  it('names the metric key, the implementation and the option of a typo, with the field path', () => {
    let caught: unknown;
    try {
      checkMetricOptions([
        { key: 'bleu', name: 'bleu', options: {} },
        { key: 'bleu-intl', name: 'bleu', options: { tokenise: 'intl' } },
      ]);
    } catch (e) {
      caught = e;
    }
    expect(caught).toBeInstanceOf(InvalidInputError);
    expect((caught as InvalidInputError).message).toMatch(/^metrics\.1\.options\.tokenise: metric 'bleu-intl' \(bleu\): option 'tokenise' does not apply to bleu \(allowed: tokenize,/);
    expect((caught as InvalidInputError).details).toEqual({ field: 'metrics.1.options.tokenise' });
  });

  it('rejects a value outside the definition (an NLI formula MENLI does not define)', () => {
    expect(() => checkMetricOptions([{ key: 'nli', name: 'nli', options: { formula: 'e+c' } }])).toThrow("metrics.0.options.formula: metric 'nli' (nli): option 'formula' of nli:");
  });
});
