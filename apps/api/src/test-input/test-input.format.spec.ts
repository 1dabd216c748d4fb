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

  it('adds the optional context: a JSON column in TSV, a field in JSONL, nothing in plain lines', () => {
    const withContext = { id: 's2', source: 'Es regnet.', context: { doc: 'd1', previous: 'Der Himmel ist grau.' } };
    expect(testInputHeader('tsv', true)).toBe('id\tsource\tcontext\n');
    expect(testInputLine('tsv', withContext, true)).toBe('s2\tEs regnet.\t{"doc":"d1","previous":"Der Himmel ist grau."}\n');
    expect(testInputLine('tsv', { id: 's3', source: 'x' }, true)).toBe('s3\tx\t\n');
    expect(JSON.parse(testInputLine('jsonl', withContext))).toEqual(withContext);
    expect(testInputLine('txt', withContext)).toBe('Es regnet.\n');
  });
});
