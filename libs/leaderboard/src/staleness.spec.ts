import { DEFAULT_VIEW_KEY, isStaleWork } from './staleness';
import { defaultView, viewKey } from './view';

describe('isStaleWork (drop a computation whose stamp moved on, with a progress guarantee)', () => {
  const now = () => 1_000_000;
  const repo = (stamp: string, newest: Date | null) => {
    const asked: string[] = [];
    return { asked, freshness: async (_phase: string, key: string) => (asked.push(key), { stamp, newest }) };
  };

  it('keeps a computation of the current stamp', async () => {
    expect(await isStaleWork(repo('s1', new Date(999_000)), 'p', 's1', 120_000, now)).toBe(false);
  });

  it('drops one whose stamp moved on while the default board is recent', async () => {
    const r = repo('s2', new Date(1_000_000 - 119_000));
    expect(await isStaleWork(r, 'p', 's1', 120_000, now)).toBe(true);
    expect(r.asked).toEqual([viewKey(defaultView('', 'primary'))]);
    expect(DEFAULT_VIEW_KEY).toBe(viewKey(defaultView('', 'primary')));
  });

  it('finishes it anyway when the default board is older than the bound, or none is stored', async () => {
    expect(await isStaleWork(repo('s2', new Date(1_000_000 - 120_000)), 'p', 's1', 120_000, now)).toBe(false);
    expect(await isStaleWork(repo('s2', null), 'p', 's1', 120_000, now)).toBe(false);
  });
});
