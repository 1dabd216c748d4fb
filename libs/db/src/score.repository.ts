import type { Pool } from 'pg';
import { outputExtent, outputTextsAt, readOutputTexts } from './output-texts';
import type { Db } from './client';
import { copyOutRows, sqlLiteral, uuidArrayLiteral, uuidLiteral } from './copy-out';
import { decodeStatsFlat, decodeValues, statsShape, type FlatStats } from './score-column';

export interface ScoredSystem {
  submissionId: string;
  systemName: string;
  teamName: string;
  isBaseline: boolean;
  createdAt: Date;
  /** sha256 of the submission's outputs (as uploaded): the same in every database holding them. */
  checksum: string;
}

/** Scores of every scored submission of a phase for one metric, as a systems × instances matrix. */
export interface PhaseScoreMatrix {
  systems: ScoredSystem[];
  /** External instance ids in test-set order. */
  instances: string[];
  /** values[s][i]; NaN where a cell is missing (never the case for a fully scored submission). */
  values: Float64Array[];
  signatures: string[];
  corpus: { value: number; signature: string }[];
}

export interface LongScoreRow {
  submissionId: string;
  systemName: string;
  teamName: string;
  instanceId: string;
  position: number;
  metric: string;
  signature: string;
  score: number;
}

/** One stored column of long-form scores: a LongScoreRow per position whose value is not NaN. */
export interface LongScoreColumn {
  submissionId: string;
  systemName: string;
  teamName: string;
  metric: string;
  signature: string;
  /** External ids of the column's test set in position order (shared by the columns of one test set: do not change). */
  instanceIds: readonly string[];
  /** Scores in position order, NaN where none; may be longer than `instanceIds` (the rest names no instance). */
  values: Float64Array;
}

/**
 * The long rows of one stored column in pages of at most `pageSize`, position order: positions
 * without a score (NaN), past the end of the test set, or (with `visible`) where `visible[p]` is
 * not 1 are left out.
 */
export function* longRowsOf(c: LongScoreColumn, pageSize = 5000, visible: Uint8Array | null = null): Generator<LongScoreRow[]> {
  let page: LongScoreRow[] = [];
  const n = Math.min(c.values.length, c.instanceIds.length);
  for (let position = 0; position < n; position++) {
    const score = c.values[position] as number;
    if (Number.isNaN(score) || (visible && visible[position] !== 1)) continue;
    page.push({
      submissionId: c.submissionId, systemName: c.systemName, teamName: c.teamName, instanceId: c.instanceIds[position] as string,
      position, metric: c.metric, signature: c.signature, score,
    });
    if (page.length >= pageSize) {
      yield page;
      page = [];
    }
  }
  if (page.length > 0) yield page;
}

/** Columns read per query: bounds the text held at once (8 × ≈ 1.1 MB of base64 for 100,000 instances). */
const COLUMNS_PER_QUERY = 8;

/**
 * Calls `each` with the stored values of `metric` for each of the submissions that has them
 * (on `testSetId` when given), a few columns per query. Values are read as base64 text: through
 * Prisma that is about three times faster than bytea (docs/adr/0010-columnar-scores.md), and
 * base64 is 0.68 of hex's characters for PostgreSQL to write and the driver to decode (ADR 0035).
 */
export async function readColumns(
  db: Db,
  submissionIds: readonly string[],
  metric: string,
  testSetId: string | null,
  each: (submissionId: string, signature: string, values: Float64Array) => void,
): Promise<void> {
  for (let at = 0; at < submissionIds.length; at += COLUMNS_PER_QUERY) {
    const ids = submissionIds.slice(at, at + COLUMNS_PER_QUERY);
    const rows = await db.$queryRaw<{ submission_id: string; signature: string; b64: string }[]>`
      SELECT submission_id::text, signature, encode("values", 'base64') AS b64 FROM score_column
      WHERE metric = ${metric} AND submission_id = ANY(${ids}::uuid[]) AND (${testSetId}::uuid IS NULL OR test_set_id = ${testSetId}::uuid)`;
    for (const r of rows) each(r.submission_id, r.signature, decodeValues(Buffer.from(r.b64, 'base64')));
  }
}

