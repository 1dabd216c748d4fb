/**
 * Replay of issue #20's authorization findings against the real api process and PostgreSQL:
 * - one global organiser role: any organiser controlled every task → an organiser of task Y is
 *   refused every organiser operation on task X (each one, from test/e2e/support/organiser-probes.ts);
 * - `issueToken(userName:)` silently made a working token for anyone → administrators only,
 *   audited, and the user sees who issued it;
 * - anonymous visitors read every team's member names → null for them.
 * (An unclassified field refused at run time: apps/api/src/common/authorization.plugin.spec.ts,
 * Apollo with the plugin; the completeness over the real schema and routes:
 * authorization-classification.integration.spec.ts.)
 */
import { randomUUID } from 'node:crypto';
import { createDb, type Db } from '@podium/db';
import { databaseUrl, graphqlClient, startApiProcess, type RunningApp } from './support/processes';
import { createAdminToken, createOrganiserToken } from '../support/database';
import { TASK_ORGANISER_PROBES, type OrganiserTarget } from './support/organiser-probes';

describe('issue #20 replay: task-scoped organisers, audited tokens for others, member names', () => {
  let db: Db;
  let api: RunningApp;
  let baseUrl: string;
  const suffix = randomUUID().slice(0, 8);
  const names = { x: `orgx-${suffix}`, y: `orgy-${suffix}`, admin: `admin-${suffix}`, member: `member-${suffix}` };
  const tokens = { x: '', y: '', admin: '', member: '' };
  const target: OrganiserTarget = { slug: `task-x-${suffix}`, phaseId: '', submissionId: '', teamId: '', userName: `orgy-${suffix}` };
  const slugY = `task-y-${suffix}`;

  const code = (r: { errors?: { extensions?: Record<string, unknown> }[] }) => r.errors?.[0]?.extensions?.['code'];

  beforeAll(async () => {
    const url = databaseUrl();
    db = createDb(url, { maxConnections: 2 });
    tokens.x = await createOrganiserToken(db, names.x, 'replay');
    tokens.y = await createOrganiserToken(db, names.y, 'replay');
    tokens.admin = await createAdminToken(db, names.admin, 'replay');
    ({ api, baseUrl } = await startApiProcess(url, 60_000, { PODIUM_QUEUE_SCHEMA: 'replay_issue20' }));
    const x = graphqlClient(baseUrl, tokens.x);
    const admin = graphqlClient(baseUrl, tokens.admin);
    for (const [client, slug] of [[x, target.slug], [graphqlClient(baseUrl, tokens.y), slugY]] as const) {
      await client.request(`mutation($i: CreateTaskInput!) { createTask(input: $i) { slug } }`, {
        i: { slug, title: `Task ${slug}`, kind: 'mt', sourceLang: 'de', targetLang: 'en', metrics: [{ key: 'bleu', name: 'bleu' }] },
      });
    }
    const { createPhase } = await x.request<{ createPhase: { id: string } }>(`mutation($i: CreatePhaseInput!) { createPhase(input: $i) { id } }`, {
      i: { taskSlug: target.slug, name: 'test', opensAt: '2020-01-01T00:00:00Z', closesAt: '2099-01-01T00:00:00Z', dailyLimit: 5, totalLimit: 5, leaderboardBeforeClose: false },
    });
    target.phaseId = createPhase.id;
    await x.request(`mutation($p: ID!, $i: [TestInstanceInput!]!) { uploadTestSet(phaseId: $p, name: "ts", instances: $i) { id } }`, {
      p: target.phaseId,
      i: [{ id: 'i1', source: 'Es regnet.', references: ['It is raining.'] }],
    });
    const { createTeam } = await admin.request<{ createTeam: { id: string } }>(`mutation($n: String!, $m: [String!]!) { createTeam(name: $n, members: $m) { id } }`, {
      n: `team-${suffix}`,
      m: [names.member],
    });
    target.teamId = createTeam.id;
    tokens.member = (await admin.request<{ issueToken: string }>(`mutation($u: String!) { issueToken(userName: $u, label: "support") }`, { u: names.member })).issueToken;
    const { submit } = await graphqlClient(baseUrl, tokens.member).request<{ submit: { id: string } }>(
      `mutation($p: ID!, $t: ID!) { submit(phaseId: $p, teamId: $t, systemName: "sys", content: "it rains\\n", format: TEXT) { id } }`,
      { p: target.phaseId, t: target.teamId },
    );
    target.submissionId = submit.id;
  });

  afterAll(async () => {
    await api?.stop();
    await db?.$disconnect();
  });

  it("refuses an organiser of task Y every organiser operation on task X, and changes nothing", async () => {
    const y = graphqlClient(baseUrl, tokens.y);
    const let_through: string[] = [];
    for (const [operation, probe] of Object.entries(TASK_ORGANISER_PROBES)) {
      const call = probe(target);
      const r = await y.raw(call.query, call.variables);
      if (code(r) !== 'FORBIDDEN') let_through.push(`${operation}: ${JSON.stringify(r)}`);
    }
    expect(let_through).toEqual([]);
    const task = await db.task.findUniqueOrThrow({ where: { slug: target.slug }, include: { phases: true, organisers: true } });
    expect(task.title).toBe(`Task ${target.slug}`);
    expect(task.phases).toHaveLength(1);
    expect(task.phases[0]?.closedEarlyAt).toBeNull();
    expect(task.phases[0]?.publishedAt).toBeNull();
    expect(task.organisers).toHaveLength(1);
    expect((await db.submission.findUniqueOrThrow({ where: { id: target.submissionId } })).moderation).toBe('NONE');
  });

  it("lets the task's own organiser (and an administrator) do what the other organiser may not", async () => {
    const x = graphqlClient(baseUrl, tokens.x);
    expect((await x.request<{ registrations: unknown[] }>(`query($s: String!) { registrations(taskSlug: $s) { status } }`, { s: target.slug })).registrations).toHaveLength(1);
    const admin = graphqlClient(baseUrl, tokens.admin);
    const r = await admin.raw(`query($s: String!) { taskOrganisers(slug: $s) { name addedBy } }`, { s: target.slug });
    expect(r.data).toEqual({ taskOrganisers: [{ name: names.x, addedBy: null }] });
  });

  it('adds and removes organisers per task, audited, with immediate effect', async () => {
    const x = graphqlClient(baseUrl, tokens.x);
    const y = graphqlClient(baseUrl, tokens.y);
    const rename = `mutation($p: ID!, $n: String!) { updatePhase(id: $p, input: { name: $n }) { name } }`;
    expect(code(await y.raw(rename, { p: target.phaseId, n: 'by-y' }))).toBe('FORBIDDEN');
    const added = await x.request<{ addTaskOrganiser: { name: string; addedBy: string | null }[] }>(`mutation($s: String!, $u: String!) { addTaskOrganiser(slug: $s, userName: $u) { name addedBy } }`, { s: target.slug, u: names.y });
    expect(added.addTaskOrganiser).toEqual([{ name: names.x, addedBy: null }, { name: names.y, addedBy: names.x }]);
    expect((await y.request<{ updatePhase: { name: string } }>(rename, { p: target.phaseId, n: 'by-y' })).updatePhase.name).toBe('by-y');
    await x.request(`mutation($s: String!, $u: String!) { removeTaskOrganiser(slug: $s, userName: $u) { name } }`, { s: target.slug, u: names.y });
    expect(code(await y.raw(rename, { p: target.phaseId, n: 'again' }))).toBe('FORBIDDEN');
    await x.request(rename, { p: target.phaseId, n: 'test' });
    const { auditLog } = await x.request<{ auditLog: { actor: string; action: string; details: { userName?: string } }[] }>(`query($s: String) { auditLog(taskSlug: $s) { actor action details } }`, { s: target.slug });
    const organiserEntries = auditLog.filter((e) => e.action.startsWith('task.') && e.action.endsWith('Organiser')).map((e) => [e.action, e.actor, e.details.userName]);
    expect(organiserEntries).toEqual([
      ['task.removeOrganiser', names.x, names.y],
      ['task.addOrganiser', names.x, names.y],
    ]);
    // The last organiser cannot be removed.
    expect(code(await x.raw(`mutation($s: String!, $u: String!) { removeTaskOrganiser(slug: $s, userName: $u) { name } }`, { s: target.slug, u: names.x }))).toBe('CONFLICT');
  });

  it("shows an organiser only their own tasks' audit entries", async () => {
    const { auditLog } = await graphqlClient(baseUrl, tokens.y).request<{ auditLog: { details: { taskId?: string } }[] }>(`{ auditLog(limit: 1000) { details } }`);
    const taskX = await db.task.findUniqueOrThrow({ where: { slug: target.slug } });
    expect(auditLog.filter((e) => e.details.taskId === taskX.id)).toEqual([]);
  });

  it('refuses issueToken to organisers, participants and anonymous callers', async () => {
    const issue = `mutation($u: String!) { issueToken(userName: $u, label: "support") }`;
    expect(code(await graphqlClient(baseUrl, tokens.x).raw(issue, { u: names.member }))).toBe('FORBIDDEN');
    expect(code(await graphqlClient(baseUrl, tokens.member).raw(issue, { u: names.x }))).toBe('FORBIDDEN');
    expect(code(await graphqlClient(baseUrl).raw(issue, { u: names.member }))).toBe('UNAUTHENTICATED');
    expect(code(await graphqlClient(baseUrl, tokens.x).raw(`mutation { createTeam(name: "by-organiser-${suffix}", members: ["someone-${suffix}"]) { id } }`))).toBe('FORBIDDEN');
  });

  it("audits an administrator's token for another user and shows the user who issued it", async () => {
    const member = graphqlClient(baseUrl, tokens.member);
    const { myTokens } = await member.request<{ myTokens: { label: string; issuedBy: string | null }[] }>(`{ myTokens { label issuedBy } }`);
    expect(myTokens).toEqual([{ label: 'support', issuedBy: names.admin }]);
    await member.request(`mutation { createToken(label: "mine") { token } }`);
    const after = await member.request<{ myTokens: { label: string; issuedBy: string | null }[] }>(`{ myTokens { label issuedBy } }`);
    expect(after.myTokens.find((t) => t.label === 'mine')?.issuedBy).toBeNull();
    const { auditLog } = await graphqlClient(baseUrl, tokens.admin).request<{ auditLog: { actor: string; action: string; targetType: string; details: { userName?: string; label?: string } }[] }>(
      `{ auditLog(limit: 1000) { actor action targetType details } }`,
    );
    const issued = auditLog.filter((e) => e.action === 'token.issue' && e.details.userName === names.member);
    expect(issued).toEqual([{ actor: names.admin, action: 'token.issue', targetType: 'user', details: expect.objectContaining({ userName: names.member, label: 'support' }) as unknown }]);
    // Organisers do not see instance-wide entries.
    const { auditLog: xLog } = await graphqlClient(baseUrl, tokens.x).request<{ auditLog: { action: string }[] }>(`{ auditLog(limit: 1000) { action } }`);
    expect(xLog.filter((e) => e.action === 'token.issue')).toEqual([]);
  });

  it('hides member names (and the invite code) from anonymous callers and other teams', async () => {
    const query = `query($t: ID!) { team(id: $t) { name members { name } inviteCode } }`;
    const anonymous = await graphqlClient(baseUrl).request<{ team: { name: string; members: unknown; inviteCode: unknown } }>(query, { t: target.teamId });
    expect(anonymous.team).toEqual({ name: `team-${suffix}`, members: null, inviteCode: null });
    const otherOrganiser = await graphqlClient(baseUrl, tokens.y).request<{ team: { members: unknown } }>(query, { t: target.teamId });
    expect(otherOrganiser.team.members).toBeNull();
    // The organiser of the task the team registered for (by submitting) sees them.
    const own = await graphqlClient(baseUrl, tokens.x).request<{ team: { members: { name: string }[] } }>(query, { t: target.teamId });
    expect(own.team.members).toEqual([{ name: names.member }]);
  });
});
