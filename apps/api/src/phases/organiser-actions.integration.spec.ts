// The organiser's actions through the real API and PostgreSQL (issue #22): every creation and
// setting lands in the audit log with the change, the counts a confirmation states, the daily
// limit's next slot, and validation messages in plain words.
import type { INestApplication } from '@nestjs/common';
import { loadApiConfig } from '@podium/config';
import { IdentityRepository, Role, createDb, type Db } from '@podium/db';
import { randomBytes } from 'node:crypto';
import request from 'supertest';
import { createApp } from '../app';
import { defined } from '../../../../test/support/defined';
import { DATABASE_URL, describeWithDatabase } from '../../../../test/support/database';

jest.setTimeout(60_000);

const suite = describeWithDatabase('organiser-actions.integration.spec');
const suffix = randomBytes(4).toString('hex');
const TEST_SET = [
  { id: 's1', source: 'Das Haus ist klein.', references: ['The house is small.'] },
  { id: 's2', source: 'Es regnet.', references: ['It is raining.'] },
];

interface GqlResult {
  data: Record<string, any> | null; // eslint-disable-line @typescript-eslint/no-explicit-any -- test helper over arbitrary queries
  errors?: { message: string; extensions: Record<string, unknown> }[];
}

suite('organiser actions', () => {
  let app: INestApplication;
  let db: Db;
  let adminToken: string;
  let organiserToken: string;
  let seq = 0;
  const unique = (prefix: string) => `${prefix}-${suffix}-${++seq}`;

  const gql = async (query: string, variables: Record<string, unknown>, token?: string): Promise<GqlResult> => {
    const req = request(app.getHttpServer()).post('/graphql').send({ query, variables });
    if (token) req.set('Authorization', `Bearer ${token}`);
    return (await req).body as GqlResult;
  };
  const ok = async (query: string, variables: Record<string, unknown>, token?: string) => {
    const r = await gql(query, variables, token);
    if (r.errors) throw new Error(`GraphQL errors: ${JSON.stringify(r.errors)}`);
    return defined(r.data, 'GraphQL data');
  };
  const auditOf = async (slug: string) =>
    (await ok(`query($s: String) { auditLog(taskSlug: $s) { action actor targetType details } }`, { s: slug }, organiserToken))['auditLog'] as {
      action: string;
      actor: string;
      targetType: string;
      details: Record<string, unknown>;
    }[];

  async function taskWithPhase(dailyLimit = 5) {
    const slug = unique('org');
    await ok(`mutation($input: CreateTaskInput!) { createTask(input: $input) { id } }`, { input: { slug, title: 'Organiser actions', kind: 'mt', sourceLang: 'de', targetLang: 'en' } }, organiserToken);
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
          totalLimit: 10,
          leaderboardBeforeClose: false,
        },
      },
      organiserToken,
    );
    const phaseId: string = phase['createPhase'].id;
    await ok(`mutation($p: ID!, $i: [TestInstanceInput!]!) { uploadTestSet(phaseId: $p, name: "newstest", instances: $i) { id } }`, { p: phaseId, i: TEST_SET }, organiserToken);
    return { slug, phaseId };
  }

  async function team() {
    const name = unique('team');
    const member = unique('member');
    const t = await ok(`mutation($n: String!, $m: [String!]!) { createTeam(name: $n, members: $m) { id } }`, { n: name, m: [member] }, adminToken);
    const token = await ok(`mutation($u: String!) { issueToken(userName: $u, label: "laptop") }`, { u: member }, adminToken);
    return { teamId: t['createTeam'].id as string, token: token['issueToken'] as string };
  }

  const submit = (phaseId: string, t: { teamId: string; token: string }, systemName: string) =>
    gql(`mutation($p: ID!, $t: ID!, $s: String!) { submit(phaseId: $p, teamId: $t, systemName: $s, content: "a\\nb\\n", format: TEXT) { id } }`, { p: phaseId, t: t.teamId, s: systemName }, t.token);

  beforeAll(async () => {
    const config = loadApiConfig({ DATABASE_URL, PODIUM_WEB_DIST: '/nonexistent' });
    app = await createApp(config, { logger: false, queueSchema: 'pgboss_organiser_it' });
    db = createDb(defined(DATABASE_URL, 'DATABASE_URL'));
    const identity = new IdentityRepository(db);
    adminToken = await identity.issueToken((await identity.createUser(`adm-${suffix}`, Role.ADMIN)).id, 'it');
    organiserToken = await identity.issueToken((await identity.createUser(`org-${suffix}`, Role.ORGANISER)).id, 'it');
  });

  afterAll(async () => {
    await app?.close();
    await db?.$disconnect();
  });

  it('records creating the task, the phase and uploading the test set in the audit log, by the organiser', async () => {
    const { slug } = await taskWithPhase();
    const log = await auditOf(slug);
    // Newest first: the upload, the phase, the task.
    expect(log.map((e) => e.action)).toEqual(['testset.upload', 'phase.create', 'task.create']);
    expect(log.every((e) => e.actor === `org-${suffix}`)).toBe(true);
    expect(log[0]?.details).toMatchObject({ phase: 'test', testSet: 'newstest', instances: 2 });
    expect(log[1]?.details).toMatchObject({ phase: 'test', dailyLimit: 5, totalLimit: 10, leaderboardBeforeClose: false });
    expect(log[2]?.details).toMatchObject({ slug, title: 'Organiser actions' });
  });

  it('records editing the limits, the board visibility and the significance settings', async () => {
    const { slug, phaseId } = await taskWithPhase();
    await ok(`mutation($id: ID!) { updatePhase(id: $id, input: { dailyLimit: 3, leaderboardBeforeClose: true }) { dailyLimit leaderboardBeforeClose } }`, { id: phaseId }, organiserToken);
    await ok(`mutation($p: ID!) { setPhaseSignificance(phaseId: $p, resamples: 400, seed: 7) { seed } }`, { p: phaseId }, organiserToken);
    const phase = await ok(`query($id: ID!) { phase(id: $id) { dailyLimit leaderboardBeforeClose significanceResamples significanceSeed } }`, { id: phaseId });
    expect(phase['phase']).toEqual({ dailyLimit: 3, leaderboardBeforeClose: true, significanceResamples: 400, significanceSeed: 7 });
    const log = await auditOf(slug);
    expect(log.slice(0, 2).map((e) => [e.action, e.details['fields'] ?? e.details['resamples']])).toEqual([
      ['phase.significance', 400],
      ['phase.update', 'dailyLimit,leaderboardBeforeClose'],
    ]);
  });

  it('counts what closing or publishing would touch, for the confirmation, and refuses those counts to a team', async () => {
    const { phaseId } = await taskWithPhase();
    const a = await team();
    const b = await team();
    for (const [t, s] of [[a, 'a1'], [a, 'a2'], [b, 'b1']] as const) expect((await submit(phaseId, t, s)).errors).toBeUndefined();
    const impact = await ok(`query($id: ID!) { phaseImpact(id: $id) { submissions teams scored pending baselines moderated teamsWithoutPrimary rescorable instances } }`, { id: phaseId }, organiserToken);
    // 3 queued submissions (no worker in this suite) from 2 teams, none primary yet, 2 instances.
    expect(impact['phaseImpact']).toEqual({ submissions: 3, teams: 2, scored: 0, pending: 3, baselines: 0, moderated: 0, teamsWithoutPrimary: 2, rescorable: 3, instances: 2 });
    const refused = await gql(`query($id: ID!) { phaseImpact(id: $id) { submissions } }`, { id: phaseId }, a.token);
    expect(refused.errors?.[0]?.extensions['code']).toBe('FORBIDDEN');
  });

  it('says when the next submission slot opens once the daily limit is used up', async () => {
    const { phaseId } = await taskWithPhase(1);
    const t = await team();
    const before = Date.now();
    expect((await submit(phaseId, t, 'first')).errors).toBeUndefined();
    const first = defined(await db.submission.findFirst({ where: { phaseId } }), 'first submission');
    const refused = await submit(phaseId, t, 'second');
    // The one counted submission leaves the 24-hour window 24 hours after it was stored.
    const opens = new Date(first.createdAt.getTime() + 86_400_000).toISOString().slice(0, 16).replace('T', ' ');
    expect(refused.errors?.[0]?.message).toBe(`team has used its 1 submissions of the last 24 hours in phase 'test'; the next submission slot opens at ${opens} UTC`);
    const quota = await ok(`query($p: ID!, $t: ID!) { quota(phaseId: $p, teamId: $t) { remaining nextSlotAt } }`, { p: phaseId, t: t.teamId }, t.token);
    expect(quota['quota'].remaining).toBe(0);
    expect(Date.parse(quota['quota'].nextSlotAt)).toBe(first.createdAt.getTime() + 86_400_000);
    expect(Date.parse(quota['quota'].nextSlotAt)).toBeGreaterThanOrEqual(before + 86_400_000 - 1000);
  });

  it('words phase validation for people, without API field names', async () => {
    const { phaseId } = await taskWithPhase();
    const r = await gql(`mutation($id: ID!, $c: DateTime!) { updatePhase(id: $id, input: { opensAt: "2026-01-02T00:00:00Z", closesAt: $c }) { id } }`, { id: phaseId, c: '2026-01-01T00:00:00Z' }, organiserToken);
    expect(r.errors?.[0]?.message).toBe('The close date must be after the open date');
    expect(r.errors?.[0]?.extensions['field']).toBe('closesAt');
    const limit = await gql(`mutation($id: ID!) { updatePhase(id: $id, input: { dailyLimit: 0 }) { id } }`, { id: phaseId }, organiserToken);
    expect(limit.errors?.[0]?.message).toBe('The daily limit must be at least 1');
  });

  it("lets the team give its submission a description and http(s) paper and code links, validated, and no other team", async () => {
    const { phaseId } = await taskWithPhase();
    const t = await team();
    const other = await team();
    const id = defined((await submit(phaseId, t, 'linked')).data, 'submit')['submit'].id as string;
    const edit = (token: string, v: Record<string, string>) =>
      gql(`mutation($id: ID!, $d: String, $p: String, $c: String) { updateSubmissionMetadata(id: $id, description: $d, paperUrl: $p, codeUrl: $c) { description paperUrl codeUrl } }`, { id, ...v }, token);
    const ok1 = await edit(t.token, { d: 'A transformer', p: 'https://aclanthology.org/W17-4717', c: 'http://example.org/code' });
    expect(ok1.data?.['updateSubmissionMetadata']).toEqual({ description: 'A transformer', paperUrl: 'https://aclanthology.org/W17-4717', codeUrl: 'http://example.org/code' });
    const script = await edit(t.token, { p: 'javascript:alert(1)' });
    expect(script.errors?.[0]?.message).toBe('The paper link must be a web address starting with http:// or https://');
    expect(script.errors?.[0]?.extensions['field']).toBe('paperUrl');
    const long = await edit(t.token, { c: `https://example.org/${'x'.repeat(500)}` });
    expect(long.errors?.[0]?.message).toBe('The code link may have at most 500 characters');
    expect((await edit(other.token, { d: 'taken over' })).errors?.[0]?.extensions['code']).toBe('FORBIDDEN');
    // An empty link removes it; a field left out stays.
    const removed = await edit(t.token, { p: '' });
    expect(removed.data?.['updateSubmissionMetadata']).toEqual({ description: 'A transformer', paperUrl: null, codeUrl: 'http://example.org/code' });
  });
});
