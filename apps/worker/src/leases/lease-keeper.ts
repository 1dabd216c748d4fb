import { Inject, Injectable, Logger, Optional, type OnModuleInit } from '@nestjs/common';
import type { WorkerConfig } from '@podium/config';
import { LEASE, QUEUE_POLICY, REQUEUE_PRIORITY, ROBUSTNESS_REPORT_QUEUE, SCORE_JOB_MAX_ATTEMPTS, SCORE_SUBMISSION_QUEUE, sendRobustnessJob, sendScoreJob } from '@podium/contracts';
import { LeaseLostError, type LeaseHolder } from '@podium/domain';
import {
  RobustnessRepository,
  SubmissionRepository,
  type LapsedLease,
  type LapsedReportLease,
  type ReportLeaseOutcome,
  type TxSql,
} from '@podium/db';
import { hostname } from 'node:os';
import PgBoss from 'pg-boss';
import { PG_BOSS, WORKER_CONFIG } from '../tokens';

/** A lease this worker holds: the pg-boss job it runs and the fencing token of its claim. */
export interface HeldLease {
  jobId: string | null;
  token: bigint;
}

/**
 * The worker's side of leases (docs/adr/0007-scoring-leases.md, 0017-fencing-and-fast-leases.md)
 * on submissions and robustness reports: it renews the leases this worker holds and its
 * heartbeat row every few seconds, and reaps lapsed leases of workers that stopped: each goes
 * back to pg-boss as a retry of its job, due at once (the worker died, no backoff helps), or
 * fails the submission or report when no attempt is left. Every worker runs one, so a dead
 * worker is noticed within ttl + reap seconds as long as any worker is alive.
 *
 * Every claim returns a fencing token; final writes carry it (the repositories refuse a write
 * whose token is no longer the row's), and {@link refused} logs and counts a refused late write.
 */
@Injectable()
export class LeaseKeeper implements OnModuleInit {
  private readonly log = new Logger(LeaseKeeper.name);
  /** Submission id → the lease held now (renewed). */
  readonly held = new Map<string, HeldLease>();
  /** Robustness report id → the lease held now (renewed). */
  readonly heldReports = new Map<string, HeldLease>();
  /** Submission id → the token of this worker's last claim, kept after release until the submission is settled. */
  private readonly claims = new Map<string, bigint>();
  /** Late writes refused by fencing since start (also logged, event `fencing.refused`). */
  refusedWrites = 0;
  readonly owner: string;
  readonly ttlSeconds: number;
  private readonly renewSeconds: number;
  private readonly reapSeconds: number;
  private readonly queueSchema: string;
  /** The pending tick of each loop (renewal, reaper). */
  private readonly timers = new Map<string, NodeJS.Timeout>();
  private failures = 0;
  private stopped = false;

  constructor(
    private readonly submissions: SubmissionRepository,
    @Inject(PG_BOSS) private readonly boss: PgBoss,
    @Inject(WORKER_CONFIG) private readonly config: WorkerConfig,
    @Optional() private readonly reports?: RobustnessRepository,
  ) {
    this.owner = config.PODIUM_WORKER_NAME;
    this.ttlSeconds = config.PODIUM_LEASE_TTL_SECONDS ?? LEASE.ttlSeconds;
    this.renewSeconds = config.PODIUM_LEASE_RENEW_SECONDS ?? LEASE.renewSeconds;
    this.reapSeconds = config.PODIUM_LEASE_REAP_SECONDS ?? LEASE.reapSeconds;
    // Partial: tests build keepers from a few settings; the schema's own default applies.
    this.queueSchema = (config as Partial<WorkerConfig>).PODIUM_QUEUE_SCHEMA ?? 'pgboss';
    if (this.renewSeconds >= this.ttlSeconds) {
      throw new Error(`PODIUM_LEASE_RENEW_SECONDS (${this.renewSeconds}) must be shorter than PODIUM_LEASE_TTL_SECONDS (${this.ttlSeconds}): every lease would lapse between renewals`);
    }
  }

  /** Takes the lease (compare-and-set, next fencing token); see SubmissionRepository.acquireLease. */
  async acquire(submissionId: string, jobId: string | null) {
    const outcome = await this.submissions.acquireLease(submissionId, this.owner, jobId, this.ttlSeconds);
    if (outcome.kind === 'acquired') {
      this.held.set(submissionId, { jobId, token: outcome.token });
      this.claims.set(submissionId, outcome.token);
    }
    return outcome;
  }

  /** This worker's claim on a submission (held now, or released but not yet settled); null if none. */
  holder(submissionId: string): LeaseHolder | null {
    const token = this.claims.get(submissionId);
    return token === undefined ? null : { owner: this.owner, token };
  }

  /** Stops renewing the lease (the run ended); the claim stays for settling the submission. */
  release(submissionId: string): void {
    this.held.delete(submissionId);
  }

