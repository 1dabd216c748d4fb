import { serialize } from 'node:v8';
import { emptyAnalysisMemo, type AnalysisMemo } from '@podium/ranking';
import { parseMemo, serialiseMemo, systemFingerprints } from './memo';

describe('stored analysis memos (ADR 0027)', () => {
  const memo = (): AnalysisMemo => ({
    context: '[10,1,1,0,["ttest"]]',
    systems: new Map([['fa', { mean: Float64Array.of(0.5, 0.25), median: Float64Array.of(0.5, 0.5), corpus: new Float64Array(0), arSums: new Float64Array(0), corpusTotals: Float64Array.of(12, 7) }]]),
    pairs: new Map([['fa\u0000fb', { medianDiff: 0.125, outcomes: {} }]]),
  });

  it('reads back what it stored', () => {
    expect(parseMemo(serialiseMemo(memo()))).toEqual(memo());
  });

  it('reads a format-2 memo (which also kept resampled wins) without its wins', () => {
    const m = memo();
    const systems = new Map([...m.systems].map(([f, s]) => [f, { ...s, wins: Float64Array.of(3, 4) }]));
    const v2 = serialize({ v: 2, context: m.context, systems, pairs: m.pairs, winsAgainst: ['fa'] });
    const read = parseMemo(v2);
    expect(read.context).toBe(m.context);
    expect(read.systems.get('fa')?.mean).toEqual(Float64Array.of(0.5, 0.25));
    expect(read.pairs).toEqual(m.pairs);
    expect(Object.keys(read)).toEqual(['context', 'systems', 'pairs']);
  });

  it('reads an unknown format or unreadable bytes as an empty memo', () => {
    expect(parseMemo(serialize({ v: 1, context: 'x', systems: new Map(), pairs: new Map() }))).toEqual(emptyAnalysisMemo());
    expect(parseMemo(Uint8Array.of(1, 2, 3))).toEqual(emptyAnalysisMemo());
    expect(parseMemo(null)).toEqual(emptyAnalysisMemo());
  });

  it('fingerprints statistics by their stored key without reading them: another key, another fingerprint', () => {
    const instances = ['i1', 'i2'];
    const scores = [[1, 2], [3, 4]];
    const byKey = (keys: string[]) => systemFingerprints(instances, ['a', 'b'], scores, { keys });
    const [a, b] = byKey(['10:md5-a', '10:md5-b']);
    expect(byKey(['10:md5-a', '10:md5-b'])).toEqual([a, b]);
    // the other system's statistics changed: only its fingerprint moves
    const [a2, b2] = byKey(['10:md5-a', '10:md5-c']);
    expect(a2).toBe(a);
    expect(b2).not.toBe(b);
    // a key names statistics apart from their bytes: never the fingerprint of the bytes
    expect(systemFingerprints(instances, ['a', 'b'], scores, { width: 1, data: [Float64Array.of(1, 2), Float64Array.of(3, 4)] })[0]).not.toBe(a);
  });
});
