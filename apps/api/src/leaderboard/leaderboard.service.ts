import { Injectable } from '@nestjs/common';
import { LRUCache } from 'lru-cache';
import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { brotliCompress, brotliCompressSync, constants, gunzip, gunzipSync, gzip, gzipSync } from 'node:zlib';
import { LeaderboardRepository, TaskRepository, type CurrentLeaderboard, type StoredLeaderboardRow } from '@podium/db';
import { ForbiddenError, InvalidInputError, NotFoundError, type AuthUser } from '@podium/domain';
import {
  ALPHA,
  CLUSTER_DEFINITION,
  DEFAULT_CORRECTION,
  DEFAULT_PAIR_TEST,
  DEFAULT_SEED,
  leaderboardJson,
  isDefaultView,
  PAIR_TILE,
  readPairsApart,
  tileOrder,
  tilePairs,
  type PairsApart,
  type SystemPair,
  MAX_RESAMPLES,
  parseLeaderboardDocumentLazily,
  reviseStoredBoard,
  storedBoardMetric,
  upgradeStoredBoard,
  viewKey,
  type LeaderboardEntries,
  type LeaderboardView,
  type PairedTest,
  type PValueCorrection,
} from '@podium/leaderboard';
import { assertId } from '../common/ids';
import { localWrites } from '../common/local-writes';
import { assertCanSeePhaseScores, assertTaskOrganiser, organisesTask, viewerRole, type ViewerRole } from '../common/visibility';
import { LeaderboardJobs } from './leaderboard-jobs';
import type { Leaderboard } from './leaderboard.types';
import { PhaseMetricsService } from './phase-metrics.service';

export { ALPHA, DEFAULT_PAIR_TEST, DEFAULT_SEED, MAX_RESAMPLES };

export interface LeaderboardOptions {
  metric?: string;
  test?: PairedTest;
  correction?: PValueCorrection;
  /** Organisers only: preview another seed than the phase's. */
  seed?: number;
  /** Organisers only: preview another resample count than the phase's. */
  resamples?: number;
  /** Default: each team's primary submission (see leaderboardEntries). */
  entries?: LeaderboardEntries;
}

/** A board as served: its bytes (JSON, gzip, brotli), ETag, and the object for GraphQL. */
export interface LeaderboardSnapshot {
  /** The stored board's row (its pair tiles are keyed by it); null for an empty board made on the request path. */
  boardId: string | null;
  etag: string;
  body: Buffer;
  gzip: Buffer;
  brotli: Buffer;
  updating: boolean;
  /** The parsed board (from a bounded cache of parsed boards shared by every snapshot). */
  board(): Leaderboard;
  /** `<task>-<phase>-leaderboard-<metric>` */
  readonly fileStem: string;
}

/** Bytes of boards kept in memory (stored snapshots are immutable: keyed by id and ETag). */
const CACHE_BYTES = 256 * 1024 * 1024;
/**
 * Parsed boards kept for GraphQL, counted as {@link PARSED_BYTES_PER_BODY_BYTE} × their JSON
 * size: a 100-system board is 3.2 MB of JSON and some 20 MB of objects. Snapshots used to keep
 * their parsed board for as long as they were cached (unaccounted: the API reached 1 GB of RSS
 * under bench:platform).
 */
const PARSED_CACHE_BYTES = 128 * 1024 * 1024;
const PARSED_BYTES_PER_BODY_BYTE = 6;
/** Bytes of pair tiles kept in memory (keyed by board row, tile and ETag: immutable). */
const TILE_CACHE_BYTES = 128 * 1024 * 1024;

/** One tile of a board's pairs as served (`leaderboard-pairs.json`). */
export interface PairTileSnapshot {
  etag: string;
  identity: Buffer;
  gzip: Buffer;
  brotli: Buffer;
}

/** Reads of a board whose row a worker replaces meanwhile, before a request gives up. */
const READ_ATTEMPTS = 3;

export const BEING_COMPUTED_NOTE = 'the leaderboard is being computed by a worker; it appears here when it is stored';
/** A view other than the defaults (a test or correction of its own) that no organiser has had computed. */
export const NOT_COMPUTED_NOTE =
  'this view (a pair test or correction other than the defaults) has not been computed yet: workers compute the default views of every phase, other views when an organiser opens them; choose the default test and correction, or ask an organiser';
