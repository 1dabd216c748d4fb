import { ForbiddenError, UnauthenticatedError, type AuthUser } from '@podium/db';

/**
 * Who may see what of a phase: the authorization matrix (role × resource × phase state).
 * Every resolver, REST download and page asks this module; nothing else decides visibility.
 * See docs/adr/0008-authorization-matrix.md.
 */

/** The parts of a phase that decide who may see its data. */
export interface PhaseVisibility {
  name: string;
  closesAt: Date;
  /** The public flag: everyone sees the board (not the references) while the phase runs. */
  leaderboardBeforeClose: boolean;
  closedEarlyAt?: Date | null;
  publishedAt?: Date | null;
  /** Phase setting: before publishing, teams see per-instance scores of their own submissions (ADR 0014). */
  teamInstanceScores?: boolean;
}

/** The caller's relation to the data: the owning team is the submission's team, when there is one. */
export type ViewerRole = 'anonymous' | 'otherTeam' | 'ownTeam' | 'organiser';
export const VIEWER_ROLES: readonly ViewerRole[] = ['anonymous', 'otherTeam', 'ownTeam', 'organiser'];

/**
 * - open-hidden: not published, public flag off, not yet closed;
 * - open-public: not published, public flag on (the board stays public after closing too);
 * - closed-unpublished: closed (at closesAt or early), public flag off, not published;
 * - published: an organiser published the results.
 */
export type PhaseState = 'open-hidden' | 'open-public' | 'closed-unpublished' | 'published';
export const PHASE_STATES: readonly PhaseState[] = ['open-hidden', 'open-public', 'closed-unpublished', 'published'];

/**
 * - references: the gold references of the test instances;
 * - testInput: instance ids and sources (never references);
 * - outputs: a submission's system outputs (and the submission itself);
 * - instanceScores: a submission's corpus scores (aggregates) and their history;
 * - leaderboard: the ranking of all systems, pairs, report card;
 * - downloads: the phase-wide score download (every system's per-instance scores);
 * - perInstanceScores: a submission's per-instance scores (derived from the references, so an
 *   oracle of them: ADR 0014); `teamInstanceScores` on the phase widens it to the own team;
 * - phaseFacts: the test set's checksum and per-phase counts (scoredCount) (ADR 0014);
 * - commitmentSalt: the salt of the test-set commitment: nobody before publishing (ADR 0014);
 * - crossTeamDuplicates: that a submission's outputs equal another team's (ADR 0014).
 */
export type Resource = 'references' | 'testInput' | 'outputs' | 'instanceScores' | 'leaderboard' | 'downloads' | 'perInstanceScores' | 'phaseFacts' | 'commitmentSalt' | 'crossTeamDuplicates';
export const RESOURCES: readonly Resource[] = ['references', 'testInput', 'outputs', 'instanceScores', 'leaderboard', 'downloads', 'perInstanceScores', 'phaseFacts', 'commitmentSalt', 'crossTeamDuplicates'];

const ALL: readonly ViewerRole[] = VIEWER_ROLES;
const OWN: readonly ViewerRole[] = ['ownTeam', 'organiser'];
const ORG: readonly ViewerRole[] = ['organiser'];
const NONE: readonly ViewerRole[] = [];

/** The matrix itself: for each resource and phase state, the roles that may see it. */
export const AUTHORIZATION_MATRIX: Readonly<Record<Resource, Readonly<Record<PhaseState, readonly ViewerRole[]>>>> = {
  references: { 'open-hidden': ORG, 'open-public': ORG, 'closed-unpublished': ORG, published: ALL },
  testInput: { 'open-hidden': ALL, 'open-public': ALL, 'closed-unpublished': ALL, published: ALL },
  outputs: { 'open-hidden': OWN, 'open-public': ALL, 'closed-unpublished': OWN, published: ALL },
  instanceScores: { 'open-hidden': OWN, 'open-public': ALL, 'closed-unpublished': OWN, published: ALL },
  leaderboard: { 'open-hidden': ORG, 'open-public': ALL, 'closed-unpublished': ORG, published: ALL },
  downloads: { 'open-hidden': ORG, 'open-public': ALL, 'closed-unpublished': ORG, published: ALL },
  perInstanceScores: { 'open-hidden': ORG, 'open-public': ALL, 'closed-unpublished': ORG, published: ALL },
  phaseFacts: { 'open-hidden': ORG, 'open-public': ORG, 'closed-unpublished': ORG, published: ALL },
  commitmentSalt: { 'open-hidden': NONE, 'open-public': NONE, 'closed-unpublished': NONE, published: ALL },
  crossTeamDuplicates: { 'open-hidden': ORG, 'open-public': ORG, 'closed-unpublished': ORG, published: ORG },
};

/** Phase settings that widen a cell: the organiser's choice per phase (ADR 0014). */
export const PHASE_SETTING_GRANTS: Readonly<Partial<Record<Resource, { setting: 'teamInstanceScores'; roles: readonly ViewerRole[] }>>> = {
  perInstanceScores: { setting: 'teamInstanceScores', roles: ['ownTeam'] },
};

export function isOrganiser(user: AuthUser | null | undefined): boolean {
  return user?.role === 'ORGANISER';
}

/** Closed at closesAt, or earlier when an organiser closed it. */
export function isPhaseClosed(phase: Pick<PhaseVisibility, 'closesAt' | 'closedEarlyAt'>, now: Date = new Date()): boolean {
  return !!phase.closedEarlyAt || now.getTime() >= phase.closesAt.getTime();
}

