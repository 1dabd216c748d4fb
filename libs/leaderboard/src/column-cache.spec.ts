import { BoardColumnCache, ThreadColumnCache, type SharedScoreColumn } from './column-cache';

/** A shared column of `n` values, every one `v`. */
function column(phaseId: string, submissionId: string, metric: string, n: number, v: number, version = '1'): SharedScoreColumn {
  const values = new SharedArrayBuffer(8 * n);
  new Float64Array(values).fill(v);
  return { phaseId, submissionId, metric, testSetId: 't', version, signature: `sig-${metric}`, values };
}

describe('BoardColumnCache', () => {
  it('gives a thread the columns of its phase only, and replaces a column added again (a rescore)', () => {
    const cache = new BoardColumnCache(1 << 20);
    cache.add(column('p1', 'a', 'bleu', 10, 1));
    cache.add(column('p1', 'b', 'bleu', 10, 2));
    cache.add(column('p2', 'c', 'bleu', 10, 3));
    expect(cache.forPhase('p1').map((c) => c.submissionId).sort()).toEqual(['a', 'b']);
    expect(cache.forPhase('p3')).toEqual([]);
    cache.add(column('p1', 'a', 'bleu', 10, 5, '2'));
    const a = cache.forPhase('p1').find((c) => c.submissionId === 'a');
    expect(a?.version).toBe('2');
    expect(new Float64Array(a?.values ?? new SharedArrayBuffer(0))[0]).toBe(5);
    expect(cache.size).toBe(3);
    expect(cache.bytes).toBe(3 * 80);
  });

  it('holds at most maxBytes of values: the columns least recently given or added go first, and a column larger than the bound is not kept', () => {
    const cache = new BoardColumnCache(3 * 80);
    cache.add(column('p1', 'a', 'bleu', 10, 1));
    cache.add(column('p1', 'b', 'bleu', 10, 1));
    cache.add(column('p2', 'c', 'bleu', 10, 1));
    // p1's columns were just given to a thread: p2's is now the least recently used
    cache.forPhase('p1');
    cache.add(column('p1', 'd', 'bleu', 10, 1));
    expect(cache.forPhase('p2')).toEqual([]);
    expect(cache.forPhase('p1').map((c) => c.submissionId).sort()).toEqual(['a', 'b', 'd']);
    expect(cache.bytes).toBe(3 * 80);
    cache.add(column('p1', 'e', 'bleu', 31, 1));
    expect(cache.size).toBe(3);
    expect(cache.bytes).toBe(3 * 80);
    // the same key added too large: the smaller one it replaces is gone too (it was stale)
    cache.add(column('p1', 'a', 'bleu', 31, 1, '2'));
    expect(cache.forPhase('p1').map((c) => c.submissionId).sort()).toEqual(['b', 'd']);
    expect(cache.bytes).toBe(2 * 80);
  });
});

describe('ThreadColumnCache', () => {
  it('keeps what it is given, and copies each column it reads into shared memory handed to its creator', () => {
    const kept: SharedScoreColumn[] = [];
    const given = column('p1', 'a', 'bleu', 4, 7);
    const cache = new ThreadColumnCache('p1', [given], (c) => kept.push(c));
    expect(Array.from(cache.get('a', 'bleu', 't')?.values ?? [])).toEqual([7, 7, 7, 7]);
    expect(cache.get('a', 'chrf', 't')).toBeUndefined();
    expect(cache.get('a', 'bleu', 'other test set')).toBeUndefined();
    const read = Float64Array.from([1, 2, 3]);
    cache.set('b', 'chrf', 't', { version: '9', signature: 's', values: read });
    // the matrix's row is its own: changing it changes nothing kept
    read[0] = 100;
    expect(Array.from(cache.get('b', 'chrf', 't')?.values ?? [])).toEqual([1, 2, 3]);
    expect(kept).toHaveLength(1);
    const posted = kept[0];
    expect(posted).toMatchObject({ phaseId: 'p1', submissionId: 'b', metric: 'chrf', testSetId: 't', version: '9', signature: 's' });
    expect(posted?.values).toBeInstanceOf(SharedArrayBuffer);
    expect(Array.from(new Float64Array(posted?.values ?? new SharedArrayBuffer(0)))).toEqual([1, 2, 3]);
    // what the creator kept is what the next thread of the phase finds
    const creator = new BoardColumnCache(1 << 20);
    kept.forEach((c) => creator.add(c));
    const next = new ThreadColumnCache('p1', creator.forPhase('p1'), () => undefined);
    expect(next.get('b', 'chrf', 't')).toMatchObject({ version: '9', signature: 's' });
  });
});