/** A non-default view stored for an earlier state of the phase, served as it is to participants. */
export const EARLIER_STATE_NOTE = 'this view was computed for an earlier state of the phase (before later submissions or changes); an organiser opening it has it recomputed';

/** Parses a snapshot's JSON (by ETag, body): the service's bounded cache. */
type ParseBoard = (etag: string, body: Buffer) => Leaderboard;

/** `body`: the document's UTF-8 bytes. */
function snapshotOf(boardId: string | null, body: Buffer, gzip: Uint8Array, brotli: Uint8Array, etag: string, updating: boolean, fileStemOf: (metric: string) => string, parse: ParseBoard): LeaderboardSnapshot {
  let stem: string | undefined;
  const board = () => parse(etag, body);
  return {
    boardId,
    etag,
    body,
    gzip: Buffer.from(gzip),
    brotli: Buffer.from(brotli),
    updating,
    board,
    // Downloads only; the parsed board is not kept for it.
    get fileStem() {
      // Off the document's first keys: a board is parsed for GraphQL only.
      return (stem ??= fileStemOf(storedBoardMetric(body) ?? board().metric));
    },
  };
}

/** Compressed on the request path, on the event loop: small documents only (the empty board, a tile made on demand). */
function compressLight(body: string): { gzip: Buffer; brotli: Buffer } {
  const bytes = Buffer.from(body, 'utf8');
  return { gzip: gzipSync(bytes, LIGHT_GZIP), brotli: brotliCompressSync(bytes, LIGHT_BROTLI) };
}

const LIGHT_GZIP = { level: 6 };
const LIGHT_BROTLI = { params: { [constants.BROTLI_PARAM_QUALITY]: 5 } };
const gzipAsync = promisify(gzip);
const brotliAsync = promisify(brotliCompress);
const gunzipAsync = promisify(gunzip);

/** The fastest levels: a variant served only while its board's successor computes. */
const FAST_GZIP = { level: 1 };
const FAST_BROTLI = { params: { [constants.BROTLI_PARAM_QUALITY]: 1 } };

/**
 * How long a read of a phase's stamp and board answers the requests that follow it
 * (LeaderboardService.readCurrent; the phase's visibility is read for each): at 500 requests a
 * second for one board, 20 reads of the stamp a second instead of 500. A new board or stamp
 * another process commits is served at most this much later.
 */
export const CURRENT_READ_REUSE_MS = 50;
/** Phases × views whose last read is kept for reuse. */
const CURRENT_READS_KEPT = 10_000;

/** A read of LeaderboardRepository.current and when it started (readCurrent). */
interface CurrentRead {
  read: Promise<CurrentLeaderboard | null>;
  /** localWrites' epoch at its start (null: a write was running, and the read is not shared). */
  epoch: number | null;
  startedAt: number;
  settled: boolean;
}

/** Single flight: the promise of `start()` under `key` while it is pending, shared by every caller meanwhile. */
function sharedInFlight<T>(inFlight: Map<string, Promise<T>>, key: string, start: () => Promise<T>): Promise<T> {
  const pending = inFlight.get(key);
  if (pending) return pending;
  const read = start().finally(() => inFlight.delete(key));
  inFlight.set(key, read);
  return read;
}

/**
 * A board's `updating` or `earlier` variant compressed on libuv's threads, at the fastest levels:
 * a 100-system board's (3 MB) took 0.1–0.2 s at gzip 6 and brotli 5 on the event loop, which held
 * every other request of the api behind it, and 88 ms of the cores off it (29 ms at these levels;
 * 662 and 534 KiB instead of 503 and 436; issue #28).
 */
async function compressVariantOffLoop(bytes: Buffer): Promise<{ gzip: Buffer; brotli: Buffer }> {
  const [gz, br] = await Promise.all([gzipAsync(bytes, FAST_GZIP), brotliAsync(bytes, FAST_BROTLI)]);
  return { gzip: gz, brotli: br };
}

/**
 * Serves leaderboards that workers computed and stored (never computes one: see
 * @podium/leaderboard and the worker's LeaderboardProcessor). A read checks visibility, then
 * looks up the board of the phase's current scoring stamp in one query; while that stamp is
 * being computed it serves the previous board marked `updating`, and queues the computation
 * if nothing is on its way.
 */
