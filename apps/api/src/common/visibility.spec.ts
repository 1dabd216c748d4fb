import { ForbiddenError, UnauthenticatedError, type AuthUser } from '@podium/domain';
import {
  assertActsForTeam,
  assertCanSeePhaseScores,
  assertCanSeeSubmission,
  assertAdmin,
  assertCanCreateTasks,
  assertTaskOrganiser,
  can,
  canSeePhaseScores,
  canSeeReferences,
  canSeeSubmission,
  phaseState,
  visibleTeams,
} from './visibility';

const NOW = new Date('2026-06-01T12:00:00Z');
const open = { name: 'dev', taskId: 'task-x', closesAt: new Date('2026-06-02T00:00:00Z'), leaderboardBeforeClose: false };
const openPublic = { ...open, leaderboardBeforeClose: true };
const closed = { ...open, closesAt: new Date('2026-06-01T11:59:59Z') };
// olga organises task-x (the phases below belong to it); oscar organises task-y only.
const organiser: AuthUser = { id: 'o', name: 'olga', role: 'ORGANISER', teamIds: [], organisedTaskIds: ['task-x'] };
const otherOrganiser: AuthUser = { id: 'o2', name: 'oscar', role: 'ORGANISER', teamIds: [], organisedTaskIds: ['task-y'] };
const admin: AuthUser = { id: 'ad', name: 'ada', role: 'ADMIN', teamIds: [], organisedTaskIds: [] };
const alice: AuthUser = { id: 'a', name: 'alice', role: 'PARTICIPANT', teamIds: ['team-a'], organisedTaskIds: [] };

describe('phase score visibility', () => {
  it('hides an open phase with a private board from anonymous callers and participants', () => {
    expect(canSeePhaseScores(open, null, NOW)).toBe(false);
    expect(canSeePhaseScores(open, alice, NOW)).toBe(false);
  });

  it("shows an open phase with a private board to its task's organisers and administrators, not to another task's", () => {
    expect(canSeePhaseScores(open, organiser, NOW)).toBe(true);
    expect(canSeePhaseScores(open, admin, NOW)).toBe(true);
    expect(canSeePhaseScores(open, otherOrganiser, NOW)).toBe(false);
    expect(canSeeReferences(closed, otherOrganiser, NOW)).toBe(false);
  });

  it('shows everyone the board of an open phase when leaderboardBeforeClose is set', () => {
    expect(canSeePhaseScores(openPublic, null, NOW)).toBe(true);
  });

  it('keeps a hidden board hidden after closing, from the closing instant on, until publishing', () => {
    expect(phaseState(closed, NOW)).toBe('closed-unpublished');
    expect(phaseState({ ...open, closesAt: NOW }, NOW)).toBe('closed-unpublished');
    expect(phaseState({ ...open, closedEarlyAt: NOW }, NOW)).toBe('closed-unpublished');
    expect(canSeePhaseScores(closed, null, NOW)).toBe(false);
    expect(canSeePhaseScores({ ...closed, publishedAt: NOW }, null, NOW)).toBe(true);
  });

  it('shows the references to participants only once published, even on a public board', () => {
    expect(canSeeReferences(openPublic, null, NOW)).toBe(false);
    expect(canSeeReferences(openPublic, alice, NOW)).toBe(false);
    expect(canSeeReferences(open, organiser, NOW)).toBe(true);
    expect(canSeeReferences({ ...open, publishedAt: NOW }, null, NOW)).toBe(true);
  });

  it('explains a hidden board', () => {
    expect(() => assertCanSeePhaseScores(open, alice, NOW)).toThrow(
      new ForbiddenError("the leaderboard of phase 'dev' is hidden until the organisers publish the results (or make the board public); only organisers see them before"),
    );
  });
});

describe('submission visibility', () => {
  it("lets a team see its own submission while the phase's board is hidden", () => {
    expect(canSeeSubmission({ id: 's', teamId: 'team-a' }, open, alice, NOW)).toBe(true);
  });

  it("hides another team's submission while the board is hidden", () => {
    expect(canSeeSubmission({ id: 's', teamId: 'team-b' }, open, alice, NOW)).toBe(false);
    expect(() => assertCanSeeSubmission({ id: 'x', teamId: 'team-b' }, open, alice, NOW)).toThrow(ForbiddenError);
  });

  it('shows any submission once the phase is published, except those an organiser hid', () => {
    expect(canSeeSubmission({ id: 's', teamId: 'team-b' }, closed, null, NOW)).toBe(false);
    expect(canSeeSubmission({ id: 's', teamId: 'team-b' }, { ...closed, publishedAt: NOW }, null, NOW)).toBe(true);
    expect(canSeeSubmission({ id: 's', teamId: 'team-b', moderation: 'HIDDEN' }, { ...closed, publishedAt: NOW }, null, NOW)).toBe(false);
    expect(canSeeSubmission({ id: 's', teamId: 'team-a', moderation: 'HIDDEN' }, { ...closed, publishedAt: NOW }, alice, NOW)).toBe(true);
  });

  it("limits listings to the caller's teams while hidden, and to nothing for anonymous callers", () => {
    expect(visibleTeams(open, alice, NOW)).toEqual(['team-a']);
    expect(visibleTeams(open, null, NOW)).toEqual([]);
    expect(visibleTeams(open, organiser, NOW)).toBe('all');
    expect(visibleTeams(openPublic, null, NOW)).toBe('all');
  });
});

