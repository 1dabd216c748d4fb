// A board whose pairs are stored apart from its document, in tiles (issue #28 item 5, ADR 0038),
// against a real PostgreSQL and the api's HTTP stack. The threshold is 2 systems here (1,000 in
// an arena, 100 by default), so four scored systems make a board with its pairs apart.
import type { INestApplication } from '@nestjs/common';
import { loadApiConfig } from '@podium/config';
import { LeaderboardRepository, createDb, type Db } from '@podium/db';
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import request from 'supertest';
import { LeaderboardJobRunner } from '../../../../test/support/leaderboards';
import { createApp } from '../app';
import { defined } from '../../../../test/support/defined';
import { DATABASE_URL, createAdminToken, describeWithDatabase } from '../../../../test/support/database';
import { createOpenPhase, type OpenPhase } from '../../../../test/support/phases';

jest.setTimeout(90_000);

const suite = describeWithDatabase('pair-tiles.integration.spec');

const QUEUE_SCHEMA = 'pgboss_pair_tiles_it';
const ROOT = path.resolve(__dirname, '../../../..');
const suffix = randomBytes(4).toString('hex');
const CHRF_SIG = 'chrF2|version:test';

interface Pair {
  aSubmissionId: string;
  bSubmissionId: string;
  wins: number;
  losses: number;
  ties: number;
}

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

const key = (p: Pair) => [p.aSubmissionId, p.bSubmissionId].sort().join('|');