@Injectable()
export class LeaderboardService {
  private readonly cache = new LRUCache<string, LeaderboardSnapshot>({
    maxSize: CACHE_BYTES,
    sizeCalculation: (s) => s.body.length + s.gzip.length + s.brotli.length + 1,
  });

  private readonly parsed = new LRUCache<string, Leaderboard>({ maxSize: PARSED_CACHE_BYTES });

  /** The stored row of a parsed board GraphQL resolves (its pair tiles are keyed by it). */
  private readonly boardIds = new WeakMap<Leaderboard, string>();

  private readonly tiles = new LRUCache<string, PairTileSnapshot>({
    maxSize: TILE_CACHE_BYTES,
    sizeCalculation: (t) => t.identity.length + t.gzip.length + t.brotli.length + 1,
  });

  private readonly parse: ParseBoard = (etag, body) => {
    let hit = this.parsed.get(etag);
    if (!hit) {
      // The pairs are parsed when a query selects them (pairs, pairCount, downloads), not for the systems.
      hit = parseLeaderboardDocumentLazily(body);
      this.parsed.set(etag, hit, { size: Math.max(1, body.length * PARSED_BYTES_PER_BODY_BYTE) });
    }
    return hit;
  };

  /** Reads of a stored board's bytes in flight, by the cache's key (see load). */
  private readonly loads = new Map<string, Promise<LeaderboardSnapshot | null>>();
  /** Reads of a phase's stamp, facts and board, in flight or just made, by phase and view (see readCurrent). */
  private readonly currentReads = new LRUCache<string, CurrentRead>({ max: CURRENT_READS_KEPT });
  /** Reads of a phase's visibility facts in flight, by localWrites epoch and phase (see phaseFactsNow). */
  private readonly phaseFactReads = new Map<string, Promise<CurrentLeaderboard['phase'] | null>>();
  /** Reads of a phase and its available metrics in flight (see phaseFacts). */
  private readonly factReads = new Map<string, Promise<{ phase: NonNullable<Awaited<ReturnType<TaskRepository['phaseById']>>>; available: Awaited<ReturnType<PhaseMetricsService['available']>> }>>();

  constructor(
    private readonly tasks: TaskRepository,
    private readonly boards: LeaderboardRepository,
    private readonly jobs: LeaderboardJobs,
    private readonly metrics: PhaseMetricsService,
  ) {}

  async leaderboard(phaseId: string, options: LeaderboardOptions, user: AuthUser | null): Promise<Leaderboard> {
    return this.boardOf(await this.snapshot(phaseId, options, user));
  }

  /** A snapshot's parsed board for GraphQL (its pairs resolve through its row, see allPairs). */
  boardOf(snapshot: LeaderboardSnapshot): Leaderboard {
    const board = snapshot.board();
    if (snapshot.boardId !== null) this.boardIds.set(board, snapshot.boardId);
    return board;
  }

  /** The stored board for a phase and options, after the visibility checks. */
  async snapshot(phaseId: string, options: LeaderboardOptions, user: AuthUser | null): Promise<LeaderboardSnapshot> {
    return (await this.view(phaseId, options, user)).snapshot;
  }

  /**
   * {@link snapshot} with the caller's role towards the phase's task (`anonymous`, `otherTeam`
   * for any other signed-in user, `organiser` for its organisers and administrators): what GraphQL's
   * answers of a board are cached by (BoardAnswers), beside the board.
   */
  async view(phaseId: string, options: LeaderboardOptions, user: AuthUser | null): Promise<{ snapshot: LeaderboardSnapshot; viewer: ViewerRole }> {
    assertId('phase', phaseId);
    const view: LeaderboardView = {
      metric: options.metric ?? '',
      entries: options.entries ?? 'primary',
      test: options.test ?? null,
      correction: options.correction ?? DEFAULT_CORRECTION,
      seed: options.seed ?? null,
      resamples: options.resamples ?? null,
    };
    const key = viewKey(view);
    // A worker may prune the board between the read of its row and of its bytes (a newer stamp
    // was stored meanwhile): read again, then the newer board is there.
    for (let attempt = 1; ; attempt++) {
      const read = await this.readSnapshot(phaseId, options, user, view, key);
      if (read.snapshot) return { snapshot: read.snapshot, viewer: viewerRole(user, read.taskId) };
      if (attempt === READ_ATTEMPTS) throw new Error(`the stored leaderboard of phase ${phaseId} changed while it was read ${READ_ATTEMPTS} times; retry`);
    }
  }

