// Storing boards through a pg pool (the worker's) against storing them through Prisma: the same
// rows, copies of the views that share a board, the same fencing (real PostgreSQL; issue #28).
import { randomUUID } from 'node:crypto';
import { LeaseLostError } from '@podium/domain';
import { Pool } from 'pg';
import { createDb, IdentityRepository, LeaderboardRepository, Role, TaskKind, TaskRepository, type Db, type NewStoredLeaderboard, type StoredPairTile } from './index';
import { defined } from '../../../test/support/defined';

jest.setTimeout(60_000);

const url = process.env['DATABASE_URL'];
const describeDb = url ? describe : describe.skip;

/** A board's stored fields with bytes of `size` (non-ASCII text included), and `tiles` pair tiles. */
function board(viewKey: string, seed: number, computedAt: Date, tiles = 0): NewStoredLeaderboard {
  const body = JSON.stringify({ seed, text: `Système ${seed} — ✓ 日本語`, pad: 'x'.repeat(2000) });
  const bytes = (n: number, k: number) => Uint8Array.from({ length: n }, (_, i) => (i * 31 + k + seed) % 256);
  const pairTiles: StoredPairTile[] = Array.from({ length: tiles }, (_, t) => ({ row: 0, col: t, count: t + 1, gzip: bytes(300 + t, 1), brotli: bytes(200 + t, 2), etag: `"tile-${seed}-${t}"` }));
  // A view onto a larger buffer, as a board posted from a worker thread may arrive.
  const outer = bytes(1000, 3);
  return { viewKey, body, gzip: outer.subarray(100, 700), brotli: bytes(500, 4), etag: `"etag-${seed}"`, computedAt, durationMs: 40 + seed, ...(tiles > 0 ? { pairTiles } : {}) };
}

