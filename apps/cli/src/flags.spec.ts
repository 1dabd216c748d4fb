import { CliError } from './cli-error';
import { joinDashValues, parseFlags } from './flags';

const OPTIONS = { direction: { type: 'string' }, formula: { type: 'string' }, 'smooth-value': { type: 'string' }, lowercase: { type: 'boolean' } } as const;

describe('parseFlags', () => {
  it('takes values that begin with - as separate arguments for string options', () => {
    expect(parseFlags(['--direction', '->', '--formula', '-c', '--smooth-value', '-1'], OPTIONS)).toMatchObject({
      direction: '->',
      formula: '-c',
      'smooth-value': '-1',
    });
    expect(parseFlags(['--direction', '<->'], OPTIONS).direction).toBe('<->');
  });

  it('leaves a following --flag alone, so a forgotten value still fails clearly', () => {
    expect(joinDashValues(['--direction', '--lowercase'], OPTIONS)).toEqual(['--direction', '--lowercase']);
    expect(() => parseFlags(['--direction', '--lowercase'], OPTIONS)).toThrow(CliError);
  });

  it('does not join after boolean flags or the -- terminator', () => {
    expect(joinDashValues(['--lowercase', '-x'], OPTIONS)).toEqual(['--lowercase', '-x']);
    expect(joinDashValues(['--', '--direction', '->'], OPTIONS)).toEqual(['--', '--direction', '->']);
  });
});
