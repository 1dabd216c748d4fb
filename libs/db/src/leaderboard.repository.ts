import type { Db } from './client';
import { Prisma } from './generated/client';
import { LeaseLostError, type LeaseHolder } from '@podium/domain';
import type { Pool } from 'pg';
import { copyOutRows, sqlLiteral, uuidLiteral } from './copy-out';

/** Bumped when the leaderboard computation changes what it produces, so every stored board is recomputed. */
export const LEADERBOARD_FORMAT = 'lb3'; // lb3: method-keyed values and method descriptors (ADR 0021)

// Every input of a leaderboard, hashed (phase p, task t in scope).
const STAMP_SQL = Prisma.sql`md5(concat_ws('|', ${LEADERBOARD_FORMAT}::text, p.test_set_id, p.significance_resamples, p.significance_seed, p.published_at, p.split::text,
    t.kind, t.metrics::text, t.combined_weight,
    (SELECT string_agg(concat_ws(':', s.id, s.scored_at, s.is_primary, s.is_baseline, s.moderation, s.system_name, tm.name), ',' ORDER BY s.id)
       FROM submission s JOIN team tm ON tm.id = s.team_id
      WHERE s.phase_id = p.id AND s.status = 'SCORED')))`;

/** The columns of a phase `p` and its task `t` that decide who may see its boards ({@link phaseFactsOf}). */
const PHASE_FACTS_SQL = Prisma.sql`p.name, p.closes_at, p.leaderboard_before_close, p.closed_early_at, p.published_at, p.task_id::text AS task_id, t.slug AS task_slug`;
interface PhaseFactsRow {
  name: string;
  closes_at: Date;
  leaderboard_before_close: boolean;
  closed_early_at: Date | null;
  published_at: Date | null;
  task_id: string;
  task_slug: string;
}
function phaseFactsOf(r: PhaseFactsRow): CurrentLeaderboard['phase'] {
  return { name: r.name, closesAt: r.closes_at, leaderboardBeforeClose: r.leaderboard_before_close, closedEarlyAt: r.closed_early_at, publishedAt: r.published_at, taskId: r.task_id, taskSlug: r.task_slug };
}

/** One stored leaderboard (without its bytes unless asked for). */
export interface StoredLeaderboardRow {
  id: string;
  stamp: string;
  etag: string;
  computedAt: Date;
  durationMs: number;
}
export interface StoredLeaderboardBytes extends StoredLeaderboardCompressed {
  body: string;
}
/** A stored board's compressed forms (what the api reads: {@link LeaderboardRepository.compressed}). */
export interface StoredLeaderboardCompressed extends StoredLeaderboardRow {
  gzip: Uint8Array;
  brotli: Uint8Array;
}
export interface NewStoredLeaderboard {
  viewKey: string;
  body: string;
  gzip: Uint8Array;
  brotli: Uint8Array;
  etag: string;
  computedAt: Date;
  durationMs: number;
  /** The board's pairs, when they are stored apart from its document (ADR 0038). */
  pairTiles?: StoredPairTile[];
}

/** One tile of a board's pairs (the LeaderboardPairTile model). */
export interface StoredPairTile {
  row: number;
  col: number;
  count: number;
  gzip: Uint8Array;
  brotli: Uint8Array;
  etag: string;
}

/**
 * Stored boards' and tiles' compressed bytes are read as hex text: Prisma's driver adapter turns a
 * bytea into a JS array with one number per byte and then a Buffer again (about 0.9 s per MB in
 * the board computation's profile); hex text is decoded natively.
 */
