// GraphQL answers of stored boards, cached (BoardAnswers, ADR 0039), against a real PostgreSQL
// and the api in-process: an answer is reused only for the same query, variables, board and
// caller's role; it is never reused across roles, after a new board, for a query that selects a
// live field, or when the caller may not see the board. Whether an answer was executed or reused
// is seen through LeaderboardService.boardOf, which only the `leaderboard` resolver calls.
import type { INestApplication } from '@nestjs/common';
import { loadApiConfig } from '@podium/config';
import { createDb, type Db } from '@podium/db';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import request from 'supertest';
import { LeaderboardJobRunner } from '../../../../test/support/leaderboards';
import { defined } from '../../../../test/support/defined';
import { DATABASE_URL, createAdminToken, describeWithDatabase } from '../../../../test/support/database';
import { createOpenPhase, type OpenPhase } from '../../../../test/support/phases';
import { createApp } from '../app';
import { BoardAnswers } from './board-answers';
import { LeaderboardService } from './leaderboard.service';

jest.setTimeout(90_000);

const suite = describeWithDatabase('board-answers.integration.spec');
const QUEUE_SCHEMA = 'pgboss_board_answers_it';
const suffix = randomBytes(4).toString('hex');
const SIG = 'chrF2|version:test';
const SYSTEMS = `query Systems($p: ID!) { leaderboard(phaseId: $p) { stamp updating systems { system mean rank { mean } } } }`;

interface Answer {
  status: number;
  cacheControl: string | undefined;
  /** The body as sent. */
  text: string;
  data: Record<string, any> | null; // eslint-disable-line @typescript-eslint/no-explicit-any -- test helper over arbitrary queries
  errors?: { message: string; extensions: Record<string, unknown> }[];
}

