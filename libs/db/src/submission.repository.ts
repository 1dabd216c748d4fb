import { ConflictError, ForbiddenError, InvalidInputError, NotFoundError, IllegalTransitionError, LeaseHeldError, LeaseLostError, sourcesOf, phaseRefusal, type LeaseHolder } from '@podium/domain';
import { randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdtemp, open, rm, type FileHandle } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { Pool, PoolClient } from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import type { Db, Tx } from './client';
import { Prisma, SubmissionStatus, type Submission, type Task } from './generated/client';
import { outputExtent, readOutputTexts, writeOutputsById } from './output-texts';
import { encodeStats, encodeValues, type StatsRows } from './score-column';

/** The result of trying to take a submission's lease. */
export type LeaseOutcome =
  /** `token`: the fencing token of this claim (every claim takes the next one). */
  | { kind: 'acquired'; attempt: number; token: bigint }
  | { kind: 'gone' }
  /** Already SCORED or FAILED: nothing to do (a late duplicate job). */
  | { kind: 'settled'; status: SubmissionStatus };

/** A submission whose worker stopped renewing its lease. */
export interface LapsedLease {
  submissionId: string;
  owner: string | null;
  jobId: string | null;
  attempt: number;
}

export interface NewSubmission {
  phaseId: string;
  teamId: string;
  submittedById: string;
  systemName: string;
  description: string;
  checksum: string;
  isBaseline?: boolean;
  /** Output text per instance id (the instance's database id), covering the whole test set. */
  outputs: { instanceId: string; text: string }[];
  /** Time used for the phase window and the daily limit (injectable for tests). */
  now?: Date;
  /** Organisers may submit outside the phase window and beyond limits (baselines, demo). */
  bypassLimits?: boolean;
  /** Registers the team (approved) for this task with the submission, in its transaction (open registration). */
  registerForTaskId?: string;
}

/** A submission whose outputs stream in ({@link SubmissionRepository.createStreamed}). */
export type StreamedSubmission = Omit<NewSubmission, 'outputs' | 'checksum'> & {
  /** The test set's instance ids (database ids) by position: the writer's positions index it. */
  instanceIds: readonly string[];
};

/** Where a streaming upload's validated outputs go: `row` buffers, `flush` hands the buffer to COPY (awaiting its back-pressure). */
export interface OutputWriter {
  row(position: number, text: string): void;
  flush(): Promise<void>;
}

/** COPY's binary file header: signature, flags, header extension length (PostgreSQL, COPY "Binary Format"). */
const COPY_BINARY_HEADER = Buffer.concat([Buffer.from('PGCOPY\n\xff\r\n\0', 'latin1'), Buffer.alloc(8)]);
/** The field count -1 that ends a binary COPY. */
const COPY_BINARY_TRAILER = Buffer.from([0xff, 0xff]);
/** pg_type oid of `text`: the element type a `text[]` value names in binary (array_recv checks it). */
const TEXT_OID = 25;
/** The largest value PostgreSQL stores (1 GB). */
const MAX_FIELD_BYTES = 0x3fff_ffff;

/**
 * Everything of submission_output's one row in COPY's binary format that precedes the array's
 * elements: the file header, the field count, the two uuids, the array's length and header
 * (one dimension of `count` text elements from index 1, no nulls). `elementBytes`: the
 * elements as they follow, each a 4-byte big-endian length and its UTF-8 bytes.
 */
export function copyOutputRowHead(submissionId: string, testSetId: string, count: number, elementBytes: number): Buffer {
  const arrayBytes = 20 + elementBytes;
  if (arrayBytes > MAX_FIELD_BYTES) throw new InvalidInputError(`the outputs take ${arrayBytes} bytes; a submission may store at most ${MAX_FIELD_BYTES}`, { field: 'file' });
  const b = Buffer.alloc(2 + 2 * (4 + 16) + 4 + 20);
  let at = b.writeInt16BE(3, 0);
  for (const id of [submissionId, testSetId]) {
    at = b.writeInt32BE(16, at);
    at += b.write(id.replace(/-/g, ''), at, 'hex');
  }
  at = b.writeInt32BE(arrayBytes, at);
  at = b.writeInt32BE(1, at); // dimensions
  at = b.writeInt32BE(0, at); // no null elements
  at = b.writeInt32BE(TEXT_OID, at);
  at = b.writeInt32BE(count, at);
  b.writeInt32BE(1, at); // lower bound
  return Buffer.concat([COPY_BINARY_HEADER, b]);
}

/** The spool's buffer: filled by the outputs, written to the file once at least half full, then filled again. */
const SPOOL_BUFFER = 1 << 20;

/** Writes all of `b` at the file's current position. */
async function writeAll(file: FileHandle, b: Uint8Array): Promise<void> {
  for (let at = 0; at < b.length; ) at += (await file.write(b, at, b.length - at)).bytesWritten;
}

/**
 * The memory streamed uploads may spool in (ADR 0037): each upload up to `perUpload` bytes, all
 * of them together up to `total`; an upload that would pass either goes to a file instead.
 */
export class SpoolMemory {
  private used = 0;

  constructor(
    readonly perUpload: number,
    readonly total: number,
  ) {}

  /** Bytes held now by all uploads. */
  get held(): number {
    return this.used;
  }

  /** Takes `bytes` if the total allows them. */
  take(bytes: number): boolean {
    if (this.used + bytes > this.total) return false;
    this.used += bytes;
    return true;
  }

  give(bytes: number): void {
    this.used -= bytes;
  }
}

/** Per streamed upload 32 MiB (a 100,000-line upload of 150 bytes a line fits), 128 MiB for all at once. */
export const DEFAULT_SPOOL_MEMORY = { perUpload: 32 << 20, total: 128 << 20 };

/**
 * The spool of a streamed upload: each output as a binary array element (a 4-byte length and
 * its UTF-8 bytes), appended in test-set position order. Given a file, to the file: one buffer
 * is filled and written again and again (a fresh one only when a single push outgrows it), so an
 * upload does not allocate its size again in buffers. Given a way to open one and a
 * {@link SpoolMemory}, the filled buffers are kept in memory while the memory allows, and the file
 * is opened (and what was held written to it) only when it does not: a small upload makes no
 * temporary file. Outputs that arrive early (JSONL in another order) wait in memory until the
 * ones before them came, as the parser's checksum does.
 */
export class ElementSpool implements OutputWriter {
  private buf = Buffer.allocUnsafe(SPOOL_BUFFER);
  private used = 0;
  /** Buffers filled within one push, before `flush` could write them. */
  private full: Buffer[] = [];
  private next = 0;
  private readonly early = new Map<number, string>();
  private file: FileHandle | null;
  private readonly open: (() => Promise<FileHandle>) | null;
  /** Filled buffers kept in memory (while no file was needed), and the memory they took. */
  private kept: Buffer[] = [];
  private keptBytes = 0;
  /** Bytes of elements appended, length prefixes included. */
  bytes = 0;

  constructor(
    file: FileHandle | (() => Promise<FileHandle>),
    private readonly count: number,
    private readonly memory: SpoolMemory | null = null,
  ) {
    this.file = typeof file === 'function' ? null : file;
    this.open = typeof file === 'function' ? file : null;
  }

  /** Outputs appended in position order so far. */
  get appended(): number {
    return this.next;
  }

  /** The elements, in order, when the spool never needed its file (after `flush(true)`); null when they are in the file. */
  get inMemory(): readonly Buffer[] | null {
    return this.file ? null : this.kept;
  }

  /** Gives back the memory the kept buffers took (when the upload is stored or refused). */
  release(): void {
    this.memory?.give(this.keptBytes);
    this.kept = [];
    this.keptBytes = 0;
  }

