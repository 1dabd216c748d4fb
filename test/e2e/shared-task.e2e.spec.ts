/**
 * A shared task run by people who never read the code (issue #10), across the real api, the
 * worker and the `podium` CLI: a participant signs up (web session cookie), creates a team, a
 * teammate joins with the invite code, a token is created (shown once) and revoked; the test
 * input is downloaded with `podium test-input`, outputs go back with `podium submit` (plain
 * lines, progress until scored); the team marks its primary; the organiser edits, closes and
 * publishes. Bad input gets a clear error and changes nothing.
 */
import { currentBoard } from '../support/leaderboards';
import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createDb, type Db } from '@podium/db';
import { databaseUrl, graphqlClient, repoRoot, startApiProcess, startApp, waitFor, type RunningApp } from './support/processes';
import { createOrganiserToken } from '../support/database';
import { defined } from '../support/defined';

const INSTANCES = [
  { id: 'n1', source: 'Der Hund schläft.', references: ['the dog is sleeping'] },
  { id: 'n2', source: 'Die Katze\tspielt.', references: ['the cat is playing'] },
  { id: 'n3', source: 'Wir essen Brot.', references: ['we eat bread'] },
];

function podium(args: string[]): { status: number; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, ['-r', '@swc-node/register', 'apps/cli/src/main.ts', ...args], { cwd: repoRoot, encoding: 'utf8', timeout: 120_000 });
  return { status: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}

