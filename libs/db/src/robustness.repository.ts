import { LeaseLostError, NotFoundError, type LeaseHolder } from '@podium/domain';
import { readOutputTexts } from './output-texts';
import type { Db } from './client';
import { Prisma, RobustnessStatus } from './generated/client';
import { readColumns } from './score.repository';
import { txSql, type TxSql } from './submission.repository';

/** One report to (re)compute: a task's metric on a suite in a mode. */
export interface RobustnessRequest {
  taskId: string;
  metric: string;
  suite: string;
  mode: string;
}

/** Everything a worker needs to compute a report. */
export interface RobustnessJobInput {
  report: { id: string; metric: string; suite: string; mode: string; attempt: number; status: RobustnessStatus };
  task: { id: string; slug: string; kind: string; sourceLang: string; targetLang: string; metrics: Prisma.JsonValue };
}

/** The result of trying to take a report's lease for a job of `attempt`. */
export type ReportLeaseOutcome =
  /** `token`: the fencing token of this claim; `runs`: runs started for this attempt, this one included. */
  | { kind: 'acquired'; token: bigint; runs: number }
  | { kind: 'gone' }
  /** A rerun was queued since the job was sent: the job is for an old attempt. */
  | { kind: 'stale'; attempt: number }
  /** Another run holds a live lease. */
  | { kind: 'held'; owner: string; expiresAt: Date }
  /** DONE or FAILED: nothing to do (a late duplicate job). */
  | { kind: 'settled'; status: RobustnessStatus };

/** A report whose worker stopped renewing its lease. */
export interface LapsedReportLease {
  reportId: string;
  owner: string | null;
  jobId: string | null;
  attempt: number;
  runs: number;
}

export class RobustnessRepository {
  constructor(private readonly db: Db) {}

  /**
   * Queues reports in one transaction: each (task, metric, suite, mode) row is created, or reset
   * to QUEUED with its attempt bumped (a rerun replaces the previous result), and its job is sent
   * through `enqueue` inside the same transaction.
   */
  async queue(requests: readonly RobustnessRequest[], enqueue: (sql: TxSql, reportId: string, attempt: number) => Promise<void>) {
    return this.db.$transaction(async (tx) => {
      const out = [];
      for (const r of requests) {
        const report = await tx.robustnessReport.upsert({
          where: { taskId_metric_suite_mode: { taskId: r.taskId, metric: r.metric, suite: r.suite, mode: r.mode } },
          create: { taskId: r.taskId, metric: r.metric, suite: r.suite, mode: r.mode },
          update: {
            status: RobustnessStatus.QUEUED,
            attempt: { increment: 1 },
            error: null,
            result: Prisma.DbNull,
            signature: '',
            createdAt: new Date(),
            startedAt: null,
            finishedAt: null,
            runs: 0,
            leaseOwner: null,
            leaseJobId: null,
            leaseExpiresAt: null,
          },
        });
        await enqueue(txSql(tx), report.id, report.attempt);
        out.push(report);
      }
      return out;
    });
  }

  /** Reports of a task, by metric, suite and mode. */
  async ofTask(taskId: string) {
    return this.db.robustnessReport.findMany({ where: { taskId }, orderBy: [{ metric: 'asc' }, { suite: 'asc' }, { mode: 'asc' }] });
  }

  async countOfTask(taskId: string): Promise<number> {
    return this.db.robustnessReport.count({ where: { taskId } });
  }

  async byId(id: string) {
    return this.db.robustnessReport.findUnique({ where: { id } });
  }

  async jobInput(reportId: string): Promise<RobustnessJobInput | null> {
    const row = await this.db.robustnessReport.findUnique({ where: { id: reportId }, include: { task: true } });
    if (!row) return null;
    const { task } = row;
    return {
      report: { id: row.id, metric: row.metric, suite: row.suite, mode: row.mode, attempt: row.attempt, status: row.status },
      task: { id: task.id, slug: task.slug, kind: task.kind, sourceLang: task.sourceLang, targetLang: task.targetLang, metrics: task.metrics },
    };
  }

