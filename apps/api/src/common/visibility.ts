import { ForbiddenError, UnauthenticatedError, type AuthUser } from '@podium/domain';

/**
 * Who may see what of a phase: the authorization matrix (role × resource × phase state).
 * Every resolver, REST download and page asks this module; nothing else decides visibility.
 * See docs/adr/0008-authorization-matrix.md.
 */

/** The parts of a phase that decide who may see its data. */
export interface PhaseVisibility {
  name: string;
  /** The phase's task: its organisers (and administrators) play the `organiser` role. */
  taskId: string;
  closesAt: Date;
  /** The public flag: everyone sees the board (not the references) while the phase runs. */
  leaderboardBeforeClose: boolean;
  closedEarlyAt?: Date | null;
  publishedAt?: Date | null;
  /** Phase setting: before publishing, teams see per-instance scores of their own submissions (ADR 0014). */
  teamInstanceScores?: boolean;
}

/**
 * The caller's relation to the data: the owning team is the submission's team, when there is one;
 * `organiser` is an organiser of the data's task or an administrator (never an organiser of another task).
 */
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
 * - phaseFacts: the test set's checksum and split (ADR 0014; scoredCount follows `leaderboard`);
 * - commitmentSalt: the salt of the test-set commitment: nobody before publishing (ADR 0014);
 * - crossTeamDuplicates: that a submission's outputs equal another team's (ADR 0014);
 * - bulkOutputs: every output of the phase in one download with its manifest (issue #22): the
 *   references' row, since outputs and scores together are an oracle of them before publishing.
 */
export type Resource =
  | 'references'
  | 'testInput'
  | 'outputs'
  | 'instanceScores'
  | 'leaderboard'
  | 'downloads'
  | 'perInstanceScores'
  | 'phaseFacts'
  | 'commitmentSalt'
  | 'crossTeamDuplicates'
  | 'bulkOutputs';
export const RESOURCES: readonly Resource[] = ['references', 'testInput', 'outputs', 'instanceScores', 'leaderboard', 'downloads', 'perInstanceScores', 'phaseFacts', 'commitmentSalt', 'crossTeamDuplicates', 'bulkOutputs'];

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
  bulkOutputs: { 'open-hidden': ORG, 'open-public': ORG, 'closed-unpublished': ORG, published: ALL },
};

/** Phase settings that widen a cell: the organiser's choice per phase (ADR 0014). */
export const PHASE_SETTING_GRANTS: Readonly<Partial<Record<Resource, { setting: 'teamInstanceScores'; roles: readonly ViewerRole[] }>>> = {
  perInstanceScores: { setting: 'teamInstanceScores', roles: ['ownTeam'] },
};

/** An administrator of the instance: organises every task, issues tokens for other users. */
export function isAdmin(user: AuthUser | null | undefined): boolean {
  return user?.role === 'ADMIN';
}

/** Who may create tasks: users with the ORGANISER or ADMIN role (see ADR 0012). */
export function canCreateTasks(user: AuthUser | null | undefined): boolean {
  return user?.role === 'ADMIN' || user?.role === 'ORGANISER';
}

/** An organiser of this task (its creator or one added by an organiser of it), or an administrator. */
export function organisesTask(user: AuthUser | null | undefined, taskId: string): boolean {
  if (!user) return false;
  return user.role === 'ADMIN' || user.organisedTaskIds.includes(taskId);
}

/** Organises at least one task (or administers): the Organise page's menus, the audit log. */
export function organisesAnyTask(user: AuthUser | null | undefined): boolean {
  return !!user && (user.role === 'ADMIN' || user.organisedTaskIds.length > 0);
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
export function viewerRole(user: AuthUser | null | undefined, taskId: string, ownerTeamId?: string): ViewerRole {
  if (!user) return 'anonymous';
  if (organisesTask(user, taskId)) return 'organiser';
  return ownerTeamId !== undefined && user.teamIds.includes(ownerTeamId) ? 'ownTeam' : 'otherTeam';
}

export function allowed(resource: Resource, state: PhaseState, role: ViewerRole): boolean {
  return AUTHORIZATION_MATRIX[resource][state].includes(role);
}

export function can(resource: Resource, phase: PhaseVisibility, user: AuthUser | null | undefined, ownerTeamId?: string, now: Date = new Date()): boolean {
  const role = viewerRole(user, phase.taskId, ownerTeamId);
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
  phaseFacts: 'the checksum and split of phase %s are',
  commitmentSalt: 'the commitment salt of phase %s is',
  crossTeamDuplicates: 'duplicates across teams in phase %s are',
  bulkOutputs: 'the download of all outputs of phase %s is',
};

/** Throws FORBIDDEN naming the resource and when it becomes visible. */
export function assertCan(resource: Resource, phase: PhaseVisibility, user: AuthUser | null | undefined, ownerTeamId?: string, now: Date = new Date()): void {
  if (can(resource, phase, user, ownerTeamId, now)) return;
  const when = resource === 'references' || resource === 'bulkOutputs' ? 'until the organisers publish the results' : 'until the organisers publish the results (or make the board public)';
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
  const role = viewerRole(user, phase.taskId, submission.teamId);
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
  return organisesTask(user, phase.taskId) ? 'all' : (user?.teamIds ?? []);
}

/**
 * Members of the team may act for it (submit, read its quota); so may the organisers of the task
 * the action is in (`taskId`), and administrators. Without a task only members and administrators.
 */
export function assertActsForTeam(teamId: string, user: AuthUser | null | undefined, taskId?: string): AuthUser {
  if (!user) throw new UnauthenticatedError();
  if (user.teamIds.includes(teamId) || isAdmin(user) || (taskId !== undefined && organisesTask(user, taskId))) return user;
  throw new ForbiddenError(`user '${user.name}' is not a member of team '${teamId}'`);
}

/** Organiser operations act on the caller's own tasks only (administrators: every task). */
export function assertTaskOrganiser(user: AuthUser | null | undefined, taskId: string): AuthUser {
  if (!user) throw new UnauthenticatedError();
  if (!organisesTask(user, taskId)) throw new ForbiddenError(`only organisers of this task may do this; '${user.name}' does not organise it`);
  return user;
}

/** Instance-wide operations (tokens for other users, every task's stuck submissions). */
export function assertAdmin(user: AuthUser | null | undefined): AuthUser {
  if (!user) throw new UnauthenticatedError();
  if (!isAdmin(user)) throw new ForbiddenError(`only administrators may do this; '${user.name}' is not one`);
  return user;
}

export function assertCanCreateTasks(user: AuthUser | null | undefined): AuthUser {
  if (!user) throw new UnauthenticatedError();
  if (!canCreateTasks(user)) throw new ForbiddenError(`only organisers and administrators may create tasks; '${user.name}' is a participant`);
  return user;
}