describeDb('storing boards through a pg pool (real PostgreSQL)', () => {
  let db: Db;
  let pool: Pool;
  let prismaBoards: LeaderboardRepository;
  let poolBoards: LeaderboardRepository;
  let tasks: TaskRepository;
  let organiserId: string;

  async function newPhase(): Promise<string> {
    const suffix = randomUUID().slice(0, 8);
    const task = await tasks.createTask({ slug: `store-${suffix}`, title: 't', kind: TaskKind.MT, sourceLang: 'de', targetLang: 'en', metrics: [], createdById: organiserId });
    const phase = await tasks.createPhase({ taskId: task.id, name: 'p', opensAt: new Date('2020-01-01'), closesAt: new Date('2099-01-01'), dailyLimit: 5, totalLimit: 5, leaderboardBeforeClose: true });
    return phase.id;
  }

  /** Every stored board of the phase with its bytes and tiles, by view and stamp (ids left out). */
  async function storedRows(phaseId: string, boards: LeaderboardRepository) {
    const rows = await db.storedLeaderboard.findMany({ where: { phaseId }, orderBy: [{ viewKey: 'asc' }, { stamp: 'asc' }], select: { id: true, viewKey: true, stamp: true } });
    const out: Record<string, unknown>[] = [];
    for (const r of rows) {
      const b = defined(await boards.bytes(r.id), 'the stored board');
      const tiles = await db.leaderboardPairTile.findMany({ where: { boardId: r.id }, orderBy: [{ row: 'asc' }, { col: 'asc' }], select: { row: true, col: true, count: true, gzip: true, brotli: true, etag: true } });
      out.push({ viewKey: r.viewKey, stamp: r.stamp, body: b.body, gzip: Buffer.from(b.gzip).toString('hex'), brotli: Buffer.from(b.brotli).toString('hex'), etag: b.etag, computedAt: b.computedAt.toISOString(), durationMs: b.durationMs, tiles: tiles.map((t) => ({ ...t, gzip: Buffer.from(t.gzip).toString('hex'), brotli: Buffer.from(t.brotli).toString('hex') })) });
    }
    return out;
  }

  beforeAll(async () => {
    db = createDb(defined(url), { maxConnections: 2 });
    pool = new Pool({ connectionString: defined(url), max: 2 });
    prismaBoards = new LeaderboardRepository(db);
    poolBoards = new LeaderboardRepository(db, pool);
    tasks = new TaskRepository(db);
    organiserId = (await new IdentityRepository(db).createUser(`store-org-${randomUUID().slice(0, 8)}`, Role.ORGANISER)).id;
  });
  afterAll(async () => {
    await Promise.all([db.$disconnect(), pool.end()]);
  });

  it('stores the same rows, bytes and tiles as Prisma does, views sharing a board copied from the first, and keeps the newest two per view', async () => {
    const viaPrisma = await newPhase();
    const viaPool = await newPhase();
    const at = (s: number) => new Date(Date.UTC(2026, 10, 27, 12, 0, s, 123));
    // As a worker stores a phase's views: one call per view, the views of one analysis with the
    // same bytes; a view stored twice for a stamp; three stamps, so the oldest is deleted.
    const calls: [string, NewStoredLeaderboard[]][] = [
      ['s1', [board('primary-bleu', 1, at(1), 2)]],
      ['s1', [board('all-bleu', 1, at(1), 2)]],
      ['s1', [board('primary-chrf', 2, at(2))]],
      ['s1', [board('primary-chrf', 3, at(3))]],
      ['s2', [board('primary-bleu', 4, at(4)), board('all-bleu', 4, at(4)), board('primary-chrf', 5, at(5))]],
      ['s3', [board('primary-bleu', 6, at(6), 3)]],
      ['s3', [board('all-bleu', 6, at(7), 3)]],
    ];
    for (const [stamp, boards] of calls) {
      await prismaBoards.store(viaPrisma, stamp, boards);
      await poolBoards.store(viaPool, stamp, boards);
    }
    const expected = await storedRows(viaPrisma, prismaBoards);
    expect(expected.map((r) => `${String(r['viewKey'])}@${String(r['stamp'])}`)).toEqual(['all-bleu@s2', 'all-bleu@s3', 'primary-bleu@s2', 'primary-bleu@s3', 'primary-chrf@s1', 'primary-chrf@s2']);
    expect(await storedRows(viaPool, poolBoards)).toEqual(expected);
    // The copy of view all-bleu at s3 keeps its own computedAt and its source's tiles.
    const copied = (await storedRows(viaPool, poolBoards)).find((r) => r['viewKey'] === 'all-bleu' && r['stamp'] === 's3');
    expect(copied?.['computedAt']).toBe(at(7).toISOString());
    expect(copied?.['tiles']).toHaveLength(3);
  });

  it('refuses, storing nothing, a holder whose leaderboard token was taken since (a new board and a copy alike)', async () => {
    const phaseId = await newPhase();
    const first = await poolBoards.claimBoardLease(phaseId, 'store-a');
    await poolBoards.store(phaseId, 's1', [board('primary-bleu', 1, new Date(), 1)], first);
    await poolBoards.claimBoardLease(phaseId, 'store-b');
    const before = await storedRows(phaseId, poolBoards);
    for (const late of [board('all-bleu', 1, new Date(), 1), board('primary-chrf', 9, new Date())]) {
      const err = await poolBoards.store(phaseId, 's1', [late], first).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(LeaseLostError);
    }
    expect(await storedRows(phaseId, poolBoards)).toEqual(before);
  });

  it('rolls back every board of a call when one fails', async () => {
    const phaseId = await newPhase();
    const bad = { ...board('primary-chrf', 2, new Date()), durationMs: Number.NaN };
    await expect(poolBoards.store(phaseId, 's1', [board('primary-bleu', 1, new Date()), bad])).rejects.toThrow();
    expect(await storedRows(phaseId, poolBoards)).toEqual([]);
    // the connection went back to the pool usable
    await poolBoards.store(phaseId, 's1', [board('primary-bleu', 1, new Date())]);
    expect(await storedRows(phaseId, poolBoards)).toHaveLength(1);
  });
});