describe('a shared task end to end: registration, teams, tokens, test input, CLI submit, lifecycle', () => {
  let db: Db;
  let api: RunningApp;
  let worker: RunningApp;
  let baseUrl: string;
  let organiserToken: string;
  const suffix = randomUUID().slice(0, 8);
  const slug = `shared-${suffix}`;
  let phaseId = '';
  const dir = mkdtempSync(path.join(tmpdir(), 'podium-shared-'));

  /** GraphQL with a session cookie, as the web app sends it. */
  async function withCookie<T>(cookie: string | undefined, query: string, variables: Record<string, unknown> = {}) {
    const send = () =>
      fetch(`${baseUrl}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(cookie ? { cookie } : {}) },
        body: JSON.stringify({ query, variables }),
      });
    // A kept-alive socket the server closed while the CLI ran fails once ("other side closed").
    const res = await send().catch(send);
    const body = (await res.json()) as { data?: T; errors?: { message: string; extensions?: Record<string, unknown> }[] };
    return { body, setCookie: res.headers.get('set-cookie') };
  }

  beforeAll(async () => {
    const url = databaseUrl();
    db = createDb(url, { maxConnections: 2 });
    organiserToken = await createOrganiserToken(db, `organiser-${suffix}`, 'e2e');
    ({ api, baseUrl } = await startApiProcess(url));
    // Started once the api has created pg-boss's schema (creating it together can deadlock).
    worker = startApp('apps/worker/src/main.ts', { DATABASE_URL: url, PODIUM_WORKER_NAME: `shared-${suffix}` });
  });

  afterAll(async () => {
    await Promise.all([api?.stop(), worker?.stop()]);
    await db?.$disconnect();
  });

  it('lets an organiser set up a task with a hidden phase', async () => {
    const org = graphqlClient(baseUrl, organiserToken);
    await org.request(`mutation($i: CreateTaskInput!) { createTask(input: $i) { slug } }`, {
      i: { slug, title: 'Shared', kind: 'mt', sourceLang: 'de', targetLang: 'en', metrics: [{ key: 'chrf', name: 'chrf' }] },
    });
    const { createPhase } = await org.request<{ createPhase: { id: string } }>(`mutation($i: CreatePhaseInput!) { createPhase(input: $i) { id } }`, {
      i: { taskSlug: slug, name: 'test', opensAt: '2020-01-01T00:00:00Z', closesAt: '2099-01-01T00:00:00Z', dailyLimit: 5, totalLimit: 5, leaderboardBeforeClose: false },
    });
    phaseId = createPhase.id;
    await org.request(`mutation($p: ID!, $i: [TestInstanceInput!]!) { uploadTestSet(phaseId: $p, name: "ts", instances: $i) { id } }`, { p: phaseId, i: INSTANCES });
    const edited = await org.request<{ updatePhase: { closesAt: string; dailyLimit: number } }>(
      `mutation($p: ID!) { updatePhase(id: $p, input: { closesAt: "2099-06-01T00:00:00Z", dailyLimit: 4 }) { closesAt dailyLimit } }`,
      { p: phaseId },
    );
    expect(edited.updatePhase).toEqual({ closesAt: '2099-06-01T00:00:00.000Z', dailyLimit: 4 });
  });

  let cookie = '';
  let teamId = '';
  let token = '';
  let fresh = '';

  it('signs a participant up with a secure http-only session cookie; a taken name is refused and nothing is stored', async () => {
    const mutation = `mutation($n: String!, $e: String!, $p: String!) { register(name: $n, email: $e, password: $p) { id name role } }`;
    const r = await withCookie<{ register: { name: string; role: string } }>(undefined, mutation, { n: `ada-${suffix}`, e: `ada-${suffix}@example.org`, p: 'correct horse battery' });
    expect(r.body.errors).toBeUndefined();
    expect(r.body.data?.register).toMatchObject({ name: `ada-${suffix}`, role: 'PARTICIPANT' });
    expect(r.setCookie).toMatch(/^podium_session=ses_[^;]+; Path=\/; HttpOnly; SameSite=Strict; Max-Age=\d+; Secure$/);
    cookie = defined(defined(r.setCookie).split(';')[0]);
    const stored = await db.user.findUniqueOrThrow({ where: { name: `ada-${suffix}` } });
    expect(stored.passwordHash).toMatch(/^scrypt\$16384\$8\$1\$/);

    const taken = await withCookie(undefined, mutation, { n: `ada-${suffix}`, e: `other-${suffix}@example.org`, p: 'another long password' });
    expect(taken.body.errors?.[0]).toMatchObject({ message: `the name 'ada-${suffix}' is taken`, extensions: { code: 'CONFLICT', field: 'name' } });
    expect(taken.setCookie).toBeNull();
    // Nothing stored: no user with the second e-mail (a global count would race other suites).
    expect(await db.user.count({ where: { email: `other-${suffix}@example.org` } })).toBe(0);

    const me = await withCookie<{ me: { name: string } }>(cookie, `{ me { name } }`);
    expect(me.body.data?.me.name).toBe(`ada-${suffix}`);
    const login = await withCookie(undefined, `mutation { login(login: "ada-${suffix}@example.org", password: "wrong password!") { id } }`);
    expect(login.body.errors?.[0]?.extensions?.['code']).toBe('UNAUTHENTICATED');
  });

  it('creates a team, lets a teammate join with the invite code, and issues a token shown once', async () => {
    const team = await withCookie<{ createMyTeam: { id: string; inviteCode: string } }>(cookie, `mutation($n: String!) { createMyTeam(name: $n) { id inviteCode members { name } } }`, { n: `team-${suffix}` });
    expect(team.body.errors).toBeUndefined();
    teamId = defined(team.body.data).createMyTeam.id;
    const mate = await withCookie(undefined, `mutation($n: String!, $e: String!) { register(name: $n, email: $e, password: "teammate password") { id } }`, { n: `bo-${suffix}`, e: `bo-${suffix}@example.org` });
    const mateCookie = defined(defined(mate.setCookie).split(';')[0]);
    const joined = await withCookie<{ joinTeam: { members: { name: string }[] } }>(mateCookie, `mutation($c: String!) { joinTeam(inviteCode: $c) { members { name } } }`, { c: defined(team.body.data).createMyTeam.inviteCode });
    expect(joined.body.data?.joinTeam.members.map((m) => m.name)).toEqual([`ada-${suffix}`, `bo-${suffix}`]);
    const outsider = await withCookie<{ team: { inviteCode: string | null } }>(undefined, `query($t: ID!) { team(id: $t) { inviteCode } }`, { t: teamId });
    expect(outsider.body.data?.team.inviteCode).toBeNull();

    const created = await withCookie<{ createToken: { token: string; info: { id: string } } }>(cookie, `mutation { createToken(label: "laptop") { token info { id label } } }`);
    token = defined(created.body.data).createToken.token;
    expect(token).toMatch(/^pod_/);
    const listed = await withCookie<{ myTokens: Record<string, unknown>[] }>(cookie, `{ myTokens { id label revokedAt } }`);
    expect(listed.body.data?.myTokens).toEqual([{ id: defined(created.body.data).createToken.info.id, label: 'laptop', revokedAt: null }]);
    expect(JSON.stringify(await db.apiToken.findMany({ where: { userId: (await db.user.findUniqueOrThrow({ where: { name: `ada-${suffix}` } })).id } }))).not.toContain(token);
  });

  it('downloads the test input with `podium test-input` and submits with `podium submit`, following the scoring', async () => {
    const tsv = podium(['test-input', '--url', baseUrl, '--phase', phaseId, '--format', 'tsv']);
    expect(tsv.status).toBe(0);
    expect(tsv.stdout).toBe('id\tsource\nn1\tDer Hund schläft.\nn2\tDie Katze\\tspielt.\nn3\tWir essen Brot.\n');
    const out = path.join(dir, 'input.jsonl');
    const saved = podium(['test-input', '--url', baseUrl, '--phase', phaseId, '--format', 'jsonl', '--out', out]);
    expect(JSON.parse(saved.stdout)).toMatchObject({ file: out, format: 'jsonl' });
    expect(readFileSync(out, 'utf8')).not.toContain('the dog');

    const outputs = path.join(dir, 'outputs.txt');
    writeFileSync(outputs, 'the dog sleeps\nthe cat plays\nwe eat bread\n');
    const sub = podium(['submit', '--url', baseUrl, '--phase', phaseId, '--token', token, '--system', 'plain-lines', '--poll-ms', '300', outputs]);
    expect(sub.stderr).toMatch(/submitted plain-lines/);
    expect(sub.stderr).toMatch(/scored 3\/3/);
    expect(sub.status).toBe(0);
    const result = JSON.parse(sub.stdout) as { status: string; corpusScores: { metric: string; value: number }[] };
    expect(result.status).toBe('SCORED');
    expect(result.corpusScores.map((c) => c.metric)).toEqual(['chrf']);

    const jsonl = path.join(dir, 'outputs.jsonl');
    writeFileSync(jsonl, INSTANCES.map((i) => JSON.stringify({ id: i.id, output: i.references[0] })).reverse().join('\n'));
    const second = podium(['submit', '--url', baseUrl, '--phase', phaseId, '--token', token, '--system', 'jsonl-ids', '--no-wait', jsonl]);
    expect(second.status).toBe(0);
    const same = podium(['submit', '--url', baseUrl, '--phase', phaseId, '--token', token, '--system', 'copy', '--no-wait', jsonl]);
    expect(same.status).toBe(0);
    const copyId = (JSON.parse(same.stdout) as { submissionId: string }).submissionId;
    const dup = await withCookie<{ submission: { duplicateOf: { systemName: string } | null } }>(cookie, `query($s: ID!) { submission(id: $s) { duplicateOf { systemName } } }`, { s: copyId });
    expect(dup.body.data?.submission.duplicateOf).toEqual({ systemName: 'jsonl-ids' });
    // The same outputs as plain lines: flagged as identical too.
    const lines = path.join(dir, 'same.txt');
    writeFileSync(lines, INSTANCES.map((i) => i.references[0]).join('\n') + '\n');
    const plain = podium(['submit', '--url', baseUrl, '--phase', phaseId, '--token', token, '--system', 'same-as-lines', '--no-wait', lines]);
    const plainId = (JSON.parse(plain.stdout) as { submissionId: string }).submissionId;
    const dup2 = await withCookie<{ submission: { duplicateOf: { systemName: string } | null } }>(cookie, `query($s: ID!) { submission(id: $s) { duplicateOf { systemName } } }`, { s: plainId });
    expect(dup2.body.data?.submission.duplicateOf).toEqual({ systemName: 'jsonl-ids' });
  });

  it('marks one primary submission per team and phase', async () => {
    const subs = await db.submission.findMany({ where: { phaseId }, orderBy: { createdAt: 'asc' } });
    for (const s of [defined(subs[0]), defined(subs[1])]) {
      const r = await withCookie(cookie, `mutation($s: ID!) { markPrimary(id: $s) }`, { s: s.id });
      expect(r.body.errors).toBeUndefined();
    }
    const primary = await db.submission.findMany({ where: { phaseId, isPrimary: true } });
    expect(primary.map((s) => s.systemName)).toEqual(['jsonl-ids']);
  });

  it('refuses a revoked token, metric edits after the first submission and submissions after close, changing nothing', async () => {
    const org = graphqlClient(baseUrl, organiserToken);
    const metrics = await org.raw(`mutation($s: String!) { updateTask(slug: $s, input: { metrics: [{ key: "bleu", name: "bleu" }] }) { slug } }`, { s: slug });
    expect(metrics.errors?.[0]?.extensions).toMatchObject({ code: 'CONFLICT', field: 'metrics' });
    expect((await db.task.findUniqueOrThrow({ where: { slug } })).metrics).toEqual([{ key: 'chrf', name: 'chrf', options: {} }]);
    const title = await org.request<{ updateTask: { title: string } }>(`mutation($s: String!) { updateTask(slug: $s, input: { title: "Shared task" }) { title } }`, { s: slug });
    expect(title.updateTask.title).toBe('Shared task');

    const tokenId = defined(defined((await withCookie<{ myTokens: { id: string }[] }>(cookie, `{ myTokens { id } }`)).body.data).myTokens[0]).id;
    await withCookie(cookie, `mutation($t: ID!) { revokeToken(id: $t) { revokedAt } }`, { t: tokenId });
    const count = await db.submission.count({ where: { phaseId } });
    const outputs = path.join(dir, 'outputs.txt');
    const revoked = podium(['submit', '--url', baseUrl, '--phase', phaseId, '--token', token, '--system', 'late', '--no-wait', outputs]);
    expect(revoked.status).toBe(2);
    expect(revoked.stderr).toMatch(/unknown or revoked/);

    await org.request(`mutation($p: ID!) { closePhase(id: $p) { closedEarlyAt } }`, { p: phaseId });
    fresh = defined((await withCookie<{ createToken: { token: string } }>(cookie, `mutation { createToken(label: "second") { token } }`)).body.data).createToken.token;
    const late = podium(['submit', '--url', baseUrl, '--phase', phaseId, '--token', fresh, '--system', 'late', '--no-wait', outputs]);
    expect(late.status).toBe(2);
    expect(late.stderr).toMatch(/phase 'test' closed at .*; it accepts no more submissions/);
    expect(await db.submission.count({ where: { phaseId } })).toBe(count);
  });

  it('publishes: anonymous visitors then see references and per-instance scores; the audit log names who did what', async () => {
    const anon = graphqlClient(baseUrl);
    const sub = await db.submission.findFirstOrThrow({ where: { phaseId, systemName: 'plain-lines' } });
    const q = `query($s: ID!) { instanceScores(submissionId: $s, metric: "chrf") { rows { instanceId references output score } } }`;
    expect((await anon.raw(q, { s: sub.id })).errors?.[0]?.extensions?.['code']).toBe('FORBIDDEN');
    const org = graphqlClient(baseUrl, organiserToken);
    await org.request(`mutation($p: ID!) { publishPhase(id: $p) { publishedAt } }`, { p: phaseId });
    const rows = (await anon.request<{ instanceScores: { rows: { instanceId: string; references: string[] }[] } }>(q, { s: sub.id })).instanceScores.rows;
    expect(rows.map((r) => r.references[0])).toEqual(INSTANCES.map((i) => i.references[0]));

    const { auditLog } = await org.request<{ auditLog: { actor: string; action: string }[] }>(`query($t: String) { auditLog(taskSlug: $t) { actor action } }`, { t: slug });
    // The member's primary switch (the second markPrimary; the first found no other primary to
    // replace and is audited too), then the organiser's actions from creating the task on; closing chose no primary (the team had one).
    const organiserActions = auditLog.filter((e) => !e.action.startsWith('submission.primary'));
    expect(organiserActions.map((e) => e.action)).toEqual(['phase.publish', 'phase.close', 'task.update', 'phase.update', 'testset.upload', 'phase.create', 'task.create']);
    expect(new Set(organiserActions.map((e) => e.actor))).toEqual(new Set([`organiser-${suffix}`]));
    expect(auditLog.filter((e) => e.action.startsWith('submission.primary')).map((e) => e.action)).toEqual(['submission.primary', 'submission.primary']);
    const denied = await graphqlClient(baseUrl).raw(`{ auditLog { action } }`);
    expect(denied.errors?.[0]?.extensions?.['code']).toBe('UNAUTHENTICATED');
  });

  it('ranks a team by its primary submission, all on request; hides a submission with a reason its team sees', async () => {
    const org = graphqlClient(baseUrl, organiserToken);
    await waitFor('four scored submissions', async () => (await db.submission.count({ where: { phaseId, status: 'SCORED' } })) === 4, 60_000);
    const board = `query($p: ID!, $all: Boolean!) { leaderboard(phaseId: $p, allSubmissions: $all) { updating systems { system } } }`;
    const anon = graphqlClient(baseUrl);
    // The worker stores each stamp's board a moment after the change: read until it is current.
    const systems = async (all: boolean) =>
      (await currentBoard(async () => (await anon.request<{ leaderboard: { updating: boolean; systems: { system: string }[] } }>(board, { p: phaseId, all })).leaderboard)).systems.map((s) => s.system).sort();
    expect(await systems(false)).toEqual(['jsonl-ids']);
    expect(await systems(true)).toEqual(['copy', 'jsonl-ids', 'plain-lines', 'same-as-lines']);

    const hidden = await db.submission.findFirstOrThrow({ where: { phaseId, systemName: 'plain-lines' } });
    const refused = await org.raw(`mutation($s: ID!) { moderateSubmission(id: $s, moderation: HIDDEN) }`, { s: hidden.id });
    expect(refused.errors?.[0]?.extensions).toMatchObject({ code: 'INVALID_INPUT', field: 'reason' });
    await org.request(`mutation($s: ID!) { moderateSubmission(id: $s, moderation: HIDDEN, reason: "outputs copied from a public system") }`, { s: hidden.id });
    expect(await systems(true)).toEqual(['copy', 'jsonl-ids', 'same-as-lines']);
    expect((await anon.raw(`query($s: ID!) { submission(id: $s) { id } }`, { s: hidden.id })).errors?.[0]?.extensions?.['code']).toBe('FORBIDDEN');
    const own = await withCookie<{ teamSubmissions: { systemName: string; moderation: string; moderationReason: string | null; phase: { name: string } }[] }>(
      cookie,
      `query($t: ID!) { teamSubmissions(teamId: $t) { systemName moderation moderationReason phase { name } } }`,
      { t: teamId },
    );
    expect(own.body.data?.teamSubmissions.find((s) => s.systemName === 'plain-lines')).toEqual({ systemName: 'plain-lines', moderation: 'HIDDEN', moderationReason: 'outputs copied from a public system', phase: { name: 'test' } });
  });

  it('re-scores a phase keeping the replaced scores and their signatures in the history', async () => {
    const org = graphqlClient(baseUrl, organiserToken);
    const { rescorePhase } = await org.request<{ rescorePhase: number }>(`mutation($p: ID!) { rescorePhase(phaseId: $p) }`, { p: phaseId });
    expect(rescorePhase).toBe(4);
    const sub = await db.submission.findFirstOrThrow({ where: { phaseId, systemName: 'jsonl-ids' } });
    const { submission } = await org.request<{ submission: { scoreHistory: { metric: string; signature: string; value: number }[] } }>(
      `query($s: ID!) { submission(id: $s) { scoreHistory { metric signature value } } }`,
      { s: sub.id },
    );
    expect(submission.scoreHistory).toHaveLength(1);
    expect(submission.scoreHistory[0]).toMatchObject({ metric: 'chrf', signature: expect.stringMatching(/^chrf\|/) });
    await waitFor('the re-scored submissions', async () => (await db.submission.count({ where: { phaseId, status: 'SCORED' } })) === 4, 60_000);
  });

  it('needs an organiser to approve a team on a task with approval, and then accepts its submission', async () => {
    const org = graphqlClient(baseUrl, organiserToken);
    const slug2 = `approval-${suffix}`;
    await org.request(`mutation($i: CreateTaskInput!) { createTask(input: $i) { slug } }`, {
      i: { slug: slug2, title: 'Approval', kind: 'mt', sourceLang: 'de', targetLang: 'en', metrics: [{ key: 'chrf', name: 'chrf' }], registration: 'APPROVAL' },
    });
    const { createPhase } = await org.request<{ createPhase: { id: string } }>(`mutation($i: CreatePhaseInput!) { createPhase(input: $i) { id } }`, {
      i: { taskSlug: slug2, name: 'test', opensAt: '2020-01-01T00:00:00Z', closesAt: '2099-01-01T00:00:00Z', dailyLimit: 5, totalLimit: 5 },
    });
    await org.request(`mutation($p: ID!, $i: [TestInstanceInput!]!) { uploadTestSet(phaseId: $p, name: "ts2", instances: $i) { id } }`, { p: createPhase.id, i: INSTANCES });
    const outputs = path.join(dir, 'outputs.txt');
    const submit = () => podium(['submit', '--url', baseUrl, '--phase', createPhase.id, '--token', fresh, '--system', 'approved', '--no-wait', outputs]);
    const before = submit();
    expect(before.status).toBe(2);
    expect(before.stderr).toMatch(/needs an organiser's approval of your team/);
    const requested = await withCookie<{ registerTeam: { status: string } }>(cookie, `mutation($s: String!, $t: ID!) { registerTeam(taskSlug: $s, teamId: $t) { status } }`, { s: slug2, t: teamId });
    expect(requested.body.data?.registerTeam.status).toBe('PENDING');
    expect(submit().status).toBe(2);
    await org.request(`mutation($s: String!, $t: ID!) { approveRegistration(taskSlug: $s, teamId: $t) { status } }`, { s: slug2, t: teamId });
    const after = submit();
    // The CLI first says the phase's state in words (ADR 0013), then what it submitted.
    expect(after.stderr).toBe(`phase 'test': open until 2099-01-01 00:00 UTC\nsubmitted approved: ${(JSON.parse(after.stdout) as { submissionId: string }).submissionId}\n`);
    expect(after.status).toBe(0);
  });
});