const BOARD_COMPRESSED_COLUMNS = Prisma.sql`id::text AS id, stamp, etag, computed_at, duration_ms, encode(gzip, 'hex') AS gzip, encode(brotli, 'hex') AS brotli`;
const BOARD_BYTES_COLUMNS = Prisma.sql`${BOARD_COMPRESSED_COLUMNS}, body`;
interface BoardBytesRow { id: string; stamp: string; etag: string; computed_at: Date; duration_ms: number; body: string; gzip: string; brotli: string }
const boardCompressed = (r: Omit<BoardBytesRow, 'body'>): StoredLeaderboardCompressed => ({
  id: r.id, stamp: r.stamp, etag: r.etag, computedAt: r.computed_at, durationMs: r.duration_ms, gzip: Buffer.from(r.gzip, 'hex'), brotli: Buffer.from(r.brotli, 'hex'),
});
const boardBytes = (r: BoardBytesRow): StoredLeaderboardBytes => ({ ...boardCompressed(r), body: r.body });
const TILE_BYTES_COLUMNS = Prisma.sql`"row", col, count, encode(gzip, 'hex') AS gzip, encode(brotli, 'hex') AS brotli, etag`;
interface TileBytesRow { row: number; col: number; count: number; gzip: string; brotli: string; etag: string }
const tileBytes = (r: TileBytesRow): StoredPairTile => ({ row: r.row, col: r.col, count: r.count, gzip: Buffer.from(r.gzip, 'hex'), brotli: Buffer.from(r.brotli, 'hex'), etag: r.etag });

/** Tiles written per INSERT (≈ 1,000 pairs and ≈ 200 KB of compressed bytes each). */
const TILES_PER_INSERT = 16;

/** What {@link LeaderboardRepository.current} reads. */
export interface CurrentLeaderboard {
  phase: { name: string; closesAt: Date; leaderboardBeforeClose: boolean; closedEarlyAt: Date | null; publishedAt: Date | null; taskId: string; taskSlug: string };
  stamp: string;
  board: StoredLeaderboardRow | null;
}

/** What a computing worker reads to decide whether its work is stale (see {@link LeaderboardRepository.freshness}). */
export interface PhaseFreshness {
  stamp: string;
  /** When the newest stored board of the view asked for was computed; null: none stored. */
  newest: Date | null;
  /** When the phase's first submission was scored; null: none scored. */
  firstScored: Date | null;
  /** Submissions of the phase queued or being scored. */
  scoring: number;
}

/** Stored leaderboards (see the StoredLeaderboard model) and the scoring stamp they are keyed by. */
export class LeaderboardRepository {
  /**
   * `pool`: a pg pool for the large reads and writes: memos through binary COPY (copy-out.ts: a
   * leaderboard thread's), boards stored with binary parameters (the worker's); without one,
   * through Prisma.
   */
  constructor(
    private readonly db: Db,
    private readonly pool: Pool | null = null,
  ) {}

  /**
   * Hash of everything a leaderboard of the phase depends on, in one query, so no writer has to
   * remember to bump anything: each scored submission (id, scoredAt — a rescore changes it —,
   * primary, baseline, moderation, system and team name), the phase's test set, significance
   * settings and publication, and the task's metrics, kind and combined weight. '' for no phase.
   */
  async stamp(phaseId: string): Promise<string> {
    const rows = await this.db.$queryRaw<{ stamp: string }[]>`SELECT ${STAMP_SQL} AS stamp FROM phase p JOIN task t ON t.id = p.task_id WHERE p.id = ${phaseId}::uuid`;
    return rows[0]?.stamp ?? '';
  }

