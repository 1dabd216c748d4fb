import { ForbiddenError, UnauthenticatedError, type AuthUser } from '@podium/db';

/** The parts of a phase that decide who may see its scores. */
export interface PhaseVisibility {
  name: string;
  closesAt: Date;
  leaderboardBeforeClose: boolean;
}

export function isOrganiser(user: AuthUser | null | undefined): boolean {
  return user?.role === 'ORGANISER';
}

/** Scores of a phase are public once it closed or when the organisers chose an open board. */
export function phaseScoresPublic(phase: PhaseVisibility, now: Date = new Date()): boolean {
  return phase.leaderboardBeforeClose || now.getTime() >= phase.closesAt.getTime();
}

export function canSeePhaseScores(phase: PhaseVisibility, user: AuthUser | null | undefined, now: Date = new Date()): boolean {
  return isOrganiser(user) || phaseScoresPublic(phase, now);
}

/** Throws FORBIDDEN with the reason and the date the scores become public. */
export function assertCanSeePhaseScores(phase: PhaseVisibility, user: AuthUser | null | undefined, now: Date = new Date()): void {
  if (canSeePhaseScores(phase, user, now)) return;
  throw new ForbiddenError(
    `the leaderboard of phase '${phase.name}' is hidden until the phase closes at ${phase.closesAt.toISOString()}; only organisers can see it before`,
  );
}

/** A team always sees its own submissions; others see them when the phase's scores are public. */
export function canSeeSubmission(
  submission: { teamId: string },
  phase: PhaseVisibility,
  user: AuthUser | null | undefined,
  now: Date = new Date(),
): boolean {
  return canSeePhaseScores(phase, user, now) || (user?.teamIds.includes(submission.teamId) ?? false);
}

export function assertCanSeeSubmission(
  submission: { id: string; teamId: string },
  phase: PhaseVisibility,
  user: AuthUser | null | undefined,
  now: Date = new Date(),
): void {
  if (canSeeSubmission(submission, phase, user, now)) return;
  throw new ForbiddenError(
    `submission '${submission.id}' belongs to another team and phase '${phase.name}' keeps scores hidden until ${phase.closesAt.toISOString()}`,
  );
}

/** Which teams' submissions a user may list in a phase: `all`, or the team ids allowed. */
export function visibleTeams(phase: PhaseVisibility, user: AuthUser | null | undefined, now: Date = new Date()): 'all' | string[] {
  if (canSeePhaseScores(phase, user, now)) return 'all';
  return user?.teamIds ?? [];
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