  /** Forgets the claim once the submission is settled (scored, failed, handed back). */
  settled(submissionId: string): void {
    this.held.delete(submissionId);
    this.claims.delete(submissionId);
  }

  /** Takes a robustness report's lease for a job of `attempt`; see RobustnessRepository.acquireLease. */
  async acquireReport(reportId: string, attempt: number, jobId: string | null): Promise<ReportLeaseOutcome> {
    const outcome = await this.reportRepository().acquireLease(reportId, attempt, this.owner, jobId, this.ttlSeconds);
    if (outcome.kind === 'acquired') this.heldReports.set(reportId, { jobId, token: outcome.token });
    return outcome;
  }

  /** This worker's claim on a report, while held. */
  reportHolder(reportId: string): LeaseHolder | null {
    const held = this.heldReports.get(reportId);
    return held ? { owner: this.owner, token: held.token } : null;
  }

  releaseReport(reportId: string): void {
    this.heldReports.delete(reportId);
  }

  /** A final write refused by fencing: logged at warn (event `fencing.refused`) and counted; the result is dropped. */
  refused(e: LeaseLostError, what: 'submission' | 'robustness report' | 'leaderboard'): void {
    this.refusedWrites++;
    this.log.warn({
      msg: `late write refused: ${what} ${e.submissionId}: ${this.owner} lost its lease (token ${e.token ?? '?'}, now ${e.currentToken ?? 'none'}); its result is dropped`,
      event: 'fencing.refused',
      kind: what,
      id: e.submissionId,
      ...(what === 'submission' ? { submissionId: e.submissionId } : what === 'robustness report' ? { reportId: e.submissionId } : { phaseId: e.submissionId }),
      owner: this.owner,
      token: e.token === null ? null : e.token.toString(),
      currentToken: e.currentToken === null ? null : e.currentToken.toString(),
      refusedWrites: this.refusedWrites,
    });
  }

  private reportRepository(): RobustnessRepository {
    if (!this.reports) throw new Error('this lease keeper was built without a RobustnessRepository');
    return this.reports;
  }

  start(): void {
    this.stopped = false;
    const loop = (what: string, periodMs: number, tick: () => Promise<void>) => {
      // run() catches what tick() throws, so the promise void discards never rejects.
      const schedule = (ms: number) => this.timers.set(what, setTimeout(() => void run(), ms).unref());
      const run = async () => {
        if (this.isStopped()) return;
        let next = periodMs;
        try {
          await tick();
          if (this.failures > 0) this.log.log({ msg: `database reachable again; ${what} resumed`, event: 'reconnected' });
          this.failures = 0;
        } catch (e) {
          this.failures++;
          // Never slower than the period: a lease must be renewed well within its ttl.
          next = Math.min(periodMs, 250 * 2 ** Math.min(this.failures, 5));
          this.log.warn({ msg: `${what} failed (${e instanceof Error ? e.message.split('\n')[0] : String(e)}); retrying in ${next} ms`, event: 'reconnecting', attempt: this.failures });
        }
        if (!this.isStopped()) schedule(next);
      };
      schedule(0);
    };
    loop('lease renewal', this.renewSeconds * 1000, () => this.renew());
    loop('lease reaper', this.reapSeconds * 1000, async () => {
      await this.reap();
    });
  }

  /** A call, not a field read: stop() may run while a tick awaits, which narrowing cannot see. */
  private isStopped(): boolean {
    return this.stopped;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    for (const t of this.timers.values()) clearTimeout(t);
    this.timers.clear();
    await this.submissions.removeHeartbeat(this.owner).catch(() => undefined);
  }

  /** Renews held leases and the heartbeat; forgets leases taken back from this worker. */
  async renew(): Promise<void> {
    const forget = (kind: string, map: Map<string, HeldLease>, asked: [string, HeldLease][], kept: Set<string>) => {
      for (const [id, lease] of asked) {
        // Only the claim that was renewed: a newer claim of the same id by this worker stays.
        if (!kept.has(id) && map.get(id)?.token === lease.token) {
          this.log.warn({ msg: `lease on ${kind} ${id} was taken back; its result will be discarded`, [kind === 'submission' ? 'submissionId' : 'reportId']: id, event: 'lease-lost' });
          map.delete(id);
        }
      }
    };
    const subs = [...this.held];
    const kept = new Set(await this.submissions.renewLeases(this.owner, subs.map(([id, l]) => ({ id, token: l.token })), this.ttlSeconds));
    forget('submission', this.held, subs, kept);
    const reps = [...this.heldReports];
    if (reps.length > 0) {
      const keptReports = new Set(await this.reportRepository().renewLeases(this.owner, reps.map(([id, l]) => ({ id, token: l.token })), this.ttlSeconds));
      forget('robustness report', this.heldReports, reps, keptReports);
    }
    await this.submissions.heartbeat({ name: this.owner, host: hostname(), pid: process.pid, activeJobs: this.held.size + this.heldReports.size });
  }