  /**
   * Takes the report's lease for a job of `attempt` (compare-and-set, docs/adr/0017): QUEUED →
   * RUNNING, or a RUNNING report whose lease lapsed; every claim takes the next fencing token.
   */
  async acquireLease(reportId: string, attempt: number, owner: string, jobId: string | null, ttlSeconds: number): Promise<ReportLeaseOutcome> {
    const rows = await this.db.$queryRaw<{ token: bigint; runs: number }[]>`
      UPDATE robustness_report SET status = 'RUNNING', started_at = now(), runs = runs + 1, fencing_token = fencing_token + 1,
             lease_owner = ${owner}, lease_job_id = ${jobId}, lease_expires_at = now() + make_interval(secs => ${ttlSeconds}::float8)
      WHERE id = ${reportId}::uuid AND attempt = ${attempt}
        AND (status = 'QUEUED' OR (status = 'RUNNING' AND (lease_expires_at IS NULL OR lease_expires_at < now())))
      RETURNING fencing_token AS token, runs`;
    const [acquired] = rows;
    if (acquired) return { kind: 'acquired', token: acquired.token, runs: acquired.runs };
    const current = await this.db.robustnessReport.findUnique({ where: { id: reportId } });
    if (!current) return { kind: 'gone' };
    if (current.attempt !== attempt) return { kind: 'stale', attempt: current.attempt };
    if (current.status === RobustnessStatus.RUNNING) return { kind: 'held', owner: current.leaseOwner ?? 'another worker', expiresAt: current.leaseExpiresAt ?? new Date() };
    return { kind: 'settled', status: current.status };
  }

  /** Renews the leases `owner` holds (each only with its claim's token, unlapsed, counted from `sentAt`; see SubmissionRepository.renewLeases); returns the ids still held. */
  async renewLeases(owner: string, held: readonly { id: string; token: bigint }[], ttlSeconds: number, sentAt: Date = new Date()): Promise<string[]> {
    if (held.length === 0) return [];
    const ids = held.map((h) => h.id);
    const tokens = held.map((h) => h.token.toString());
    const rows = await this.db.$queryRaw<{ id: string }[]>`
      UPDATE robustness_report r SET lease_expires_at = LEAST(now(), ${sentAt}::timestamptz) + make_interval(secs => ${ttlSeconds}::float8)
      FROM unnest(${ids}::uuid[], ${tokens}::bigint[]) AS h(id, token)
      WHERE r.id = h.id AND r.fencing_token = h.token AND r.status = 'RUNNING' AND r.lease_owner = ${owner}
        AND r.lease_expires_at > now()
      RETURNING r.id::text`;
    return rows.map((r) => r.id);
  }

  /** RUNNING (held by `holder`) → QUEUED, with `alsoInTx` (the job's retry) in the same transaction. False when not held. */
  async releaseLease(reportId: string, holder: LeaseHolder, alsoInTx?: (sql: TxSql) => Promise<void>): Promise<boolean> {
    return this.db.$transaction(async (tx) => {
      const n = await tx.$executeRaw`
        UPDATE robustness_report SET status = 'QUEUED', lease_owner = NULL, lease_job_id = NULL, lease_expires_at = NULL
        WHERE id = ${reportId}::uuid AND status = 'RUNNING' AND lease_owner = ${holder.owner} AND fencing_token = ${holder.token}`;
      if (n !== 1) return false;
      await alsoInTx?.(txSql(tx));
      return true;
    });
  }

