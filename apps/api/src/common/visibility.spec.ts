import { ForbiddenError, UnauthenticatedError, type AuthUser } from '@podium/db';
import {
  assertActsForTeam,
  assertCanSeePhaseScores,
  assertCanSeeSubmission,
  assertOrganiser,
  canSeePhaseScores,
  canSeeSubmission,
  visibleTeams,
} from './visibility';

const NOW = new Date('2026-06-01T12:00:00Z');
const open = { name: 'dev', closesAt: new Date('2026-06-02T00:00:00Z'), leaderboardBeforeClose: false };
const openPublic = { ...open, leaderboardBeforeClose: true };
const closed = { ...open, closesAt: new Date('2026-06-01T11:59:59Z') };
const organiser: AuthUser = { id: 'o', name: 'olga', role: 'ORGANISER', teamIds: [] };
const alice: AuthUser = { id: 'a', name: 'alice', role: 'PARTICIPANT', teamIds: ['team-a'] };

describe('phase score visibility', () => {
  it('hides an open phase with a private board from anonymous callers and participants', () => {
    expect(canSeePhaseScores(open, null, NOW)).toBe(false);
    expect(canSeePhaseScores(open, alice, NOW)).toBe(false);
  });

  it('shows an open phase with a private board to organisers', () => {
    expect(canSeePhaseScores(open, organiser, NOW)).toBe(true);
  });

  it('shows everyone the board of an open phase when leaderboardBeforeClose is set', () => {
    expect(canSeePhaseScores(openPublic, null, NOW)).toBe(true);
  });

  it('shows everyone the board once the phase has closed, from the closing instant on', () => {
    expect(canSeePhaseScores(closed, null, NOW)).toBe(true);
    expect(canSeePhaseScores({ ...open, closesAt: NOW }, null, NOW)).toBe(true);
  });

  it('explains a hidden board with the closing time', () => {
    expect(() => assertCanSeePhaseScores(open, alice, NOW)).toThrow(
      new ForbiddenError("the leaderboard of phase 'dev' is hidden until the phase closes at 2026-06-02T00:00:00.000Z; only organisers can see it before"),
    );
  });
});

describe('submission visibility', () => {
  it("lets a team see its own submission while the phase's board is hidden", () => {
    expect(canSeeSubmission({ teamId: 'team-a' }, open, alice, NOW)).toBe(true);
  });

  it("hides another team's submission while the board is hidden", () => {
    expect(canSeeSubmission({ teamId: 'team-b' }, open, alice, NOW)).toBe(false);
    expect(() => assertCanSeeSubmission({ id: 'x', teamId: 'team-b' }, open, alice, NOW)).toThrow(ForbiddenError);
  });

  it('shows any submission once the phase closed', () => {
    expect(canSeeSubmission({ teamId: 'team-b' }, closed, null, NOW)).toBe(true);
  });

  it("limits listings to the caller's teams while hidden, and to nothing for anonymous callers", () => {
    expect(visibleTeams(open, alice, NOW)).toEqual(['team-a']);
    expect(visibleTeams(open, null, NOW)).toEqual([]);
    expect(visibleTeams(open, organiser, NOW)).toBe('all');
    expect(visibleTeams(openPublic, null, NOW)).toBe('all');
  });
});

describe('acting for a team', () => {
  it('lets members and organisers act for a team', () => {
    expect(assertActsForTeam('team-a', alice)).toBe(alice);
    expect(assertActsForTeam('team-a', organiser)).toBe(organiser);
  });

  it('refuses non-members with FORBIDDEN and anonymous callers with UNAUTHENTICATED', () => {
    expect(() => assertActsForTeam('team-b', alice)).toThrow(ForbiddenError);
    expect(() => assertActsForTeam('team-a', null)).toThrow(UnauthenticatedError);
  });

  it('admits only organisers to organiser actions', () => {
    expect(assertOrganiser(organiser)).toBe(organiser);
    expect(() => assertOrganiser(alice)).toThrow(ForbiddenError);
    expect(() => assertOrganiser(null)).toThrow(UnauthenticatedError);
  });
});