  /**
   * At start, before any queue's processor takes a job (Nest runs every onModuleInit before the
   * first onApplicationBootstrap): hands back the leases held under this worker's own name, whose
   * holder can only be this name's previous process, which died (a supervisor restarts a killed
   * worker under its name: the pod name in infra/k8s, the container in compose), without waiting
   * for them to lapse; and every lapsed lease, so that those jobs, due at once with the requeue
   * priority, are the first this worker fetches. A database not reachable yet only delays this
   * to the reaper's ticks (the orphans lapse within the ttl). ADR 0031.
   */
  async onModuleInit(): Promise<void> {
    try {
      const taken = await this.reap({ orphans: true });
      const n = taken.requeued.length + taken.failed.length + taken.reportsRequeued.length + taken.reportsFailed.length;
      if (n > 0) this.log.log({ msg: `at start: handed back ${n} lease(s) of a stopped worker`, event: 'start-reaped', count: n });
    } catch (e) {
      this.log.warn({ msg: `at start: could not hand back stopped workers' leases (${e instanceof Error ? e.message.split('\n')[0] : String(e)}); the reaper retries`, event: 'reconnecting' });
    }
  }

  /**
   * Hands lapsed leases back to the queue; returns what it did. `onlyIds`: only these (tests);
   * `orphans`: also the leases still held under this worker's name by its previous process (see
   * {@link onModuleInit}); ignored once this process holds a lease (it would take back its own).
   */
  async reap(
    options: string[] | { onlyIds?: string[]; orphans?: boolean } = {},
  ): Promise<{ requeued: LapsedLease[]; failed: LapsedLease[]; reportsRequeued: LapsedReportLease[]; reportsFailed: LapsedReportLease[] }> {
    const { onlyIds, orphans = false } = Array.isArray(options) ? { onlyIds: options } : options;
    const takeOrphans = orphans && this.held.size === 0 && this.heldReports.size === 0;
    const only = { ...(onlyIds ? { onlyIds } : {}), ...(takeOrphans ? { orphansOf: this.owner } : {}) };
    const result = await this.submissions.reapExpiredLeases((sql, lapsed) => this.handBackJob(sql, lapsed), only);
    for (const r of result.requeued) {
      this.log.warn({
        msg:
          r.owner === this.owner
            ? `this worker's previous process (same name) held submission ${r.submissionId} when it stopped; queued attempt ${r.attempt + 1} of ${SCORE_JOB_MAX_ATTEMPTS}`
            : `worker ${r.owner ?? '?'} stopped renewing its lease on submission ${r.submissionId}; queued attempt ${r.attempt + 1} of ${SCORE_JOB_MAX_ATTEMPTS}`,
        submissionId: r.submissionId,
        jobId: r.jobId,
        event: 'lease-reaped',
      });
    }
    for (const r of result.failed) {
      this.log.error({ msg: `submission ${r.submissionId} failed: its worker stopped during the last attempt`, submissionId: r.submissionId, jobId: r.jobId });
    }
    await this.reapUnclaimedJobs(onlyIds ?? null);
    const reports = this.reports ? await this.reports.reapExpiredLeases((sql, lapsed) => this.handBackReportJob(sql, lapsed), only) : { requeued: [], failed: [] };
    for (const r of reports.requeued) {
      this.log.warn({ msg: `worker ${r.owner ?? '?'} stopped renewing its lease on robustness report ${r.reportId}; queued run ${r.runs + 1}`, reportId: r.reportId, jobId: r.jobId, event: 'lease-reaped' });
    }
    for (const r of reports.failed) {
      this.log.error({ msg: `robustness report ${r.reportId} failed: its worker stopped during the last run`, reportId: r.reportId, jobId: r.jobId });
    }
    return { ...result, reportsRequeued: reports.requeued, reportsFailed: reports.failed };
  }

