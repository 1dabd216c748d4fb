import { createHash } from 'node:crypto';
import { parseStoredSplit, pickRows, publicPositions, scoringPart, scoringPartNote } from './instance-split';

const IDS = Array.from({ length: 10 }, (_, k) => `s${k}`);

describe('public/private split of a phase (ADR 0014)', () => {
  it('takes the listed ids as the public part, in test-set order, ignoring unknown ids', () => {
    expect(publicPositions(IDS, { publicIds: ['s7', 's2', 'nope'], seed: 0, finalOn: 'private' })).toEqual([2, 7]);
  });

  it('draws round(f·n) ids, the smallest sha256(seed:id) — recomputed here from the definition', () => {
    const byHash = [...IDS].sort((a, b) => {
      const ha = createHash('sha256').update(`7:${a}`).digest('hex');
      const hb = createHash('sha256').update(`7:${b}`).digest('hex');
      return ha < hb ? -1 : 1;
    });
    const expected = byHash.slice(0, 3).map((id) => IDS.indexOf(id)).sort((a, b) => a - b);
    expect(publicPositions(IDS, { publicFraction: 0.3, seed: 7, finalOn: 'private' })).toEqual(expected);
    // Another seed, another draw of the same size.
    expect(publicPositions(IDS, { publicFraction: 0.3, seed: 8, finalOn: 'private' })).toHaveLength(3);
  });

  it('keeps at least one instance on each side', () => {
    expect(publicPositions(IDS, { publicFraction: 0.01, seed: 0, finalOn: 'private' })).toHaveLength(1);
    expect(publicPositions(IDS, { publicFraction: 0.99, seed: 0, finalOn: 'private' })).toHaveLength(9);
  });

  it('ranks on the public part before publishing, the private part (or all) after', () => {
    const split = { publicIds: ['s0', 's1', 's2'], seed: 0, finalOn: 'private' as const };
    const before = scoringPart({ publishedAt: null, split }, IDS);
    expect(before).toEqual({ part: 'public', positions: [0, 1, 2], total: 10 });
    const after = scoringPart({ publishedAt: new Date(), split }, IDS);
    expect(after).toEqual({ part: 'private', positions: [3, 4, 5, 6, 7, 8, 9], total: 10 });
    expect(scoringPartNote(after, true)).toBe('ranked on the private part: 7 of 10 instances');
    expect(scoringPart({ publishedAt: new Date(), split: { ...split, finalOn: 'all' } }, IDS)).toEqual({ part: 'all', positions: null, total: 10 });
    expect(scoringPart({ publishedAt: null, split: null }, IDS)).toEqual({ part: 'all', positions: null, total: 10 });
  });

  it('treats a stored value that is not a valid split as none', () => {
    expect(parseStoredSplit({ publicFraction: 2 })).toBeNull();
    expect(parseStoredSplit({ publicIds: ['a'], publicFraction: 0.5 })).toBeNull();
    expect(parseStoredSplit({ publicFraction: 0.5 })).toEqual({ publicFraction: 0.5, seed: 0, finalOn: 'private' });
  });

  it('picks rows of row-major statistics', () => {
    expect(Array.from(pickRows([1, 2, 3, 4, 5, 6], 2, [0, 2]))).toEqual([1, 2, 5, 6]);
  });
});