  /** One attempt of {@link snapshot} with the phase's task; snapshot null when the board's row was replaced while it was read. */
  private async readSnapshot(phaseId: string, options: LeaderboardOptions, user: AuthUser | null, view: LeaderboardView, key: string): Promise<{ snapshot: LeaderboardSnapshot | null; taskId: string }> {
    const found = await this.readCurrent(phaseId, key);
    if (!found) throw new NotFoundError('phase', phaseId);
    assertCanSeePhaseScores(found.phase, user);
    return { snapshot: await this.readVisible(found, phaseId, options, user, view, key), taskId: found.phase.taskId };
  }

  private async readVisible(found: CurrentLeaderboard, phaseId: string, options: LeaderboardOptions, user: AuthUser | null, view: LeaderboardView, key: string): Promise<LeaderboardSnapshot | null> {
    // Resamples and seed are the phase's organiser settings; only its task's organisers may preview others.
    if ((options.seed !== undefined || options.resamples !== undefined) && !organisesTask(user, found.phase.taskId)) {
      throw new ForbiddenError("seed and resamples are the phase's settings; only the task's organisers may override them");
    }
    if (options.seed !== undefined || options.resamples !== undefined) assertSignificanceSettings({ seed: options.seed ?? DEFAULT_SEED, resamples: options.resamples ?? null });
    const fileStemOf = (metric: string) => `${found.phase.taskSlug}-${found.phase.name}-leaderboard-${metric}`;
    const { stamp, board } = found;
    // Reads never queue work for the asking (ADR 0016): organisers' reads queue the view they
    // open; everyone else's at most the phase's default views (one waiting job per phase, asked
    // at most every 5 s per process), which writers queue anyway after every change.
    const organiser = organisesTask(user, found.phase.taskId);
    if (!board) return this.missing(phaseId, view, key, stamp, fileStemOf, organiser);
    if (board.stamp === stamp) return this.load(board, 'current', fileStemOf);
    if (organiser) void this.jobs.request(phaseId, stamp, isDefaultView(view) ? null : view, key);
    else if (isDefaultView(view)) void this.jobs.request(phaseId, stamp, null, key);
    else return this.load(board, 'earlier', fileStemOf);
    return this.load(board, 'updating', fileStemOf);
  }

  /**
   * {@link LeaderboardRepository.current}, shared: the requests that arrive while a read of the
   * same phase and view is in flight take its answer; those that arrive within
   * {@link CURRENT_READ_REUSE_MS} of its start take its stamp and board with the phase's facts
   * read anew (who may see the board: a board hidden by any process is hidden for the next
   * request), unless this process started or finished a write meanwhile (localWrites: a client
   * that changed something through this api and then reads sees its change). The stamp
   * aggregates every submission of the phase: 1.2–1.6 ms of PostgreSQL's CPU and 0.4–0.7 ms of
   * this process's a read at 100 submissions, 0.6–0.8 of a core of PostgreSQL's alone at 500
   * requests a second (issue #28; the phase's facts alone: 0.3 and 0.4 ms). A new stamp or board
   * committed by another process (a worker scoring or storing, another api replica) is seen by
   * every request that starts more than CURRENT_READ_REUSE_MS after its commit. A read that
   * fails is not shared after it.
   */
  private async readCurrent(phaseId: string, key: string): Promise<CurrentLeaderboard | null> {
    const k = `${phaseId}\u0000${key}`;
    const epoch = localWrites.epoch();
    const now = performance.now();
    const known = this.currentReads.get(k);
    if (known && epoch !== null && known.epoch === epoch) {
      if (!known.settled) return known.read;
      if (now - known.startedAt < CURRENT_READ_REUSE_MS) {
        const [found, phase] = await Promise.all([known.read, this.phaseFactsNow(phaseId, epoch)]);
        return found && phase ? { ...found, phase } : null;
      }
    }
    const entry: CurrentRead = { read: this.boards.current(phaseId, key), epoch, startedAt: now, settled: false };
    entry.read.then(
      () => {
        entry.settled = true;
      },
      () => {
        if (this.currentReads.peek(k) === entry) this.currentReads.delete(k);
      },
    );
    // A read started while this process writes is not shared: it may not see the write.
    if (epoch !== null) this.currentReads.set(k, entry);
    return entry.read;
  }