  /**
   * In one query: the phase's current stamp, when its newest stored board of `viewKey` (any
   * stamp) was computed (null: none stored), when its first submission was scored (null: none),
   * and how many of its submissions are queued or being scored. A computing worker polls it to
   * drop stale work (isStaleWork in @podium/leaderboard).
   */
  async freshness(phaseId: string, viewKey: string): Promise<PhaseFreshness> {
    const rows = await this.db.$queryRaw<{ stamp: string; newest: Date | null; first_scored: Date | null; scoring: number }[]>`
      SELECT ${STAMP_SQL} AS stamp,
             (SELECT max(computed_at) FROM stored_leaderboard WHERE phase_id = p.id AND view_key = ${viewKey}) AS newest,
             (SELECT min(scored_at) FROM submission WHERE phase_id = p.id) AS first_scored,
             (SELECT count(*)::int FROM submission WHERE phase_id = p.id AND status IN ('QUEUED', 'SCORING')) AS scoring
        FROM phase p JOIN task t ON t.id = p.task_id WHERE p.id = ${phaseId}::uuid`;
    const r = rows[0];
    return { stamp: r?.stamp ?? '', newest: r?.newest ?? null, firstScored: r?.first_scored ?? null, scoring: r?.scoring ?? 0 };
  }

  /** How many of the phase's submissions are queued or being scored (as {@link freshness} counts them). */
  async scoringCount(phaseId: string): Promise<number> {
    const rows = await this.db.$queryRaw<{ scoring: number }[]>`SELECT count(*)::int AS scoring FROM submission WHERE phase_id = ${phaseId}::uuid AND status IN ('QUEUED', 'SCORING')`;
    return rows[0]?.scoring ?? 0;
  }

  /**
   * In one query: what the API must know of a phase before it serves a board (visibility facts,
   * task slug and first metric), its current stamp, and the board of a view for that stamp if
   * stored, else the newest stored one of an older stamp (served marked as updating). Null: no phase.
   */
  async current(phaseId: string, viewKey: string): Promise<CurrentLeaderboard | null> {
    const rows = await this.db.$queryRaw<
      (PhaseFactsRow & { current: string; id: string | null; stamp: string | null; etag: string | null; computed_at: Date | null; duration_ms: number | null })[]
    >`
      WITH cur AS (SELECT ${PHASE_FACTS_SQL}, ${STAMP_SQL} AS current
                     FROM phase p JOIN task t ON t.id = p.task_id WHERE p.id = ${phaseId}::uuid)
      SELECT cur.*, b.id, b.stamp, b.etag, b.computed_at, b.duration_ms
        FROM cur LEFT JOIN LATERAL (
          SELECT id, stamp, etag, computed_at, duration_ms FROM stored_leaderboard
           WHERE phase_id = ${phaseId}::uuid AND view_key = ${viewKey}
           ORDER BY (stamp = cur.current) DESC, computed_at DESC LIMIT 1) b ON true`;
    const r = rows[0];
    if (!r) return null;
    return {
      phase: phaseFactsOf(r),
      stamp: r.current,
      board: r.id && r.stamp && r.etag && r.computed_at ? { id: r.id, stamp: r.stamp, etag: r.etag, computedAt: r.computed_at, durationMs: r.duration_ms ?? 0 } : null,
    };
  }

  /**
   * The facts of a phase that decide who may see its boards (the phase part of {@link current}), by
   * its primary key alone: what the api reads for every request when it takes the stamp and board
   * from a read of the moments before (the stamp aggregates every submission of the phase).
   */
  async phaseFacts(phaseId: string): Promise<CurrentLeaderboard['phase'] | null> {
    const rows = await this.db.$queryRaw<PhaseFactsRow[]>`SELECT ${PHASE_FACTS_SQL} FROM phase p JOIN task t ON t.id = p.task_id WHERE p.id = ${phaseId}::uuid`;
    return rows[0] ? phaseFactsOf(rows[0]) : null;
  }

  /**
   * A stored board's gzip and brotli, without its JSON: the api inflates the gzip off its event
   * loop when it needs the identity bytes (reading the JSON as text decoded 3 MB on the loop at
   * 100 systems; issue #28).
   */
  async compressed(id: string): Promise<StoredLeaderboardCompressed | null> {
    const rows = await this.db.$queryRaw<Omit<BoardBytesRow, 'body'>[]>`SELECT ${BOARD_COMPRESSED_COLUMNS} FROM stored_leaderboard WHERE id = ${id}::uuid`;
    return rows[0] ? boardCompressed(rows[0]) : null;
  }