  /**
   * Hands reports whose lease lapsed back, each in its own transaction with its rows locked
   * (SKIP LOCKED: reapers in several processes never take one twice): `handBack` retries or
   * re-sends its job there and says whether runs remain; the report becomes QUEUED or FAILED.
   * `orphansOf`: also the leases held under this worker name, lapsed or not (see
   * SubmissionRepository.reapExpiredLeases).
   */
  async reapExpiredLeases(
    handBack: (sql: TxSql, lapsed: LapsedReportLease) => Promise<'retry' | 'exhausted'>,
    options: { limit?: number; onlyIds?: string[]; orphansOf?: string } = {},
  ): Promise<{ requeued: LapsedReportLease[]; failed: LapsedReportLease[] }> {
    const requeued: LapsedReportLease[] = [];
    const failed: LapsedReportLease[] = [];
    const only = options.onlyIds ?? null;
    const orphansOf = options.orphansOf ?? null;
    const candidates = await this.db.$queryRaw<{ id: string }[]>`
      SELECT id::text FROM robustness_report WHERE status = 'RUNNING' AND (lease_expires_at < now() OR lease_owner = ${orphansOf}::text)
        AND (${only}::uuid[] IS NULL OR id = ANY(${only}::uuid[]))
      ORDER BY lease_expires_at LIMIT ${options.limit ?? 20}`;
    for (const { id } of candidates) {
      await this.db.$transaction(async (tx) => {
        const [row] = await tx.$queryRaw<LapsedReportLease[]>`
          SELECT id::text AS "reportId", lease_owner AS "owner", lease_job_id AS "jobId", attempt, runs
          FROM robustness_report WHERE id = ${id}::uuid AND status = 'RUNNING' AND (lease_expires_at < now() OR lease_owner = ${orphansOf}::text)
          FOR UPDATE SKIP LOCKED`;
        if (!row) return;
        const outcome = await handBack(txSql(tx), row);
        if (outcome === 'retry') {
          await tx.$executeRaw`
            UPDATE robustness_report SET status = 'QUEUED', lease_owner = NULL, lease_job_id = NULL, lease_expires_at = NULL WHERE id = ${id}::uuid`;
          requeued.push(row);
        } else {
          await tx.$executeRaw`
            UPDATE robustness_report SET status = 'FAILED', error = ${`the worker computing it stopped during run ${row.runs}, the last one`}, finished_at = now(),
                   lease_owner = NULL, lease_job_id = NULL, lease_expires_at = NULL
            WHERE id = ${id}::uuid`;
          failed.push(row);
        }
      });
    }
    return { requeued, failed };
  }

  /**
   * Stores a finished report in one statement, only for the current attempt (a rerun queued in
   * the meantime wins: false) and, with `holder`, only while the row carries its claim's token
   * ({@link LeaseLostError} otherwise: the lease was taken back and claimed again).
   */
  async saveResult(reportId: string, attempt: number, signature: string, result: Prisma.InputJsonValue, holder?: LeaseHolder): Promise<boolean> {
    const r = await this.db.robustnessReport.updateMany({
      where: { id: reportId, attempt, ...(holder ? { status: RobustnessStatus.RUNNING, leaseOwner: holder.owner, fencingToken: holder.token } : {}) },
      data: { status: RobustnessStatus.DONE, signature, result, error: null, finishedAt: new Date(), leaseOwner: null, leaseJobId: null, leaseExpiresAt: null },
    });
    if (r.count === 1) return true;
    if (!holder) return false;
    const current = await this.db.robustnessReport.findUnique({ where: { id: reportId }, select: { attempt: true, fencingToken: true } });
    if (!current || current.attempt !== attempt) return false;
    throw new LeaseLostError(reportId, holder.owner, holder.token, current.fencingToken, 'robustness report');
  }

  /** FAILED with the reason, for the current attempt and, with `holder`, only while that claim holds the lease. */
  async markFailed(reportId: string, attempt: number, error: string, holder?: LeaseHolder): Promise<boolean> {
    const r = await this.db.robustnessReport.updateMany({
      where: { id: reportId, attempt, ...(holder ? { status: RobustnessStatus.RUNNING, leaseOwner: holder.owner, fencingToken: holder.token } : {}) },
      data: { status: RobustnessStatus.FAILED, error: error.slice(0, 2000), finishedAt: new Date(), leaseOwner: null, leaseJobId: null, leaseExpiresAt: null },
    });
    return r.count === 1;
  }