  /**
   * A worker that died between fetching a scoring job and claiming its submission leaves the job
   * active in pg-boss with the submission QUEUED and no lease for the reaper to find (a round of
   * bench:faults left one so until pg-boss's own expiry). A live worker claims within moments of
   * fetching; a job active for longer than the ttl whose submission is still QUEUED is failed for
   * pg-boss's retry, due now with the requeue priority (or, its retries spent, replaced by a fresh
   * requeue job: the submission's attempts were not used). Should its worker be alive after all, the
   * retry finds the lease held and is skipped, and fencing keeps the scores single.
   */
  private async reapUnclaimedJobs(onlyIds: string[] | null): Promise<void> {
    const db = this.boss.getDb();
    const stale = await db.executeSql(
      `SELECT j.id::text AS id, j.data->>'submissionId' AS "submissionId", j.retry_count < j.retry_limit AS "canRetry" FROM ${this.queueSchema}.job j
         JOIN submission s ON s.id::text = j.data->>'submissionId'
       WHERE j.name = $1 AND j.state = 'active' AND j.started_on < now() - make_interval(secs => $2::float8)
         AND s.status = 'QUEUED' AND ($3::text[] IS NULL OR j.data->>'submissionId' = ANY($3::text[]))
       LIMIT 20`,
      [SCORE_SUBMISSION_QUEUE, this.ttlSeconds, onlyIds],
    );
    for (const row of stale.rows as { id: string; submissionId: string; canRetry: boolean }[]) {
      // The job's retries are spent but the submission's attempts are not (none was claimed):
      // a fresh job, sent before the old one is failed so that a crash in between loses nothing.
      if (!row.canRetry) await sendScoreJob(this.boss, row.submissionId, 'requeue');
      await this.boss.fail(SCORE_SUBMISSION_QUEUE, row.id, { message: 'the worker that fetched it stopped before claiming the submission' });
      await db.executeSql(`UPDATE ${this.queueSchema}.job SET start_after = now(), priority = GREATEST(priority, $3) WHERE name = $1 AND id = $2::uuid AND state = 'retry'`, [
        SCORE_SUBMISSION_QUEUE, row.id, REQUEUE_PRIORITY,
      ]);
      this.log.warn({ msg: `job ${row.id} of submission ${row.submissionId} was fetched but never claimed; retrying it now`, jobId: row.id, submissionId: row.submissionId, event: 'job-reaped' });
    }
  }

  /**
   * Inside the reaper's transaction: fails the stopped worker's job so that pg-boss retries it
   * (its retry count), due now rather than after the backoff, or, when pg-boss no longer holds
   * it as active (it expired it, or a late duplicate completed it), sends a fresh job.
   */
  private async handBackJob(sql: TxSql, lapsed: LapsedLease): Promise<'retry' | 'exhausted'> {
    // Read through pg-boss's own pool (its rows carry an interval Prisma cannot read); the
    // submission row is locked, so no other reaper acts on this job meanwhile.
    const job = lapsed.jobId ? await this.boss.getJobById(SCORE_SUBMISSION_QUEUE, lapsed.jobId, { includeArchive: false }) : null;
    const exhausted = lapsed.attempt >= SCORE_JOB_MAX_ATTEMPTS || (job !== null && job.state === 'active' && job.retryCount >= job.retryLimit);
    if (job && job.state === 'active') {
      await this.failDueNow(sql, SCORE_SUBMISSION_QUEUE, job.id, `worker ${lapsed.owner ?? '?'} stopped renewing its lease`);
      return exhausted ? 'exhausted' : 'retry';
    }
    if (exhausted) return 'exhausted';
    await sendScoreJob(this.boss, lapsed.submissionId, 'requeue', sql);
    return 'retry';
  }

  /** As {@link handBackJob}, for a robustness report: runs are counted on the report (retryLimit + 1 per attempt). */
  private async handBackReportJob(sql: TxSql, lapsed: LapsedReportLease): Promise<'retry' | 'exhausted'> {
    const job = lapsed.jobId ? await this.boss.getJobById(ROBUSTNESS_REPORT_QUEUE, lapsed.jobId, { includeArchive: false }) : null;
    const exhausted = lapsed.runs >= QUEUE_POLICY[ROBUSTNESS_REPORT_QUEUE].retryLimit + 1 || (job !== null && job.state === 'active' && job.retryCount >= job.retryLimit);
    if (job && job.state === 'active') {
      await this.failDueNow(sql, ROBUSTNESS_REPORT_QUEUE, job.id, `worker ${lapsed.owner ?? '?'} stopped renewing its lease`);
      return exhausted ? 'exhausted' : 'retry';
    }
    if (exhausted) return 'exhausted';
    await sendRobustnessJob(this.boss, lapsed.reportId, lapsed.attempt, sql);
    return 'retry';
  }

  /**
   * Fails a job for pg-boss's retry and makes the retry due now, in the caller's transaction.
   * pg-boss 10 has no call for "retry now"; its job table's `start_after` is what its fetch
   * reads (plans.js fetchNextJob), so the reaper sets it for this one job in state `retry`,
   * with the priority of a requeued job so that it runs before submissions queued after it.
   */
  private async failDueNow(sql: TxSql, queue: string, jobId: string, message: string): Promise<void> {
    await this.boss.fail(queue, jobId, { message }, { db: sql });
    await sql.executeSql(`UPDATE ${this.queueSchema}.job SET start_after = now(), priority = GREATEST(priority, $3) WHERE name = $1 AND id = $2::uuid AND state = 'retry'`, [queue, jobId, REQUEUE_PRIORITY]);
  }
}
