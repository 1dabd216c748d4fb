/**
 * Issue #20 ("Results organisers can defend"), replayed against the real api and worker processes
 * and PostgreSQL: each finding as it was reproduced on main, now failing safe —
 * - `duplicateOf` named another team's submission (id, private system name, team) in a hidden phase;
 * - `phase { testSet { checksum } }` answered anonymously, and it is sha256 over the JSON of
 *   `[id, source, references]` per line: a guess of the hidden references could be verified;
 * - a team's own per-instance TER gave the token count of every hidden reference;
 * - anonymous visitors read `scoredCount` of a hidden phase.
 * Then the public/private split (public board on the public part, final board on the private part)
 * and the test-set commitment (`podium verify-commitment` succeeds; tampered references detected).
 */
import { spawnSync } from 'node:child_process';
import { createHash, randomUUID } from 'node:crypto';
import { createDb, type Db } from '@podium/db';
import { compiledApp } from '../support/compiled-app';
import { createAdminToken } from '../support/database';
import { currentBoard } from '../support/leaderboards';
import { databaseUrl, graphqlClient, repoRoot, startApiProcess, startApp, waitFor, type RunningApp } from './support/processes';

// References of known token counts (TER's default tokenisation splits at spaces here: no punctuation).
const INSTANCES = [
  { id: 'p1', source: 'Das Haus ist klein', references: ['the house is very small'] },
  { id: 'p2', source: 'Der Hund schläft heute', references: ['the dog is sleeping today in the sun'] },
  { id: 'q1', source: 'Wir essen Brot', references: ['we are eating fresh bread'] },
  { id: 'q2', source: 'Es regnet', references: ['it is raining all day long'] },
];
const REFERENCE_TOKENS = INSTANCES.map((i) => (i.references[0] ?? '').split(' ').length);
const SALT_QUERY = `query($p: ID!) { phase(id: $p) { commitment { commitment salt scheme canonicalUrl } } }`;

type Gql = ReturnType<typeof graphqlClient>;

/** Six decimals: BLEU's exp(mean log precision) of a perfect match is 100 up to rounding (100.00000000000004). */
const round6 = (x: number): number => Math.round(x * 1e6) / 1e6;

function podium(args: string[]): { status: number; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [compiledApp('apps/cli/src/main.ts'), ...args], { cwd: repoRoot, encoding: 'utf8', timeout: 120_000 });
  return { status: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}