  /**
   * The task's references and sources for suite generation: every instance of every test set
   * of the task, in test-set creation order then position.
   */
  async taskTexts(taskId: string): Promise<{ source: string; references: string[] }[]> {
    const task = await this.db.task.findUnique({ where: { id: taskId }, select: { id: true } });
    if (!task) throw new NotFoundError('task', taskId);
    return this.db.instance.findMany({
      where: { testSet: { taskId } },
      orderBy: [{ testSet: { createdAt: 'asc' } }, { position: 'asc' }],
      select: { source: true, references: true },
    });
  }

  /**
   * Human judgements of a phase's test set next to the phase's scored systems (the latest
   * scored submission per system name). Human scores of several systems on one instance with
   * the same score and identical outputs are one judgement of joined systems (WMT's "A+B",
   * stored as one row per system), so they count once at segment level.
   */
  async humanJudgements(phaseId: string): Promise<{
    systems: { systemName: string; submissionId: string }[];
    judgements: { position: number; systems: string[]; human: number }[];
  }> {
    const phase = await this.db.phase.findUnique({ where: { id: phaseId }, select: { testSetId: true } });
    if (!phase) throw new NotFoundError('phase', phaseId);
    if (!phase.testSetId) return { systems: [], judgements: [] };
    const human = await this.db.humanScore.findMany({
      where: { instance: { testSetId: phase.testSetId } },
      select: { instanceId: true, systemName: true, score: true, instance: { select: { position: true } } },
    });
    if (human.length === 0) return { systems: [], judgements: [] };
    const scored = await this.db.submission.findMany({
      where: { phaseId, status: 'SCORED' },
      orderBy: [{ createdAt: 'desc' }, { id: 'asc' }],
      select: { id: true, systemName: true },
    });
    const latest = new Map<string, string>();
    for (const s of scored) if (!latest.has(s.systemName)) latest.set(s.systemName, s.id);
    const judged = new Set(human.map((h) => h.systemName));
    const systems = [...latest].filter(([name]) => judged.has(name)).map(([systemName, submissionId]) => ({ systemName, submissionId }));
    const stored = await readOutputTexts(this.db, systems.map((s) => s.submissionId));
    const textsOf = new Map([...stored].filter(([, o]) => o.testSetId === phase.testSetId).map(([id, o]) => [id, o.texts]));
    const groups = new Map<string, { position: number; systems: [string, ...string[]]; human: number }>();
    for (const h of human) {
      const sub = latest.get(h.systemName);
      const text = sub === undefined ? undefined : (textsOf.get(sub)?.[h.instance.position] ?? undefined);
      // Unscored systems and outputs never group, so they cannot pull a judgement apart.
      const key = text === undefined ? `${h.instanceId}\u0000${h.systemName}` : `${h.instanceId}\u0000${h.score}\u0000${text}`;
      const g = groups.get(key);
      if (g) g.systems.push(h.systemName);
      else groups.set(key, { position: h.instance.position, systems: [h.systemName], human: h.score });
    }
    const judgements = [...groups.values()].sort((a, b) => a.position - b.position || a.systems[0].localeCompare(b.systems[0]));
    for (const j of judgements) j.systems.sort();
    return { systems, judgements };
  }

  /** Instance scores (by position) and corpus score of one metric for the given submissions. */
  async metricScores(submissionIds: string[], metric: string): Promise<Map<string, { signature: string; corpus: number | null; values: Map<number, number> }>> {
    const out = new Map<string, { signature: string; corpus: number | null; values: Map<number, number> }>();
    if (submissionIds.length === 0) return out;
    for (const id of submissionIds) out.set(id, { signature: '', corpus: null, values: new Map() });
    await readColumns(this.db, submissionIds, metric, null, (submissionId, signature, values) => {
      const s = out.get(submissionId);
      if (!s) return; // a column of a submission not asked for (readColumns reads only those)
      values.forEach((value, position) => {
        if (!Number.isNaN(value)) s.values.set(position, value);
      });
      s.signature = signature;
    });
    const corpus = await this.db.corpusScore.findMany({ where: { metric, submissionId: { in: submissionIds } } });
    for (const c of corpus) {
      const s = out.get(c.submissionId);
      if (s) s.corpus = c.value;
    }
    return out;
  }
}
