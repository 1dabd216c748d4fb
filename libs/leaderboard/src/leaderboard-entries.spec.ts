import { leaderboardEntries, type EntryCandidate } from './leaderboard-entries';

// Submission k of the fixture was made at minute k, so "latest" is readable from the ids' order.
let minute = 0;
const s = (id: string, teamId: string, more: Partial<EntryCandidate> = {}): EntryCandidate => ({
  id,
  teamId,
  isPrimary: false,
  isBaseline: false,
  moderation: 'NONE',
  createdAt: new Date(Date.UTC(2026, 10, 1, 0, minute++)),
  ...more,
});

describe('leaderboardEntries', () => {
  minute = 0;
  const subs = [
    s('a1', 'A'),
    s('a2', 'A', { isPrimary: true }),
    s('a3', 'A'),
    s('b1', 'B'),
    s('b2', 'B'),
    s('base', 'O', { isBaseline: true }),
    s('x', 'C', { moderation: 'HIDDEN' }),
    s('d', 'C', { moderation: 'DISQUALIFIED' }),
    s('e1', 'E'),
    s('e2', 'E', { isPrimary: true, moderation: 'DISQUALIFIED' }),
  ];

  it("ranks a team's primary alone, and a team without one by its latest submission: one row per team", () => {
    // A: primary a2 (not the later a3); B: no primary, latest b2; C: nothing eligible; E: primary disqualified.
    expect([...leaderboardEntries(subs, 'primary')].sort()).toEqual(['a2', 'b2', 'base']);
  });

  it('never ranks two rows of one team, whatever the primaries', () => {
    const entered = [...leaderboardEntries(subs, 'primary')].map((id) => subs.find((x) => x.id === id)).filter((x) => x && !x.isBaseline);
    const teams = entered.map((x) => x?.teamId);
    expect(new Set(teams).size).toBe(teams.length);
  });

  it('ranks every submission on request, but never hidden or disqualified ones', () => {
    expect([...leaderboardEntries(subs, 'all')].sort()).toEqual(['a1', 'a2', 'a3', 'b1', 'b2', 'base', 'e1']);
  });
});