export function phaseState(phase: PhaseVisibility, now: Date = new Date()): PhaseState {
  if (phase.publishedAt) return 'published';
  if (phase.leaderboardBeforeClose) return 'open-public';
  return isPhaseClosed(phase, now) ? 'closed-unpublished' : 'open-hidden';
}

/** `ownerTeamId`: the team whose data it is (a submission's team); phase-wide data has none. */
export function viewerRole(user: AuthUser | null | undefined, ownerTeamId?: string): ViewerRole {
  if (!user) return 'anonymous';
  if (isOrganiser(user)) return 'organiser';
  return ownerTeamId !== undefined && user.teamIds.includes(ownerTeamId) ? 'ownTeam' : 'otherTeam';
}

export function allowed(resource: Resource, state: PhaseState, role: ViewerRole): boolean {
  return AUTHORIZATION_MATRIX[resource][state].includes(role);
}

export function can(resource: Resource, phase: PhaseVisibility, user: AuthUser | null | undefined, ownerTeamId?: string, now: Date = new Date()): boolean {
  const role = viewerRole(user, ownerTeamId);
  const grant = PHASE_SETTING_GRANTS[resource];
  if (grant && phase[grant.setting] === true && grant.roles.includes(role)) return true;
  return allowed(resource, phaseState(phase, now), role);
}

const WHAT: Record<Resource, string> = {
  references: 'the references of phase %s are',
  testInput: 'the test input of phase %s is',
  outputs: "other teams' submissions in phase %s are",
  instanceScores: "other teams' scores in phase %s are",
  leaderboard: 'the leaderboard of phase %s is',
  downloads: "the scores of phase %s are",
  perInstanceScores: 'per-instance scores in phase %s are',
  phaseFacts: 'the checksum and counts of phase %s are',
  commitmentSalt: 'the commitment salt of phase %s is',
  crossTeamDuplicates: 'duplicates across teams in phase %s are',
};

/** Throws FORBIDDEN naming the resource and when it becomes visible. */
export function assertCan(resource: Resource, phase: PhaseVisibility, user: AuthUser | null | undefined, ownerTeamId?: string, now: Date = new Date()): void {
  if (can(resource, phase, user, ownerTeamId, now)) return;
  const when = resource === 'references' ? 'until the organisers publish the results' : 'until the organisers publish the results (or make the board public)';
  throw new ForbiddenError(`${WHAT[resource].replace('%s', `'${phase.name}'`)} hidden ${when}; only organisers see them before`);
}

/** Whether the caller sees the phase's leaderboard and every team's scores. */
export function canSeePhaseScores(phase: PhaseVisibility, user: AuthUser | null | undefined, now: Date = new Date()): boolean {
  return can('leaderboard', phase, user, undefined, now);
}

export function assertCanSeePhaseScores(phase: PhaseVisibility, user: AuthUser | null | undefined, now: Date = new Date()): void {
  assertCan('leaderboard', phase, user, undefined, now);
}

/** A submission an organiser hid is seen only by its team and organisers. */
export interface SubmissionVisibility {
  id: string;
  teamId: string;
  moderation?: 'NONE' | 'HIDDEN' | 'DISQUALIFIED';
}

/** A team always sees its own submissions; others see them when the phase's outputs are public. */
export function canSeeSubmission(submission: SubmissionVisibility, phase: PhaseVisibility, user: AuthUser | null | undefined, now: Date = new Date()): boolean {
  const role = viewerRole(user, submission.teamId);
  if (submission.moderation === 'HIDDEN' && role !== 'ownTeam' && role !== 'organiser') return false;
  return allowed('outputs', phaseState(phase, now), role);
}

export function assertCanSeeSubmission(submission: SubmissionVisibility, phase: PhaseVisibility, user: AuthUser | null | undefined, now: Date = new Date()): void {
  if (canSeeSubmission(submission, phase, user, now)) return;
  throw new ForbiddenError(`submission '${submission.id}' belongs to another team and phase '${phase.name}' keeps it hidden until the organisers publish the results`);
}

/** Whether the caller may see the references of the phase's instances (never before publishing). */
export function canSeeReferences(phase: PhaseVisibility, user: AuthUser | null | undefined, now: Date = new Date()): boolean {
  return can('references', phase, user, undefined, now);
}

/** Which teams' submissions a user may list in a phase: `all`, or the team ids allowed. */
export function visibleTeams(phase: PhaseVisibility, user: AuthUser | null | undefined, now: Date = new Date()): 'all' | string[] {
  if (can('outputs', phase, user, undefined, now)) return 'all';
  return isOrganiser(user) ? 'all' : (user?.teamIds ?? []);
}

/** Members of the team, and organisers, may act for a team (submit, read its quota). */
export function assertActsForTeam(teamId: string, user: AuthUser | null | undefined): AuthUser {
  if (!user) throw new UnauthenticatedError();
  if (isOrganiser(user) || user.teamIds.includes(teamId)) return user;
  throw new ForbiddenError(`user '${user.name}' is not a member of team '${teamId}'`);
}

export function assertOrganiser(user: AuthUser | null | undefined): AuthUser {
  if (!user) throw new UnauthenticatedError();
  if (!isOrganiser(user)) throw new ForbiddenError(`only organisers may do this; '${user.name}' is a participant`);
  return user;
}
