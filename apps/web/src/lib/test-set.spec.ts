import { describeProblems, MAX_PROBLEMS, parseTestSet } from './test-set';

describe('parseTestSet', () => {
  it('reads JSONL instances with references or a single reference, skipping blank lines', () => {
    const r = parseTestSet('{"id":"1","source":"a","references":["x","y"]}\n\n{"id":2,"source":"b","reference":"z"}\n');
    expect(r).toEqual({
      ok: true,
      instances: [
        { id: '1', source: 'a', references: ['x', 'y'] },
        { id: '2', source: 'b', references: ['z'] },
      ],
    });
  });

  it('points at the line of the first problem', () => {
    expect(parseTestSet('{"id":"1","source":"a","references":["x"]}\n{"id":"2","source":"b"}')).toMatchObject({ ok: false, line: 2, message: '"references" must be a non-empty list of strings' });
    expect(parseTestSet('{"id":"1","source":"a","references":["x"]}\nnot json')).toMatchObject({ ok: false, line: 2, message: 'not valid JSON' });
    expect(parseTestSet('{"id":"1","source":"a","references":["x"]}\n{"id":"1","source":"a","references":["x"]}')).toMatchObject({ ok: false, line: 2 });
  });

  it('refuses an empty file', () => {
    expect(parseTestSet('\n')).toMatchObject({ ok: false });
  });

  it('keeps an optional context object and refuses a context that is not an object', () => {
    const ok = parseTestSet('{"id":"a","source":"s","references":["r"],"context":{"doc":"d1"}}');
    expect(ok).toEqual({ ok: true, instances: [{ id: 'a', source: 's', references: ['r'], context: { doc: 'd1' } }] });
    expect(parseTestSet('{"id":"a","source":"s","references":["r"],"context":"d1"}')).toMatchObject({ ok: false, line: 1, message: '"context" must be an object' });
  });

  it('names every bad line, not only the first, up to MAX_PROBLEMS, and counts the rest', () => {
    const good = '{"id":"ok","source":"a","references":["x"]}';
    const r = parseTestSet([good, 'not json', good.replace('"ok"', '"b"'), '{"id":"c","source":"s"}'].join('\n'));
    expect(r).toMatchObject({ ok: false, more: 0, problems: [{ line: 2, message: 'not valid JSON' }, { line: 4, message: '"references" must be a non-empty list of strings' }] });
    if (!r.ok) expect(describeProblems(r.problems, r.more)).toBe('Line 2: not valid JSON. Line 4: "references" must be a non-empty list of strings.');
    const many = parseTestSet(Array.from({ length: MAX_PROBLEMS + 5 }, () => 'x').join('\n'));
    expect(many).toMatchObject({ ok: false, more: 5 });
    if (!many.ok) {
      expect(many.problems).toHaveLength(MAX_PROBLEMS);
      expect(describeProblems(many.problems, many.more)).toMatch(/Line 20: not valid JSON\. And 5 more bad lines\.$/);
    }
  });
});