/** A submission's stored sufficient statistics for one metric (see {@link ScoreRepository.sufficientStatistics}). */
export interface StoredStatistics {
  /** Instance-level signature of the scores they came with (pins options and reference count). */
  signature: string;
  testSetId: string;
  /** Row-major: row i (test-set position i) is what `metric.stats(hyp, refs)` gave for that instance. */
  stats: FlatStats;
}

/** Stored statistics known by their bytes' digest (see {@link ScoreRepository.statisticsDigests}). */
export interface StatisticsDigest {
  signature: string;
  testSetId: string;
  rows: number;
  width: number;
  /** MD5 (hex) of the stored bytes. */
  digest: string;
}

/** The WHERE clause of one metric's columns of `submissionIds` on a test set (literals checked by copy-out.ts). */
function columnsWhere(submissionIds: readonly string[], metric: string, testSetId: string): string {
  return `metric = ${sqlLiteral(metric)} AND submission_id = ANY(${uuidArrayLiteral(submissionIds)}) AND test_set_id = ${uuidLiteral(testSetId)}`;
}

/**
 * {@link readColumns} through binary COPY on `pool` (copy-out.ts): the bytes as stored, no text.
 * One statement for every column: COPY streams its rows, so nothing but the row being parsed is
 * held beyond the values themselves. `version`: each row's {@link CachedScoreColumn.version}.
 */
async function copyColumns(
  pool: Pool,
  submissionIds: readonly string[],
  metric: string,
  testSetId: string,
  each: (submissionId: string, signature: string, values: Float64Array, version: string) => void,
): Promise<void> {
  if (submissionIds.length === 0) return;
  await copyOutRows(pool, `SELECT submission_id::text, signature, "values", xmin::text FROM score_column WHERE ${columnsWhere(submissionIds, metric, testSetId)}`, (row) => {
    const [id, signature, bytes, version] = row;
    if (!id || !signature || !bytes || !version) throw new Error('a score column row without its submission, signature, values or version');
    each(id.toString('utf8'), signature.toString('utf8'), decodeValues(bytes), version.toString('utf8'));
  });
}

/**
 * A score column kept between matrix reads ({@link ScoreColumnCache}): the values as read and the
 * row version they were read at. The version is the row's `xmin`, the transaction that wrote it:
 * every write of a row (a rescore's upsert, any UPDATE) makes a new row version with the writing
 * transaction's id, so values kept under a version are the row's values for as long as the row
 * shows that version (the same test as PostgreSQL's optimistic-concurrency idiom of `xmin` tokens).
 */
export interface CachedScoreColumn {
  version: string;
  signature: string;
  values: Float64Array;
}

/**
 * Where {@link ScoreRepository.matrix} keeps the columns it read and finds them again (issue #28:
 * a leaderboard thread read every system's columns again for every computation, ≈ 0.6 s of
 * PostgreSQL and 0.5 s of decoding a metric at 100 × 100,000, when a burst of scores adds a few).
 * The repository never hands out what `get` returns (a hit is copied into the matrix), and the
 * values given to `set` are the matrix's row: a cache copies what it keeps.
 */
export interface ScoreColumnCache {
  get(submissionId: string, metric: string, testSetId: string): CachedScoreColumn | undefined;
  set(submissionId: string, metric: string, testSetId: string, column: CachedScoreColumn): void;
}

/** Columns a repository's matrix reads took from its cache and read from the database. */
export interface ColumnReads {
  cached: number;
  read: number;
}

export class ScoreRepository {
  /** What this repository's matrix reads took from the cache and from the database (counted with a cache only). */
  readonly columnReads: ColumnReads = { cached: 0, read: 0 };

  /**
   * `pool`: a pg pool for the bulk reads of {@link matrix} (score columns and instance ids through
   * binary COPY, copy-out.ts: a leaderboard thread's); without one they go through Prisma.
   * `columns`: with `pool`, matrix reads ask PostgreSQL only for each column's row version and read
   * the values of the columns the cache does not hold at that version (ScoreColumnCache).
   */
  constructor(
    private readonly db: Db,
    private readonly pool: Pool | null = null,
    private readonly columns: ScoreColumnCache | null = null,
  ) {}