describe('issue #20 replay: no oracles before publishing, a public/private split, a test-set commitment', () => {
  let db: Db;
  let api: RunningApp;
  let worker: RunningApp;
  let baseUrl: string;
  let org: Gql;
  let anon: Gql;
  const suffix = randomUUID().slice(0, 8);
  const slug = `issue20-${suffix}`;
  const teams = {} as Record<'a' | 'b', { id: string; token: string; gql: Gql }>;

  beforeAll(async () => {
    const url = databaseUrl();
    db = createDb(url, { maxConnections: 2 });
    const organiserToken = await createAdminToken(db, `org-${suffix}`, 'issue20');
    const env = { PODIUM_QUEUE_SCHEMA: 'replay_issue20' };
    ({ api, baseUrl } = await startApiProcess(url, 60_000, env));
    worker = startApp('apps/worker/src/main.ts', { ...env, DATABASE_URL: url, PODIUM_WORKER_NAME: `issue20-${suffix}` });
    org = graphqlClient(baseUrl, organiserToken);
    anon = graphqlClient(baseUrl);
    await org.request(`mutation($i: CreateTaskInput!) { createTask(input: $i) { slug } }`, {
      i: { slug, title: 'Issue 20', kind: 'mt', sourceLang: 'de', targetLang: 'en', metrics: [{ key: 'bleu', name: 'bleu' }, { key: 'ter', name: 'ter' }] },
    });
    for (const t of ['a', 'b'] as const) {
      const { createTeam } = await org.request<{ createTeam: { id: string } }>(`mutation($n: String!, $m: [String!]!) { createTeam(name: $n, members: $m) { id } }`, {
        n: `team-${t}-${suffix}`,
        m: [`member-${t}-${suffix}`],
      });
      const { issueToken } = await org.request<{ issueToken: string }>(`mutation($u: String!) { issueToken(userName: $u, label: "issue20") }`, { u: `member-${t}-${suffix}` });
      teams[t] = { id: createTeam.id, token: issueToken, gql: graphqlClient(baseUrl, issueToken) };
    }
  });

  afterAll(async () => {
    await Promise.all([api?.stop(), worker?.stop()]);
    await db?.$disconnect();
  });

  async function phase(name: string, extra: Record<string, unknown> = {}): Promise<string> {
    const { createPhase } = await org.request<{ createPhase: { id: string } }>(`mutation($i: CreatePhaseInput!) { createPhase(input: $i) { id } }`, {
      i: { taskSlug: slug, name, opensAt: '2020-01-01T00:00:00Z', closesAt: '2099-01-01T00:00:00Z', dailyLimit: 10, totalLimit: 10, leaderboardBeforeClose: false, ...extra },
    });
    await org.request(`mutation($p: ID!, $n: String!, $i: [TestInstanceInput!]!) { uploadTestSet(phaseId: $p, name: $n, instances: $i) { id } }`, { p: createPhase.id, n: `ts-${name}`, i: INSTANCES });
    return createPhase.id;
  }

  async function submit(phaseId: string, t: 'a' | 'b', systemName: string, lines: string[]): Promise<string> {
    const form = new FormData();
    form.set('teamId', teams[t].id);
    form.set('systemName', systemName);
    form.set('file', new Blob([lines.join('\n') + '\n'], { type: 'text/plain' }), 'out.txt');
    const res = await fetch(`${baseUrl}/api/phases/${phaseId}/submissions`, { method: 'POST', headers: { authorization: `Bearer ${teams[t].token}` }, body: form });
    const body = (await res.json()) as { submissionId: string };
    expect(res.status).toBe(201);
    return body.submissionId;
  }

  async function scored(id: string): Promise<void> {
    await waitFor(`submission ${id} scored`, async () => {
      const r = await org.request<{ submission: { status: string; error: string | null } }>(`query($s: ID!) { submission(id: $s) { status error } }`, { s: id });
      if (r.submission.status === 'FAILED') throw new Error(`scoring failed: ${r.submission.error ?? ''}`);
      return r.submission.status === 'SCORED';
    });
  }

  it("duplicateOf stays within the team; another team's identical upload is flagged to organisers only", async () => {
    const phaseId = await phase('duplicates');
    const same = INSTANCES.map((i) => `an output for ${i.id}`);
    const first = await submit(phaseId, 'a', 'secret-system-name-of-a', same);
    const copy = await submit(phaseId, 'b', 'b-copy', same);
    const q = `query($s: ID!) { submission(id: $s) { duplicateOf { id systemName teamId } crossTeamDuplicateOf { id systemName teamId } } }`;
    // On main team B's own submission answered duplicateOf { id, systemName, teamId } with team A's.
    const asB = await teams.b.gql.request<{ submission: { duplicateOf: unknown; crossTeamDuplicateOf: unknown } }>(q, { s: copy });
    expect(asB.submission).toEqual({ duplicateOf: null, crossTeamDuplicateOf: null });
    const raw = JSON.stringify(await teams.b.gql.raw(`query($p: ID!) { submissions(phaseId: $p) { id systemName duplicateOf { id systemName teamId } crossTeamDuplicateOf { id } } }`, { p: phaseId }));
    expect(raw).not.toContain('secret-system-name-of-a');
    expect(raw).not.toContain(first);
    const asOrganiser = await org.request<{ submission: { duplicateOf: unknown; crossTeamDuplicateOf: unknown } }>(q, { s: copy });
    expect(asOrganiser.submission).toEqual({ duplicateOf: null, crossTeamDuplicateOf: { id: first, systemName: 'secret-system-name-of-a', teamId: teams.a.id } });
    // Within the team a duplicate is still named (the team's own earlier upload).
    const again = await submit(phaseId, 'b', 'b-again', same);
    expect((await teams.b.gql.request<{ submission: { duplicateOf: { id: string } | null } }>(q, { s: again })).submission.duplicateOf).toEqual({ id: copy, systemName: 'b-copy', teamId: teams.b.id });
  });

  it('keeps the test-set checksum and scoredCount of an unpublished phase from anonymous callers and teams', async () => {
    const phaseId = await phase('checksum');
    await scored(await submit(phaseId, 'a', 'sys', INSTANCES.map((i) => i.references[0] ?? '')));
    // The checksum as main computed it: sha256 over JSON [id, source, references] + '\n' per instance.
    const h = createHash('sha256');
    for (const i of INSTANCES) h.update(JSON.stringify([i.id, i.source, i.references])).update('\n');
    const oracle = h.digest('hex');
    const q = `query($p: ID!) { phase(id: $p) { scoredCount testSet { checksum instanceCount } } }`;
    for (const who of [anon, teams.a.gql, teams.b.gql]) {
      expect((await who.request<{ phase: unknown }>(q, { p: phaseId })).phase).toEqual({ scoredCount: null, testSet: { checksum: null, instanceCount: 4 } });
    }
    expect((await org.request<{ phase: unknown }>(q, { p: phaseId })).phase).toEqual({ scoredCount: 1, testSet: { checksum: oracle, instanceCount: 4 } });
    await org.request(`mutation($p: ID!) { closePhase(id: $p) { id } }`, { p: phaseId });
    await org.request(`mutation($p: ID!) { publishPhase(id: $p) { id } }`, { p: phaseId });
    expect((await anon.request<{ phase: unknown }>(q, { p: phaseId })).phase).toEqual({ scoredCount: 1, testSet: { checksum: oracle, instanceCount: 4 } });
  });

  it("keeps a hidden phase's per-instance TER (an exact reference-length oracle) from its own team unless the organiser opts in", async () => {
    const phaseId = await phase('ter-oracle');
    // 200 tokens that match nothing: TER = 100 · 200 / r, so r = 20000 / TER (sacreBLEU's TER, edits = max(h, r) without matches).
    const garbage = await submit(phaseId, 'a', 'garbage', INSTANCES.map(() => Array.from({ length: 200 }, () => 'zzq').join(' ')));
    await scored(garbage);
    const q = `query($s: ID!, $o: InstanceOrder!) { instanceScores(submissionId: $s, metric: "ter", order: $o, limit: 10) { total rows { instanceId score output references } } }`;
    const own = await teams.a.gql.request<{ instanceScores: { total: number; rows: { score: number | null; output: string; references: string[] | null }[] } }>(q, { s: garbage, o: 'POSITION' });
    expect(own.instanceScores.total).toBe(4);
    expect(own.instanceScores.rows.map((r) => r.score)).toEqual([null, null, null, null]);
    expect(own.instanceScores.rows.every((r) => r.output.startsWith('zzq') && r.references === null)).toBe(true);
    const sorted = await teams.a.gql.raw(q, { s: garbage, o: 'DESC' });
    expect(sorted.errors?.[0]?.extensions?.['code']).toBe('FORBIDDEN');
    for (const f of ['csv', 'jsonl']) {
      const res = await fetch(`${baseUrl}/api/submissions/${garbage}/scores.${f}`, { headers: { authorization: `Bearer ${teams.a.token}` } });
      expect(res.status).toBe(403);
    }
    // The corpus score, an aggregate, stays visible to the team.
    const corpus = await teams.a.gql.request<{ submission: { corpusScores: { metric: string; part: string }[] } }>(`query($s: ID!) { submission(id: $s) { corpusScores { metric part } } }`, { s: garbage });
    expect(corpus.submission.corpusScores.map((c) => c.metric).sort()).toEqual(['bleu', 'ter']);
    // The organiser sees the oracle the finding described: every reference's token count.
    const asOrganiser = await org.request<{ instanceScores: { rows: { score: number }[] } }>(q, { s: garbage, o: 'POSITION' });
    expect(asOrganiser.instanceScores.rows.map((r) => Math.round(20000 / r.score))).toEqual(REFERENCE_TOKENS);
    // Per phase the organiser may choose per-instance scores for teams (an explicit, audited setting).
    await org.request(`mutation($p: ID!) { updatePhase(id: $p, input: { teamInstanceScores: true }) { teamInstanceScores } }`, { p: phaseId });
    const optedIn = await teams.a.gql.request<{ instanceScores: { rows: { score: number }[] } }>(q, { s: garbage, o: 'POSITION' });
    expect(optedIn.instanceScores.rows.map((r) => Math.round(20000 / r.score))).toEqual(REFERENCE_TOKENS);
    // Never another team's.
    expect((await teams.b.gql.raw(q, { s: garbage, o: 'POSITION' })).errors?.[0]?.extensions?.['code']).toBe('FORBIDDEN');
  });

  it('ranks a split phase on its public part before publishing and on its private part after, as stated on the board', async () => {
    const phaseId = await phase('split', { leaderboardBeforeClose: true, teamInstanceScores: true, split: { publicIds: ['p1', 'p2'], finalOn: 'private' } });
    const perfect = (ids: string[]) => INSTANCES.map((i) => (ids.includes(i.id) ? (i.references[0] ?? '') : 'zzq zzq zzq zzq zzq'));
    // A is perfect on the public part and wrong on the private part; B the other way round.
    const a = await submit(phaseId, 'a', 'public-star', perfect(['p1', 'p2']));
    const b = await submit(phaseId, 'b', 'private-star', perfect(['q1', 'q2']));
    await scored(a);
    await scored(b);
    const board = `query($p: ID!) { leaderboard(phaseId: $p, metric: "bleu") { updating instanceCount notes scoredOn { part instances total note } systems { system corpusScore } } }`;
    type Board = { updating: boolean; instanceCount: number; notes: string[]; scoredOn: { part: string; instances: number; total: number; note: string } | null; systems: { system: string; corpusScore: number }[] };
    const before = await currentBoard(async () => (await anon.request<{ leaderboard: Board }>(board, { p: phaseId })).leaderboard);
    expect(before.scoredOn).toEqual({ part: 'public', instances: 2, total: 4, note: 'ranked on the public part: 2 of 4 instances' });
    expect(before.instanceCount).toBe(2);
    // BLEU of outputs equal to their references is 100; of outputs sharing no token with them, 0.
    expect(before.systems.map((s) => [s.system, round6(s.corpusScore)])).toEqual([['public-star', 100], ['private-star', 0]]);
    // Team B's own scores: on the public part only.
    const own = await teams.b.gql.request<{ submission: { corpusScores: { metric: string; value: number; part: string }[] }; instanceScores: { total: number; rows: { instanceId: string }[] } }>(
      `query($s: ID!) { submission(id: $s) { corpusScores { metric value part } } instanceScores(submissionId: $s, metric: "bleu") { total rows { instanceId } } }`,
      { s: b },
    );
    expect(own.submission.corpusScores.filter((c) => c.metric === 'bleu').map((c) => [round6(c.value), c.part])).toEqual([[0, 'public']]);
    expect(own.instanceScores.rows.map((r) => r.instanceId)).toEqual(['p1', 'p2']);
    // The public phase download: the public part only, for everyone but organisers.
    const csv = await (await fetch(`${baseUrl}/api/phases/${phaseId}/scores.csv`)).text();
    expect(csv).toMatch(/,p1,/);
    expect(csv).not.toMatch(/,q[12],/);
    // The split itself (ids, seed) is the organisers' until publishing.
    expect((await anon.request<{ phase: { split: unknown; hasSplit: boolean } }>(`query($p: ID!) { phase(id: $p) { split { publicIds } hasSplit } }`, { p: phaseId })).phase).toEqual({ split: null, hasSplit: true });

    await org.request(`mutation($p: ID!) { closePhase(id: $p) { id } }`, { p: phaseId });
    await org.request(`mutation($p: ID!) { publishPhase(id: $p) { id } }`, { p: phaseId });
    const after = await currentBoard(async () => (await anon.request<{ leaderboard: Board }>(board, { p: phaseId })).leaderboard);
    expect(after.scoredOn).toEqual({ part: 'private', instances: 2, total: 4, note: 'ranked on the private part: 2 of 4 instances' });
    expect(after.notes).toContain('ranked on the private part: 2 of 4 instances');
    expect(after.systems.map((s) => [s.system, round6(s.corpusScore)])).toEqual([['private-star', 100], ['public-star', 0]]);
    const published = await anon.request<{ submission: { corpusScores: { metric: string; value: number; part: string }[] } }>(`query($s: ID!) { submission(id: $s) { corpusScores { metric value part } } }`, { s: b });
    expect(published.submission.corpusScores.filter((c) => c.metric === 'bleu').map((c) => [round6(c.value), c.part])).toEqual([[100, 'private']]);
    const json = await (await fetch(`${baseUrl}/api/phases/${phaseId}/leaderboard.json?metric=bleu`)).json() as { scoredOn: { note: string } };
    expect(json.scoredOn.note).toBe('ranked on the private part: 2 of 4 instances');
  });

  it('commits to the test set when it is attached, reveals the salt only on publishing, and detects tampered references', async () => {
    const phaseId = await phase('commitment');
    const sub = await submit(phaseId, 'a', 'sys', INSTANCES.map((i) => i.references[0] ?? ''));
    await scored(sub);
    const row = await db.testSetCommitment.findFirstOrThrow({ where: { testSet: { phases: { some: { id: phaseId } } } } });
    // The commitment by its definition (ADR 0014), computed here with node:crypto.
    const canonical = INSTANCES.map((i) => `${JSON.stringify({ id: i.id, source: i.source, references: i.references })}\n`).join('');
    expect(row.commitment).toBe(createHash('sha256').update(Buffer.from(row.salt, 'hex')).update(canonical, 'utf8').digest('hex'));
    // Before publishing nobody gets the salt — organisers neither — through any path.
    for (const who of [anon, teams.a.gql, org]) {
      expect((await who.request<{ phase: { commitment: { commitment: string; salt: string | null } } }>(SALT_QUERY, { p: phaseId })).phase.commitment).toMatchObject({ commitment: row.commitment, salt: null });
    }
    const seen: string[] = [];
    for (const token of [undefined, teams.a.token, teams.b.token]) {
      const headers = token ? { authorization: `Bearer ${token}` } : undefined;
      for (const p of [`/api/phases/${phaseId}/commitment.json`, `/api/phases/${phaseId}/test-input.jsonl`, `/api/phases/${phaseId}/test-set.jsonl`, `/api/phases/${phaseId}/scores.csv`, `/api/phases/${phaseId}/leaderboard.json`, `/api/submissions/${sub}/scores.csv`]) {
        const res = await fetch(`${baseUrl}${p}`, { headers });
        seen.push(await res.text());
      }
    }
    seen.push(JSON.stringify(await org.raw(`query($s: String) { auditLog(taskSlug: $s) { action details } }`, { s: slug })));
    seen.push(JSON.stringify(await org.raw(`query($p: ID!) { phase(id: $p) { id name testSet { id name checksum } commitment { commitment salt } split { seed } } }`, { p: phaseId })));
    expect(seen.filter((text) => text.includes(row.salt))).toEqual([]);
    expect(podium(['verify-commitment', '--url', baseUrl, '--phase', phaseId]).stderr).toMatch(/not published yet/);
    expect((await fetch(`${baseUrl}/api/phases/${phaseId}/test-set.jsonl`)).status).toBe(403);

    await org.request(`mutation($p: ID!) { closePhase(id: $p) { id } }`, { p: phaseId });
    await org.request(`mutation($p: ID!) { publishPhase(id: $p) { id } }`, { p: phaseId });
    expect((await anon.request<{ phase: { commitment: { salt: string | null } } }>(SALT_QUERY, { p: phaseId })).phase.commitment.salt).toBe(row.salt);
    expect(await (await fetch(`${baseUrl}/api/phases/${phaseId}/test-set.jsonl`)).text()).toBe(canonical);
    const ok = podium(['verify-commitment', '--url', baseUrl, '--phase', phaseId]);
    expect(ok.status).toBe(0);
    expect(JSON.parse(ok.stdout)).toMatchObject({ match: true, commitment: row.commitment, instances: 4 });

    // References changed after the submissions (as a database edit would): detected.
    const target = await db.instance.findFirstOrThrow({ where: { testSetId: row.testSetId, externalId: 'q2' } });
    await db.instance.update({ where: { id: target.id }, data: { references: ['it is raining all day'] } });
    const tampered = podium(['verify-commitment', '--url', baseUrl, '--phase', phaseId]);
    expect(tampered.status).toBe(1);
    expect(JSON.parse(tampered.stdout)).toMatchObject({ match: false, commitment: row.commitment });
  });
});
