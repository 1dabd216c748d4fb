/** Which submissions a leaderboard ranks: by default a team's primary one, or all on request. */
export type LeaderboardEntries = 'primary' | 'all';

export interface EntryCandidate {
  id: string;
  teamId: string;
  isPrimary: boolean;
  isBaseline: boolean;
  moderation?: 'NONE' | 'HIDDEN' | 'DISQUALIFIED';
}

/**
 * Hidden and disqualified submissions never enter. With `primary`, a team that marked a primary
 * submission is ranked by it alone (baselines always enter); a team that marked none keeps all.
 */
export function leaderboardEntries(submissions: readonly EntryCandidate[], entries: LeaderboardEntries): Set<string> {
  const eligible = submissions.filter((s) => (s.moderation ?? 'NONE') === 'NONE');
  if (entries === 'all') return new Set(eligible.map((s) => s.id));
  const teamsWithPrimary = new Set(eligible.filter((s) => s.isPrimary).map((s) => s.teamId));
  return new Set(eligible.filter((s) => s.isBaseline || s.isPrimary || !teamsWithPrimary.has(s.teamId)).map((s) => s.id));
}