  row(position: number, text: string): void {
    if (position !== this.next) {
      if (position < this.next || position >= this.count || this.early.has(position)) throw new Error(`output for position ${position} out of place (next ${this.next} of ${this.count})`);
      this.early.set(position, text);
      return;
    }
    this.append(text);
    for (let t = this.early.get(this.next); t !== undefined; t = this.early.get(this.next)) {
      this.early.delete(this.next);
      this.append(t);
    }
  }

  private append(text: string): void {
    // A UTF-16 unit takes at most 3 UTF-8 bytes (a surrogate pair, two units, takes 4).
    const room = 4 + 3 * text.length;
    if (this.used + room > this.buf.length) {
      if (this.used > 0) this.full.push(this.buf.subarray(0, this.used));
      this.buf = Buffer.allocUnsafe(Math.max(SPOOL_BUFFER, room));
      this.used = 0;
    }
    const n = this.buf.write(text, this.used + 4);
    this.buf.writeInt32BE(n, this.used);
    this.used += 4 + n;
    this.bytes += 4 + n;
    this.next++;
  }

  /** Writes (or keeps) what filled up; to a file, the buffer itself once half full (`all`: whatever it holds). */
  async flush(all = false): Promise<void> {
    const out = this.full;
    this.full = [];
    if (!this.file && this.open) {
      // Kept buffers are not reused: only full ones are handed over, the last one at the end.
      if (all && this.used > 0) {
        out.push(this.buf.subarray(0, this.used));
        this.buf = Buffer.alloc(0);
        this.used = 0;
      }
      for (const b of out) await this.keep(b);
      return;
    }
    const file = this.file;
    if (!file) throw new Error('the spool has no file');
    for (const b of out) await writeAll(file, b);
    if (this.used >= SPOOL_BUFFER / 2 || (all && this.used > 0)) {
      await writeAll(file, this.buf.subarray(0, this.used));
      this.used = 0;
    }
  }

  /** Keeps `b` in memory if the upload's and the process's limits allow; otherwise opens the file and writes what was kept and `b`. */
  private async keep(b: Buffer): Promise<void> {
    // What the buffer occupies (buffers of 4 KiB and more have their own memory).
    const size = b.buffer.byteLength;
    if (!this.file && this.memory && this.keptBytes + size <= this.memory.perUpload && this.memory.take(size)) {
      this.kept.push(b);
      this.keptBytes += size;
      return;
    }
    if (!this.file) {
      if (!this.open) throw new Error('the spool has no file');
      const file = await this.open();
      this.file = file;
      for (const k of this.kept) await writeAll(file, k);
      this.release();
    }
    await writeAll(this.file, b);
  }
}

/** What {@link SubmissionRepository.admitOnClient} reads in its one statement (timestamps as UTC instants). */
interface AdmissionRow {
  name: string;
  daily_limit: number;
  total_limit: number;
  one_team_per_person: boolean;
  opens_at: Date;
  closes_at: Date;
  closed_early_at: Date | null;
  published_at: Date | null;
  /** Null when the limits are not checked (organisers); the person's, also when the task allows several teams per person. */
  team_total: number | null;
  team_recent: Date[] | null;
  person_total: number | null;
  person_recent: Date[] | null;
  duplicate: boolean;
  /** The test set of the upload's instances (null: the instance is gone). */
  test_set_id: string | null;
}

/** A submission row as `RETURNING ${SUBMISSION_COLUMNS}` gives it: timestamps as UTC instants, the fencing token as text. */
interface SubmissionRow {
  id: string;
  phase_id: string;
  team_id: string;
  submitted_by_id: string;
  system_name: string;
  description: string;
  paper_url: string | null;
  code_url: string | null;
  is_baseline: boolean;
  is_primary: boolean;
  moderation: Submission['moderation'];
  moderation_reason: string | null;
  moderation_reason_public: boolean;
  status: SubmissionStatus;
  error: string | null;
  checksum: string;
  progress_done: number;
  progress_total: number;
  created_at: Date;
  scored_at: Date | null;
  attempt: number;
  lease_owner: string | null;
  lease_job_id: string | null;
  lease_expires_at: Date | null;
  fencing_token: string;
  retry_reason: string | null;
}

/** Every column of `submission`, for a plain pg statement's RETURNING (the model's `DateTime`s are UTC `timestamp(3)`s). */
const SUBMISSION_COLUMNS = `id::text, phase_id::text, team_id::text, submitted_by_id::text, system_name, description, paper_url, code_url,
  is_baseline, is_primary, moderation::text, moderation_reason, moderation_reason_public, status::text, error, checksum,
  progress_done, progress_total, created_at AT TIME ZONE 'UTC' AS created_at, scored_at AT TIME ZONE 'UTC' AS scored_at,
  attempt, lease_owner, lease_job_id, lease_expires_at AT TIME ZONE 'UTC' AS lease_expires_at, fencing_token::text, retry_reason`;

/** The Prisma model of a {@link SubmissionRow}: what `db.submission.findUnique` gives for the same row. */
function submissionOfRow(r: SubmissionRow): Submission {
  return {
    id: r.id,
    phaseId: r.phase_id,
    teamId: r.team_id,
    submittedById: r.submitted_by_id,
    systemName: r.system_name,
    description: r.description,
    paperUrl: r.paper_url,
    codeUrl: r.code_url,
    isBaseline: r.is_baseline,
    isPrimary: r.is_primary,
    moderation: r.moderation,
    moderationReason: r.moderation_reason,
    moderationReasonPublic: r.moderation_reason_public,
    status: r.status,
    error: r.error,
    checksum: r.checksum,
    progressDone: r.progress_done,
    progressTotal: r.progress_total,
    createdAt: r.created_at,
    scoredAt: r.scored_at,
    attempt: r.attempt,
    leaseOwner: r.lease_owner,
    leaseJobId: r.lease_job_id,
    leaseExpiresAt: r.lease_expires_at,
    fencingToken: BigInt(r.fencing_token),
    retryReason: r.retry_reason,
  };
}

/** The unique system-name index refusing a concurrent upload of the same name, as create's check words it. */
function uniqueNameConflict(e: unknown, systemName: string): ConflictError | null {
  const code = (e as { code?: unknown } | null)?.code;
  const constraint = (e as { constraint?: unknown } | null)?.constraint;
  if (code === '23505' && typeof constraint === 'string' && constraint.startsWith('submission_system_name')) {
    return new ConflictError(`the team already has a system named '${systemName}' in this phase`, { field: 'systemName' });
  }
  return null;
}

/** A pg client inside its transaction as pg-boss's `db` option takes it. */
function pgTxSql(client: PoolClient): TxSql {
  return {
    async executeSql(text, values) {
      const r = await client.query(text, values);
      return { rows: r.rows };
    },
  };
}

/** Runs SQL inside the caller's transaction; pg-boss's `db` option takes this shape. */
export interface TxSql {
  executeSql(text: string, values: unknown[]): Promise<{ rows: unknown[] }>;
}

/** Wraps a Prisma transaction so that other libraries (pg-boss) can write inside it. */
export function txSql(tx: Tx): TxSql {
  return {
    async executeSql(text, values) {
      const rows = await tx.$queryRawUnsafe<unknown[]>(text, ...values);
      return { rows };
    },
  };
}

export interface SubmissionQuota {
  usedToday: number;
  usedTotal: number;
  dailyLimit: number;
  totalLimit: number;
  /** Counted per person across their teams (the task allows one team per person). */
  perPerson: boolean;
  /** While the daily limit is used up: when the oldest counted submission of the last 24 hours leaves the window (null otherwise). */
  nextSlotAt: Date | null;
}