  /** The bytes of a stored board, its JSON as text. */
  async bytes(id: string): Promise<StoredLeaderboardBytes | null> {
    const rows = await this.db.$queryRaw<BoardBytesRow[]>`SELECT ${BOARD_BYTES_COLUMNS} FROM stored_leaderboard WHERE id = ${id}::uuid`;
    return rows[0] ? boardBytes(rows[0]) : null;
  }

  /** One tile of a stored board's pairs (ADR 0038), or null (no such board or tile). */
  async pairTile(boardId: string, row: number, col: number): Promise<StoredPairTile | null> {
    const rows = await this.db.$queryRaw<TileBytesRow[]>`
      SELECT ${TILE_BYTES_COLUMNS} FROM leaderboard_pair_tile WHERE board_id = ${boardId}::uuid AND "row" = ${row} AND col = ${col}`;
    return rows[0] ? tileBytes(rows[0]) : null;
  }

  /**
   * Every tile of a stored board, row by row and each row by column, read a few at a time (a
   * download streams them; a 1,000-system board has 528 tiles, ≈ 40 MB of gzip).
   */
  async *pairTiles(boardId: string, batch = 8): AsyncGenerator<StoredPairTile> {
    let after: { row: number; col: number } | null = null;
    for (;;) {
      const from = after ?? { row: -1, col: -1 };
      const page: StoredPairTile[] = (
        await this.db.$queryRaw<TileBytesRow[]>`
          SELECT ${TILE_BYTES_COLUMNS} FROM leaderboard_pair_tile
           WHERE board_id = ${boardId}::uuid AND ("row", col) > (${from.row}::int, ${from.col}::int)
           ORDER BY "row", col LIMIT ${batch}`
      ).map(tileBytes);
      yield* page;
      const last = page[page.length - 1];
      if (page.length < batch || !last) return;
      after = { row: last.row, col: last.col };
    }
  }

  /** The board of a view for exactly this stamp, with its bytes. */
  async exact(phaseId: string, viewKey: string, stamp: string): Promise<StoredLeaderboardBytes | null> {
    const rows = await this.db.$queryRaw<BoardBytesRow[]>`
      SELECT ${BOARD_BYTES_COLUMNS} FROM stored_leaderboard WHERE phase_id = ${phaseId}::uuid AND view_key = ${viewKey} AND stamp = ${stamp}`;
    return rows[0] ? boardBytes(rows[0]) : null;
  }

  /** The analysis memo kept for a view of the phase (ADR 0027), or null. */
  async memo(phaseId: string, memoKey: string): Promise<Uint8Array | null> {
    if (this.pool) {
      // The bytes as stored (6 MB at 100 × 100,000: 12 MB of hex text otherwise).
      let body: Buffer | null = null;
      await copyOutRows(this.pool, `SELECT body FROM leaderboard_memo WHERE phase_id = ${uuidLiteral(phaseId)} AND memo_key = ${sqlLiteral(memoKey)}`, (row) => {
        // The row's bytes are a view into the stream's buffer: copied out.
        if (row[0]) body = Buffer.from(row[0]);
      });
      return body;
    }
    // As hex text: Prisma's driver adapter turns a bytea into a JS array of numbers, one per byte
    // (6 s of a 25 s board for a 6.4 MiB memo at 100 × 10,000); hex text decodes natively.
    const rows = await this.db.$queryRaw<{ hex: string }[]>`
      SELECT encode(body, 'hex') AS hex FROM leaderboard_memo WHERE phase_id = ${phaseId}::uuid AND memo_key = ${memoKey}`;
    const hex = rows[0]?.hex;
    return hex === undefined ? null : Buffer.from(hex, 'hex');
  }

