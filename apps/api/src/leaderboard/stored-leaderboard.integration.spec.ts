// Stored leaderboards against a real PostgreSQL and real pg-boss (issue #11): the API never
// computes a board; it serves what a worker stored for the phase's current scoring stamp, the
// previous one marked `updating` while the next computes, with ETags and precompressed bytes.
// No worker serves this suite's queue schema: LeaderboardJobRunner runs the queued jobs the way
// the worker does (in-process), so each step is observable.
import type { INestApplication } from '@nestjs/common';
import { loadApiConfig } from '@podium/config';
import { COMPUTE_LEADERBOARDS_QUEUE } from '@podium/contracts';
import { LeaderboardRepository, createDb, type Db } from '@podium/db';
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { gunzipSync, brotliDecompressSync } from 'node:zlib';
import PgBoss from 'pg-boss';
import request from 'supertest';
import { LeaderboardJobRunner } from '../../../../test/support/leaderboards';
import { createApp } from '../app';
import { BEING_COMPUTED_NOTE, CURRENT_READ_REUSE_MS, EARLIER_STATE_NOTE } from './leaderboard.service';
import { defined } from '../../../../test/support/defined';
import { DATABASE_URL, createAdminToken, describeWithDatabase } from '../../../../test/support/database';
import { createOpenPhase, type OpenPhase } from '../../../../test/support/phases';

jest.setTimeout(90_000);

const suite = describeWithDatabase('stored-leaderboard.integration.spec');

const QUEUE_SCHEMA = 'pgboss_stored_lb_it';
const ROOT = path.resolve(__dirname, '../../../..');
const suffix = randomBytes(4).toString('hex');
const CHRF_SIG = 'chrF2|version:test';

interface GqlResult {
  data: Record<string, any> | null; // eslint-disable-line @typescript-eslint/no-explicit-any -- test helper over arbitrary queries
  errors?: { message: string; extensions: Record<string, unknown> }[];
}

/** A GET whose body comes back as sent (no client-side decompression). */
function raw(server: http.Server, url: string, headers: Record<string, string> = {}): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }> {
  const { port } = server.address() as AddressInfo;
  return new Promise((resolve, reject) => {
    http
      .get({ host: '127.0.0.1', port, path: url, headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
        res.on('error', reject);
      })
      .on('error', reject);
  });
}