  /**
   * {@link LeaderboardRepository.phaseFacts}, single flight: requests that arrive while a read of
   * the phase's facts started under the same localWrites epoch is in flight share it.
   */
  private phaseFactsNow(phaseId: string, epoch: number): Promise<CurrentLeaderboard['phase'] | null> {
    return sharedInFlight(this.phaseFactReads, `${epoch}\u0000${phaseId}`, () => this.boards.phaseFacts(phaseId));
  }

  /**
   * A stored board as served: `current` as stored; `updating`, an older stamp's board served while
   * the current one computes (`updating: true`); `earlier`, an older stamp's non-default view
   * served to a participant, whose read queues nothing (`updating: false`, with a note saying so).
   */
  private load(row: StoredLeaderboardRow, mode: 'current' | 'updating' | 'earlier', fileStemOf: (metric: string) => string): Promise<LeaderboardSnapshot | null> {
    const id = `${row.id}:${row.etag}:${mode}`;
    const hit = this.cache.get(id);
    if (hit) return Promise.resolve(hit);
    // Single flight: the requests that arrive while a new board's bytes are read share the read
    // (each used to read the board's JSON, gzip and brotli for itself: at 100 systems some 4 MB
    // and a second of parsing each, 50 at once when a popular board changed; issue #28).
    return sharedInFlight(this.loads, id, () => this.read(row, id, mode, fileStemOf));
  }

  private async read(row: StoredLeaderboardRow, id: string, mode: 'current' | 'updating' | 'earlier', fileStemOf: (metric: string) => string): Promise<LeaderboardSnapshot | null> {
    // The compressed forms only: the identity bytes are the gzip's, inflated on libuv's threads.
    // Reading the 3 MB JSON of a 100-system board as text decoded it on the event loop, and
    // serving or parsing it encoded it again (13 ms each idle, 75 ms each while a worker
    // recomputed another phase beside the api: issue #28's stalls while recomputing).
    const stored = await this.boards.compressed(row.id);
    if (!stored || stored.etag !== row.etag) return null;
    const body = await gunzipAsync(stored.gzip);
    let snapshot: LeaderboardSnapshot;
    if (mode === 'current') snapshot = snapshotOf(row.id, body, stored.gzip, stored.brotli, stored.etag, false, fileStemOf, this.parse);
    else {
      const revise = (board: Record<string, unknown>): Record<string, unknown> => {
        const notes: unknown[] = Array.isArray(board['notes']) ? (board['notes'] as unknown[]) : [];
        return mode === 'updating' ? { ...board, updating: true } : { ...board, updating: false, notes: [...notes, EARLIER_STATE_NOTE] };
      };
      // The head revised, the pairs' bytes kept (a current document); an older format parsed whole.
      const revised = reviseStoredBoard(body, revise) ?? Buffer.from(JSON.stringify(revise(upgradeStoredBoard(JSON.parse(body.toString('utf8')) as Record<string, unknown>))), 'utf8');
      const z = await compressVariantOffLoop(revised);
      snapshot = snapshotOf(row.id, revised, z.gzip, z.brotli, `"${stored.etag.slice(1, -1)}-${mode === 'updating' ? 'u' : 'e'}"`, mode === 'updating', fileStemOf, this.parse);
    }
    this.cache.set(id, snapshot);
    return snapshot;
  }

  /**
   * A phase and its available metrics, single flight: the many aliases of one query that find
   * their views missing share one read (252 aliases of one anonymous query otherwise held every
   * pooled connection until requests timed out waiting for one).
   */
  private phaseFacts(phaseId: string) {
    return sharedInFlight(this.factReads, phaseId, async () => {
      const phase = await this.tasks.phaseById(phaseId);
      if (!phase) throw new NotFoundError('phase', phaseId);
      return { phase, available: await this.metrics.available(phase) };
    });
  }