suite('a board with its pairs stored apart (tiles)', () => {
  let app: INestApplication;
  let db: Db;
  let runner: LeaderboardJobRunner;
  let organiserToken: string;
  let phase: OpenPhase;
  let phaseId: string;
  const ids: string[] = [];

  const ok = async (query: string, variables: Record<string, unknown> = {}, token: string = organiserToken) => {
    const req = request(app.getHttpServer()).post('/graphql').send({ query, variables });
    if (token) req.set('Authorization', `Bearer ${token}`);
    const r = (await req).body as { data: Record<string, any> | null; errors?: unknown[] }; // eslint-disable-line @typescript-eslint/no-explicit-any -- test helper over arbitrary queries
    if (r.errors) throw new Error(`GraphQL errors: ${JSON.stringify(r.errors)}`);
    return defined(r.data, 'GraphQL data');
  };
  const server = () => app.getHttpServer() as http.Server;
  const json = async (url: string) => {
    const res = await raw(server(), url, { 'Accept-Encoding': 'identity' });
    expect(res.status).toBe(200);
    return JSON.parse(res.body.toString('utf8')) as Record<string, unknown>;
  };

  beforeAll(async () => {
    const config = loadApiConfig({ DATABASE_URL, PODIUM_WEB_DIST: '/nonexistent', PODIUM_RATE_LIMIT: '100000' });
    app = await createApp(config, { logger: false, queueSchema: QUEUE_SCHEMA, root: ROOT });
    await app.listen(0, '127.0.0.1');
    db = createDb(defined(DATABASE_URL, 'DATABASE_URL'));
    runner = new LeaderboardJobRunner(defined(DATABASE_URL, 'DATABASE_URL'), QUEUE_SCHEMA, { pairsApartAbove: 2 });
    organiserToken = await createAdminToken(db, `ptorg-${suffix}`, 'pair tiles test');
    phase = await createOpenPhase(ok, db, {
      slug: `ptl-${suffix}`,
      title: 'Tiles',
      metrics: [{ key: 'chrf', name: 'chrf' }],
      instances: [
        { id: 'x1', source: 'Das Haus.', references: ['The house.'] },
        { id: 'x2', source: 'Es regnet.', references: ['It rains.'] },
        { id: 'x3', source: 'Guten Morgen.', references: ['Good morning.'] },
      ],
      leaderboardBeforeClose: true,
      team: { name: `ptteam-${suffix}`, member: `ptalice-${suffix}` },
    });
    phaseId = phase.phaseId;
    const scores = [[60, 40, 20], [50, 30, 80], [10, 90, 55], [70, 70, 70]];
    for (const [i, values] of scores.entries()) {
      const id = await phase.submit(`S${i}`);
      ids.push(id);
      await phase.score(id, { metric: 'chrf', signature: CHRF_SIG, values });
    }
    await runner.settled(() => ok(`query($p: ID!) { leaderboard(phaseId: $p) { updating } }`, { p: phaseId }).then((d) => d['leaderboard'] as { updating: boolean }));
  });

  afterAll(async () => {
    await runner?.stop();
    await app?.close();
    await db?.$disconnect();
  });

  it('serves the document without its pairs, saying where they are, and one tile with all 6 pairs of 4 systems (wins by hand)', async () => {
    const board = await json(`/api/phases/${phaseId}/leaderboard.json`);
    expect(board['pairs']).toEqual([]);
    expect(board['pairsApart']).toEqual({ count: 6, tile: 32, tiles: 1 });
    expect((board['systems'] as unknown[]).length).toBe(4);
    const tile = await json(`/api/phases/${phaseId}/leaderboard-pairs.json?row=0&col=0`);
    expect([tile['row'], tile['col']]).toEqual([0, 0]);
    const pairs = tile['pairs'] as Pair[];
    expect(pairs.map(key).sort()).toEqual(
      [[0, 1], [0, 2], [0, 3], [1, 2], [1, 3], [2, 3]].map(([a, b]) => [ids[a ?? 0], ids[b ?? 0]].sort().join('|')).sort(),
    );
    // S3 (70, 70, 70) against S0 (60, 40, 20): three wins of three
    const p30 = defined(pairs.find((p) => key(p) === [ids[0], ids[3]].sort().join('|')), 'the S0–S3 pair');
    expect(p30.aSubmissionId === ids[3] ? [p30.wins, p30.losses] : [p30.losses, p30.wins]).toEqual([3, 0]);
  });

  it('answers a tile with its stored gzip and brotli bytes, a strong ETag and 304', async () => {
    const url = `/api/phases/${phaseId}/leaderboard-pairs.json?row=0&col=0`;
    const plain = await raw(server(), url, { 'Accept-Encoding': 'identity' });
    const etag = defined(plain.headers['etag'], 'the ETag header');
    expect(etag).toMatch(/^"[A-Za-z0-9_-]{43}"$/);
    expect(plain.headers['cache-control']).toBe('private, no-cache');
    const br = await raw(server(), url, { 'Accept-Encoding': 'gzip, br' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(br.body).equals(plain.body)).toBe(true);
    const gz = await raw(server(), url, { 'Accept-Encoding': 'gzip' });
    expect(gunzipSync(gz.body).equals(plain.body)).toBe(true);
    expect((await raw(server(), url, { 'If-None-Match': etag })).status).toBe(304);
  });

  it('refuses a tile outside the board, or below the diagonal, naming the argument', async () => {
    for (const [q, field] of [['row=0&col=1', 'col'], ['row=1&col=0', 'row'], ['row=x&col=0', 'row'], ['col=0', 'row']] as const) {
      const res = await request(app.getHttpServer()).get(`/api/phases/${phaseId}/leaderboard-pairs.json?${q}`);
      expect(res.status).toBe(400);
      expect(JSON.stringify(res.body)).toContain(field);
    }
  });

  it('streams every pair as JSONL, and GraphQL pairs and pairCount still read them all', async () => {
    const res = await request(app.getHttpServer()).get(`/api/phases/${phaseId}/leaderboard-pairs.jsonl`);
    expect(res.status).toBe(200);
    const lines = res.text.trim().split('\n').map((l) => JSON.parse(l) as Pair);
    expect(lines).toHaveLength(6);
    const tile = (await json(`/api/phases/${phaseId}/leaderboard-pairs.json?row=0&col=0`))['pairs'] as Pair[];
    expect(lines).toEqual(tile);
    const g = await ok(`query($p: ID!, $s: ID) { leaderboard(phaseId: $p) { pairCount pairs { aSubmissionId bSubmissionId wins losses ties } mine: pairCount(system: $s) } }`, { p: phaseId, s: ids[0] });
    const lb = g['leaderboard'] as { pairCount: number; mine: number; pairs: Pair[] };
    expect([lb.pairCount, lb.mine]).toEqual([6, 3]);
    expect(lb.pairs.map(key).sort()).toEqual(tile.map(key).sort());
  });

  it('keeps a hidden board’s tiles hidden, with or without their ETag (the board’s own visibility)', async () => {
    const url = `/api/phases/${phaseId}/leaderboard-pairs.json?row=0&col=0`;
    const etag = defined((await raw(server(), url)).headers['etag'], 'the ETag header');
    await db.phase.update({ where: { id: phaseId }, data: { leaderboardBeforeClose: false } });
    try {
      const plain = await raw(server(), url);
      expect(plain.status).toBe(403);
      const revalidate = await raw(server(), url, { 'If-None-Match': etag });
      expect([revalidate.status, revalidate.body.toString('utf8')]).toEqual([403, plain.body.toString('utf8')]);
      expect((await raw(server(), `/api/phases/${phaseId}/leaderboard-pairs.jsonl`)).status).toBe(403);
      expect((await raw(server(), url, { 'If-None-Match': etag, Authorization: `Bearer ${organiserToken}` })).status).toBe(304);
    } finally {
      await db.phase.update({ where: { id: phaseId }, data: { leaderboardBeforeClose: true } });
    }
  });

  it('deletes a board’s tiles with the board when a newer stamp prunes it', async () => {
    const boards = new LeaderboardRepository(db);
    const stored = await db.storedLeaderboard.findMany({ where: { phaseId }, select: { id: true } });
    expect(await db.leaderboardPairTile.count({ where: { boardId: { in: stored.map((s) => s.id) } } })).toBeGreaterThan(0);
    await db.storedLeaderboard.deleteMany({ where: { phaseId } });
    expect(await db.leaderboardPairTile.count({ where: { boardId: { in: stored.map((s) => s.id) } } })).toBe(0);
    expect(await boards.stamp(phaseId)).not.toBe('');
  });
});