  /** Replaces the analysis memo of a view (a cache: the last writer wins, any content is checked before use). */
  async saveMemo(phaseId: string, memoKey: string, body: Uint8Array): Promise<void> {
    if (this.pool) {
      // The bytes as they are: node-postgres sends a Buffer parameter in binary format (issue #28:
      // 12 MB of hex text through Prisma's query compiler took ≈ 1 s of a board thread at 100 × 100,000).
      await this.pool.query(
        `INSERT INTO leaderboard_memo (phase_id, memo_key, body, updated_at) VALUES ($1::uuid, $2, $3, now())
         ON CONFLICT (phase_id, memo_key) DO UPDATE SET body = EXCLUDED.body, updated_at = EXCLUDED.updated_at`,
        [phaseId, memoKey, Buffer.from(body.buffer, body.byteOffset, body.byteLength)],
      );
      return;
    }
    // Sent as hex text too (a Bytes parameter is base64-copied on the way).
    const hex = Buffer.from(body.buffer, body.byteOffset, body.byteLength).toString('hex');
    await this.db.$executeRaw`
      INSERT INTO leaderboard_memo (phase_id, memo_key, body, updated_at) VALUES (${phaseId}::uuid, ${memoKey}, decode(${hex}, 'hex'), now())
      ON CONFLICT (phase_id, memo_key) DO UPDATE SET body = EXCLUDED.body, updated_at = EXCLUDED.updated_at`;
  }

  /** When each view's newest board of the phase was computed (views without one are absent). */
  async newestByView(phaseId: string): Promise<Map<string, Date>> {
    const rows = await this.db.storedLeaderboard.groupBy({ by: ['viewKey'], where: { phaseId }, _max: { computedAt: true } });
    return new Map(rows.flatMap((r) => (r._max.computedAt ? [[r.viewKey, r._max.computedAt] as const] : [])));
  }

  /** Whether every view key has a board for this stamp. */
  async has(phaseId: string, viewKeys: string[], stamp: string): Promise<boolean> {
    const n = await this.db.storedLeaderboard.count({ where: { phaseId, stamp, viewKey: { in: viewKeys } } });
    return n === new Set(viewKeys).size;
  }

  /**
   * Stores boards of one stamp and prunes, in one transaction: per view the newest two stamps
   * stay (the current and the one before, served while a newer computes).
   */
  /**
   * Takes the next fencing token of the phase's leaderboard computations for `owner` (the worker
   * holding the phase's lock; docs/adr/0017): boards stored with an older token are refused.
   */
  async claimBoardLease(phaseId: string, owner: string): Promise<LeaseHolder> {
    const [row] = await this.db.$queryRaw<{ token: bigint }[]>`
      INSERT INTO leaderboard_lease (phase_id, fencing_token, owner, taken_at) VALUES (${phaseId}::uuid, 1, ${owner}, now())
      ON CONFLICT (phase_id) DO UPDATE SET fencing_token = leaderboard_lease.fencing_token + 1, owner = EXCLUDED.owner, taken_at = now()
      RETURNING fencing_token AS token`;
    if (!row) throw new Error(`no leaderboard lease row for phase ${phaseId}`);
    return { owner, token: row.token };
  }