  async scoredSystems(phaseId: string): Promise<ScoredSystem[]> {
    const rows = await this.db.submission.findMany({
      where: { phaseId, status: 'SCORED' },
      include: { team: true },
      orderBy: [{ createdAt: 'asc' }, { systemName: 'asc' }],
    });
    return rows.map((r) => ({ submissionId: r.id, systemName: r.systemName, teamName: r.team.name, isBaseline: r.isBaseline, createdAt: r.createdAt, checksum: r.checksum }));
  }

  /** Metric keys that have scores in a phase. */
  async metricsOfPhase(phaseId: string): Promise<string[]> {
    const rows = await this.db.$queryRaw<{ metric: string }[]>`
      SELECT DISTINCT c.metric FROM corpus_score c JOIN submission s ON s.id = c.submission_id
      WHERE s.phase_id = ${phaseId}::uuid AND s.status = 'SCORED' ORDER BY c.metric`;
    return rows.map((r) => r.metric);
  }

  async matrix(phaseId: string, metric: string, testSetId: string): Promise<PhaseScoreMatrix> {
    const systems = await this.scoredSystems(phaseId);
    const instances = await this.instanceIds(testSetId);
    const index = new Map(systems.map((s, k) => [s.submissionId, k]));
    const n = instances.length;
    /** A row of n cells, NaN where `column` has none. */
    const padded = (column: Float64Array | null) => {
      const row = new Float64Array(n).fill(Number.NaN);
      if (column) row.set(column.subarray(0, Math.min(n, column.length)));
      return row;
    };
    // A decoded column is this read's own array: kept as the row when it has n cells, not copied.
    const rows: (Float64Array | null)[] = systems.map(() => null);
    const signatures = systems.map(() => '');
    const ids = systems.map((s) => s.submissionId);
    const each = (submissionId: string, signature: string, column: Float64Array) => {
      const k = index.get(submissionId);
      if (k === undefined) return;
      rows[k] = column.length === n ? column : padded(column);
      signatures[k] = signature;
    };
    if (this.pool && this.columns) await this.cachedColumns(this.pool, this.columns, ids, metric, testSetId, each);
    else if (this.pool) await copyColumns(this.pool, ids, metric, testSetId, each);
    else await readColumns(this.db, ids, metric, testSetId, each);
    const corpusRows = await this.db.corpusScore.findMany({ where: { metric, submissionId: { in: ids } } });
    const corpusBy = new Map(corpusRows.map((c) => [c.submissionId, c]));
    const corpus = systems.map((s) => {
      const c = corpusBy.get(s.submissionId);
      return { value: c ? c.value : Number.NaN, signature: c ? c.signature : '' };
    });
    return { systems, instances, values: rows.map((row) => row ?? padded(null)), signatures, corpus };
  }

  /**
   * The columns of `ids` through the cache: one query for the row versions (no values read), a
   * copy of each column the cache holds at its row's version, one COPY of the others (each kept
   * in the cache with the version it came with). A row rewritten between the two statements
   * comes with its new version; the matrix's reads were never one snapshot (the stamp read before
   * them moves on with any write, and the board is computed again).
   */
  private async cachedColumns(
    pool: Pool,
    cache: ScoreColumnCache,
    ids: readonly string[],
    metric: string,
    testSetId: string,
    each: (submissionId: string, signature: string, values: Float64Array) => void,
  ): Promise<void> {
    if (ids.length === 0) return;
    const versions = await pool.query<{ id: string; version: string; signature: string }>(
      `SELECT submission_id::text AS id, xmin::text AS version, signature FROM score_column WHERE ${columnsWhere(ids, metric, testSetId)}`,
    );
    const missing: string[] = [];
    for (const row of versions.rows) {
      const kept = cache.get(row.id, metric, testSetId);
      if (kept && kept.version === row.version && kept.signature === row.signature) {
        each(row.id, kept.signature, kept.values.slice());
        this.columnReads.cached++;
      } else missing.push(row.id);
    }
    await copyColumns(pool, missing, metric, testSetId, (submissionId, signature, values, version) => {
      cache.set(submissionId, metric, testSetId, { version, signature, values });
      each(submissionId, signature, values);
      this.columnReads.read++;
    });
  }