suite('stored leaderboards (worker-computed, served as data)', () => {
  let app: INestApplication;
  let db: Db;
  let boss: PgBoss;
  let runner: LeaderboardJobRunner;
  let organiserToken: string;
  let phase: OpenPhase;
  let phaseId: string;
  let boards: LeaderboardRepository;
  let counting = false;
  let queries: string[] = [];
  const ids: Record<string, string> = {};

  const gql = async (query: string, variables: Record<string, unknown> = {}, token?: string): Promise<GqlResult> => {
    const req = request(app.getHttpServer()).post('/graphql').send({ query, variables });
    if (token) req.set('Authorization', `Bearer ${token}`);
    return (await req).body as GqlResult;
  };
  const ok = async (query: string, variables: Record<string, unknown> = {}, token: string = organiserToken) => {
    const r = await gql(query, variables, token);
    if (r.errors) throw new Error(`GraphQL errors: ${JSON.stringify(r.errors)}`);
    return defined(r.data, 'GraphQL data');
  };
  const BOARD = `updating stamp computedAt notes metric instanceCount systems { system mean corpusScore }`;
  const board = async (args = '') => (await ok(`query($p: ID!) { leaderboard(phaseId: $p${args}) { ${BOARD} } }`, { p: phaseId }))['leaderboard'];
  const queued = () => boss.getQueueSize(COMPUTE_LEADERBOARDS_QUEUE);
  const submit = (system: string) => phase.submit(system);
  /** Stores chrF scores as the worker does (SubmissionRepository.saveScores marks the submission SCORED). */
  const score = (id: string, chrf: number[]) => phase.score(id, { metric: 'chrf', signature: CHRF_SIG, values: chrf });

  beforeAll(async () => {
    const config = loadApiConfig({ DATABASE_URL, PODIUM_WEB_DIST: '/nonexistent', PODIUM_RATE_LIMIT: '100000' });
    app = await createApp(config, { logger: false, queueSchema: QUEUE_SCHEMA, root: ROOT, onQuery: (sql) => counting && queries.push(sql) });
    await app.listen(0, '127.0.0.1');
    db = createDb(defined(DATABASE_URL, 'DATABASE_URL'));
    boards = new LeaderboardRepository(db);
    boss = new PgBoss({ connectionString: defined(DATABASE_URL, 'DATABASE_URL'), schema: QUEUE_SCHEMA, supervise: false, schedule: false, max: 2 });
    await boss.start();
    runner = new LeaderboardJobRunner(defined(DATABASE_URL, 'DATABASE_URL'), QUEUE_SCHEMA);
    organiserToken = await createAdminToken(db, `slorg-${suffix}`, 'stored leaderboard test');
    phase = await createOpenPhase(ok, db, {
      slug: `slb-${suffix}`,
      title: 'Stored',
      metrics: [{ key: 'chrf', name: 'chrf' }],
      instances: [
        { id: 'x1', source: 'Das Haus.', references: ['The house.'] },
        { id: 'x2', source: 'Es regnet.', references: ['It rains.'] },
        { id: 'x3', source: 'Guten Morgen.', references: ['Good morning.'] },
      ],
      // Public board: anonymous reads need no token lookup, so the query count is the board's alone.
      leaderboardBeforeClose: true,
      team: { name: `slteam-${suffix}`, member: `slalice-${suffix}` },
    });
    phaseId = phase.phaseId;
    ids['A'] = await submit('A');
    ids['B'] = await submit('B');
    await score(ids['A'], [60, 40, 20]);
    await score(ids['B'], [50, 30, 80]);
  });

  afterAll(async () => {
    await runner?.stop();
    await boss?.stop({ graceful: false, wait: true, timeout: 5_000 });
    await app?.close();
    await db?.$disconnect();
  });

  it('answers updating, with no systems and a note, before any board is stored, and queues the computation', async () => {
    const first = await board();
    expect(first).toMatchObject({ updating: true, stamp: '', computedAt: null, systems: [], metric: 'chrf' });
    expect(first.notes).toEqual([BEING_COMPUTED_NOTE]);
    expect(await queued()).toBeGreaterThanOrEqual(1);
  });

  it('serves the stored board of the current stamp once the job ran (means by hand: A 40, B 53.33)', async () => {
    expect(await runner.runPending()).toBeGreaterThanOrEqual(1);
    const stamp = await boards.stamp(phaseId);
    const b = await board();
    expect(b).toMatchObject({ updating: false, stamp, instanceCount: 3 });
    expect(new Date(b.computedAt).getTime()).toBeGreaterThan(Date.now() - 60_000);
    expect(b.systems.map((s: { system: string }) => s.system)).toEqual(['B', 'A']);
    expect(b.systems[0].mean).toBeCloseTo(160 / 3, 10);
    expect(b.systems[1].mean).toBeCloseTo(40, 10);
  });

  it('serves the previous board marked updating while a newer stamp computes, then the new one', async () => {
    const before = await board();
    ids['C'] = await submit('C');
    await score(ids['C'], [90, 90, 90]);
    const stamp = await boards.stamp(phaseId);
    expect(stamp).not.toBe(before.stamp);
    const during = await board();
    expect(during).toMatchObject({ updating: true, stamp: before.stamp });
    expect(during.systems).toEqual(before.systems);
    // The read queues the job without awaiting the send: wait for it, or runPending may find none.
    for (const deadline = Date.now() + 10_000; (await queued()) < 1 && Date.now() < deadline; ) await new Promise((r) => setTimeout(r, 20));
    await runner.runPending();
    const after = await board();
    expect(after).toMatchObject({ updating: false, stamp });
    expect(after.systems.map((s: { system: string }) => s.system)).toEqual(['C', 'B', 'A']);
  });

  it('changes the stamp and queues the defaults when an organiser hides a submission or changes settings', async () => {
    await runner.runPending();
    const s0 = await boards.stamp(phaseId);
    await ok(`mutation($id: ID!) { moderateSubmission(id: $id, moderation: HIDDEN, reason: "duplicate") }`, { id: ids['C'] });
    const s1 = await boards.stamp(phaseId);
    expect(s1).not.toBe(s0);
    expect(await queued()).toBeGreaterThanOrEqual(1);
    await runner.runPending();
    expect((await board()).systems.map((s: { system: string }) => s.system)).toEqual(['B', 'A']);
    await ok(`mutation($p: ID!) { setPhaseSignificance(phaseId: $p, resamples: 300, seed: 5) { seed } }`, { p: phaseId });
    expect(await boards.stamp(phaseId)).not.toBe(s1);
    expect(await queued()).toBeGreaterThanOrEqual(1);
    const b = await runner.settled(() => board());
    expect(b.updating).toBe(false);
    expect((await ok(`query($p: ID!) { leaderboard(phaseId: $p) { seed resamples } }`, { p: phaseId }))['leaderboard']).toEqual({ seed: 5, resamples: 300 });
  });

  it('shows a change made through this api to the request right after it, though board reads are kept for the next moments (issue #28)', async () => {
    await runner.runPending();
    const url = `/api/phases/${phaseId}/leaderboard.json`;
    const before = (await request(app.getHttpServer()).get(url)).body as { updating: boolean; seed: number; stamp: string };
    expect(before.updating).toBe(false);
    // The mutation moves the stamp; the next request, within CURRENT_READ_REUSE_MS of the read
    // above, sees the new stamp (the stored board marked updating), not the read kept in memory.
    const seed = before.seed + 1;
    await ok(`mutation($p: ID!, $s: Int) { setPhaseSignificance(phaseId: $p, seed: $s, resamples: null) { seed } }`, { p: phaseId, s: seed });
    const after = (await request(app.getHttpServer()).get(url)).body as { updating: boolean; stamp: string };
    expect(after).toMatchObject({ updating: true, stamp: before.stamp });
    const b = await runner.settled(() => board());
    expect(b.updating).toBe(false);
  });

  it('computes a view that is not a default one on its first request', async () => {
    await runner.runPending();
    const first = await board(', test: WILCOXON, correction: BH');
    expect(first.updating).toBe(true);
    const b = await runner.settled(() => board(', test: WILCOXON, correction: BH'));
    expect(b.updating).toBe(false);
    expect((await ok(`query($p: ID!) { leaderboard(phaseId: $p, test: WILCOXON, correction: BH) { test correction pairs { pTest } } }`, { p: phaseId }))['leaderboard']).toMatchObject({
      test: 'WILCOXON',
      correction: 'BH',
      pairs: [{ pTest: 'wilcoxon' }],
    });
  });

  it('serves leaderboard.json with a strong ETag, 304 on If-None-Match, and the stored gzip and brotli bytes', async () => {
    await runner.settled(() => board());
    const url = `/api/phases/${phaseId}/leaderboard.json`;
    const plain = await raw(app.getHttpServer(), url, { 'Accept-Encoding': 'identity' });
    expect(plain.status).toBe(200);
    expect(plain.headers['etag']).toMatch(/^"[A-Za-z0-9_-]{43}"$/);
    expect(plain.headers['cache-control']).toBe('private, no-cache');
    expect(plain.headers['content-encoding']).toBeUndefined();
    const json = JSON.parse(plain.body.toString('utf8'));
    expect(json).toMatchObject({ updating: false, stamp: await boards.stamp(phaseId), test: 'TTEST', correction: 'HOLM' });

    const again = await raw(app.getHttpServer(), url, { 'If-None-Match': defined(plain.headers['etag'], 'the ETag header') });
    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);

    const gz = await raw(app.getHttpServer(), url, { 'Accept-Encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gz.headers['vary']).toMatch(/Accept-Encoding/);
    expect(gz.body.length).toBeLessThan(plain.body.length);
    expect(gunzipSync(gz.body).equals(plain.body)).toBe(true);

    const br = await raw(app.getHttpServer(), url, { 'Accept-Encoding': 'gzip, deflate, br' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(br.body).equals(plain.body)).toBe(true);
    expect(br.headers['etag']).toBe(plain.headers['etag']);

    const csv = await raw(app.getHttpServer(), `/api/phases/${phaseId}/leaderboard.csv`, { 'Accept-Encoding': 'gzip' });
    expect(csv.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(csv.body).toString('utf8').split('\n')[0]).toMatch(/\bsystem\b/);
    const csv304 = await raw(app.getHttpServer(), `/api/phases/${phaseId}/leaderboard.csv`, { 'If-None-Match': defined(csv.headers['etag'], 'the ETag header') });
    expect(csv304.status).toBe(304);
  });

  it('serves the updating and earlier variants as the stored documents with those fields changed, gzip and brotli of the same bytes (issue #28)', async () => {
    await runner.settled(() => board());
    const server = app.getHttpServer() as http.Server;
    const url = `/api/phases/${phaseId}/leaderboard.json`;
    const nonDefault = `${url}?test=WILCOXON&correction=BH`;
    const identity = { 'Accept-Encoding': 'identity' };
    const stored = await raw(server, url, identity);
    const storedOther = await raw(server, nonDefault, identity);
    // named by the board's metric, read off the document's first keys
    expect(stored.headers['content-disposition']).toMatch(/-leaderboard-chrf\.json"?$/);
    expect(JSON.parse(storedOther.body.toString('utf8'))).toMatchObject({ updating: false, test: 'WILCOXON', correction: 'BH' });
    // a new seed moves the stamp: the default view is served marked updating, and the view computed
    // for the earlier stamp is served to a participant as it is, with a note
    await ok(`mutation($p: ID!) { setPhaseSignificance(phaseId: $p, resamples: 300, seed: 6) { seed } }`, { p: phaseId });
    const variants = [
      { at: url, before: stored, suffix: 'u', revise: (d: Record<string, unknown>) => ({ ...d, updating: true }) },
      { at: nonDefault, before: storedOther, suffix: 'e', revise: (d: Record<string, unknown>) => ({ ...d, updating: false, notes: [...(d['notes'] as string[]), EARLIER_STATE_NOTE] }) },
    ];
    for (const v of variants) {
      const plain = await raw(server, v.at, identity);
      expect(plain.status).toBe(200);
      expect(plain.headers['content-disposition']).toBe(stored.headers['content-disposition']);
      expect(plain.headers['etag']).toBe(`"${defined(v.before.headers['etag'], 'the ETag header').slice(1, -1)}-${v.suffix}"`);
      // byte for byte what parsing, revising and writing the whole stored document gives
      expect(plain.body.toString('utf8')).toBe(JSON.stringify(v.revise(JSON.parse(v.before.body.toString('utf8')) as Record<string, unknown>)));
      const gz = await raw(server, v.at, { 'Accept-Encoding': 'gzip' });
      expect(gz.headers['content-encoding']).toBe('gzip');
      expect(gunzipSync(gz.body).equals(plain.body)).toBe(true);
      const br = await raw(server, v.at, { 'Accept-Encoding': 'br' });
      expect(br.headers['content-encoding']).toBe('br');
      expect(brotliDecompressSync(br.body).equals(plain.body)).toBe(true);
    }
    const after = await runner.settled(() => board());
    expect(after.updating).toBe(false);
  });

  it('never answers a hidden board with its ETag or a 304: its existence and content do not leak (issue #28)', async () => {
    const url = `/api/phases/${phaseId}/leaderboard.json`;
    const server = app.getHttpServer() as http.Server;
    const seen = await raw(server, url, { 'Accept-Encoding': 'identity' });
    const etag = defined(seen.headers['etag'], 'the ETag header');
    // the board is hidden from everyone but the organisers while the phase is open
    await db.phase.update({ where: { id: phaseId }, data: { leaderboardBeforeClose: false } });
    try {
      const plain = await raw(server, url, { 'Accept-Encoding': 'identity' });
      // a client holding the board's ETag from before (or guessing it), with each encoding
      for (const encoding of ['identity', 'gzip', 'br']) {
        const revalidate = await raw(server, url, { 'If-None-Match': etag, 'Accept-Encoding': encoding });
        expect(revalidate.status).toBe(403);
        // no board ETag: at most Express's weak one of the error body, the same as the plain refusal's
        expect(revalidate.headers['etag']).not.toBe(etag);
        expect(revalidate.headers['etag']).toBe(plain.headers['etag']);
        expect(revalidate.headers['content-encoding']).toBeUndefined();
        // the same answer as without the ETag: nothing tells a current ETag from a wrong one
        expect(revalidate.body.toString('utf8')).toBe(plain.body.toString('utf8'));
        const wrong = await raw(server, url, { 'If-None-Match': '"not-the-etag"', 'Accept-Encoding': encoding });
        expect([wrong.status, wrong.body.toString('utf8')]).toEqual([revalidate.status, revalidate.body.toString('utf8')]);
      }
      expect(plain.status).toBe(403);
      expect(plain.body.toString('utf8')).not.toContain(etag.slice(1, -1));
      // the task's organiser still revalidates it
      const organiser = await raw(server, url, { 'If-None-Match': etag, Authorization: `Bearer ${organiserToken}` });
      expect(organiser.status).toBe(304);
    } finally {
      await db.phase.update({ where: { id: phaseId }, data: { leaderboardBeforeClose: true } });
    }
  });

  it('answers a cached leaderboard.json with one SQL query (phase facts, stamp and board in one; the phase facts alone just after)', async () => {
    const url = `/api/phases/${phaseId}/leaderboard.json`;
    await request(app.getHttpServer()).get(url);
    await new Promise((r) => setTimeout(r, CURRENT_READ_REUSE_MS + 20));
    queries = [];
    counting = true;
    const t0 = performance.now();
    const res = await request(app.getHttpServer()).get(url);
    const again = await request(app.getHttpServer()).get(url);
    const elapsed = performance.now() - t0;
    counting = false;
    expect([res.status, again.status]).toEqual([200, 200]);
    expect(queries).toHaveLength(2);
    expect(queries[0]).toMatch(/stored_leaderboard/);
    // The next request within CURRENT_READ_REUSE_MS takes the stamp and board from the first and
    // reads who may see the phase (a busy machine may take longer: then it reads all again).
    if (elapsed < CURRENT_READ_REUSE_MS) {
      expect(queries[1]).toMatch(/FROM phase p JOIN task t/);
      expect(queries[1]).not.toMatch(/stored_leaderboard|submission/);
    }
  });

  it('resolves submissions { corpusScores phase { task } } and scoredCount with a number of queries that does not grow with the submissions', async () => {
    const q = `query($p: ID!) { phase(id: $p) { scoredCount task { slug phases { id scoredCount testSet { name } } } } submissions(phaseId: $p) { systemName corpusScores { metric value } phase { name scoredCount task { slug } } } }`;
    const count = async () => {
      queries = [];
      counting = true;
      const data = await ok(q, { p: phaseId });
      counting = false;
      return { n: queries.length, submissions: data['submissions'].length as number };
    };
    const few = await count();
    for (let k = 0; k < 12; k++) await score(await submit(`extra-${k}`), [k, k + 1, k + 2]);
    const many = await count();
    expect(many.submissions).toBe(few.submissions + 12);
    expect(many.n).toBe(few.n);
    console.log(`queries per request: ${few.n} for ${few.submissions} submissions, ${many.n} for ${many.submissions}`);
  });
});
