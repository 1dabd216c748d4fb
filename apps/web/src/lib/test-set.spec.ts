import { parseTestSet } from './test-set';

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
    expect(parseTestSet('{"id":"1","source":"a","references":["x"]}\n{"id":"2","source":"b"}')).toEqual({ ok: false, line: 2, message: '"references" must be a non-empty list of strings' });
    expect(parseTestSet('{"id":"1","source":"a","references":["x"]}\nnot json')).toMatchObject({ ok: false, line: 2, message: 'not valid JSON' });
    expect(parseTestSet('{"id":"1","source":"a","references":["x"]}\n{"id":"1","source":"a","references":["x"]}')).toMatchObject({ ok: false, line: 2 });
  });

  it('refuses an empty file', () => {
    expect(parseTestSet('\n')).toMatchObject({ ok: false });
  });

  it('keeps an optional context object and refuses a context that is not an object', () => {
    const ok = parseTestSet('{"id":"a","source":"s","references":["r"],"context":{"doc":"d1"}}');
    expect(ok).toEqual({ ok: true, instances: [{ id: 'a', source: 's', references: ['r'], context: { doc: 'd1' } }] });
    expect(parseTestSet('{"id":"a","source":"s","references":["r"],"context":"d1"}')).toEqual({ ok: false, line: 1, message: '"context" must be an object' });
  });
});