  /** External instance ids of a test set in position order (through COPY with the pool: 100,000 rows). */
  private async instanceIds(testSetId: string): Promise<string[]> {
    if (!this.pool) return (await this.db.instance.findMany({ where: { testSetId }, orderBy: { position: 'asc' }, select: { externalId: true } })).map((i) => i.externalId);
    const ids: string[] = [];
    await copyOutRows(this.pool, `SELECT external_id FROM instance WHERE test_set_id = ${uuidLiteral(testSetId)} ORDER BY position`, (row) => ids.push(row[0]?.toString('utf8') ?? ''));
    return ids;
  }

  /**
   * Stored per-instance sufficient statistics of a corpus metric (rows as `metric.stats` gave
   * them, in test-set position order), per submission in the order given; null where none are
   * stored (a sentence-level metric, or scores migrated from the row layout: recompute those).
   */
  async sufficientStatistics(submissionIds: string[], metric: string): Promise<(StoredStatistics | null)[]> {
    const by = new Map<string, StoredStatistics>();
    for (let at = 0; at < submissionIds.length; at += COLUMNS_PER_QUERY) {
      const rows = await this.db.$queryRaw<{ submission_id: string; test_set_id: string; signature: string; b64: string }[]>`
        SELECT submission_id::text, test_set_id::text, signature, encode(stats, 'base64') AS b64 FROM score_column
        WHERE metric = ${metric} AND stats IS NOT NULL AND submission_id = ANY(${submissionIds.slice(at, at + COLUMNS_PER_QUERY)}::uuid[])`;
      for (const r of rows) by.set(r.submission_id, { signature: r.signature, testSetId: r.test_set_id, stats: decodeStatsFlat(Buffer.from(r.b64, 'base64')) });
    }
    return submissionIds.map((id) => by.get(id) ?? null);
  }

  /**
   * What identifies each submission's stored statistics for one metric without reading them
   * (issue #28: the board after the last score reads one system's statistics; the others' are
   * known to its memo by this key): signature, test set, rows and width from the column's head,
   * and the MD5 of the stored bytes, which PostgreSQL computes when the column is written (the
   * generated column `stats_md5`, migration 20261130100000). Null where none are stored.
   */
  async statisticsDigests(submissionIds: string[], metric: string): Promise<(StatisticsDigest | null)[]> {
    const by = new Map<string, StatisticsDigest>();
    for (let at = 0; at < submissionIds.length; at += COLUMNS_PER_QUERY) {
      const rows = await this.db.$queryRaw<{ submission_id: string; test_set_id: string; signature: string; head: string; digest: string }[]>`
        SELECT submission_id::text, test_set_id::text, signature, encode(substring(stats from 1 for 22), 'hex') AS head, stats_md5 AS digest FROM score_column
        WHERE metric = ${metric} AND stats IS NOT NULL AND submission_id = ANY(${submissionIds.slice(at, at + COLUMNS_PER_QUERY)}::uuid[])`;
      for (const r of rows) by.set(r.submission_id, { signature: r.signature, testSetId: r.test_set_id, ...statsShape(Buffer.from(r.head, 'hex')), digest: r.digest });
    }
    return submissionIds.map((id) => by.get(id) ?? null);
  }

  /** How many instances a test set has, and the most references one of them has (at least 1). */
  async testSetShape(testSetId: string): Promise<{ instances: number; maxReferences: number }> {
    const rows = await this.db.$queryRaw<{ instances: number; max_refs: number }[]>`
      SELECT count(*)::int AS instances, coalesce(max(cardinality("references")), 1)::int AS max_refs FROM instance WHERE test_set_id = ${testSetId}::uuid`;
    const r = rows[0];
    return { instances: r?.instances ?? 0, maxReferences: Math.max(1, r?.max_refs ?? 1) };
  }