  /**
   * Nothing stored for this view yet: validate the metric, then an empty board. Marked updating
   * when a job will store it: an organiser's read queues the view; anyone's read of a default view
   * queues the phase's defaults (coalesced). Another view read by a non-organiser queues nothing
   * and says so ({@link NOT_COMPUTED_NOTE}, `updating: false`).
   */
  private async missing(phaseId: string, view: LeaderboardView, key: string, stamp: string, fileStemOf: (metric: string) => string, organiser: boolean): Promise<LeaderboardSnapshot> {
    const { phase, available } = await this.phaseFacts(phaseId);
    const selection = this.metrics.select(phase, view.metric || undefined, available.stored);
    const defaults = isDefaultView(view) && (view.metric === '' || available.all.includes(view.metric));
    const queued = organiser || defaults;
    if (queued) await this.jobs.request(phaseId, stamp, defaults ? null : view, key);
    const board: Leaderboard = {
      phaseId,
      metric: selection.key,
      higherIsBetter: selection.higherIsBetter,
      metricSignature: '',
      availableMetrics: available.all,
      test: view.test ?? DEFAULT_PAIR_TEST,
      correction: view.correction,
      seed: view.seed ?? phase.significanceSeed,
      resamples: view.resamples ?? phase.significanceResamples ?? 0,
      resamplesChosen: (view.resamples ?? phase.significanceResamples) === null,
      smallestReachableP: 1,
      alpha: ALPHA,
      significanceWarnings: [],
      mainAggregation: 'mean',
      corpusSignature: '',
      clusterDefinition: CLUSTER_DEFINITION,
      clusterTests: [],
      methods: [],
      btFiniteMle: false,
      btNote: null,
      btComponents: [],
      instanceCount: 0,
      scoredOn: null,
      systems: [],
      pairs: [],
      disagreement: null,
      notes: [queued ? BEING_COMPUTED_NOTE : NOT_COMPUTED_NOTE],
      updating: queued,
      stamp: '',
      computedAt: null,
    };
    // Serialised as a stored board is, compressed lightly once: encodeLeaderboard's gzip 9 and
    // brotli 9 (a 4 MB window) took the loop 50–160 ms for these 2 KB, and were thrown away.
    const body = JSON.stringify(leaderboardJson(board));
    const z = compressLight(body);
    return snapshotOf(null, Buffer.from(body, 'utf8'), z.gzip, z.brotli, `"empty-${createHash('sha256').update(body).update(stamp).digest('base64url')}"`, queued, fileStemOf, this.parse);
  }

  /**
   * Where a board's pairs are: `apart` (the document says `pairsApart`, the tiles are stored by
   * its row) or in the document, read as tiles of {@link PAIR_TILE} made on demand.
   */
  pairLayout(snapshot: LeaderboardSnapshot): PairsApart & { apart: boolean } {
    const board = snapshot.board();
    const apart = snapshot.boardId !== null ? readPairsApart(board) : null;
    if (apart) return { ...apart, apart: true };
    const tile = PAIR_TILE;
    return { count: board.pairs.length, tile, tiles: Math.ceil(board.systems.length / tile), apart: false };
  }

  /**
   * One tile of a board's pairs (ADR 0038): `row` ≤ `col` < tiles, tile (r, c) holding the pairs of
   * the systems at board positions r·T…r·T+T−1 against c·T…c·T+T−1. Stored bytes for a board whose
   * pairs are apart; made from the document (and cached) otherwise, so every board answers alike.
   */
  async pairTile(phaseId: string, options: LeaderboardOptions, row: number, col: number, user: AuthUser | null): Promise<PairTileSnapshot & { fileStem: string }> {
    const snapshot = await this.snapshot(phaseId, options, user);
    const layout = this.pairLayout(snapshot);
    const last = Math.max(0, layout.tiles - 1);
    for (const [field, v] of [['row', row], ['col', col]] as const) {
      if (!Number.isInteger(v) || v < 0 || v > last) throw new InvalidInputError(`${field} must be an integer between 0 and ${last} (the board has ${layout.tiles} tile(s) of ${layout.tile} systems per side)`, { field });
    }
    if (row > col) throw new InvalidInputError('row must be at most col: tile (col, row) holds the same pairs', { field: 'row' });
    const key = `${snapshot.boardId ?? snapshot.etag}:${snapshot.etag}:${row}:${col}`;
    let hit = this.tiles.get(key);
    if (!hit) {
      if (layout.apart && snapshot.boardId !== null) {
        const stored = await this.boards.pairTile(snapshot.boardId, row, col);
        // A tile with no pairs is not stored (the last, short row of tiles always has some).
        hit = stored
          ? { etag: stored.etag, gzip: Buffer.from(stored.gzip), brotli: Buffer.from(stored.brotli), identity: gunzipSync(stored.gzip) }
          : tileSnapshot(row, col, []);
      } else {
        const board = snapshot.board();
        const made = tilePairs(board.systems.map((s) => s.submissionId), board.pairs, layout.tile).get(`${row}:${col}`);
        hit = tileSnapshot(row, col, made?.pairs ?? []);
      }
      this.tiles.set(key, hit);
    }
    return { ...hit, fileStem: `${snapshot.fileStem}-pairs-${row}-${col}` };
  }

