import type { PhaseFreshness } from '@podium/db';
import { abortsComputation, DEFAULT_VIEW_KEY, isStaleWork, staleWork } from './staleness';
import { defaultView, viewKey } from './view';

describe('isStaleWork (drop a computation whose stamp moved on, with a progress guarantee)', () => {
  const NOW = 1_000_000;
  const now = () => NOW;
  const ago = (ms: number) => new Date(NOW - ms);
  const repo = (f: Partial<PhaseFreshness> & { stamp: string }) => {
    const asked: string[] = [];
    const freshness = async (_phase: string, key: string): Promise<PhaseFreshness> => {
      asked.push(key);
      return { newest: null, firstScored: null, scoring: 0, ...f };
    };
    return { asked, freshness };
  };

  it('keeps a computation of the current stamp', async () => {
    expect(await isStaleWork(repo({ stamp: 's1', newest: ago(1_000) }), 'p', 's1', 120_000, now)).toBe(false);
    expect(await isStaleWork(repo({ stamp: 's1', newest: ago(10 * 60_000), scoring: 3 }), 'p', 's1', 120_000, now)).toBe(false);
  });

  it('drops one whose stamp moved on while the default board is recent', async () => {
    const r = repo({ stamp: 's2', newest: ago(119_000), scoring: 5 });
    expect(await isStaleWork(r, 'p', 's1', 120_000, now)).toBe(true);
    expect(r.asked).toEqual([viewKey(defaultView('', 'primary'))]);
    expect(DEFAULT_VIEW_KEY).toBe(viewKey(defaultView('', 'primary')));
  });

  it('while submissions are still being scored, finishes it once the default board is older than the bound', async () => {
    expect(await isStaleWork(repo({ stamp: 's2', newest: ago(120_000), scoring: 1 }), 'p', 's1', 120_000, now)).toBe(false);
    // none stored: counted from the first submission scored
    expect(await isStaleWork(repo({ stamp: 's2', newest: null, firstScored: ago(130_000), scoring: 4 }), 'p', 's1', 120_000, now)).toBe(false);
    expect(await isStaleWork(repo({ stamp: 's2', newest: null, firstScored: ago(30_000), scoring: 4 }), 'p', 's1', 120_000, now)).toBe(true);
  });

  it('with nothing left to score, drops it for the final stamp unless the board is older than twice the bound', async () => {
    // The end of a burst: the outdated computation gives way to the final stamp's.
    expect(await isStaleWork(repo({ stamp: 's2', newest: ago(150_000), scoring: 0 }), 'p', 's1', 120_000, now)).toBe(true);
    expect(await isStaleWork(repo({ stamp: 's2', newest: null, firstScored: ago(20_000), scoring: 0 }), 'p', 's1', 120_000, now)).toBe(true);
    // A stream of submissions each scored before the next: progress is still guaranteed.
    expect(await isStaleWork(repo({ stamp: 's2', newest: ago(240_000), scoring: 0 }), 'p', 's1', 120_000, now)).toBe(false);
  });

  it('with a bound of 0 always finishes (the guarantee applies at once)', async () => {
    expect(await isStaleWork(repo({ stamp: 's2', newest: ago(0), scoring: 0 }), 'p', 's1', 0, now)).toBe(false);
    expect(await isStaleWork(repo({ stamp: 's2', newest: null, firstScored: null }), 'p', 's1', 0, now)).toBe(false);
  });

  it('staleWork: a stale computation finishes the view in progress while submissions wait to be scored, and is dropped at once when none does', async () => {
    expect(await staleWork(repo({ stamp: 's1', newest: ago(1_000), scoring: 2 }), 'p', 's1', 120_000, now)).toBe('current');
    // During a burst: its memo is what makes the next computation cheap.
    expect(await staleWork(repo({ stamp: 's2', newest: ago(1_000), scoring: 2 }), 'p', 's1', 120_000, now)).toBe('finish-view');
    expect(await staleWork(repo({ stamp: 's2', newest: null, firstScored: ago(30_000), scoring: 4 }), 'p', 's1', 120_000, now)).toBe('finish-view');
    // The end of the burst: the final stamp starts from the memo of the last finished computation.
    expect(await staleWork(repo({ stamp: 's2', newest: ago(1_000), scoring: 0 }), 'p', 's1', 120_000, now)).toBe('drop');
    // The progress guarantee: finished whole.
    expect(await staleWork(repo({ stamp: 's2', newest: ago(120_000), scoring: 1 }), 'p', 's1', 120_000, now)).toBe('current');
  });
});

describe('abortsComputation (what the worker terminates when the stamp moves on)', () => {
  it('stops everything at the end of a burst, and nothing while the stamp is current', () => {
    expect(abortsComputation('drop', [], [], 2)).toBe(true);
    expect(abortsComputation('drop', ['fill', 'memo'], [], 2)).toBe(true);
    expect(abortsComputation('current', ['plain', 'plain'], [], 2)).toBe(false);
  });

  it('during a burst, stops an analysis that keeps nothing a fill did not, once no thread fills', () => {
    expect(abortsComputation('finish-view', ['plain'], [], 1)).toBe(true);
    expect(abortsComputation('finish-view', ['plain', 'plain'], [], 2)).toBe(true);
    expect(abortsComputation('finish-view', ['plain', 'fill'], [], 2)).toBe(false);
    // an analysis that keeps a memo is finished: its work is the next computation's
    expect(abortsComputation('finish-view', ['memo'], [], 1)).toBe(false);
    expect(abortsComputation('finish-view', ['fill'], [], 1)).toBe(false);
  });

  it('during a burst, goes on while a thread has not begun: it is about to fill its memos', () => {
    // the first thread's memos were current and it began its analysis; the second is still starting up
    expect(abortsComputation('finish-view', ['plain'], [], 2)).toBe(false);
    const stages: ('fill' | 'memo' | 'plain' | undefined)[] = [];
    stages[1] = 'plain';
    expect(abortsComputation('finish-view', stages, [], 2)).toBe(false);
    expect(abortsComputation('finish-view', [], [], 2)).toBe(false);
  });

  it('counts a thread that ended as begun and leaves its last stage out', () => {
    // the first thread ended after a plain analysis; the second's analysis keeps a memo: finished
    expect(abortsComputation('finish-view', ['plain', 'memo'], [true], 2)).toBe(false);
    // the first thread ended before it said anything (no analysis of its share); the second runs plain
    expect(abortsComputation('finish-view', [undefined, 'plain'], [true], 2)).toBe(true);
    expect(abortsComputation('finish-view', ['plain', 'plain'], [true, true], 2)).toBe(false);
  });
});
