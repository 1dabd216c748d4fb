import { escapeField, testInputHeader, testInputLine } from './test-input.format';

describe('test input lines', () => {
  const row = { id: 's1', source: 'Das Haus\tist\nklein \\ groß' };

  it('keeps one instance on one TSV line, escaping tab, newline and backslash', () => {
    expect(testInputHeader('tsv')).toBe('id\tsource\n');
    expect(testInputLine('tsv', row)).toBe('s1\tDas Haus\\tist\\nklein \\\\ groß\n');
  });

  it('writes JSONL objects with id and source and nothing else', () => {
    expect(JSON.parse(testInputLine('jsonl', row))).toEqual({ id: 's1', source: row.source });
  });

  it('writes the escaped source alone as a plain line', () => {
    expect(testInputHeader('txt')).toBe('');
    expect(testInputLine('txt', row)).toBe('Das Haus\\tist\\nklein \\\\ groß\n');
    expect(escapeField('a\r\nb')).toBe('a\\r\\nb');
  });
});
