/** Which submissions a leaderboard ranks: by default one per team (its primary), or all on request. */
export type LeaderboardEntries = 'primary' | 'all';

export interface EntryCandidate {
  id: string;
  teamId: string;
  isPrimary: boolean;
  isBaseline: boolean;
  moderation?: 'NONE' | 'HIDDEN' | 'DISQUALIFIED';
  /** When it was submitted: a team without a primary is ranked by its latest submission. */
  createdAt: Date;
}

/**
 * Hidden and disqualified submissions never enter. With `primary`, each team enters exactly once
 * (baselines always enter besides): by its primary submission, or, while it has marked none, by
 * its latest scored one — the submission that closing the phase makes its primary
 * (docs/adr/0013-phase-state-machine.md), so the board ranks the same rows before and after.
 * A team whose primary was hidden or disqualified has no row. Candidates are scored submissions.
 */
export function leaderboardEntries(submissions: readonly EntryCandidate[], entries: LeaderboardEntries): Set<string> {
  const eligible = submissions.filter((s) => (s.moderation ?? 'NONE') === 'NONE');
  if (entries === 'all') return new Set(eligible.map((s) => s.id));
  const teamsWithPrimary = new Set(submissions.filter((s) => s.isPrimary).map((s) => s.teamId));
  const chosen = new Set(eligible.filter((s) => s.isBaseline || s.isPrimary).map((s) => s.id));
  const latest = new Map<string, EntryCandidate>();
  for (const s of eligible) {
    if (s.isBaseline || teamsWithPrimary.has(s.teamId)) continue;
    const seen = latest.get(s.teamId);
    if (!seen || s.createdAt.getTime() > seen.createdAt.getTime() || (s.createdAt.getTime() === seen.createdAt.getTime() && s.id > seen.id)) latest.set(s.teamId, s);
  }
  for (const s of latest.values()) chosen.add(s.id);
  return chosen;
}