  /**
   * Stores computed boards of a phase in one transaction and keeps the newest two per view.
   * With `holder`, only while the phase's leaderboard token is still the holder's (read under a
   * share lock, so no claim commits in between): a worker whose lock was lost (its connection
   * dropped in a partition) and taken by another gets {@link LeaseLostError}, nothing stored.
   */
  async store(phaseId: string, stamp: string, boards: NewStoredLeaderboard[], holder?: LeaseHolder): Promise<void> {
    if (boards.length === 0) return;
    if (this.pool) {
      await storeThroughPool(this.pool, phaseId, stamp, boards, holder);
      return;
    }
    await this.db.$transaction(async (tx) => {
      if (holder) {
        const [lease] = await tx.$queryRaw<{ token: bigint }[]>`SELECT fencing_token AS token FROM leaderboard_lease WHERE phase_id = ${phaseId}::uuid FOR SHARE`;
        const current = lease ? lease.token : null;
        if (current !== holder.token) throw new LeaseLostError(phaseId, holder.owner, holder.token, current, 'the leaderboards of phase');
      }
      for (const board of boards) {
        // Copies into plain ArrayBuffers (boards may arrive from a worker thread as views).
        const b = { ...board, gzip: new Uint8Array(board.gzip), brotli: new Uint8Array(board.brotli) };
        const row = await tx.storedLeaderboard.upsert({
          where: { phaseId_viewKey_stamp: { phaseId, viewKey: b.viewKey, stamp } },
          create: { phaseId, viewKey: b.viewKey, stamp, body: b.body, gzip: b.gzip, brotli: b.brotli, etag: b.etag, computedAt: b.computedAt, durationMs: b.durationMs },
          update: { body: b.body, gzip: b.gzip, brotli: b.brotli, etag: b.etag, durationMs: b.durationMs, computedAt: b.computedAt },
          select: { id: true },
        });
        // The pairs go with their document, in the same transaction (a reader never sees one without the other).
        await tx.leaderboardPairTile.deleteMany({ where: { boardId: row.id } });
        const tiles = board.pairTiles ?? [];
        for (let i = 0; i < tiles.length; i += TILES_PER_INSERT) {
          await tx.leaderboardPairTile.createMany({
            data: tiles.slice(i, i + TILES_PER_INSERT).map((t) => ({ boardId: row.id, row: t.row, col: t.col, count: t.count, gzip: new Uint8Array(t.gzip), brotli: new Uint8Array(t.brotli), etag: t.etag })),
          });
        }
      }
      await tx.$executeRawUnsafe(KEEP_NEWEST_TWO_SQL, phaseId);
      // An arena board's tiles (≈ 100 MB at 1,000 systems) take longer than Prisma's default 5 s.
    }, { timeout: boards.some((b) => (b.pairTiles?.length ?? 0) > 0) ? 300_000 : 5_000 });
  }
}

/** Deletes all but the two newest boards of each view of phase $1. */
const KEEP_NEWEST_TWO_SQL = `
  DELETE FROM stored_leaderboard WHERE id IN (
    SELECT id FROM (SELECT id, row_number() OVER (PARTITION BY view_key ORDER BY computed_at DESC) AS n
                      FROM stored_leaderboard WHERE phase_id = $1::uuid) ranked
     WHERE n > 2)`;

const UPSERT_BOARD_SET = `ON CONFLICT (phase_id, view_key, stamp) DO UPDATE SET body = EXCLUDED.body, gzip = EXCLUDED.gzip, brotli = EXCLUDED.brotli,
    etag = EXCLUDED.etag, computed_at = EXCLUDED.computed_at, duration_ms = EXCLUDED.duration_ms
  RETURNING id::text AS id`;

/**
 * {@link LeaderboardRepository.store} over a pg connection, in one transaction, as the Prisma path
 * stores. Through Prisma a 100-system board's 3 MB of JSON and 0.9 MB of compressed bytes went
 * through its query compiler as JSON and base64: 0.37 CPU-s of the worker's event loop and 0.19 of
 * PostgreSQL's a view, 4.3 s for a phase's eight default views (issue #28). Here they are bound as
 * parameters (the bytes in binary), and a view whose board has the bytes of another view stored
 * under this stamp (views of one analysis share their board) is copied inside the database.
 */
