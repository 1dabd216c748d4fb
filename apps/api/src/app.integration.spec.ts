// Boots the whole API against a real PostgreSQL (DATABASE_URL, migrations applied) and drives it
// the way clients do: GraphQL for set-up, multipart REST for uploads, REST for downloads.
import type { INestApplication } from '@nestjs/common';
import { loadApiConfig } from '@podium/config';
import { SCORE_SUBMISSION_QUEUE } from '@podium/contracts';
import { IdentityRepository, Role, SubmissionRepository, TaskRepository, createDb, outputExtent, type Db } from '@podium/db';
import { randomBytes } from 'node:crypto';
import request from 'supertest';
import { LeaderboardJobRunner } from '../../../test/support/leaderboards';
import { createApp } from './app';
import { defined } from '../../../test/support/defined';
import { DATABASE_URL, describeWithDatabase } from '../../../test/support/database';

// Real PostgreSQL (and Nest apps) under a loaded 2-core machine: far slower than Jest's 5 s default.
jest.setTimeout(60_000);

const suite = describeWithDatabase('app.integration.spec');

const MAX_UPLOAD = 4096;
// Our own pg-boss schema: workers of other suites share this database and must not score (and
// so overwrite) the submissions whose scores these tests write by hand.
const QUEUE_SCHEMA = 'pgboss_api_it';
const suffix = randomBytes(4).toString('hex');
const TEST_SET = [
  { id: 's1', source: 'Das Haus ist klein.', references: ['The house is small.'] },
  { id: 's2', source: 'Es regnet.', references: ['It is raining.', 'It rains.'] },
  { id: 's3', source: 'Guten Morgen.', references: ['Good morning.'] },
];
const jsonl = (...records: unknown[]) => Buffer.from(records.map((r) => JSON.stringify(r)).join('\n') + '\n');

interface GqlResult {
  data: Record<string, any> | null; // eslint-disable-line @typescript-eslint/no-explicit-any -- test helper over arbitrary queries
  errors?: { message: string; extensions: Record<string, unknown> }[];
}