  /**
   * Every pair of a board, for a streamed download: the document's pairs in their order, or a
   * board's stored tiles one after another (row by row of tiles), never all in memory at once.
   */
  async pairStream(phaseId: string, options: LeaderboardOptions, user: AuthUser | null): Promise<{ fileStem: string; count: number; pairs: AsyncGenerator<SystemPair> }> {
    const snapshot = await this.snapshot(phaseId, options, user);
    const layout = this.pairLayout(snapshot);
    const fileStem = `${snapshot.fileStem}-pairs`;
    if (!layout.apart || snapshot.boardId === null) {
      const pairs = snapshot.board().pairs;
      return { fileStem, count: pairs.length, pairs: (async function* () { yield* pairs; })() };
    }
    const boardId = snapshot.boardId;
    const boards = this.boards;
    return {
      fileStem,
      count: layout.count,
      pairs: (async function* () {
        for await (const tile of boards.pairTiles(boardId)) {
          yield* (JSON.parse(gunzipSync(tile.gzip).toString('utf8')) as { pairs: SystemPair[] }).pairs;
        }
      })(),
    };
  }

  /** Every pair of a board in memory (GraphQL's deprecated `pairs` of a board whose pairs are stored apart). */
  async allPairs(board: Leaderboard): Promise<SystemPair[]> {
    const boardId = this.boardIds.get(board);
    const apart = boardId !== undefined ? readPairsApart(board) : null;
    if (!apart || boardId === undefined) return board.pairs;
    const out: SystemPair[] = [];
    for (const { row, col } of tileOrder(apart.tiles)) {
      const tile = await this.boards.pairTile(boardId, row, col);
      if (tile) out.push(...(JSON.parse(gunzipSync(tile.gzip).toString('utf8')) as { pairs: SystemPair[] }).pairs);
    }
    return out;
  }

  /** The task's organisers set a phase's resamples (null: chosen automatically) and seed; the worker recomputes its boards. */
  async setSignificance(phaseId: string, settings: { resamples: number | null; seed: number }, user: AuthUser | null) {
    assertId('phase', phaseId);
    const phase = await this.tasks.phaseById(phaseId);
    if (!phase) throw new NotFoundError('phase', phaseId);
    const organiser = assertTaskOrganiser(user, phase.taskId);
    assertSignificanceSettings(settings);
    const updated = await this.tasks.setPhaseSignificance(phaseId, settings, organiser.id);
    await this.jobs.refresh(phaseId, 'settings');
    return { phaseId, resamples: updated.significanceResamples, seed: updated.significanceSeed };
  }
}

/** A tile made on the request path (a board whose pairs are in its document): light compression. */
function tileSnapshot(row: number, col: number, pairs: readonly SystemPair[]): PairTileSnapshot {
  const body = JSON.stringify({ row, col, pairs });
  const identity = Buffer.from(body, 'utf8');
  return { etag: `"tile-${createHash('sha256').update(identity).digest('base64url')}"`, identity, ...compressLight(body) };
}

/** Resamples in [1, MAX_RESAMPLES] or null (automatic); a 32-bit seed ≥ 0. */
export function assertSignificanceSettings(s: { resamples: number | null; seed: number }): void {
  if (!Number.isInteger(s.seed) || s.seed < 0 || s.seed > 0x7fffffff) throw new InvalidInputError('seed must be an integer in [0, 2^31)', { field: 'seed' });
  if (s.resamples !== null && (!Number.isInteger(s.resamples) || s.resamples < 1 || s.resamples > MAX_RESAMPLES)) {
    throw new InvalidInputError(`resamples must be an integer between 1 and ${MAX_RESAMPLES}, or null to choose automatically`, { field: 'resamples' });
  }
}