async function storeThroughPool(pool: Pool, phaseId: string, stamp: string, boards: NewStoredLeaderboard[], holder: LeaseHolder | undefined): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    if (holder) {
      const lease = await client.query<{ token: string }>('SELECT fencing_token::text AS token FROM leaderboard_lease WHERE phase_id = $1::uuid FOR SHARE', [phaseId]);
      const token = lease.rows[0]?.token;
      const current = token === undefined ? null : BigInt(token);
      if (current !== holder.token) throw new LeaseLostError(phaseId, holder.owner, holder.token, current, 'the leaderboards of phase');
    }
    for (const board of boards) {
      // computed_at is a timestamp without time zone holding UTC, as Prisma writes it.
      const computedAt = board.computedAt.toISOString();
      const same = await client.query<{ id: string }>(
        'SELECT id::text AS id FROM stored_leaderboard WHERE phase_id = $1::uuid AND stamp = $2 AND etag = $3 AND view_key <> $4 LIMIT 1',
        [phaseId, stamp, board.etag, board.viewKey],
      );
      const source = same.rows[0]?.id;
      let id: string | undefined;
      if (source !== undefined) {
        const copied = await client.query<{ id: string }>(
          `INSERT INTO stored_leaderboard (id, phase_id, view_key, stamp, body, gzip, brotli, etag, computed_at, duration_ms)
           SELECT gen_random_uuid(), phase_id, $2, stamp, body, gzip, brotli, etag, $3::timestamptz AT TIME ZONE 'UTC', $4 FROM stored_leaderboard WHERE id = $1::uuid
           ${UPSERT_BOARD_SET}`,
          [source, board.viewKey, computedAt, board.durationMs],
        );
        id = copied.rows[0]?.id;
        if (id === undefined) throw new Error(`the board ${source} to copy for view ${board.viewKey} is gone`);
        await client.query('DELETE FROM leaderboard_pair_tile WHERE board_id = $1::uuid', [id]);
        await client.query(
          `INSERT INTO leaderboard_pair_tile (board_id, "row", col, count, gzip, brotli, etag)
           SELECT $1::uuid, "row", col, count, gzip, brotli, etag FROM leaderboard_pair_tile WHERE board_id = $2::uuid`,
          [id, source],
        );
        continue;
      }
      const stored = await client.query<{ id: string }>(
        `INSERT INTO stored_leaderboard (id, phase_id, view_key, stamp, body, gzip, brotli, etag, computed_at, duration_ms)
         VALUES (gen_random_uuid(), $1::uuid, $2, $3, $4, $5, $6, $7, $8::timestamptz AT TIME ZONE 'UTC', $9)
         ${UPSERT_BOARD_SET}`,
        [phaseId, board.viewKey, stamp, board.body, bytesParameter(board.gzip), bytesParameter(board.brotli), board.etag, computedAt, board.durationMs],
      );
      id = stored.rows[0]?.id;
      if (id === undefined) throw new Error(`the board of view ${board.viewKey} was not stored`);
      // The pairs go with their document, in the same transaction (a reader never sees one without the other).
      await client.query('DELETE FROM leaderboard_pair_tile WHERE board_id = $1::uuid', [id]);
      const tiles = board.pairTiles ?? [];
      for (let i = 0; i < tiles.length; i += TILES_PER_INSERT) {
        const batch = tiles.slice(i, i + TILES_PER_INSERT);
        const params: unknown[] = [id];
        const rows = batch.map((t) => {
          params.push(t.row, t.col, t.count, bytesParameter(t.gzip), bytesParameter(t.brotli), t.etag);
          const k = params.length - 6;
          return `($1::uuid, $${k + 1}, $${k + 2}, $${k + 3}, $${k + 4}, $${k + 5}, $${k + 6})`;
        });
        await client.query(`INSERT INTO leaderboard_pair_tile (board_id, "row", col, count, gzip, brotli, etag) VALUES ${rows.join(', ')}`, params);
      }
    }
    await client.query(KEEP_NEWEST_TWO_SQL, [phaseId]);
    await client.query('COMMIT');
  } catch (e) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw e;
  } finally {
    client.release();
  }
}

/** A byte array as pg binds it in binary (a Buffer over the same memory; boards may arrive from a worker thread as views). */
function bytesParameter(bytes: Uint8Array): Buffer {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}