describe('acting for a team', () => {
  it("lets members, the task's organisers and administrators act for a team", () => {
    expect(assertActsForTeam('team-a', alice)).toBe(alice);
    expect(assertActsForTeam('team-a', organiser, 'task-x')).toBe(organiser);
    expect(assertActsForTeam('team-a', admin)).toBe(admin);
    expect(() => assertActsForTeam('team-a', otherOrganiser, 'task-x')).toThrow(ForbiddenError);
    expect(() => assertActsForTeam('team-a', organiser)).toThrow(ForbiddenError);
  });

  it('refuses non-members with FORBIDDEN and anonymous callers with UNAUTHENTICATED', () => {
    expect(() => assertActsForTeam('team-b', alice)).toThrow(ForbiddenError);
    expect(() => assertActsForTeam('team-a', null)).toThrow(UnauthenticatedError);
  });

  it("admits only the task's organisers and administrators to its organiser actions", () => {
    expect(assertTaskOrganiser(organiser, 'task-x')).toBe(organiser);
    expect(assertTaskOrganiser(admin, 'task-x')).toBe(admin);
    expect(() => assertTaskOrganiser(otherOrganiser, 'task-x')).toThrow(ForbiddenError);
    expect(() => assertTaskOrganiser(alice, 'task-x')).toThrow(ForbiddenError);
    expect(() => assertTaskOrganiser(null, 'task-x')).toThrow(UnauthenticatedError);
  });

  it('lets organisers and administrators create tasks, and only administrators act instance-wide', () => {
    expect(assertCanCreateTasks(otherOrganiser)).toBe(otherOrganiser);
    expect(assertCanCreateTasks(admin)).toBe(admin);
    expect(() => assertCanCreateTasks(alice)).toThrow(ForbiddenError);
    expect(assertAdmin(admin)).toBe(admin);
    expect(() => assertAdmin(organiser)).toThrow(ForbiddenError);
    expect(() => assertAdmin(null)).toThrow(UnauthenticatedError);
  });
});

describe('oracles before publishing (issue #20, ADR 0014)', () => {
  const bob: AuthUser = { id: 'b', name: 'bob', role: 'PARTICIPANT', teamIds: ['team-b'], organisedTaskIds: [] };

  it("keeps a team's own per-instance scores of a hidden phase from it unless the phase shows them", () => {
    expect(can('perInstanceScores', open, alice, 'team-a', NOW)).toBe(false);
    expect(can('perInstanceScores', closed, alice, 'team-a', NOW)).toBe(false);
    expect(can('perInstanceScores', { ...open, teamInstanceScores: true }, alice, 'team-a', NOW)).toBe(true);
    // The setting widens the own team only, never another team or anonymous callers.
    expect(can('perInstanceScores', { ...open, teamInstanceScores: true }, bob, 'team-a', NOW)).toBe(false);
    expect(can('perInstanceScores', { ...open, teamInstanceScores: true }, null, 'team-a', NOW)).toBe(false);
    expect(can('perInstanceScores', open, organiser, 'team-a', NOW)).toBe(true);
    expect(can('perInstanceScores', { ...open, publishedAt: NOW }, null, 'team-a', NOW)).toBe(true);
  });

  it('shows checksums and counts to organisers only until publishing, even on a public board', () => {
    for (const phase of [open, openPublic, closed]) {
      expect(can('phaseFacts', phase, null, undefined, NOW)).toBe(false);
      expect(can('phaseFacts', phase, alice, undefined, NOW)).toBe(false);
      expect(can('phaseFacts', phase, organiser, undefined, NOW)).toBe(true);
    }
    expect(can('phaseFacts', { ...open, publishedAt: NOW }, null, undefined, NOW)).toBe(true);
  });

  it('gives nobody the commitment salt before publishing, organisers neither', () => {
    for (const phase of [open, openPublic, closed]) for (const user of [null, alice, organiser]) expect(can('commitmentSalt', phase, user, undefined, NOW)).toBe(false);
    expect(can('commitmentSalt', { ...open, publishedAt: NOW }, null, undefined, NOW)).toBe(true);
  });

  it('flags duplicates across teams to organisers only, in every state', () => {
    for (const phase of [open, openPublic, closed, { ...open, publishedAt: NOW }]) {
      expect(can('crossTeamDuplicates', phase, alice, 'team-a', NOW)).toBe(false);
      expect(can('crossTeamDuplicates', phase, organiser, 'team-a', NOW)).toBe(true);
    }
  });
});
