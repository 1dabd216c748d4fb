/**
 * Replays the findings of issue #20 ("Results organisers can defend") that concern the phase
 * lifecycle and primary submissions, against the real api process and PostgreSQL. Each case is
 * what was reproduced on main, and now fails safe (docs/adr/0013-phase-state-machine.md):
 * - a primary chosen after the results were known (markPrimary on a closed and a published phase);
 * - several primaries per team from concurrent markPrimary calls, and several board rows per team;
 * - publishing an open phase, and reopening a published one through updatePhase;
 * - a disqualification reason made public by publishing, without the organiser choosing so.
 * No worker runs: scores are stored as the worker would store them, and the boards the api queues
 * are computed in-process (test/support/leaderboards.ts).
 */
import { randomUUID } from 'node:crypto';
import { createDb, SubmissionRepository, type Db } from '@podium/db';
import { databaseUrl, graphqlClient, startApiProcess, waitFor, type RunningApp } from './support/processes';
import { createAdminToken } from '../support/database';
import { LeaderboardJobRunner } from '../support/leaderboards';
import { defined } from '../support/defined';

const QUEUE = 'replay_issue20_lifecycle';
const SECRET = 'REFERENCE-SECRET';
const INSTANCES = [
  { id: 'i1', source: 'Das Haus ist klein.', references: [`${SECRET} the house is small`] },
  { id: 'i2', source: 'Es regnet.', references: [`${SECRET} it is raining`] },
];
type Client = ReturnType<typeof graphqlClient>;
type GqlError = { message: string; extensions?: Record<string, unknown> };

