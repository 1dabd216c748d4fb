import { leaderboardEntries, type EntryCandidate } from './leaderboard-entries';

const s = (id: string, teamId: string, more: Partial<EntryCandidate> = {}): EntryCandidate => ({ id, teamId, isPrimary: false, isBaseline: false, moderation: 'NONE', ...more });

describe('leaderboardEntries', () => {
  const subs = [s('a1', 'A'), s('a2', 'A', { isPrimary: true }), s('b1', 'B'), s('b2', 'B'), s('base', 'O', { isBaseline: true }), s('x', 'C', { moderation: 'HIDDEN' }), s('d', 'C', { moderation: 'DISQUALIFIED' })];

  it("ranks only a team's primary submission once it marked one, and all of a team that marked none", () => {
    expect([...leaderboardEntries(subs, 'primary')].sort()).toEqual(['a2', 'b1', 'b2', 'base']);
  });

  it('ranks every submission on request, but never hidden or disqualified ones', () => {
    expect([...leaderboardEntries(subs, 'all')].sort()).toEqual(['a1', 'a2', 'b1', 'b2', 'base']);
  });
});