  /**
   * References of a test set (position order) and each submission's outputs aligned to them:
   * what corpus-level resampling rescores from sufficient statistics. Missing outputs are ''.
   */
  async alignedTexts(testSetId: string, submissionIds: string[]): Promise<{ references: string[][]; outputs: string[][] }> {
    const instances = await this.db.instance.findMany({ where: { testSetId }, orderBy: { position: 'asc' }, select: { id: true, references: true } });
    const outputs = submissionIds.map(() => new Array<string>(instances.length).fill(''));
    const index = new Map(submissionIds.map((id, k) => [id, k]));
    if (submissionIds.length > 0) {
      for (const [submissionId, stored] of await readOutputTexts(this.db, submissionIds)) {
        const k = index.get(submissionId);
        const aligned = k === undefined ? undefined : outputs[k];
        if (!aligned || stored.testSetId !== testSetId) continue;
        for (let p = 0; p < Math.min(aligned.length, stored.texts.length); p++) aligned[p] = stored.texts[p] ?? '';
      }
    }
    return { references: instances.map((i) => i.references), outputs };
  }

  async corpusScores(submissionId: string) {
    return this.db.corpusScore.findMany({ where: { submissionId }, orderBy: { metric: 'asc' } });
  }

  /** Corpus scores of many submissions in one query (DataLoader batches), by metric within each. */
  async corpusScoresOf(submissionIds: readonly string[]) {
    if (submissionIds.length === 0) return [];
    return this.db.corpusScore.findMany({ where: { submissionId: { in: [...submissionIds] } }, orderBy: [{ submissionId: 'asc' }, { metric: 'asc' }] });
  }

  /**
   * One page of a submission's instance scores for a metric, sorted by position or by value
   * (ties by position): a slice of the stored column. In position order with every position
   * scored, only the page's bytes are read (a substring of the uncompressed, out-of-line value).
   */
  async instanceScores(submissionId: string, metric: string, opts: { offset: number; limit: number; order: 'position' | 'asc' | 'desc' }) {
    const [column] = await this.db.$queryRaw<{ test_set_id: string; signature: string; count: number; scored: number }[]>`
      SELECT test_set_id::text, signature, count, scored FROM score_column WHERE submission_id = ${submissionId}::uuid AND metric = ${metric}`;
    if (!column) return { total: 0, rows: [] };
    let cells: { position: number; value: number }[];
    if (opts.order === 'position' && column.scored === column.count) {
      const from = Math.min(opts.offset, column.count);
      const to = Math.min(opts.offset + opts.limit, column.count);
      const [slice] = await this.db.$queryRaw<{ hex: string }[]>`
        SELECT encode(substring("values" FROM ${8 * from + 1}::int FOR ${8 * (to - from)}::int), 'hex') AS hex
        FROM score_column WHERE submission_id = ${submissionId}::uuid AND metric = ${metric}`;
      const values = decodeValues(Buffer.from(slice?.hex ?? '', 'hex'));
      cells = Array.from(values, (value, i) => ({ position: from + i, value }));
    } else {
      const values = await this.column(submissionId, metric);
      cells = [];
      values.forEach((value, position) => {
        if (!Number.isNaN(value)) cells.push({ position, value });
      });
      if (opts.order !== 'position') cells.sort((a, b) => (opts.order === 'asc' ? a.value - b.value : b.value - a.value) || a.position - b.position);
      cells = cells.slice(opts.offset, opts.offset + opts.limit);
    }
    const positions = cells.map((c) => c.position);
    const instances = await this.db.instance.findMany({
      where: { testSetId: column.test_set_id, position: { in: positions } },
      select: { id: true, externalId: true, position: true, source: true, references: true },
    });
    const texts = await this.outputsAt(submissionId, column.test_set_id, positions);
    const at = new Map(instances.map((i) => [i.position, i]));
    const rows = cells.flatMap((c) => {
      const i = at.get(c.position);
      if (!i) return [];
      const { id, ...instance } = i;
      return [{ submissionId, metric, instanceId: id, signature: column.signature, value: c.value, instance, output: texts.get(c.position) ?? '' }];
    });
    return { total: column.scored, rows };
  }

  /**
   * The stored values of one submission and metric (position order, NaN where unscored); empty when none.
   * Read as base64 text, not hex (Prisma makes a bytea's Buffer byte by byte): 10.8 characters a
   * value instead of 16, which the pg driver decodes into a string and Node back into bytes; a
   * phase's export reads every column so (issue #28). PostgreSQL breaks base64 lines at 76
   * characters; Buffer.from skips the line breaks.
   */
  async column(submissionId: string, metric: string): Promise<Float64Array> {
    const [r] = await this.db.$queryRaw<{ b64: string }[]>`
      SELECT encode("values", 'base64') AS b64 FROM score_column WHERE submission_id = ${submissionId}::uuid AND metric = ${metric}`;
    return decodeValues(Buffer.from(r?.b64 ?? '', 'base64'));
  }