describe('replay of issue #20: phase lifecycle and primary submissions', () => {
  let db: Db;
  let api: RunningApp;
  let baseUrl: string;
  let runner: LeaderboardJobRunner;
  let org: Client;
  let organiserToken: string;
  const suffix = randomUUID().slice(0, 8);
  const organiserName = `org-${suffix}`;
  const slug = `replay20-${suffix}`;
  let teamCount = 0;

  beforeAll(async () => {
    const url = databaseUrl();
    db = createDb(url, { maxConnections: 4 });
    organiserToken = await createAdminToken(db, organiserName, 'replay20');
    // A quick sweep so a phase whose closesAt passed is recorded within the test.
    ({ api, baseUrl } = await startApiProcess(url, 60_000, { PODIUM_QUEUE_SCHEMA: QUEUE, PODIUM_PHASE_CLOSE_SWEEP_SECONDS: '0.5' }));
    runner = new LeaderboardJobRunner(url, QUEUE);
    org = graphqlClient(baseUrl, organiserToken);
    await org.request(`mutation($i: CreateTaskInput!) { createTask(input: $i) { slug } }`, {
      i: { slug, title: 'Replay 20', kind: 'mt', sourceLang: 'de', targetLang: 'en', metrics: [{ key: 'bleu', name: 'bleu' }] },
    });
  });

  afterAll(async () => {
    await api?.stop();
    await runner?.stop();
    await db?.$disconnect();
  });

  async function team(): Promise<{ id: string; name: string; member: string; gql: Client }> {
    const name = `team-${++teamCount}-${suffix}`;
    const member = `member-${teamCount}-${suffix}`;
    const { createTeam } = await org.request<{ createTeam: { id: string } }>(`mutation($n: String!, $m: [String!]!) { createTeam(name: $n, members: $m) { id } }`, { n: name, m: [member] });
    const { issueToken } = await org.request<{ issueToken: string }>(`mutation($u: String!) { issueToken(userName: $u, label: "replay20") }`, { u: member });
    return { id: createTeam.id, name, member, gql: graphqlClient(baseUrl, issueToken) };
  }

  /** An open phase with a test set; `closesInMs` puts its closesAt that far ahead (default: far). */
  async function openPhase(name: string, more: { closesInMs?: number; limit?: number; leaderboardBeforeClose?: boolean } = {}): Promise<string> {
    const closesAt = more.closesInMs === undefined ? '2099-01-01T00:00:00Z' : new Date(Date.now() + more.closesInMs).toISOString();
    const { createPhase } = await org.request<{ createPhase: { id: string } }>(`mutation($i: CreatePhaseInput!) { createPhase(input: $i) { id } }`, {
      i: { taskSlug: slug, name, opensAt: '2020-01-01T00:00:00Z', closesAt, dailyLimit: more.limit ?? 5, totalLimit: more.limit ?? 5, leaderboardBeforeClose: more.leaderboardBeforeClose ?? true },
    });
    await org.request(`mutation($p: ID!, $n: String!, $i: [TestInstanceInput!]!) { uploadTestSet(phaseId: $p, name: $n, instances: $i) { id } }`, { p: createPhase.id, n: `ts-${name}`, i: INSTANCES });
    return createPhase.id;
  }

  async function upload(phaseId: string, t: { id: string; gql: Client }, system: string): Promise<{ status: number; body: { submissionId?: string; error?: string; message?: string } }> {
    const token = await tokenOf(t.gql);
    const form = new FormData();
    form.set('teamId', t.id);
    form.set('systemName', system);
    form.set('file', new Blob([`${system} one\n${system} two\n`], { type: 'text/plain' }), 'out.txt');
    const res = await fetch(`${baseUrl}/api/phases/${phaseId}/submissions`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form });
    return { status: res.status, body: (await res.json()) as { submissionId?: string } };
  }
  const tokens = new WeakMap<Client, string>();
  async function tokenOf(gql: Client): Promise<string> {
    const known = tokens.get(gql);
    if (known) return known;
    const { createToken } = await gql.request<{ createToken: { token: string } }>(`mutation { createToken(label: "upload") { token } }`);
    tokens.set(gql, createToken.token);
    return createToken.token;
  }

  /** Submits and stores a score as the worker would (BLEU `value` for every instance). */
  async function scored(phaseId: string, t: { id: string; gql: Client }, system: string, value: number): Promise<string> {
    const r = await upload(phaseId, t, system);
    expect(r.status).toBe(201);
    const id = r.body.submissionId ?? '';
    await new SubmissionRepository(db).saveScores(id, [{ metric: 'bleu', signature: 'bleu|test', values: INSTANCES.map(() => value) }], [{ metric: 'bleu', signature: 'bleu|test', value }]);
    return id;
  }

  const markPrimary = (gql: Client, id: string) => gql.raw<{ markPrimary: string }>(`mutation($s: ID!) { markPrimary(id: $s) }`, { s: id });
  const primaries = async (phaseId: string, teamId: string) =>
    (await db.submission.findMany({ where: { phaseId, teamId, isPrimary: true }, select: { systemName: true } })).map((s) => s.systemName);
  const codeOf = (errors: GqlError[] | undefined) => errors?.[0]?.extensions?.['code'];

  /** The default board (one row per team), read until current, as an anonymous visitor. */
  async function boardRows(phaseId: string): Promise<{ system: string; team: string }[]> {
    const anon = graphqlClient(baseUrl);
    const q = `query($p: ID!) { leaderboard(phaseId: $p) { updating systems { system team } } }`;
    const board = await runner.settled(async () => (await anon.request<{ leaderboard: { updating: boolean; systems: { system: string; team: string }[] } }>(q, { p: phaseId })).leaderboard);
    expect(board.updating).toBe(false);
    return board.systems.map((s) => ({ system: s.system, team: s.team })).sort((a, b) => a.system.localeCompare(b.system));
  }

  async function phaseState(phaseId: string) {
    return (
      await org.request<{ phase: { lifecycleState: string; stateDescription: string; isOpen: boolean; primariesFrozenAt: string | null } }>(
        `query($p: ID!) { phase(id: $p) { lifecycleState stateDescription isOpen primariesFrozenAt } }`,
        { p: phaseId },
      )
    ).phase;
  }

  it('refuses a primary switch once the phase closed, and once it was published: the public board keeps the primary of the close', async () => {
    // On main: markPrimary worked on a closed and on a published phase and changed the public default board.
    const phaseId = await openPhase('late-switch');
    const a = await team();
    const weak = await scored(phaseId, a, 'weak', 10);
    const strong = await scored(phaseId, a, 'strong', 90);
    expect(codeOf((await markPrimary(a.gql, weak)).errors)).toBeUndefined();
    await org.request(`mutation($p: ID!) { closePhase(id: $p) { id } }`, { p: phaseId });

    const closed = await markPrimary(a.gql, strong);
    expect(codeOf(closed.errors)).toBe('CONFLICT');
    expect(closed.errors?.[0]?.message).toMatch(/^phase 'late-switch' closed at .*; primary submissions are frozen$/);
    await org.request(`mutation($p: ID!) { publishPhase(id: $p) { id } }`, { p: phaseId });
    expect(codeOf((await markPrimary(a.gql, strong)).errors)).toBe('CONFLICT');

    expect(await primaries(phaseId, a.id)).toEqual(['weak']);
    expect(await boardRows(phaseId)).toEqual([{ system: 'weak', team: a.name }]);
    // The one switch that was allowed is in the audit log, by the member who made it.
    const { auditLog } = await org.request<{ auditLog: { actor: string; action: string; targetId: string }[] }>(`query($t: String) { auditLog(taskSlug: $t, limit: 1000) { actor action targetId } }`, { t: slug });
    expect(auditLog.filter((e) => e.targetId === weak)).toEqual([{ actor: a.member, action: 'submission.primary', targetId: weak }]);
    expect(auditLog.filter((e) => e.targetId === strong)).toEqual([]);
  });

  it('keeps exactly one primary when a team sends 10 markPrimary calls at once, and the board one row per team', async () => {
    // On main: 10 concurrent calls left 3–7 primaries and the default board listed 5 rows for the team.
    const phaseId = await openPhase('concurrent', { limit: 20 });
    const a = await team();
    const quiet = await team();
    const ids: string[] = [];
    for (let k = 0; k < 10; k++) ids.push(await scored(phaseId, a, `sys-${k}`, 10 + k));
    await scored(phaseId, quiet, 'quiet-old', 50);
    await scored(phaseId, quiet, 'quiet-new', 40);

    const results = await Promise.all(ids.map((id) => markPrimary(a.gql, id)));
    expect(results.map((r) => r.errors)).toEqual(ids.map(() => undefined));
    const chosen = await primaries(phaseId, a.id);
    expect(chosen).toHaveLength(1);
    // The database refuses a second primary even when written around the api.
    const other = await db.submission.findFirstOrThrow({ where: { phaseId, teamId: a.id, isPrimary: false } });
    await expect(db.submission.update({ where: { id: other.id }, data: { isPrimary: true } })).rejects.toThrow(/Unique constraint/);

    // One row per team: team A by its primary; the team that marked none by its latest submission.
    expect(await boardRows(phaseId)).toEqual([
      { system: 'quiet-new', team: quiet.name },
      { system: defined(chosen[0]), team: a.name },
    ].sort((x, y) => x.system.localeCompare(y.system)));
    // Each switch that changed the primary is audited with the one it replaced.
    const log = await db.auditEntry.findMany({ where: { action: 'submission.primary', targetId: { in: ids } } });
    expect(log.length).toBeGreaterThanOrEqual(1);
    expect(log.length).toBeLessThanOrEqual(10);
  });

  it('refuses to publish an open phase: the references stay hidden and submissions go on', async () => {
    // On main: publishPhase on an open phase made the references public while submissions were accepted.
    const phaseId = await openPhase('publish-open');
    const a = await team();
    const refused = await org.raw(`mutation($p: ID!) { publishPhase(id: $p) { id } }`, { p: phaseId });
    expect(codeOf(refused.errors)).toBe('CONFLICT');
    expect(refused.errors?.[0]?.message).toMatch(/is open until .*; close it before publishing the results$/);
    const anon = graphqlClient(baseUrl);
    expect((await anon.request<{ phase: { referencesVisible: boolean } }>(`query($p: ID!) { phase(id: $p) { referencesVisible } }`, { p: phaseId })).phase.referencesVisible).toBe(false);
    expect((await db.phase.findUniqueOrThrow({ where: { id: phaseId } })).publishedAt).toBeNull();
    expect((await upload(phaseId, a, 'still-open')).status).toBe(201);
  });

  it('refuses updatePhase on a published phase, saying to create a new phase: no reopening, no new submissions', async () => {
    // On main: updatePhase(closesAt: later) on a published phase accepted new submissions.
    const phaseId = await openPhase('published-final');
    const a = await team();
    await scored(phaseId, a, 'before', 30);
    await org.request(`mutation($p: ID!) { closePhase(id: $p) { id } }`, { p: phaseId });
    await org.request(`mutation($p: ID!) { publishPhase(id: $p) { id } }`, { p: phaseId });

    for (const input of [{ closesAt: '2100-01-01T00:00:00Z' }, { totalLimit: 50 }, { name: 'renamed' }]) {
      const r = await org.raw(`mutation($p: ID!, $i: UpdatePhaseInput!) { updatePhase(id: $p, input: $i) { id } }`, { p: phaseId, i: input });
      expect(codeOf(r.errors)).toBe('CONFLICT');
      expect(r.errors?.[0]?.message).toMatch(/published results are final: create a new phase instead$/);
    }
    const again = await org.raw(`mutation($p: ID!) { publishPhase(id: $p) { id } }`, { p: phaseId });
    expect(codeOf(again.errors)).toBe('CONFLICT');
    const late = await upload(phaseId, a, 'after');
    expect(late.status).toBe(403);
    expect(await db.submission.count({ where: { phaseId } })).toBe(1);
    const state = await phaseState(phaseId);
    expect(state.lifecycleState).toBe('PUBLISHED');
    const today = new Date().toISOString().slice(0, 10);
    expect(state.stateDescription).toBe(`closed early on ${today} by ${organiserName}, published on ${today} by ${organiserName}`);
  });

  it('closes early recording who and when, and makes the latest scored submission primary for a team that chose none', async () => {
    const phaseId = await openPhase('auto-early');
    const chooser = await team();
    const silent = await team();
    await scored(phaseId, chooser, 'chosen', 20);
    const chosenLater = await scored(phaseId, chooser, 'chooser-latest', 80);
    await markPrimary(chooser.gql, defined((await db.submission.findFirstOrThrow({ where: { phaseId, systemName: 'chosen' } })).id));
    await scored(phaseId, silent, 'silent-old', 70);
    const silentLatest = await scored(phaseId, silent, 'silent-latest', 60);

    const before = Date.now();
    await org.request(`mutation($p: ID!) { closePhase(id: $p) { id } }`, { p: phaseId });
    const phase = await db.phase.findUniqueOrThrow({ where: { id: phaseId }, include: { closedBy: true } });
    expect(phase.closedBy?.name).toBe(organiserName);
    expect(phase.closedEarlyAt?.getTime()).toBeGreaterThanOrEqual(before - 1000);
    expect(phase.primariesFrozenAt).not.toBeNull();
    expect(await primaries(phaseId, chooser.id)).toEqual(['chosen']);
    expect(await primaries(phaseId, silent.id)).toEqual(['silent-latest']);
    expect(chosenLater).not.toBe(silentLatest);
    const auto = await db.auditEntry.findMany({ where: { action: 'submission.primary-auto', targetId: silentLatest }, include: { actor: true } });
    expect(auto.map((e) => e.actor?.name)).toEqual([organiserName]);
    const state = await phaseState(phaseId);
    expect(state).toMatchObject({ lifecycleState: 'CLOSED', isOpen: false });
    expect(state.stateDescription).toBe(`closed early on ${new Date().toISOString().slice(0, 10)} by ${organiserName}; results not yet published`);
    expect(codeOf((await org.raw(`mutation($p: ID!) { closePhase(id: $p) { id } }`, { p: phaseId })).errors)).toBe('CONFLICT');
    // Not even an organiser submits for a team once the phase closed.
    tokens.set(org, organiserToken);
    const forTeam = await upload(phaseId, { id: silent.id, gql: org }, 'organiser-late');
    expect(forTeam.status).toBe(403);
    expect(await db.submission.count({ where: { phaseId, systemName: 'organiser-late' } })).toBe(0);
  });

  it('behaves as closed the moment closesAt passes, and the system then freezes the primaries, audited', async () => {
    const phaseId = await openPhase('auto-time', { closesInMs: 6_000 });
    const silent = await team();
    await scored(phaseId, silent, 'first', 10);
    const latest = await scored(phaseId, silent, 'second', 5);
    const closesAt = (await db.phase.findUniqueOrThrow({ where: { id: phaseId } })).closesAt;
    await new Promise((r) => setTimeout(r, Math.max(0, closesAt.getTime() - Date.now()) + 200));

    // Closed everywhere at once, whether or not the sweep has run yet.
    expect(codeOf((await markPrimary(silent.gql, latest)).errors)).toBe('CONFLICT');
    expect((await upload(phaseId, silent, 'too-late')).status).toBe(403);
    expect(codeOf((await org.raw(`mutation($p: ID!, $i: UpdatePhaseInput!) { updatePhase(id: $p, input: $i) { id } }`, { p: phaseId, i: { closesAt: '2100-01-01T00:00:00Z' } })).errors)).toBe('CONFLICT');

    await waitFor('the system to freeze the primaries', async () => (await db.phase.findUniqueOrThrow({ where: { id: phaseId } })).primariesFrozenAt, 20_000);
    expect(await primaries(phaseId, silent.id)).toEqual(['second']);
    const { auditLog } = await org.request<{ auditLog: { actor: string; action: string; targetId: string }[] }>(`query($t: String) { auditLog(taskSlug: $t, limit: 1000) { actor action targetId } }`, { t: slug });
    expect(auditLog.filter((e) => e.targetId === latest)).toEqual([{ actor: 'system', action: 'submission.primary-auto', targetId: latest }]);
    const state = await phaseState(phaseId);
    expect(state.lifecycleState).toBe('CLOSED');
    expect(state.stateDescription).toBe(`closed on ${closesAt.toISOString().slice(0, 10)}; results not yet published`);
    expect(await boardRows(phaseId)).toEqual([{ system: 'second', team: silent.name }]);
  });

  it("keeps a disqualification reason to the team and organisers at publishing, unless the organiser made it public", async () => {
    // On main: the reason became public when the phase was published.
    const phaseId = await openPhase('reasons');
    const a = await team();
    const b = await team();
    const privateOne = await scored(phaseId, a, 'private-reason', 10);
    const publicOne = await scored(phaseId, a, 'public-reason', 20);
    await org.request(`mutation($s: ID!) { moderateSubmission(id: $s, moderation: DISQUALIFIED, reason: "trained on the test set") }`, { s: privateOne });
    await org.request(`mutation($s: ID!) { moderateSubmission(id: $s, moderation: DISQUALIFIED, reason: "late by a day", reasonPublic: true) }`, { s: publicOne });
    await org.request(`mutation($p: ID!) { closePhase(id: $p) { id } }`, { p: phaseId });
    await org.request(`mutation($p: ID!) { publishPhase(id: $p) { id } }`, { p: phaseId });

    const q = `query($s: ID!) { submission(id: $s) { moderation moderationReason moderationReasonPublic } }`;
    const seen = async (gql: Client, id: string) => (await gql.request<{ submission: { moderation: string; moderationReason: string | null; moderationReasonPublic: boolean } }>(q, { s: id })).submission;
    for (const viewer of [graphqlClient(baseUrl), b.gql]) {
      expect(await seen(viewer, privateOne)).toEqual({ moderation: 'DISQUALIFIED', moderationReason: null, moderationReasonPublic: false });
      expect(await seen(viewer, publicOne)).toEqual({ moderation: 'DISQUALIFIED', moderationReason: 'late by a day', moderationReasonPublic: true });
    }
    expect((await seen(a.gql, privateOne)).moderationReason).toBe('trained on the test set');
    expect((await seen(org, privateOne)).moderationReason).toBe('trained on the test set');
    const listed = await graphqlClient(baseUrl).request<{ submissions: { systemName: string; moderationReason: string | null }[] }>(
      `query($p: ID!) { submissions(phaseId: $p) { systemName moderationReason } }`,
      { p: phaseId },
    );
    expect(listed.submissions.find((s) => s.systemName === 'private-reason')?.moderationReason).toBeNull();
  });
});

