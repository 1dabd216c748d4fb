// An open phase for API integration specs that run no worker: built through GraphQL as an
// organiser builds one (task, phase, test set, team), submitted to through GraphQL, and scored by
// storing scores as the worker stores them (SubmissionRepository.saveScores).
import { SubmissionRepository, type Db, type ScoreColumnInput } from '@podium/db';

/** A GraphQL request as an organiser: answers `data`, and throws on GraphQL errors. */
export type OrganiserGraphql = (query: string, variables?: Record<string, unknown>) => Promise<Record<string, unknown>>;

export interface OpenPhaseOptions {
  /** The task's slug (unique per run). */
  slug: string;
  /** The task's title. */
  title: string;
  /** The task's metrics, as `CreateTaskInput.metrics`. */
  metrics: { key: string; name: string; options?: Record<string, unknown> }[];
  /** The test set's instances, in position order, as `TestInstanceInput`. */
  instances: { id: string; source: string; references: string[] }[];
  /** Whether anyone may read the board before the phase closes (else only organisers). */
  leaderboardBeforeClose: boolean;
  /**
   * The team's name and its one member's user name (both unique per run). The first system
   * submitted is this team's; each further system gets a team of its own (`<name>-<system>`), so
   * the default board (one row per team, ADR 0013) ranks every system.
   */
  team: { name: string; member: string };
  /** Submissions a team may make per day and in all; 100 each unless given. */
  limits?: { daily: number; total: number };
}

export interface OpenPhase {
  phaseId: string;
  /** The member's team: the team of the first system submitted. */
  teamId: string;
  /** Submits `content` (by default one line per instance: "a", "b", …) as `system` (of its own team); returns the submission id. */
  submit(system: string, content?: string): Promise<string>;
  /**
   * Replaces the scores of submission `id` with `columns` (every instance, position order) and
   * each column's mean as its corpus score, and marks it SCORED, as the worker does.
   */
  score(id: string, ...columns: ScoreColumnInput[]): Promise<void>;
}

/** Creates a task, its phase (open an hour ago, for a day), the phase's test set and a team. */
export async function createOpenPhase(ok: OrganiserGraphql, db: Db, options: OpenPhaseOptions): Promise<OpenPhase> {
  const { slug, title, metrics, instances, leaderboardBeforeClose, team, limits = { daily: 100, total: 100 } } = options;
  const idOf = (data: Record<string, unknown>, field: string) => (data[field] as { id: string }).id;
  await ok(`mutation($input: CreateTaskInput!) { createTask(input: $input) { id } }`, {
    input: { slug, title, kind: 'mt', sourceLang: 'de', targetLang: 'en', metrics },
  });
  const now = Date.now();
  const phase = await ok(`mutation($input: CreatePhaseInput!) { createPhase(input: $input) { id } }`, {
    input: {
      taskSlug: slug,
      name: 'test',
      opensAt: new Date(now - 3600_000).toISOString(),
      closesAt: new Date(now + 86400_000).toISOString(),
      dailyLimit: limits.daily,
      totalLimit: limits.total,
      leaderboardBeforeClose,
    },
  });
  const phaseId = idOf(phase, 'createPhase');
  await ok(`mutation($p: ID!, $i: [TestInstanceInput!]!) { uploadTestSet(phaseId: $p, name: "ts", instances: $i) { id } }`, { p: phaseId, i: instances });
  const teamId = idOf(await ok(`mutation($n: String!, $m: [String!]!) { createTeam(name: $n, members: $m) { id } }`, { n: team.name, m: [team.member] }), 'createTeam');
  const defaultContent = instances.map((_, k) => `${String.fromCharCode(97 + k)}\n`).join('');
  const submissions = new SubmissionRepository(db);
  const mean = (xs: ArrayLike<number>) => Array.from(xs).reduce((a, b) => a + b, 0) / xs.length;
  let submitted = 0;
  return {
    phaseId,
    teamId,
    async submit(system, content = defaultContent) {
      const systemTeam =
        submitted++ === 0 ? teamId : idOf(await ok(`mutation($n: String!) { createTeam(name: $n, members: []) { id } }`, { n: `${team.name}-${system}` }), 'createTeam');
      const created = await ok(`mutation($p: ID!, $t: ID!, $s: String!, $c: String!) { submit(phaseId: $p, teamId: $t, systemName: $s, content: $c, format: TEXT) { id } }`, {
        p: phaseId,
        t: systemTeam,
        s: system,
        c: content,
      });
      return idOf(created, 'submit');
    },
    async score(id, ...columns) {
      await submissions.saveScores(
        id,
        columns,
        columns.map((c) => ({ metric: c.metric, signature: c.signature, value: mean(c.values) })),
      );
    },
  };
}