/**
 * When a daily slot opens again: the daily count falls below `dailyLimit` once the
 * (used − limit + 1)-th oldest submission of the window is 24 hours old. `recent`: the counted
 * submissions' times within the window, oldest first.
 */
export function nextDailySlot(recent: readonly Date[], dailyLimit: number): Date | null {
  if (recent.length < dailyLimit) return null;
  const leaving = recent[recent.length - dailyLimit];
  return leaving ? new Date(leaving.getTime() + DAY_MS) : null;
}

/** "2026-11-26 14:05 UTC" */
function utcMinute(d: Date): string {
  return `${d.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

/**
 * Every instance score of one metric for a submission, in test-set position order: what the
 * worker stores (one `score_column` record; docs/adr/0010-columnar-scores.md).
 */
export interface ScoreColumnInput {
  /** The task's metric key. */
  metric: string;
  /** Instance-level signature. */
  signature: string;
  /** One finite score per instance of the submission's test set, position order. */
  values: ArrayLike<number>;
  /** Sufficient statistics of a corpus metric, one row per instance (`metric.stats`), as arrays or one row-major array; null otherwise. */
  stats?: StatsRows | null;
}

/** One instance's score keyed by its instance id (fixtures and imports). */
export interface InstanceScoreInput {
  instanceId: string;
  metric: string;
  signature: string;
  value: number;
}

interface EncodedColumn {
  metric: string;
  signature: string;
  count: number;
  scored: number;
  values: Buffer;
  stats: Buffer | null;
}

function isKeyedRows(scores: readonly ScoreColumnInput[] | readonly InstanceScoreInput[]): scores is readonly InstanceScoreInput[] {
  const [first] = scores;
  return first !== undefined && 'instanceId' in first;
}

function encodeColumn(c: ScoreColumnInput): EncodedColumn {
  for (let i = 0; i < c.values.length; i++) {
    if (!Number.isFinite(c.values[i])) throw new InvalidInputError(`non-finite ${c.metric} score at position ${i}`, { field: 'scores' });
  }
  const statsRows = c.stats ? ('data' in c.stats ? c.stats.rows : c.stats.length) : null;
  if (statsRows !== null && statsRows !== c.values.length) {
    throw new InvalidInputError(`${c.metric} has ${c.values.length} scores but ${statsRows} statistics rows`, { field: 'scores' });
  }
  return {
    metric: c.metric,
    signature: c.signature,
    count: c.values.length,
    scored: c.values.length,
    values: encodeValues(c.values),
    stats: c.stats ? encodeStats(c.stats) : null,
  };
}

/** The test set a submission's outputs belong to, and its number of instances. */
async function testSetOfOutputs(tx: Tx, submissionId: string): Promise<{ id: string; count: number }> {
  const [row] = await tx.$queryRaw<{ id: string; count: number }[]>`
    SELECT so.test_set_id::text AS id, (SELECT count(*)::int FROM instance WHERE test_set_id = so.test_set_id) AS count
    FROM submission_output so WHERE so.submission_id = ${submissionId}::uuid AND cardinality(so.texts) > 0`;
  if (!row) throw new InvalidInputError(`submission ${submissionId} has no outputs to store scores for`, { field: 'scores' });
  return row;
}

/** Rows keyed by instance id as columns over the submission's test set (NaN where an instance has no row). */
async function columnsOfRows(tx: Tx, submissionId: string, testSet: { id: string; count: number }, rows: readonly InstanceScoreInput[]): Promise<EncodedColumn[]> {
  const ids = [...new Set(rows.map((r) => r.instanceId))];
  const found = await tx.$queryRaw<{ id: string; position: number }[]>`
    SELECT id::text, position FROM instance WHERE test_set_id = ${testSet.id}::uuid AND id = ANY(${ids}::uuid[])`;
  const positionOf = new Map(found.map((f) => [f.id, f.position]));
  const byMetric = new Map<string, { signature: string; values: Float64Array; scored: number }>();
  for (const r of rows) {
    const position = positionOf.get(r.instanceId);
    if (position === undefined || position >= testSet.count) {
      throw new InvalidInputError(`instance ${r.instanceId} is not in the test set of submission ${submissionId}`, { instanceId: r.instanceId });
    }
    let c = byMetric.get(r.metric);
    if (!c) byMetric.set(r.metric, (c = { signature: r.signature, values: new Float64Array(testSet.count).fill(Number.NaN), scored: 0 }));
    if (Number.isNaN(c.values[position])) c.scored++;
    c.values[position] = r.value;
  }
  return [...byMetric].map(([metric, c]) => ({ metric, signature: c.signature, count: testSet.count, scored: c.scored, values: encodeValues(c.values), stats: null }));
}

const DAY_MS = 24 * 60 * 60 * 1000;
/** Test-set positions per read of {@link SubmissionRepository.scoringInput} (a JSON text of a few hundred KB: larger single rows make the pg driver copy its receive buffer over and over). */
const SCORING_READ_CHUNK = 2_000;

/** The most instances of a test set whose texts a repository keeps for the next scoring job (about 30 MB of strings at 100 characters a text). */
const TEST_SET_TEXTS_KEPT = 250_000;

/** A test set's references and sources by position, as scoring reads them. */
interface TestSetTexts {
  testSetId: string;
  references: string[][];
  sources: string[] | null;
}

/** A submission's texts as scoring reads them: column k is the instance at test-set position k. */
export interface ScoringTexts {
  /** The system's outputs. */
  outputs: string[];
  /** Each instance's references. */
  references: string[][];
  /** Each instance's source; null when the caller's `withSources` said none of its metrics reads one (they are then not read). */
  sources: string[] | null;
}

/** What {@link SubmissionRepository.quota} reads of a phase (a caller that read it already passes it). */
export interface QuotaPhase {
  dailyLimit: number;
  totalLimit: number;
  task: { oneTeamPerPerson: boolean };
}

/** The refusal of a submission over the team's (or person's) total or 24-hour limit; {@link SubmissionRepository.admit} and its one-statement form share it. */
function refuseOverQuota(quota: { usedTotal: number; usedToday: number; totalLimit: number; dailyLimit: number; perPerson: boolean; nextSlotAt: Date | null }, phaseName: string): void {
  const who = quota.perPerson ? 'you (across your teams; this task allows one team per person)' : 'team';
  if (quota.usedTotal >= quota.totalLimit) {
    throw new ForbiddenError(`${who} ${quota.perPerson ? 'have' : 'has'} used all ${quota.totalLimit} submissions of phase '${phaseName}'`);
  }
  if (quota.usedToday >= quota.dailyLimit) {
    const next = quota.nextSlotAt ? `; the next submission slot opens at ${utcMinute(quota.nextSlotAt)}` : '';
    throw new ForbiddenError(`${who} ${quota.perPerson ? 'have' : 'has'} used ${quota.perPerson ? 'your' : 'its'} ${quota.dailyLimit} submissions of the last 24 hours in phase '${phaseName}'${next}`);
  }
}

/** A second system of the same name (up to case and NFKC) for the team in the phase. */
const duplicateName = (systemName: string) => new ConflictError(`the team already has a system named '${systemName}' in this phase`, { field: 'systemName' });

export class SubmissionRepository {
  private uploadsActive = 0;
  /** The texts of the test set {@link scoringInput} read last (instances never change). */
  private testSetTexts: TestSetTexts | null = null;
  private readonly uploadWaiters: (() => void)[] = [];

  /** `pool`: raw connections for {@link createStreamed} (COPY), which Prisma does not offer; only createStreamed uses it. */
  constructor(
    private readonly db: Db,
    private readonly pool?: Pool,
    private readonly spoolMemory: SpoolMemory = new SpoolMemory(DEFAULT_SPOOL_MEMORY.perUpload, DEFAULT_SPOOL_MEMORY.total),
  ) {}

  /**
   * Submissions a team made in a phase: in the last 24 hours and in total. When the phase's task
   * allows one team per person and `personId` is given, the person's count across all their teams
   * (and what they submitted before leaving one) counts when it is higher: a second team buys no
   * more submissions.
   */
  async quota(phaseId: string, teamId: string, now = new Date(), tx: Tx | Db = this.db, personId?: string, read?: QuotaPhase): Promise<SubmissionQuota> {
    const phase = read ?? (await tx.phase.findUnique({ where: { id: phaseId }, include: { task: { select: { oneTeamPerPerson: true } } } }));
    if (!phase) throw new NotFoundError('phase', phaseId);
    const since = new Date(now.getTime() - DAY_MS);
    const counts = async (who: Prisma.SubmissionWhereInput) => {
      const counted = { phaseId, isBaseline: false, status: { not: SubmissionStatus.FAILED }, ...who };
      const [total, recent] = await Promise.all([
        tx.submission.count({ where: counted }),
        tx.submission.findMany({ where: { ...counted, createdAt: { gt: since } }, select: { createdAt: true }, orderBy: { createdAt: 'asc' } }),
      ]);
      return [total, recent.map((r) => r.createdAt)] as const;
    };
    const [teamTotal, teamRecent] = await counts({ teamId });
    let usedTotal = teamTotal;
    let recent = teamRecent;
    const perPerson = phase.task.oneTeamPerPerson && personId !== undefined;
    if (perPerson) {
      const [personTotal, personRecent] = await counts({ OR: [{ submittedById: personId }, { team: { members: { some: { userId: personId } } } }] });
      usedTotal = Math.max(usedTotal, personTotal);
      if (personRecent.length > recent.length) recent = personRecent;
    }
    const usedToday = recent.length;
    const nextSlotAt = usedToday >= phase.dailyLimit ? nextDailySlot(recent, phase.dailyLimit) : null;
    return { usedToday, usedTotal, dailyLimit: phase.dailyLimit, totalLimit: phase.totalLimit, perPerson, nextSlotAt };
  }

  /**
   * Stores a submission with all its outputs and queues its scoring job, in one transaction:
   * either everything is stored and queued, or nothing is. Limits are checked under a
   * per-(team, phase) advisory lock so that concurrent uploads cannot both pass.
   */
  async create(input: NewSubmission, enqueue: (sql: TxSql, submissionId: string) => Promise<void>) {
    const now = input.now ?? new Date();
    return this.db.$transaction(
      async (tx) => {
        await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext(${input.teamId + '/' + input.phaseId}))`;
        // Per-person limits (one team per person): two teams of one person must not both pass.
        await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext(${'person/' + input.submittedById + '/' + input.phaseId}))`;
        // Shared lock on the phase row: a close or publish (FOR UPDATE) waits for this upload, or it for them.
        await tx.$queryRaw`SELECT id FROM phase WHERE id = ${input.phaseId}::uuid FOR SHARE`;
        await this.admit(tx, input, now);
        if (input.registerForTaskId) {
          await tx.taskRegistration.createMany({ data: [{ taskId: input.registerForTaskId, teamId: input.teamId, status: 'APPROVED' }], skipDuplicates: true });
        }
        const submission = await tx.submission.create({
          data: {
            phaseId: input.phaseId,
            teamId: input.teamId,
            submittedById: input.submittedById,
            systemName: input.systemName,
            description: input.description,
            checksum: input.checksum,
            isBaseline: input.isBaseline ?? false,
            progressTotal: input.outputs.length,
            createdAt: now,
          },
        });
        await writeOutputsById(tx, submission.id, input.outputs);
        await enqueue(txSql(tx), submission.id);
        return submission;
      },
      { timeout: 120_000 },
    );
  }

  /**
   * What an upload must pass under its locks: the phase state machine, the team's (or person's)
   * limits and a free system name. `q` reads inside the upload's transaction (create) or, for
   * createStreamed, committed state while that transaction holds the same advisory locks: every
   * upload that passed before has committed by the time the locks are granted.
   */
  private async admit(q: Tx | Db, input: Pick<NewSubmission, 'phaseId' | 'teamId' | 'submittedById' | 'systemName' | 'bypassLimits'>, now: Date): Promise<void> {
    // Read once, with what quota needs of the task: one query less per upload (issue #28).
    const phase = await q.phase.findUnique({ where: { id: input.phaseId }, include: { task: { select: { oneTeamPerPerson: true } } } });
    if (!phase) throw new NotFoundError('phase', input.phaseId);
    // The phase state machine decides (docs/adr/0013-phase-state-machine.md): teams submit only
    // while it is open (an early close counts), organisers' baselines until it is published.
    const refused = phaseRefusal(phase, input.bypassLimits ? 'organiserSubmit' : 'submit', now);
    if (refused) throw new ForbiddenError(refused);
    if (!input.bypassLimits) {
      refuseOverQuota(await this.quota(input.phaseId, input.teamId, now, q, input.submittedById, phase), phase.name);
    }
    // Up to case and NFKC, as the unique index submission_system_name_key_unique compares.
    const duplicate = await q.$queryRaw<{ id: string }[]>`SELECT "id" FROM "submission" WHERE "phase_id" = ${input.phaseId}::uuid AND "team_id" = ${input.teamId}::uuid AND "status" <> 'FAILED' AND lower(normalize("system_name", NFKC)) = lower(normalize(${input.systemName}, NFKC)) LIMIT 1`;
    if (duplicate.length > 0) throw duplicateName(input.systemName);
  }

  /**
   * Stores a submission whose outputs stream in (docs/adr/0028-streamed-uploads-and-scoring-reads.md,
   * docs/adr/0037-outputs-one-row-per-submission.md): `feed` parses the upload and hands each
   * validated output to the writer, which appends it as a binary array element to a spool file
   * as it arrives (back-pressure included). Only when the file has ended and passed does a
   * connection open one short transaction: the locks and checks of {@link create}, the
   * submission row, the spool COPYed (binary) as the one `submission_output` row (at disk speed,
   * whatever the client's), the scoring job; then commit. No connection or lock is held while the
   * body is on the network; a bad line or a client gone mid-stream never reaches the database,
   * and a failure inside the transaction drops it: nothing is stored. Needs the constructor's pool.
   */
  async createStreamed(
    input: StreamedSubmission,
    feed: (out: OutputWriter) => Promise<{ checksum: string; count: number }>,
    enqueue: (sql: TxSql, submissionId: string) => Promise<void>,
  ): Promise<Submission> {
    const pool = this.pool;
    if (!pool) throw new Error('SubmissionRepository.createStreamed needs a pg pool (the second constructor argument)');
    const id = randomUUID();
    // A temporary file only when the upload outgrows the memory it may spool in.
    const spill: { dir?: string; path?: string; file?: FileHandle } = {};
    const openSpill = async (): Promise<FileHandle> => {
      spill.dir = await mkdtemp(path.join(tmpdir(), 'podium-upload-'));
      spill.path = path.join(spill.dir, 'outputs.copy');
      spill.file = await open(spill.path, 'wx', 0o600);
      return spill.file;
    };
    const spool = new ElementSpool(openSpill, input.instanceIds.length, this.spoolMemory);
    try {
      let summary: { checksum: string; count: number };
      try {
        summary = await feed(spool);
        await spool.flush(true);
      } finally {
        await spill.file?.close();
      }
      if (summary.count !== input.instanceIds.length || spool.appended !== input.instanceIds.length) {
        throw new Error(`the upload gave ${summary.count} outputs (${spool.appended} in order) for ${input.instanceIds.length} instances`);
      }
      await this.uploadSlot();
      let client: PoolClient;
      try {
        client = await pool.connect();
      } catch (e) {
        this.releaseUploadSlot();
        throw e;
      }
      let clean = false;
      try {
        await client.query('BEGIN');
        const now = input.now ?? new Date();
        await client.query('SELECT pg_advisory_xact_lock(hashtext($1)), pg_advisory_xact_lock(hashtext($2))', [input.teamId + '/' + input.phaseId, 'person/' + input.submittedById + '/' + input.phaseId]);
        // One statement, after the locks (its snapshot sees every upload of the team, and person,
        // that passed before): the shared lock on the phase row (a close or publish, FOR UPDATE,
        // waits for this commit, or it for them) and what admit reads, as admit checks it.
        const testSetId = await this.admitOnClient(client, input, now);
        if (input.registerForTaskId) {
          await client.query(`INSERT INTO task_registration (task_id, team_id, status) VALUES ($1::uuid, $2::uuid, 'APPROVED') ON CONFLICT DO NOTHING`, [input.registerForTaskId, input.teamId]);
        }
        const { rows: inserted } = await client.query<SubmissionRow>(
          `INSERT INTO submission (id, phase_id, team_id, submitted_by_id, system_name, description, checksum, is_baseline, progress_total, created_at)
           VALUES ($1::uuid, $2::uuid, $3::uuid, $4::uuid, $5, $6, $7, $8, $9, ($10::timestamptz AT TIME ZONE 'UTC'))
           RETURNING ${SUBMISSION_COLUMNS}`,
          [id, input.phaseId, input.teamId, input.submittedById, input.systemName, input.description, summary.checksum, input.isBaseline ?? false, input.instanceIds.length, now.toISOString()],
        );
        const row = inserted[0];
        if (!row) throw new Error('the submission row was not returned');
        const submission = submissionOfRow(row);
        // One row: the spool is the array's elements, framed by the row's head and the trailer.
        const head = copyOutputRowHead(id, testSetId, input.instanceIds.length, spool.bytes);
        const copy = client.query(copyFrom('COPY submission_output (submission_id, test_set_id, texts) FROM STDIN (FORMAT binary)'));
        await pipeline(async function* () {
          yield head;
          const kept = spool.inMemory;
          if (kept) yield* kept;
          else if (spill.path) yield* createReadStream(spill.path, { highWaterMark: 1 << 20 });
          else throw new Error('the spool has neither its elements nor a file');
          yield COPY_BINARY_TRAILER;
        }, copy);
        if (copy.rowCount !== 1) throw new Error(`stored ${copy.rowCount} output rows of 1`);
        await enqueue(pgTxSql(client), id);
        await client.query('COMMIT');
        clean = true;
        return submission;
      } catch (e) {
        throw uniqueNameConflict(e, input.systemName) ?? e;
      } finally {
        // On failure the connection is dropped rather than rolled back (it may be inside a COPY);
        // PostgreSQL aborts its transaction either way.
        client.release(clean ? undefined : true);
        this.releaseUploadSlot();
      }
    } finally {
      spool.release();
      if (spill.dir) await rm(spill.dir, { recursive: true, force: true });
    }
  }

  /**
   * {@link admit} in one statement on the upload's own connection, inside its transaction and
   * after its advisory locks: the phase row locked FOR SHARE, its state, the team's (or person's)
   * counts, a duplicate system name, and the test set of the instances. The same refusals, word
   * for word. Returns the test set's id.
   */
  private async admitOnClient(client: PoolClient, input: StreamedSubmission, now: Date): Promise<string> {
    const counted = `s.phase_id = p.id AND NOT s.is_baseline AND s.status <> 'FAILED'`;
    const person = `(s.submitted_by_id = $3::uuid OR s.team_id IN (SELECT m.team_id FROM membership m WHERE m.user_id = $3::uuid))`;
    const recent = `s.created_at > ($4::timestamptz AT TIME ZONE 'UTC')`;
    const { rows } = await client.query<AdmissionRow>(
      `SELECT p.name, p.daily_limit, p.total_limit, t.one_team_per_person,
         p.opens_at AT TIME ZONE 'UTC' AS opens_at, p.closes_at AT TIME ZONE 'UTC' AS closes_at,
         p.closed_early_at AT TIME ZONE 'UTC' AS closed_early_at, p.published_at AT TIME ZONE 'UTC' AS published_at,
         CASE WHEN NOT $5::boolean THEN (SELECT count(*)::int FROM submission s WHERE ${counted} AND s.team_id = $2::uuid) END AS team_total,
         CASE WHEN NOT $5::boolean THEN ARRAY(SELECT s.created_at AT TIME ZONE 'UTC' FROM submission s WHERE ${counted} AND s.team_id = $2::uuid AND ${recent} ORDER BY s.created_at) END AS team_recent,
         CASE WHEN NOT $5::boolean AND t.one_team_per_person THEN (SELECT count(*)::int FROM submission s WHERE ${counted} AND ${person}) END AS person_total,
         CASE WHEN NOT $5::boolean AND t.one_team_per_person THEN ARRAY(SELECT s.created_at AT TIME ZONE 'UTC' FROM submission s WHERE ${counted} AND ${person} AND ${recent} ORDER BY s.created_at) END AS person_recent,
         EXISTS (SELECT 1 FROM submission s WHERE s.phase_id = p.id AND s.team_id = $2::uuid AND s.status <> 'FAILED' AND lower(normalize(s.system_name, NFKC)) = lower(normalize($6, NFKC))) AS duplicate,
         (SELECT i.test_set_id::text FROM instance i WHERE i.id = $7::uuid) AS test_set_id
       FROM phase p JOIN task t ON t.id = p.task_id WHERE p.id = $1::uuid FOR SHARE OF p`,
      [input.phaseId, input.teamId, input.submittedById, new Date(now.getTime() - DAY_MS).toISOString(), input.bypassLimits === true, input.systemName, input.instanceIds[0] ?? null],
    );
    const phase = rows[0];
    if (!phase) throw new NotFoundError('phase', input.phaseId);
    const clock = { name: phase.name, opensAt: phase.opens_at, closesAt: phase.closes_at, closedEarlyAt: phase.closed_early_at, publishedAt: phase.published_at };
    const refused = phaseRefusal(clock, input.bypassLimits ? 'organiserSubmit' : 'submit', now);
    if (refused) throw new ForbiddenError(refused);
    if (!input.bypassLimits) {
      // As quota counts: the person's count across their teams when it is higher.
      const perPerson = phase.one_team_per_person;
      const usedTotal = Math.max(phase.team_total ?? 0, perPerson ? (phase.person_total ?? 0) : 0);
      const teamRecent = phase.team_recent ?? [];
      const recentTimes = perPerson && (phase.person_recent ?? []).length > teamRecent.length ? (phase.person_recent ?? []) : teamRecent;
      const quota = { usedToday: recentTimes.length, usedTotal, dailyLimit: phase.daily_limit, totalLimit: phase.total_limit, perPerson };
      const nextSlotAt = quota.usedToday >= quota.dailyLimit ? nextDailySlot(recentTimes, quota.dailyLimit) : null;
      refuseOverQuota({ ...quota, nextSlotAt }, phase.name);
    }
    if (phase.duplicate) throw duplicateName(input.systemName);
    if (phase.test_set_id === null) throw new NotFoundError('instance', input.instanceIds[0] ?? '');
    return phase.test_set_id;
  }

  /**
   * Waits for one of the pool's connections to be this process's to take: uploads of one team
   * queue on their advisory lock holding a connection each, so fifty at once would otherwise wait
   * in the pool past its connect timeout (a 503) although nothing is wrong. Here they wait in
   * line instead; the connect timeout keeps meaning "the database does not answer" (ADR 0019).
   */
  private async uploadSlot(): Promise<void> {
    const max = this.pool?.options.max ?? 1;
    if (this.uploadsActive < max) {
      this.uploadsActive++;
      return;
    }
    await new Promise<void>((resolve) => this.uploadWaiters.push(resolve));
  }

  private releaseUploadSlot(): void {
    const next = this.uploadWaiters.shift();
    if (next) next();
    else this.uploadsActive--;
  }

  async byId(id: string) {
    return this.db.submission.findUnique({ where: { id }, include: { team: true, phase: { include: { task: true } } } });
  }

  /** The team's description of its system and its links (null removes a link). */
  async updateMetadata(submissionId: string, changes: { description?: string; paperUrl?: string | null; codeUrl?: string | null }) {
    return this.db.submission.update({ where: { id: submissionId }, data: changes, include: { team: true } });
  }

  /** A submission's outputs in test-set order, `chunk` instances at a time (the bulk download of a phase). */
  async *outputRows(submissionId: string, instanceCount: number, chunk = 5000): AsyncGenerator<{ instanceId: string; position: number; text: string }[]> {
    const stored = (await readOutputTexts(this.db, [submissionId])).get(submissionId);
    if (!stored) return;
    for (let from = 0; from < Math.min(instanceCount, stored.texts.length); from += chunk) {
      const ids = await this.db.instance.findMany({
        where: { testSetId: stored.testSetId, position: { gte: from, lt: from + chunk } },
        select: { externalId: true, position: true },
        orderBy: { position: 'asc' },
      });
      const rows: { instanceId: string; position: number; text: string }[] = [];
      for (const i of ids) {
        const text = stored.texts[i.position];
        if (text !== null && text !== undefined) rows.push({ instanceId: i.externalId, position: i.position, text });
      }
      if (rows.length > 0) yield rows;
    }
  }

  async ofPhase(phaseId: string, filter: { teamId?: string; status?: SubmissionStatus } = {}) {
    return this.db.submission.findMany({
      where: { phaseId, ...filter },
      orderBy: [{ createdAt: 'asc' }, { systemName: 'asc' }],
      include: { team: true },
    });
  }

  /**
   * Resets submissions for scoring again and queues their jobs, in one transaction. A submission
   * being scored under a live lease is refused; one whose lease lapsed (its worker stopped) is
   * taken back. `reason` is what the submission shows while queued (null: a plain rescore).
   */
  async requeue(
    submissionIds: string[],
    enqueue: (sql: TxSql, submissionId: string) => Promise<void>,
    reason: string | null = null,
    alongside?: (tx: Prisma.TransactionClient) => Promise<void>,
  ) {
    return this.db.$transaction(async (tx) => {
      // Writes that belong to the same action (a re-score's history and audit entry) commit or
      // roll back with the requeue.
      if (alongside) await alongside(tx);
      for (const id of submissionIds) {
        const sources = sourcesOf(SubmissionStatus.QUEUED);
        const updated = await tx.$executeRaw`
          UPDATE submission SET status = 'QUEUED', error = NULL, progress_done = 0, attempt = 0, retry_reason = ${reason},
                 lease_owner = NULL, lease_job_id = NULL, lease_expires_at = NULL
          WHERE id = ${id}::uuid AND status::text = ANY(${sources}::text[])
            AND (status <> 'SCORING' OR lease_expires_at IS NULL OR lease_expires_at < now())`;
        if (updated === 0) {
          const exists = await tx.submission.findUnique({ where: { id } });
          if (!exists) throw new NotFoundError('submission', id);
          if (exists.status === SubmissionStatus.SCORING && exists.leaseOwner && exists.leaseExpiresAt) {
            throw new LeaseHeldError(id, exists.leaseOwner, exists.leaseExpiresAt);
          }
          throw new IllegalTransitionError(id, exists.status, SubmissionStatus.QUEUED);
        }
        await enqueue(txSql(tx), id);
      }
      return submissionIds.length;
    });
  }

  /** Submissions that look stuck: SCORING without a live lease. */
  /** `taskIds`: only submissions of these tasks' phases, or 'all' (administrators). */
  async stuck(taskIds: readonly string[] | 'all' = 'all'): Promise<string[]> {
    if (taskIds !== 'all' && taskIds.length === 0) return [];
    const rows =
      taskIds === 'all'
        ? await this.db.$queryRaw<{ id: string }[]>`
      SELECT id::text FROM submission WHERE status = 'SCORING' AND (lease_expires_at IS NULL OR lease_expires_at < now()) ORDER BY created_at`
        : await this.db.$queryRaw<{ id: string }[]>`
      SELECT s.id::text FROM submission s JOIN phase p ON p.id = s.phase_id
      WHERE s.status = 'SCORING' AND (s.lease_expires_at IS NULL OR s.lease_expires_at < now()) AND p.task_id = ANY(${[...taskIds]}::uuid[]) ORDER BY s.created_at`;
    return rows.map((r) => r.id);
  }

  /**
   * What scoring a submission reads: the submission with its phase and task, and its outputs
   * with their instances' references (and sources, when `withSources` says the task's metrics
   * read them) in test-set position order, as columns (no object per instance).
   *
   * The outputs come as one JSON text per 5,000 positions ({@link readOutputTexts}); the
   * references and sources of the test set as one JSON text per {@link SCORING_READ_CHUNK}
   * positions, built by PostgreSQL and parsed by JSON.parse (the per-row object mapping of a
   * relation query cost a scoring job more than a third of what its metrics did; issue #28).
   * Instances never change once their test set is stored (a new test set has a new id), so the
   * texts of the test set read last are kept, for up to {@link TEST_SET_TEXTS_KEPT} instances:
   * a worker scoring several submissions of one test set reads its references once.
   */
  async scoringInput(
    submissionId: string,
    /** Whether the task's metrics read sources (NLI, embedding metrics); BLEU, chrF, TER and ROUGE do not, and then no source is read. */
    withSources: (task: Task) => boolean = () => true,
  ): Promise<{ submission: NonNullable<Awaited<ReturnType<SubmissionRepository['submissionWithTask']>>>; task: Task; texts: ScoringTexts } | null> {
    const submission = await this.submissionWithTask(submissionId);
    if (!submission) return null;
    const task = submission.phase.task;
    const sourced = withSources(task);
    const stored = (await readOutputTexts(this.db, [submissionId])).get(submissionId);
    let count = 0;
    for (const t of stored?.texts ?? []) if (t !== null) count++;
    const texts: ScoringTexts = { outputs: new Array<string>(count), references: new Array<string[]>(count), sources: sourced ? new Array<string>(count) : null };
    if (!stored || count === 0) return { submission, task, texts };
    const instances = await this.testSetTextsOf(stored.testSetId, sourced);
    let k = 0;
    for (let p = 0; p < stored.texts.length; p++) {
      const output = stored.texts[p];
      if (output === null || output === undefined) continue;
      const references = instances.references[p];
      if (references === undefined) throw new Error(`submission ${submissionId} has an output at position ${p}, which test set ${stored.testSetId} has no instance at`);
      texts.outputs[k] = output;
      texts.references[k] = references;
      if (texts.sources) texts.sources[k] = instances.sources?.[p] ?? '';
      k++;
    }
    return { submission, task, texts };
  }

  /** References (and sources when `sourced`) of a test set by position: the ones kept from the last read when they serve, else read and kept. */
  private async testSetTextsOf(testSetId: string, sourced: boolean): Promise<TestSetTexts> {
    const kept = this.testSetTexts;
    if (kept && kept.testSetId === testSetId && (!sourced || kept.sources)) return kept;
    const chunks = await this.db.$queryRaw<{ chunk: number; rows: string }[]>`
      SELECT (position / ${SCORING_READ_CHUNK}::int)::int AS chunk,
             json_agg(CASE WHEN ${sourced}::boolean THEN json_build_array(position, "references", source) ELSE json_build_array(position, "references") END ORDER BY position)::text AS rows
      FROM instance WHERE test_set_id = ${testSetId}::uuid
      GROUP BY 1 ORDER BY 1`;
    const read: TestSetTexts = { testSetId, references: [], sources: sourced ? [] : null };
    for (const chunk of chunks) {
      for (const [position, references, source] of JSON.parse(chunk.rows) as [number, string[], string?][]) {
        read.references[position] = references;
        if (read.sources) read.sources[position] = source ?? '';
      }
    }
    this.testSetTexts = read.references.length <= TEST_SET_TEXTS_KEPT ? read : null;
    return read;
  }

  private submissionWithTask(submissionId: string) {
    return this.db.submission.findUnique({ where: { id: submissionId }, include: { phase: { include: { task: true } } } });
  }

  /**
   * Takes the lease on a submission for `owner` running pg-boss job `jobId` (compare-and-set):
   * QUEUED → SCORING, or a SCORING submission whose lease lapsed. A live lease held by another
   * run is refused with {@link LeaseHeldError}: a second concurrent scoring run never starts.
   */
  async acquireLease(submissionId: string, owner: string, jobId: string | null, ttlSeconds: number): Promise<LeaseOutcome> {
    const rows = await this.db.$queryRaw<{ attempt: number; token: bigint }[]>`
      UPDATE submission SET status = 'SCORING', attempt = attempt + 1, progress_done = 0, error = NULL, fencing_token = fencing_token + 1,
             lease_owner = ${owner}, lease_job_id = ${jobId}, lease_expires_at = now() + make_interval(secs => ${ttlSeconds}::float8)
      WHERE id = ${submissionId}::uuid
        AND (status = 'QUEUED' OR (status = 'SCORING' AND (lease_expires_at IS NULL OR lease_expires_at < now())))
      RETURNING attempt, fencing_token AS token`;
    const [acquired] = rows;
    if (acquired && rows.length === 1) return { kind: 'acquired', attempt: acquired.attempt, token: acquired.token };
    const current = await this.db.submission.findUnique({ where: { id: submissionId } });
    if (!current) return { kind: 'gone' };
    if (current.status === SubmissionStatus.SCORING) {
      throw new LeaseHeldError(submissionId, current.leaseOwner ?? 'another worker', current.leaseExpiresAt ?? new Date());
    }
    return { kind: 'settled', status: current.status };
  }

  /**
   * Renews the leases `owner` holds, each only while the row still carries the token of its
   * claim and the lease has not lapsed (a lapsed lease is the reaper's, even before it acted);
   * returns the ids still held (a missing id was taken back). One statement for all.
   *
   * The new expiry counts from `sentAt`, the worker's clock when it sent the renewal, when that
   * is earlier than the server's: a renewal held up in the network (a partitioned worker's,
   * delivered by TCP after the link healed) cannot push the lease past what it asked for when
   * it was sent (docs/adr/0017). A worker clock behind the server's shortens its leases by the
   * skew; one ahead changes nothing.
   */
  async renewLeases(owner: string, held: readonly { id: string; token: bigint }[], ttlSeconds: number, sentAt: Date = new Date()): Promise<string[]> {
    if (held.length === 0) return [];
    const ids = held.map((h) => h.id);
    const tokens = held.map((h) => h.token.toString());
    const rows = await this.db.$queryRaw<{ id: string }[]>`
      UPDATE submission s SET lease_expires_at = LEAST(now(), ${sentAt}::timestamptz) + make_interval(secs => ${ttlSeconds}::float8)
      FROM unnest(${ids}::uuid[], ${tokens}::bigint[]) AS h(id, token)
      WHERE s.id = h.id AND s.fencing_token = h.token AND s.status = 'SCORING' AND s.lease_owner = ${owner}
        AND s.lease_expires_at > now()
      RETURNING s.id::text`;
    return rows.map((r) => r.id);
  }

  /**
   * Hands a submission back to the queue: SCORING (held by `owner`) → QUEUED with `reason`
   * (`shutdown`, `error`). The caller retries or re-sends its job. False when not held.
   */
  async releaseLease(submissionId: string, holder: LeaseHolder, reason: string, alsoInTx?: (sql: TxSql) => Promise<void>): Promise<boolean> {
    return this.db.$transaction(async (tx) => {
      const n = await tx.$executeRaw`
        UPDATE submission SET status = 'QUEUED', retry_reason = ${reason}, lease_owner = NULL, lease_job_id = NULL, lease_expires_at = NULL
        WHERE id = ${submissionId}::uuid AND status = 'SCORING' AND lease_owner = ${holder.owner} AND fencing_token = ${holder.token}`;
      if (n !== 1) return false;
      await alsoInTx?.(txSql(tx));
      return true;
    });
  }

  /**
   * Finds submissions whose lease lapsed (their worker stopped heartbeating) and hands each back
   * in its own transaction: `handBack` retries or re-sends its job there and says whether
   * attempts remain; the submission becomes QUEUED ("retrying after a worker stopped") or, with
   * none left, FAILED with the reason. Rows are locked with SKIP LOCKED, so reapers in several
   * processes never take the same submission twice. `orphansOf`: also the leases held under this
   * worker name, lapsed or not: a worker that starts holds nothing yet, so a lease under its own
   * name is its previous process's, which died (a restarted pod or service keeps its name; ADR 0031).
   */
  async reapExpiredLeases(
    handBack: (sql: TxSql, lapsed: LapsedLease) => Promise<'retry' | 'exhausted'>,
    options: { limit?: number; onlyIds?: string[]; orphansOf?: string } = {},
  ): Promise<{ requeued: LapsedLease[]; failed: LapsedLease[] }> {
    const requeued: LapsedLease[] = [];
    const failed: LapsedLease[] = [];
    const only = options.onlyIds ?? null;
    const orphansOf = options.orphansOf ?? null;
    const candidates = await this.db.$queryRaw<{ id: string }[]>`
      SELECT id::text FROM submission WHERE status = 'SCORING' AND (lease_expires_at < now() OR lease_owner = ${orphansOf}::text)
        AND (${only}::uuid[] IS NULL OR id = ANY(${only}::uuid[]))
      ORDER BY lease_expires_at LIMIT ${options.limit ?? 20}`;
    for (const { id } of candidates) {
      await this.db.$transaction(async (tx) => {
        const [row] = await tx.$queryRaw<LapsedLease[]>`
          SELECT id::text AS "submissionId", lease_owner AS "owner", lease_job_id AS "jobId", attempt
          FROM submission WHERE id = ${id}::uuid AND status = 'SCORING' AND (lease_expires_at < now() OR lease_owner = ${orphansOf}::text)
          FOR UPDATE SKIP LOCKED`;
        if (!row) return;
        const outcome = await handBack(txSql(tx), row);
        if (outcome === 'retry') {
          await tx.$executeRaw`
            UPDATE submission SET status = 'QUEUED', retry_reason = 'worker-stopped', lease_owner = NULL, lease_job_id = NULL, lease_expires_at = NULL
            WHERE id = ${id}::uuid`;
          requeued.push(row);
        } else {
          await tx.$executeRaw`
            UPDATE submission SET status = 'FAILED', error = ${`the worker scoring it stopped during attempt ${row.attempt}, the last one`},
                   lease_owner = NULL, lease_job_id = NULL, lease_expires_at = NULL
            WHERE id = ${id}::uuid`;
          failed.push(row);
        }
      });
    }
    return { requeued, failed };
  }

  /** Records a worker's heartbeat (live workers in /api/health); `activeJobs` it holds now. */
  async heartbeat(worker: { name: string; host: string; pid: number; activeJobs: number }): Promise<void> {
    await this.db.$executeRaw`
      INSERT INTO worker_heartbeat (name, host, pid, active_jobs, started_at, last_seen_at)
      VALUES (${worker.name}, ${worker.host}, ${worker.pid}, ${worker.activeJobs}, now(), now())
      ON CONFLICT (name) DO UPDATE SET host = EXCLUDED.host, pid = EXCLUDED.pid, active_jobs = EXCLUDED.active_jobs, last_seen_at = now()`;
  }

  async removeHeartbeat(name: string): Promise<void> {
    await this.db.$executeRaw`DELETE FROM worker_heartbeat WHERE name = ${name}`;
  }

  /** Workers seen within `withinSeconds`, newest first. */
  async liveWorkers(withinSeconds: number) {
    return this.db.$queryRaw<{ name: string; host: string; pid: number; activeJobs: number; lastSeenAt: Date }[]>`
      SELECT name, host, pid, active_jobs AS "activeJobs", last_seen_at AS "lastSeenAt" FROM worker_heartbeat
      WHERE last_seen_at > now() - make_interval(secs => ${withinSeconds}::float8) ORDER BY last_seen_at DESC`;
  }

  /**
   * The worker's progress while it scores. It sends these without waiting, so one may reach the
   * database after {@link saveScores} set the progress to the total: it changes nothing on a
   * settled submission (the row lock makes a concurrent one re-read the status), so a scored
   * submission never shows 2/3.
   */
  async setProgress(submissionId: string, done: number) {
    await this.db.submission.updateMany({ where: { id: submissionId, status: { notIn: ['SCORED', 'FAILED'] } }, data: { progressDone: done } });
  }

  /**
   * Replaces all scores of a submission and marks it scored, in one transaction, so a retried
   * job never duplicates scores and readers never see half a submission. A worker passes its
   * lease (`holder`: its name and the fencing token of its claim) and writes only while the row
   * still carries that token ({@link LeaseLostError} otherwise, nothing written: a worker that
   * lost its lease while partitioned cannot write late); without one (imports, fixtures: a
   * rescore and its result at once) the write is refused only while a worker holds a live lease.
   *
   * `scores` are columns (one per metric, every instance in test-set position order, with the
   * corpus metrics' statistics: what the worker writes, one INSERT each) or rows keyed by
   * instance id (fixtures, imports), which become columns with NaN where an instance has none.
   */
  async saveScores(
    submissionId: string,
    scores: readonly ScoreColumnInput[] | readonly InstanceScoreInput[],
    corpusScores: { metric: string; signature: string; value: number }[],
    holder?: LeaseHolder,
    /** Runs just before commit (fault injection: a worker killed inside its final transaction). */
    beforeCommit?: () => Promise<void>,
  ) {
    const keyed = isKeyedRows(scores);
    if (keyed) {
      for (const s of scores) {
        if (!Number.isFinite(s.value)) throw new InvalidInputError(`non-finite ${s.metric} score for instance ${s.instanceId}`, { instanceId: s.instanceId });
      }
    }
    // Encoded before the transaction opens, so it stays as short as the writes.
    const encoded = keyed ? [] : scores.map(encodeColumn);
    await this.db.$transaction(
      async (tx) => {
        // First, under the row lock (the UPDATE takes it until commit): only the holder of the
        // current claim (its fencing token) may settle the submission; a run whose lease was
        // taken back (reaped, claimed again) writes nothing.
        const total = (await outputExtent(tx, submissionId))?.count ?? 0;
        const owner = holder?.owner ?? null;
        const token = holder?.token ?? null;
        const settled = await tx.$executeRaw`
          UPDATE submission SET status = 'SCORED', error = NULL, retry_reason = NULL, scored_at = now(), progress_done = ${total}, progress_total = ${total},
                 lease_owner = NULL, lease_job_id = NULL, lease_expires_at = NULL
          WHERE id = ${submissionId}::uuid
            AND ((${token}::bigint IS NOT NULL AND status = 'SCORING' AND fencing_token = ${token}::bigint AND lease_owner = ${owner})
              OR (${token}::bigint IS NULL AND NOT (status = 'SCORING' AND lease_expires_at > now())))`;
        if (settled !== 1) {
          const current = await tx.submission.findUnique({ where: { id: submissionId } });
          if (!current) throw new NotFoundError('submission', submissionId);
          if (holder) throw new LeaseLostError(submissionId, holder.owner, holder.token, current.fencingToken);
          throw new LeaseHeldError(submissionId, current.leaseOwner ?? 'a worker', current.leaseExpiresAt ?? new Date());
        }
        await tx.$executeRaw`DELETE FROM score_column WHERE submission_id = ${submissionId}::uuid`;
        await tx.corpusScore.deleteMany({ where: { submissionId } });
        if (scores.length > 0) {
          const testSet = await testSetOfOutputs(tx, submissionId);
          const columns = keyed ? await columnsOfRows(tx, submissionId, testSet, scores) : encoded;
          for (const c of columns) {
            if (c.count !== testSet.count) {
              throw new InvalidInputError(`${c.metric} has ${c.count} scores but the test set has ${testSet.count} instances`, { field: 'scores' });
            }
            await tx.$executeRaw`
              INSERT INTO score_column (submission_id, metric, test_set_id, signature, count, scored, "values", stats)
              VALUES (${submissionId}::uuid, ${c.metric}, ${testSet.id}::uuid, ${c.signature}, ${c.count}, ${c.scored}, ${c.values}, ${c.stats})`;
          }
        }
        // Values as their shortest round-trip text: a float8 parameter bound by Prisma loses the
        // 17th significant digit (32.971574248083776 was stored as 32.97157424808378).
        if (corpusScores.length > 0) {
          await tx.$executeRaw`
            INSERT INTO corpus_score (submission_id, metric, signature, value)
            SELECT ${submissionId}::uuid, m, s, v::float8 FROM unnest(${corpusScores.map((c) => c.metric)}::text[], ${corpusScores.map((c) => c.signature)}::text[], ${corpusScores.map((c) => String(c.value))}::text[]) AS t(m, s, v)`;
        }
        await beforeCommit?.();
      },
      { timeout: 120_000 },
    );
  }

  /**
   * QUEUED/SCORING → FAILED with the reason. With `holder`, only while that claim (its fencing
   * token) holds the lease (a stale run cannot fail a submission another worker now scores);
   * with `null`, only while QUEUED and unleased. False when nothing changed; without either, an
   * illegal change throws.
   */
  async markFailed(submissionId: string, reason: string, holder?: LeaseHolder | null): Promise<boolean> {
    // holder null: only a QUEUED submission that no worker holds (its last job failed unleased).
    const held =
      holder === null
        ? { status: SubmissionStatus.QUEUED, leaseOwner: null }
        : holder
          ? { status: SubmissionStatus.SCORING, leaseOwner: holder.owner, fencingToken: holder.token }
          : {};
    const r = await this.db.submission.updateMany({
      where: { id: submissionId, status: { in: sourcesOf(SubmissionStatus.FAILED) }, ...held },
      data: { status: SubmissionStatus.FAILED, error: reason.slice(0, 2000), leaseOwner: null, leaseJobId: null, leaseExpiresAt: null },
    });
    if (r.count === 1) return true;
    if (holder !== undefined) return false;
    const current = await this.db.submission.findUnique({ where: { id: submissionId } });
    if (!current) throw new NotFoundError('submission', submissionId);
    throw new IllegalTransitionError(submissionId, current.status, SubmissionStatus.FAILED);
  }
}

export { Prisma };
