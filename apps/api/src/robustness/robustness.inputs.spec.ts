import { DomainError } from '@podium/domain';
import { parseRunRobustnessArgs } from './robustness.inputs';

const task = {
  slug: 'wmt',
  targetLang: 'en',
  metrics: [
    { key: 'bleu', name: 'bleu', options: {} },
    { key: 'chrf', name: 'chrf', options: {} },
  ],
};

function fieldOf(fn: () => unknown): unknown {
  try {
    fn();
  } catch (e) {
    if (e instanceof DomainError) return { code: e.code, ...e.details };
    throw e;
  }
  throw new Error('expected an error');
}

describe('parseRunRobustnessArgs', () => {
  it('tests every metric of the task on the built-in suite in ref mode when nothing is named', () => {
    expect(parseRunRobustnessArgs({}, task)).toEqual({ metrics: ['bleu', 'chrf'], suite: 'builtin:wmt20-de', mode: 'ref' });
  });

  it('keeps a named metric, a generated suite and src mode on a built-in suite', () => {
    expect(parseRunRobustnessArgs({ metric: 'chrf', suite: 'generated:7' }, task)).toEqual({ metrics: ['chrf'], suite: 'generated:7', mode: 'ref' });
    expect(parseRunRobustnessArgs({ suite: 'builtin:wmt20-de', mode: 'src' }, task).mode).toBe('src');
  });

  it('rejects a metric the task does not configure, naming the field', () => {
    expect(fieldOf(() => parseRunRobustnessArgs({ metric: 'ter' }, task))).toEqual({ code: 'INVALID_INPUT', field: 'metric' });
  });

  it('rejects unknown built-in suites, malformed suite ids and bad modes', () => {
    expect(fieldOf(() => parseRunRobustnessArgs({ suite: 'builtin:nope' }, task))).toEqual({ code: 'INVALID_INPUT', field: 'suite' });
    expect(fieldOf(() => parseRunRobustnessArgs({ suite: 'data.csv' }, task))).toEqual({ code: 'INVALID_INPUT', field: 'suite' });
    expect(fieldOf(() => parseRunRobustnessArgs({ suite: 'generated:-1' }, task))).toEqual({ code: 'INVALID_INPUT', field: 'suite' });
    expect(fieldOf(() => parseRunRobustnessArgs({ mode: 'both' }, task))).toEqual({ code: 'INVALID_INPUT', field: 'mode' });
  });

  it('rejects a generated suite in src mode and for references that are not English', () => {
    expect(fieldOf(() => parseRunRobustnessArgs({ suite: 'generated:1', mode: 'src' }, task))).toEqual({ code: 'INVALID_INPUT', field: 'mode' });
    expect(() => parseRunRobustnessArgs({ suite: 'generated:1' }, { ...task, targetLang: 'de' })).toThrow(/English references only.*'de'/);
    expect(parseRunRobustnessArgs({ suite: 'generated:1' }, { ...task, targetLang: 'en-GB' }).suite).toBe('generated:1');
  });
});