suite('cached GraphQL answers of stored boards', () => {
  let app: INestApplication;
  let db: Db;
  let runner: LeaderboardJobRunner;
  let organiserToken: string;
  let memberToken: string;
  let hidden: OpenPhase;
  let open: OpenPhase;
  let executed: jest.SpyInstance;
  let answers: BoardAnswers;

  const gql = async (query: string, variables: Record<string, unknown>, token?: string): Promise<Answer> => {
    const req = request(app.getHttpServer()).post('/graphql').send({ query, variables });
    if (token) req.set('Authorization', `Bearer ${token}`);
    const res = await req;
    const body = res.body as Omit<Answer, 'status' | 'cacheControl' | 'text'>;
    return { status: res.status, cacheControl: res.headers['cache-control'], text: res.text, ...body };
  };
  const ok = async (query: string, variables: Record<string, unknown> = {}, token: string = organiserToken) => {
    const r = await gql(query, variables, token);
    if (r.errors) throw new Error(`GraphQL errors: ${JSON.stringify(r.errors)}`);
    return defined(r.data, 'GraphQL data');
  };
  /** Runs `read`, answering whether the `leaderboard` resolver executed (else the answer was reused). */
  const ran = async <T>(read: () => Promise<T>): Promise<{ value: T; executed: boolean }> => {
    executed.mockClear();
    const value = await read();
    return { value, executed: executed.mock.calls.length > 0 };
  };
  const phaseOf = (slug: string, leaderboardBeforeClose: boolean) =>
    createOpenPhase(ok, db, {
      slug: `${slug}-${suffix}`,
      title: slug,
      metrics: [{ key: 'chrf', name: 'chrf' }],
      instances: [
        { id: 'x1', source: 'Das Haus.', references: ['The house.'] },
        { id: 'x2', source: 'Es regnet.', references: ['It rains.'] },
      ],
      leaderboardBeforeClose,
      team: { name: `${slug}-team-${suffix}`, member: `${slug}-member-${suffix}` },
    });

  beforeAll(async () => {
    const config = loadApiConfig({ DATABASE_URL, PODIUM_WEB_DIST: '/nonexistent', PODIUM_RATE_LIMIT: '100000' });
    app = await createApp(config, { logger: false, queueSchema: QUEUE_SCHEMA, root: path.resolve(__dirname, '../../../..') });
    await app.listen(0, '127.0.0.1');
    db = createDb(defined(DATABASE_URL, 'DATABASE_URL'));
    runner = new LeaderboardJobRunner(defined(DATABASE_URL, 'DATABASE_URL'), QUEUE_SCHEMA);
    organiserToken = await createAdminToken(db, `baorg-${suffix}`, 'board answers test');
    hidden = await phaseOf('bahidden', false);
    open = await phaseOf('baopen', true);
    memberToken = (await ok(`mutation($u: String!) { issueToken(userName: $u, label: "t") }`, { u: `baopen-member-${suffix}` }))['issueToken'] as string;
    for (const phase of [hidden, open]) {
      const a = await phase.submit('A');
      const b = await phase.submit('B');
      await phase.score(a, { metric: 'chrf', signature: SIG, values: [60, 40] });
      await phase.score(b, { metric: 'chrf', signature: SIG, values: [50, 80] });
    }
    // Both phases' boards stored (the first reads queue them; the runner computes them as a worker).
    await ok(SYSTEMS, { p: hidden.phaseId });
    await ok(SYSTEMS, { p: open.phaseId });
    await runner.settled(async () => (await ok(SYSTEMS, { p: hidden.phaseId }))['leaderboard'] as { updating: boolean });
    await runner.settled(async () => (await ok(SYSTEMS, { p: open.phaseId }))['leaderboard'] as { updating: boolean });
    answers = app.get(BoardAnswers);
    executed = jest.spyOn(app.get(LeaderboardService), 'boardOf');
  });

  afterAll(async () => {
    executed?.mockRestore();
    await runner?.stop();
    await app?.close();
    await db?.$disconnect();
  });

  it('answers a repeated query of a stored board without executing it, with the same answer and no-store', async () => {
    const first = await ran(() => gql(SYSTEMS, { p: open.phaseId }));
    const second = await ran(() => gql(SYSTEMS, { p: open.phaseId }));
    expect(first.value.errors).toBeUndefined();
    // Means by hand: B (50 + 80) / 2 = 65, A (60 + 40) / 2 = 50.
    expect(first.value.data?.['leaderboard'].systems.map((s: { system: string; mean: number }) => [s.system, s.mean])).toEqual([
      ['B', 65],
      ['A', 50],
    ]);
    expect([first.executed, second.executed]).toEqual([true, false]);
    // Byte for byte what Apollo sent when it executed the query.
    expect(second.value.text).toBe(first.value.text);
    expect(second.value.data).toEqual(first.value.data);
    expect([first.value.status, second.value.status]).toEqual([200, 200]);
    // As Apollo's cache-control plugin answered before it was replaced (GraphQL answers depend on the caller).
    expect([first.value.cacheControl, second.value.cacheControl]).toEqual(['no-store', 'no-store']);
    // Another query text (here with an alias) is another answer.
    expect((await ran(() => gql(`query($p: ID!) { lb: leaderboard(phaseId: $p) { stamp } }`, { p: open.phaseId }))).executed).toBe(true);
  });

  it("never reuses one role's answer for another: anonymous, a participant and an organiser each execute their first read", async () => {
    const before = answers.size;
    const q = `query Roles($p: ID!) { leaderboard(phaseId: $p) { phaseId metric systems { submissionId } } }`;
    const organiser = await ran(() => gql(q, { p: open.phaseId }, organiserToken));
    const anonymous = await ran(() => gql(q, { p: open.phaseId }));
    const member = await ran(() => gql(q, { p: open.phaseId }, memberToken));
    expect([organiser.executed, anonymous.executed, member.executed]).toEqual([true, true, true]);
    expect(answers.size).toBe(before + 3);
    // Each role's second read is its own answer, reused.
    for (const token of [organiserToken, undefined, memberToken]) expect((await ran(() => gql(q, { p: open.phaseId }, token))).executed).toBe(false);
  });

  it("refuses a hidden board to anonymous callers and participants though an organiser's answer of the same query is kept", async () => {
    const organiser = await gql(SYSTEMS, { p: hidden.phaseId }, organiserToken);
    expect(organiser.errors).toBeUndefined();
    expect((await ran(() => gql(SYSTEMS, { p: hidden.phaseId }, organiserToken))).executed).toBe(false);
    const anonymous = await gql(SYSTEMS, { p: hidden.phaseId });
    const member = await gql(SYSTEMS, { p: hidden.phaseId }, memberToken);
    expect(anonymous.data).toBeNull();
    expect(anonymous.errors?.[0]?.extensions['code']).toBe('FORBIDDEN');
    expect(member.data).toBeNull();
    expect(member.errors?.[0]?.extensions['code']).toBe('FORBIDDEN');
  });

  it('executes again once a new board is stored (a new stamp), and answers the new board', async () => {
    const before = (await ok(SYSTEMS, { p: open.phaseId }))['leaderboard'] as { stamp: string };
    const c = await open.submit('C');
    await open.score(c, { metric: 'chrf', signature: SIG, values: [90, 90] });
    // While the new stamp computes: the previous board marked updating (another ETag), executed.
    const during = await ran(() => ok(SYSTEMS, { p: open.phaseId }));
    expect(during.executed).toBe(true);
    expect(during.value['leaderboard']).toMatchObject({ updating: true, stamp: before.stamp });
    const after = await runner.settled(async () => (await ok(SYSTEMS, { p: open.phaseId }))['leaderboard'] as { updating: boolean; stamp: string; systems: { system: string }[] });
    expect(after.stamp).not.toBe(before.stamp);
    expect(after.systems.map((s) => s.system)).toEqual(['C', 'B', 'A']);
    expect((await ran(() => ok(SYSTEMS, { p: open.phaseId }))).executed).toBe(false);
  });

  it('never keeps an answer that selects a live field (paperUrl) or that has errors', async () => {
    const before = answers.size;
    const links = `query($p: ID!) { leaderboard(phaseId: $p) { systems { system paperUrl } } }`;
    expect((await ran(() => ok(links, { p: open.phaseId }))).executed).toBe(true);
    expect((await ran(() => ok(links, { p: open.phaseId }))).executed).toBe(true);
    const bad = await gql(`query($p: ID!) { leaderboard(phaseId: $p) { pairs(first: -1) { a } } }`, { p: open.phaseId });
    expect(bad.errors?.[0]?.extensions['code']).toBe('INVALID_INPUT');
    expect(answers.size).toBe(before);
  });
});