  /** The instance-level signature of one submission's stored column (null: none). */
  async columnSignature(submissionId: string, metric: string): Promise<string | null> {
    return (await this.db.scoreColumn.findUnique({ where: { submissionId_metric: { submissionId, metric } }, select: { signature: true } }))?.signature ?? null;
  }

  /** Instances of a test set at the given positions, with a submission's output for each (any order). */
  async instanceDetails(submissionId: string, testSetId: string, positions: number[]) {
    if (positions.length === 0) return [];
    const rows = await this.db.instance.findMany({
      where: { testSetId, position: { in: positions } },
      select: { externalId: true, position: true, source: true, references: true },
    });
    const texts = await this.outputsAt(submissionId, testSetId, positions);
    return rows.map((r) => ({ instanceId: r.externalId, position: r.position, source: r.source, references: r.references, output: texts.get(r.position) ?? '' }));
  }

  /** A submission's outputs at positions of `testSetId` (none when its outputs follow another test set). */
  private async outputsAt(submissionId: string, testSetId: string, positions: number[]): Promise<Map<number, string>> {
    const extent = await outputExtent(this.db, submissionId);
    return extent?.testSetId === testSetId ? outputTextsAt(this.db, submissionId, positions) : new Map();
  }

  /**
   * Streams long-form score rows (submission id, metric, position order, as the downloads
   * write them) in pages of at most `pageSize`: one stored column at a time (longColumns),
   * unscored positions left out.
   */
  async *longRows(submissionIds: string[], pageSize = 5000): AsyncGenerator<LongScoreRow[]> {
    for await (const c of this.longColumns(submissionIds)) yield* longRowsOf(c, pageSize);
  }

  /**
   * Streams the stored columns of the submissions (submission id, then metric), each with the
   * external ids of its test set (one array per test set, shared by its columns, read once in
   * chunks): what longRows pages, without a row object per score (the CSV export writes bytes
   * straight from the column, issue #28). Memory holds one column and one test set's ids, never
   * a phase; each column is one query (no OFFSET, no keyset over a join). A column longer than
   * its test set names no instance past its end: `values` may be longer than `instanceIds`.
   */
  async *longColumns(submissionIds: string[]): AsyncGenerator<LongScoreColumn> {
    if (submissionIds.length === 0) return;
    const columns = await this.db.$queryRaw<
      { submission_id: string; metric: string; test_set_id: string; signature: string; system_name: string; team_name: string }[]
    >`
      SELECT sc.submission_id::text, sc.metric, sc.test_set_id::text, sc.signature, s.system_name, t.name AS team_name
      FROM score_column sc JOIN submission s ON s.id = sc.submission_id JOIN team t ON t.id = s.team_id
      WHERE sc.submission_id = ANY(${submissionIds}::uuid[])
      ORDER BY sc.submission_id, sc.metric`;
    const idsOf = new Map<string, string[]>();
    for (const c of columns) {
      let ids = idsOf.get(c.test_set_id);
      if (!ids) idsOf.set(c.test_set_id, (ids = await this.externalIds(c.test_set_id)));
      yield {
        submissionId: c.submission_id, systemName: c.system_name, teamName: c.team_name, metric: c.metric, signature: c.signature,
        instanceIds: ids, values: await this.column(c.submission_id, c.metric),
      };
    }
  }

  /** External ids of a test set in position order, read in chunks of consecutive positions. */
  private async externalIds(testSetId: string, chunk = 20_000): Promise<string[]> {
    const ids: string[] = [];
    for (;;) {
      const rows = await this.db.instance.findMany({
        where: { testSetId, position: { gte: ids.length, lt: ids.length + chunk } },
        orderBy: { position: 'asc' },
        select: { externalId: true },
      });
      for (const r of rows) ids.push(r.externalId);
      if (rows.length < chunk) return ids;
    }
  }
}