suite('API against PostgreSQL', () => {
  // Only the app, the database handle and the organiser are shared; every case builds the task,
  // phase, team and submissions it reads with the fixtures below, so cases run in any order
  // (`--randomize`) and none reads another's leftovers.
  let app: INestApplication;
  let db: Db;
  let organiserToken: string;
  let seq = 0;
  const unique = (prefix: string) => `${prefix}-${suffix}-${++seq}`;

  const gql = async (query: string, variables: Record<string, unknown> = {}, token?: string): Promise<GqlResult> => {
    const req = request(app.getHttpServer()).post('/graphql').send({ query, variables });
    if (token) req.set('Authorization', `Bearer ${token}`);
    const res = await req;
    return res.body as GqlResult;
  };
  const ok = async (query: string, variables: Record<string, unknown> = {}, token?: string) => {
    const r = await gql(query, variables, token);
    if (r.errors) throw new Error(`GraphQL errors: ${JSON.stringify(r.errors)}`);
    return defined(r.data, 'GraphQL data');
  };
  const upload = (phaseId: string, file: Buffer, fields: Record<string, string>, token?: string, name = 'out.jsonl') => {
    const req = request(app.getHttpServer()).post(`/api/phases/${phaseId}/submissions`);
    if (token) req.set('Authorization', `Bearer ${token}`);
    for (const [k, v] of Object.entries(fields)) req.field(k, v);
    return req.attach('file', file, name);
  };
  const countSubmissions = (phaseId: string) => db.submission.count({ where: { phaseId } });

  /** A participant of no team, with a token. */
  async function participant(): Promise<{ name: string; token: string }> {
    const identity = new IdentityRepository(db);
    const user = await identity.createUser(unique('part'), Role.PARTICIPANT);
    return { name: user.name, token: await identity.issueToken(user.id, 'integration test') };
  }

  interface OpenPhase {
    slug: string;
    phaseId: string;
    teamId: string;
    teamName: string;
    /** A member of the team. */
    token: string;
  }
  /** An MT task (default metrics) with an open phase, its 3-instance test set, and a team of one participant. */
  async function openPhase({ dailyLimit = 5 }: { dailyLimit?: number } = {}): Promise<OpenPhase> {
    const slug = unique('it');
    await ok(
      `mutation($input: CreateTaskInput!) { createTask(input: $input) { id } }`,
      { input: { slug, title: 'Integration', kind: 'mt', sourceLang: 'de', targetLang: 'en' } },
      organiserToken,
    );
    const now = Date.now();
    const phase = await ok(
      `mutation($input: CreatePhaseInput!) { createPhase(input: $input) { id } }`,
      {
        input: {
          taskSlug: slug,
          name: 'test',
          opensAt: new Date(now - 3600_000).toISOString(),
          closesAt: new Date(now + 86400_000).toISOString(),
          dailyLimit,
          totalLimit: 5,
          leaderboardBeforeClose: false,
        },
      },
      organiserToken,
    );
    const phaseId: string = phase['createPhase'].id;
    await ok(`mutation($p: ID!, $i: [TestInstanceInput!]!) { uploadTestSet(phaseId: $p, name: "newstest", instances: $i) { id } }`, { p: phaseId, i: TEST_SET }, organiserToken);
    const teamName = unique('team');
    const member = unique('member');
    const team = await ok(`mutation($n: String!, $m: [String!]!) { createTeam(name: $n, members: $m) { id } }`, { n: teamName, m: [member] }, organiserToken);
    const token = await ok(`mutation($u: String!) { issueToken(userName: $u, label: "laptop") }`, { u: member }, organiserToken);
    return { slug, phaseId, teamId: team['createTeam'].id, teamName, token: token['issueToken'] };
  }

  /** Submits a plain-text output (one line per instance, in test-set order) as the team's member. */
  async function submit(p: OpenPhase, systemName: string, content = 'The house is small.\nIt is raining.\nMorning.\n'): Promise<string> {
    const data = await ok(
      `mutation($p: ID!, $t: ID!, $s: String!, $c: String!) { submit(phaseId: $p, teamId: $t, systemName: $s, content: $c, format: TEXT) { id } }`,
      { p: p.phaseId, t: p.teamId, s: systemName, c: content },
      p.token,
    );
    return data['submit'].id;
  }

  /** Stores BLEU scores as the worker would (this suite's queue has no worker), one value per instance in test-set order. */
  async function saveBleu(phaseId: string, submissionId: string, values: number[], corpus: number): Promise<void> {
    const tasks = new TaskRepository(db);
    const instances = await tasks.instanceIdsOf(defined(defined(await tasks.phaseById(phaseId), 'phase').testSetId, 'test set'));
    await new SubmissionRepository(db).saveScores(
      submissionId,
      instances.map((inst, k) => ({ instanceId: inst.id, metric: 'bleu', signature: 'bleu|nrefs:1|version:test', value: defined(values[k], 'values[k]') })),
      [{ metric: 'bleu', signature: 'bleu|nrefs:1|version:test', value: corpus }],
    );
  }

  beforeAll(async () => {
    const config = loadApiConfig({ DATABASE_URL, PODIUM_MAX_UPLOAD_BYTES: String(MAX_UPLOAD), PODIUM_WEB_DIST: '/nonexistent' });
    app = await createApp(config, { logger: false, queueSchema: QUEUE_SCHEMA });
    db = createDb(defined(DATABASE_URL, 'DATABASE_URL'));
    const identity = new IdentityRepository(db);
    const organiser = await identity.createUser(`org-${suffix}`, Role.ADMIN);
    organiserToken = await identity.issueToken(organiser.id, 'integration test');
  });

  afterAll(async () => {
    await app?.close();
    await db?.$disconnect();
  });

  it('creates a task with the default metrics of its kind', async () => {
    const data = await ok(
      `mutation($input: CreateTaskInput!) { createTask(input: $input) { slug kind metrics { key name } } }`,
      { input: { slug: `it-${suffix}`, title: 'Integration', kind: 'mt', sourceLang: 'de', targetLang: 'en' } },
      organiserToken,
    );
    expect(data['createTask']).toEqual({
      slug: `it-${suffix}`,
      kind: 'mt',
      metrics: [
        { key: 'bleu', name: 'bleu' },
        { key: 'chrf', name: 'chrf' },
        { key: 'ter', name: 'ter' },
      ],
    });
  });

  it('rejects a bad slug with INVALID_INPUT naming the field', async () => {
    const r = await gql(
      `mutation($input: CreateTaskInput!) { createTask(input: $input) { id } }`,
      { input: { slug: 'Bad Slug', title: 'x', kind: 'mt', sourceLang: 'de', targetLang: 'en' } },
      organiserToken,
    );
    expect(r.errors?.[0]?.extensions).toMatchObject({ code: 'INVALID_INPUT', field: 'slug' });
  });

  it('rejects a misspelt metric option at task creation with INVALID_INPUT naming the metric and the option', async () => {
    const r = await gql(
      `mutation($input: CreateTaskInput!) { createTask(input: $input) { id } }`,
      { input: { slug: `typo-${suffix}`, title: 'x', kind: 'mt', sourceLang: 'de', targetLang: 'en', metrics: [{ key: 'bleu', name: 'bleu', options: { tokenise: 'intl' } }] } },
      organiserToken,
    );
    expect(r.errors?.[0]?.message).toContain("metric 'bleu' (bleu): option 'tokenise' does not apply to bleu");
    expect(r.errors?.[0]?.extensions).toMatchObject({ code: 'INVALID_INPUT', field: 'metrics.0.options.tokenise' });
  });

  it('lists the metric registry: TER lower-is-better and unbounded, NLI and combined registered by libs/nli', async () => {
    const data = await ok(`{ metrics { name displayName higherIsBetter rangeLow rangeHigh configurable } }`);
    const byName = new Map((data['metrics'] as { name: string }[]).map((m) => [m.name, m]));
    expect(byName.get('ter')).toEqual({ name: 'ter', displayName: 'TER', higherIsBetter: false, rangeLow: 0, rangeHigh: null, configurable: true });
    expect(byName.get('nli')).toMatchObject({ higherIsBetter: true, configurable: true });
    expect(byName.get('combined')).toMatchObject({ rangeLow: 0, rangeHigh: 1, configurable: false });
    // Unbounded ends are null, below as above (a Float cannot be −Infinity): MoverScore, DS-Focus.
    expect(byName.get('moverscore')).toMatchObject({ higherIsBetter: true, rangeLow: null, rangeHigh: 1 });
    expect(byName.get('discoscore-focus')).toMatchObject({ higherIsBetter: false, rangeLow: 0, rangeHigh: null });
  });

  it('lists every task kind createTask accepts, with its label and the metrics createTask gives it when none are named', async () => {
    const kinds = (await ok(`{ taskKinds { name displayName defaultMetrics } }`))['taskKinds'] as { name: string; displayName: string; defaultMetrics: string[] }[];
    expect(kinds.map((k) => k.name)).toEqual(['mt', 'summarization', 'data-to-text', 'other']);
    expect(kinds.find((k) => k.name === 'data-to-text')?.displayName).toBe('Data-to-text');
    for (const kind of kinds) {
      const created = await ok(
        `mutation($input: CreateTaskInput!) { createTask(input: $input) { kind metrics { name } } }`,
        { input: { slug: unique(`kind-${kind.name}`), title: kind.displayName, kind: kind.name, sourceLang: 'de', targetLang: 'en' } },
        organiserToken,
      );
      expect(created['createTask']).toEqual({ kind: kind.name, metrics: kind.defaultMetrics.map((name) => ({ name })) });
    }
  });

  it('answers NOT_FOUND for ids that name nothing, malformed or not', async () => {
    for (const id of ['nope', '00000000-0000-4000-8000-000000000000']) {
      const r = await gql(`query($id: ID!) { phase(id: $id) { id } }`, { id });
      expect(r.errors?.[0]?.extensions).toEqual({ code: 'NOT_FOUND', what: 'phase', id });
    }
    const res = await request(app.getHttpServer()).get('/api/submissions/nope/scores.csv');
    expect(res.status).toBe(404);
  });

  it('refuses anonymous callers a mutation with UNAUTHENTICATED', async () => {
    const r = await gql(`mutation { createTeam(name: "x-${suffix}", members: []) { id } }`);
    expect(r.errors?.[0]?.extensions['code']).toBe('UNAUTHENTICATED');
  });

  it('sets up a phase with a test set, a team and a participant token', async () => {
    const slug = unique('setup');
    await ok(
      `mutation($input: CreateTaskInput!) { createTask(input: $input) { id } }`,
      { input: { slug, title: 'Integration', kind: 'mt', sourceLang: 'de', targetLang: 'en' } },
      organiserToken,
    );
    const now = Date.now();
    const phase = await ok(
      `mutation($input: CreatePhaseInput!) { createPhase(input: $input) { id name dailyLimit isOpen scoresVisible } }`,
      {
        input: {
          taskSlug: slug,
          name: 'test',
          opensAt: new Date(now - 3600_000).toISOString(),
          closesAt: new Date(now + 86400_000).toISOString(),
          dailyLimit: 2,
          totalLimit: 5,
          leaderboardBeforeClose: false,
        },
      },
      organiserToken,
    );
    expect(phase['createPhase']).toMatchObject({ name: 'test', dailyLimit: 2, isOpen: true, scoresVisible: true });
    const phaseId = phase['createPhase'].id;

    const dup = await gql(
      `mutation($p: ID!, $i: [TestInstanceInput!]!) { uploadTestSet(phaseId: $p, name: "dup", instances: $i) { id } }`,
      { p: phaseId, i: [{ id: 'a', source: 's', references: ['r'] }, { id: 'a', source: 's', references: ['r'] }] },
      organiserToken,
    );
    expect(dup.errors?.[0]?.extensions).toMatchObject({ code: 'INVALID_INPUT', field: 'instances.1.id' });

    const ts = await ok(
      `mutation($p: ID!, $i: [TestInstanceInput!]!) { uploadTestSet(phaseId: $p, name: "newstest", instances: $i) { name instanceCount } }`,
      { p: phaseId, i: TEST_SET },
      organiserToken,
    );
    expect(ts['uploadTestSet']).toEqual({ name: 'newstest', instanceCount: 3 });

    await ok(`mutation { createTeam(name: "team-${suffix}", members: ["alice-${suffix}"]) { id name } }`, {}, organiserToken);
    const token = await ok(`mutation { issueToken(userName: "alice-${suffix}", label: "laptop") }`, {}, organiserToken);
    const aliceToken = token['issueToken'];
    expect(aliceToken).toMatch(/^pod_/);

    const me = await ok(`{ me { name role teams { name } } }`, {}, aliceToken);
    expect(me['me']).toEqual({ name: `alice-${suffix}`, role: 'PARTICIPANT', teams: [{ name: `team-${suffix}` }] });
  });

  it('forbids participants organiser mutations', async () => {
    const { token } = await participant();
    const r = await gql(`mutation { createTeam(name: "y-${suffix}", members: []) { id } }`, {}, token);
    expect(r.errors?.[0]?.extensions['code']).toBe('FORBIDDEN');
  });

  it('stores a good JSONL upload as QUEUED and queues its scoring job', async () => {
    const p = await openPhase();
    const res = await upload(
      p.phaseId,
      jsonl({ id: 's2', output: 'It is raining.' }, { id: 's1', output: 'The house is small.' }, { id: 's3', output: 'Morning.' }),
      { teamId: p.teamId, systemName: 'sys-a', description: 'first' },
      p.token,
    );
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ submissionId: expect.any(String), status: 'QUEUED' });
    const submissionId: string = res.body.submissionId;
    const jobs = await db.$queryRawUnsafe<{ data: { v: number; submissionId: string; reason: string } }[]>(
      `SELECT data FROM ${QUEUE_SCHEMA}.job WHERE name = $1 AND data->>'submissionId' = $2`,
      SCORE_SUBMISSION_QUEUE,
      submissionId,
    );
    expect(jobs.map((j) => j.data)).toEqual([{ v: 1, submissionId, reason: 'submitted' }]);
    const outputs = (await outputExtent(db, submissionId))?.count;
    expect(outputs).toBe(3);
  });

  it('rejects a bad upload with 400 naming the line and instance, and stores nothing', async () => {
    const p = await openPhase();
    await submit(p, 'sys-a');
    const before = await countSubmissions(p.phaseId);
    const res = await upload(
      p.phaseId,
      jsonl({ id: 's1', output: 'a' }, { id: 's2', output: 'b' }, { id: 's1', output: 'c' }),
      { teamId: p.teamId, systemName: 'sys-bad' },
      p.token,
    );
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error: "line 3: duplicate instance id 's1' (also on line 1)", line: 3, instanceId: 's1' });
    expect(await countSubmissions(p.phaseId)).toBe(before);
  });

  it('rejects a text upload with the wrong number of lines', async () => {
    const p = await openPhase();
    const res = await upload(p.phaseId, Buffer.from('one\ntwo\n'), { team: p.teamName, systemName: 'sys-text' }, p.token, 'out.txt');
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('expected 3 lines (one per instance, in test-set order), got 2');
  });

  it('answers 413 for a file over PODIUM_MAX_UPLOAD_BYTES', async () => {
    const p = await openPhase();
    const res = await upload(p.phaseId, Buffer.alloc(MAX_UPLOAD + 1, 0x61), { teamId: p.teamId, systemName: 'sys-big' }, p.token, 'big.txt');
    expect(res.status).toBe(413);
  });

  it('answers 413 to a GraphQL body over PODIUM_MAX_UPLOAD_BYTES', async () => {
    const { token } = await participant();
    const res = await request(app.getHttpServer())
      .post('/graphql')
      .set('Authorization', `Bearer ${token}`)
      .send({ query: 'mutation($c: String!) { submit(phaseId: "x", teamId: "y", systemName: "z", content: $c) { id } }', variables: { c: 'a'.repeat(MAX_UPLOAD) } });
    expect(res.status).toBe(413);
  });

  it('answers 401 to an upload without a token', async () => {
    const p = await openPhase();
    const res = await upload(p.phaseId, Buffer.from('a\nb\nc\n'), { teamId: p.teamId, systemName: 'sys-anon' });
    expect(res.status).toBe(401);
  });

  it('accepts submissions up to the daily limit and rejects the next with FORBIDDEN', async () => {
    const p = await openPhase({ dailyLimit: 2 });
    await submit(p, 'sys-a');
    const second = await ok(
      `mutation($p: ID!, $t: ID!, $c: String!) { submit(phaseId: $p, teamId: $t, systemName: "sys-b", content: $c, format: TEXT) { id status team { name } } }`,
      { p: p.phaseId, t: p.teamId, c: 'a\nb\nc\n' },
      p.token,
    );
    expect(second['submit']).toEqual({ id: expect.any(String), status: 'QUEUED', team: { name: p.teamName } });
    const quota = await ok(`query($p: ID!, $t: ID!) { quota(phaseId: $p, teamId: $t) { usedToday dailyLimit remaining } }`, { p: p.phaseId, t: p.teamId }, p.token);
    expect(quota['quota']).toEqual({ usedToday: 2, dailyLimit: 2, remaining: 0 });
    const before = await countSubmissions(p.phaseId);
    const third = await upload(p.phaseId, Buffer.from('a\nb\nc\n'), { teamId: p.teamId, systemName: 'sys-c' }, p.token, 'out.txt');
    expect(third.status).toBe(403);
    expect(third.body.error).toMatch(/2 submissions of the last 24 hours/);
    expect(await countSubmissions(p.phaseId)).toBe(before);
  });

  it("hides other teams' submissions before close but shows a team its own", async () => {
    const p = await openPhase();
    await submit(p, 'sys-a');
    await submit(p, 'sys-b');
    const rivalName = unique('rival');
    const rivalMember = unique('rival-member');
    const rival = await ok(`mutation($n: String!, $m: [String!]!) { createTeam(name: $n, members: $m) { id } }`, { n: rivalName, m: [rivalMember] }, organiserToken);
    const rivalToken = (await ok(`mutation($u: String!) { issueToken(userName: $u, label: "t") }`, { u: rivalMember }, organiserToken))['issueToken'];
    await submit({ ...p, teamId: rival['createTeam'].id, teamName: rivalName, token: rivalToken }, 'sys-rival');
    const anon = await gql(`query($p: ID!) { submissions(phaseId: $p) { id } }`, { p: p.phaseId });
    expect(anon.errors?.[0]?.extensions['code']).toBe('FORBIDDEN');
    const own = await ok(`query($p: ID!) { submissions(phaseId: $p) { systemName status } }`, { p: p.phaseId }, p.token);
    expect(own['submissions'].map((s: { systemName: string }) => s.systemName)).toEqual(['sys-a', 'sys-b']);
  });

  it('streams score downloads as CSV and JSONL with attachment headers, visible per phase rules', async () => {
    const p = await openPhase();
    const submissionId = await submit(p, 'sys-a');
    await saveBleu(p.phaseId, submissionId, [100, 100, 0], 66.7);
    // Per-instance scores are an oracle of the hidden references: teams get corpus scores only unless the organisers choose otherwise (issue #20).
    const corpusOnly = await request(app.getHttpServer()).get(`/api/submissions/${submissionId}/scores.csv`).set('Authorization', `Bearer ${p.token}`);
    expect(corpusOnly.status).toBe(403);
    await ok(`mutation($p: ID!) { updatePhase(id: $p, input: { teamInstanceScores: true }) { id } }`, { p: p.phaseId }, organiserToken);
    const csv = await request(app.getHttpServer()).get(`/api/submissions/${submissionId}/scores.csv`).set('Authorization', `Bearer ${p.token}`);
    expect(csv.status).toBe(200);
    expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(csv.headers['content-disposition']).toMatch(/^attachment; filename="[^"]+\.csv"$/);
    expect(csv.text.split('\r\n')).toEqual([
      'system,team,instance_id,metric,signature,score',
      `sys-a,${p.teamName},s1,bleu,bleu|nrefs:1|version:test,100`,
      `sys-a,${p.teamName},s2,bleu,bleu|nrefs:1|version:test,100`,
      `sys-a,${p.teamName},s3,bleu,bleu|nrefs:1|version:test,0`,
      '',
    ]);
    const anon = await request(app.getHttpServer()).get(`/api/submissions/${submissionId}/scores.csv`);
    expect(anon.status).toBe(403);

    const phaseJsonl = await request(app.getHttpServer()).get(`/api/phases/${p.phaseId}/scores.jsonl`).set('Authorization', `Bearer ${organiserToken}`);
    expect(phaseJsonl.status).toBe(200);
    expect(phaseJsonl.headers['content-type']).toBe('application/x-ndjson; charset=utf-8');
    const rows = phaseJsonl.text.trim().split('\n').map((l) => JSON.parse(l));
    expect(rows).toHaveLength(3);
    expect(rows[2]).toEqual({
      submission_id: submissionId,
      system: 'sys-a',
      team: p.teamName,
      primary: false,
      baseline: false,
      status: 'scored',
      instance_id: 's3',
      metric: 'bleu',
      signature: 'bleu|nrefs:1|version:test',
      score: 0,
    });
    const hidden = await request(app.getHttpServer()).get(`/api/phases/${p.phaseId}/scores.csv`).set('Authorization', `Bearer ${p.token}`);
    expect(hidden.status).toBe(403);

    // A disqualified submission is not ranked: its rows leave the phase download unless asked for.
    await ok(`mutation($s: ID!) { moderateSubmission(id: $s, moderation: DISQUALIFIED, reason: "used the references") }`, { s: submissionId }, organiserToken);
    const without = await request(app.getHttpServer()).get(`/api/phases/${p.phaseId}/scores.csv`).set('Authorization', `Bearer ${organiserToken}`);
    expect(without.text.split('\r\n')).toEqual(['submission_id,system,team,primary,baseline,status,instance_id,metric,signature,score', '']);
    const withDq = await request(app.getHttpServer()).get(`/api/phases/${p.phaseId}/scores.csv?includeDisqualified=1`).set('Authorization', `Bearer ${organiserToken}`);
    expect(withDq.text.split('\r\n')[3]).toBe(`${submissionId},sys-a,${p.teamName},false,false,disqualified,s3,bleu,bleu|nrefs:1|version:test,0`);
  });

  it('ranks scored systems for organisers, hides the board from others before close, and recomputes after rescoring', async () => {
    const p = await openPhase();
    const phaseId = p.phaseId;
    const aliceToken = p.token;
    await saveBleu(phaseId, await submit(p, 'sys-a'), [100, 100, 0], 66.7);
    const secondSubmissionId = await submit(p, 'sys-b');
    const save = (values: number[]) => saveBleu(phaseId, secondSubmissionId, values, 10);
    await save([0, 50, 0]);
    // Both systems are team A's: every submission, not the default one row per team (ADR 0013).
    const query = `query($p: ID!) { leaderboard(phaseId: $p, resamples: 200, allSubmissions: true) {
      updating metric metricSignature availableMetrics higherIsBetter instanceCount test correction disagreement
      systems { system team n mean median corpusScore bt rank { mean median bt } cluster { mean } meanCi { low high } rankInterval { bt { best worst } } }
      pairs { a b wins losses ties pBt medianDiff p pAdjusted } } }`;
    // No worker serves this suite's queue: the runner computes the boards the API queued, as a worker would.
    const runner = new LeaderboardJobRunner(defined(DATABASE_URL, 'DATABASE_URL'), QUEUE_SCHEMA);
    const board = await runner.settled(async () => (await ok(query, { p: phaseId }, organiserToken))['leaderboard']);
    expect(board).toMatchObject({
      updating: false,
      metric: 'bleu',
      metricSignature: 'bleu|nrefs:1|version:test',
      availableMetrics: ['bleu'],
      higherIsBetter: true,
      instanceCount: 3,
      test: 'TTEST',
      correction: 'HOLM',
    });
    expect(board.systems.map((s: { system: string }) => s.system)).toEqual(['sys-a', 'sys-b']);
    expect(board.systems[0]).toMatchObject({ n: 3, median: 100, corpusScore: 66.7, rank: { mean: 1, median: 1, bt: 1 } });
    expect(board.systems[0].mean).toBeCloseTo(200 / 3, 10);
    expect(board.systems[1].mean).toBeCloseTo(50 / 3, 10);
    expect(board.pairs).toHaveLength(1);
    const pair = board.pairs[0];
    const aIsA = pair.a === 'sys-a';
    // sys-a beats sys-b on s1 (100 vs 0) and s2 (100 vs 50) and ties on s3 (0 vs 0).
    expect([pair.wins, pair.losses, pair.ties]).toEqual(aIsA ? [2, 0, 1] : [0, 2, 1]);
    expect(pair.medianDiff).toBe(aIsA ? 50 : -50);
    expect(pair.p).toBeGreaterThan(0);
    expect(pair.pAdjusted).toBeGreaterThanOrEqual(pair.p);

    const hidden = await gql(query, { p: phaseId }, aliceToken);
    expect(hidden.errors?.[0]?.extensions['code']).toBe('FORBIDDEN');
    expect(hidden.errors?.[0]?.message).toMatch(/hidden until the organisers publish the results/);

    await save([100, 100, 100]);
    const after = await runner.settled(async () => (await ok(query, { p: phaseId }, organiserToken))['leaderboard']);
    await runner.stop();
    expect(after.updating).toBe(false);
    expect(after.systems[0].system).toBe('sys-b');
  });

  it('pages instance scores with source and output; references only for organisers before publishing', async () => {
    const p = await openPhase();
    const aliceToken = p.token;
    const firstSubmissionId = await submit(p, 'sys-a');
    await saveBleu(p.phaseId, firstSubmissionId, [100, 100, 0], 66.7);
    const query = `query($s: ID!) { instanceScores(submissionId: $s, metric: "bleu", offset: 1, limit: 1, order: DESC) { total rows { instanceId source references output score } } }`;
    // Corpus scores only by default (issue #20): no order by score, no per-instance values for the team.
    expect((await gql(query, { s: firstSubmissionId }, aliceToken)).errors?.[0]?.extensions['code']).toBe('FORBIDDEN');
    await ok(`mutation($p: ID!) { updatePhase(id: $p, input: { teamInstanceScores: true }) { id } }`, { p: p.phaseId }, organiserToken);
    const page = await ok(query, { s: firstSubmissionId }, aliceToken);
    expect(page['instanceScores']).toEqual({
      total: 3,
      rows: [{ instanceId: 's2', source: 'Es regnet.', references: null, output: 'It is raining.', score: 100 }],
    });
    const organiser = await ok(query, { s: firstSubmissionId }, organiserToken);
    expect(organiser['instanceScores'].rows[0].references).toEqual(['It is raining.', 'It rains.']);
  });

  it('queues a rescore of a submission as a new job, keeping its scores in the history and an audit entry', async () => {
    const p = await openPhase();
    const firstSubmissionId = await submit(p, 'sys-a');
    await saveBleu(p.phaseId, firstSubmissionId, [100, 100, 0], 66.7);
    const before = await db.corpusScore.findMany({ where: { submissionId: firstSubmissionId }, orderBy: { metric: 'asc' } });
    expect(before.length).toBeGreaterThan(0);
    const data = await ok(`mutation($s: ID!) { rescore(submissionId: $s) }`, { s: firstSubmissionId }, organiserToken);
    expect(data['rescore']).toBe(1);
    const history = await db.scoreHistory.findMany({ where: { submissionId: firstSubmissionId }, orderBy: { metric: 'asc' } });
    expect(history.map((h) => [h.metric, h.signature, h.value])).toEqual(before.map((c) => [c.metric, c.signature, c.value]));
    expect(await db.auditEntry.count({ where: { action: 'submission.rescore', targetId: firstSubmissionId } })).toBe(1);
    const jobs = await db.$queryRawUnsafe<{ reason: string }[]>(
      `SELECT data->>'reason' AS reason FROM ${QUEUE_SCHEMA}.job WHERE name = $1 AND data->>'submissionId' = $2 ORDER BY created_on`,
      SCORE_SUBMISSION_QUEUE,
      firstSubmissionId,
    );
    expect(jobs.map((j) => j.reason)).toEqual(['submitted', 'rescore']);
  });

  it('shows an offline query console at GET /graphql and redirects / there without a web build', async () => {
    const page = await request(app.getHttpServer()).get('/graphql').set('Accept', 'text/html');
    expect(page.status).toBe(200);
    expect(page.text).toContain('<title>Podium GraphQL API</title>');
    expect(page.text).not.toContain('https://');
    const root = await request(app.getHttpServer()).get('/');
    expect(root.status).toBe(302);
    expect(root.headers['location']).toBe('/graphql');
  });

  it('answers the health check, with CORS for local dev servers only', async () => {
    await submit(await openPhase(), 'sys-waiting'); // a job that waits in this suite's queue
    const res = await request(app.getHttpServer()).get('/api/health').set('Origin', 'http://localhost:5173');
    expect(res.status).toBe(200);
    expect(res.headers['access-control-allow-origin']).toBe('http://localhost:5173');
    const foreign = await request(app.getHttpServer()).get('/api/health').set('Origin', 'https://evil.example');
    expect(foreign.headers['access-control-allow-origin']).toBeUndefined();
    // Jobs wait in this suite's queue; "degraded" unless another suite's workers are alive.
    expect(['ok', 'degraded']).toContain(res.body.status);
    expect(res.body).toMatchObject({ database: { ok: true }, workers: { live: expect.any(Number) } });
    expect(res.body.queue.depth).toBeGreaterThan(0);
    expect(res.body.queue.oldestQueuedSeconds).toBeGreaterThanOrEqual(0);
  });

  it('serves the GraphQL schema the API page links', async () => {
    const res = await request(app.getHttpServer()).get('/api/schema.graphql');
    expect(res.status).toBe(200);
    expect(res.text).toContain('type Query {');
    expect(res.text).toContain('testInput(');
  });
});
