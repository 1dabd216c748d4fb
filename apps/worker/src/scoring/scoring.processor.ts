import { Inject, Injectable, Logger, type BeforeApplicationShutdown, type OnApplicationBootstrap } from '@nestjs/common';
import { ensureQueue, REQUEUE_PRIORITY, SCORE_JOB_MAX_ATTEMPTS, SCORE_SUBMISSION_QUEUE, scoreSubmissionJobV1, sendLeaderboardJob } from '@podium/contracts';
import type { WorkerConfig } from '@podium/config';
import PgBoss from 'pg-boss';
import { PermanentScoringError, ScoringService } from './scoring.service';
import { PG_BOSS, WORKER_CONFIG } from '../tokens';

/**
 * Consumes scoring jobs. A bad payload or a permanent error fails the submission at once; any
 * other error hands the submission back and fails the job so pg-boss retries it (with the
 * contract's backoff), and the last attempt fails the submission. While it scores, the worker
 * holds a lease per submission (LeaseKeeper renews it); on SIGTERM it stops taking jobs, gives
 * the current ones `PODIUM_WORKER_SHUTDOWN_GRACE_SECONDS` to finish and hands back the rest.
 *
 * The rescue slot: a job handed back because its worker stopped (reaped lease, organiser's
 * requeue; pg-boss priority {@link REQUEUE_PRIORITY}) is already late. When every regular slot
 * of this worker is busy, it still looks for such a job every poll period and runs one beside
 * them, so a lost submission restarts within seconds even when every worker is busy with long
 * jobs (ADR 0017). At most one rescue job runs per worker.
 */
@Injectable()
export class ScoringProcessor implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly log = new Logger(ScoringProcessor.name);
  private readonly inFlight = new Set<Promise<unknown>>();
  private rescueTimer: NodeJS.Timeout | undefined;
  private rescuing = false;
  private stopping = false;

  constructor(
    @Inject(PG_BOSS) private readonly boss: PgBoss,
    @Inject(WORKER_CONFIG) private readonly config: WorkerConfig,
    private readonly scoring: ScoringService,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    await ensureQueue(this.boss, SCORE_SUBMISSION_QUEUE, 8, 300, (m) => this.log.warn({ msg: m, event: 'retrying' }));
    this.scoring.leases.start();
    for (let i = 0; i < this.config.PODIUM_WORKER_CONCURRENCY; i++) {
      await this.boss.work(
        SCORE_SUBMISSION_QUEUE,
        { batchSize: this.config.PODIUM_WORKER_BATCH, includeMetadata: true, pollingIntervalSeconds: this.config.PODIUM_WORKER_POLL_SECONDS },
        async (jobs) => {
          await this.tracked(this.handleBatch(jobs));
        },
      );
    }
    this.startRescueSlot();
    this.log.log({ msg: `${this.config.PODIUM_WORKER_NAME} is waiting for jobs on '${SCORE_SUBMISSION_QUEUE}' (up to ${this.config.PODIUM_WORKER_BATCH} at a time)`, event: 'ready' });
  }

  /** Looks for a handed-back job every poll period while the worker runs (see the class comment). */
  private startRescueSlot(): void {
    const period = this.config.PODIUM_WORKER_POLL_SECONDS * 1000;
    const tick = async (): Promise<void> => {
      await this.rescueOnce().catch((e: unknown) => this.log.warn({ msg: `rescue slot: ${e instanceof Error ? e.message : String(e)}` }));
      if (!this.stopping) this.rescueTimer = setTimeout(() => void tick(), period).unref();
    };
    this.rescueTimer = setTimeout(() => void tick(), period).unref();
  }

  /**
   * Runs one handed-back job beside the busy regular slots, if one waits; true when it ran one.
   * Idle regular slots take such a job themselves (it is first in pg-boss's priority order), so
   * the rescue slot only acts when all of them are busy.
   */
  async rescueOnce(): Promise<boolean> {
    if (this.stopping || this.rescuing) return false;
    if (this.inFlight.size < this.config.PODIUM_WORKER_CONCURRENCY) return false;
    const schema = this.config.PODIUM_QUEUE_SCHEMA;
    const waiting = await this.boss.getDb().executeSql(
      `SELECT 1 FROM ${schema}.job WHERE name = $1 AND state < 'active' AND start_after <= now() AND priority >= $2 LIMIT 1`,
      [SCORE_SUBMISSION_QUEUE, REQUEUE_PRIORITY],
    );
    if (waiting.rows.length === 0) return false;
    this.rescuing = true;
    const run = (async () => {
      // Highest priority first: the handed-back job, unless another worker took it meanwhile
      // (then this runs the next job in line, one job early; still at most one rescue job).
      const jobs = await this.boss.fetch(SCORE_SUBMISSION_QUEUE, { batchSize: 1, includeMetadata: true, priority: true });
      if (jobs.length === 0) return false;
      this.log.log({ msg: `rescue slot: running handed-back job ${jobs.map((j) => j.id).join(', ')} beside ${this.inFlight.size - 1} busy slot(s)`, event: 'rescue' });
      try {
        const retried = new Set(await this.handleBatch(jobs));
        const done = jobs.filter((j) => !retried.has(j.id)).map((j) => j.id);
        if (done.length > 0) await this.boss.complete(SCORE_SUBMISSION_QUEUE, done);
      } catch (e) {
        for (const j of jobs) await this.boss.fail(SCORE_SUBMISSION_QUEUE, j.id, { message: e instanceof Error ? e.message : String(e) });
      }
      return true;
    })();
    try {
      return await this.tracked(run);
    } finally {
      this.rescuing = false;
    }
  }

  /** Awaits a run, counted in `inFlight` meanwhile (busy slots, and what shutdown waits for). */
  private async tracked<T>(run: Promise<T>): Promise<T> {
    this.inFlight.add(run);
    try {
      return await run;
    } finally {
      this.inFlight.delete(run);
    }
  }

  /**
   * Scores the jobs pg-boss handed over together (their NLI pairs share model batches) and
   * settles each job on its own: a job that must be retried is failed by id, so pg-boss retries
   * it alone, and the others complete when this returns. Returns the ids of the jobs it failed
   * for a retry.
   */
  async handleBatch(jobs: PgBoss.JobWithMetadata<unknown>[]): Promise<string[]> {
    const valid: { job: PgBoss.JobWithMetadata<unknown>; submissionId: string }[] = [];
    for (const job of jobs) {
      const payload = scoreSubmissionJobV1.safeParse(job.data);
      // Never retried: the same payload would fail again.
      if (!payload.success) this.log.error({ msg: `job ${job.id} has an invalid payload and is dropped: ${payload.error.message}`, jobId: job.id });
      else valid.push({ job, submissionId: payload.data.submissionId });
    }
    if (valid.length === 0) return [];
    const started = Date.now();
    for (const { job, submissionId } of valid) {
      this.log.log({ msg: `started submission ${submissionId}`, jobId: job.id, submissionId, retryCount: job.retryCount, event: 'job-start' });
    }
    const outcomes = await this.scoring.scoreBatch(
      valid.map((v) => v.submissionId),
      valid.map((v) => v.job.id),
    );
    const retry: string[] = [];
    const scoredPhases = new Set<string>();
    for (const [k, { job, submissionId }] of valid.entries()) {
      // scoreBatch answers every submission it was given; a missing answer is retried as an error.
      const outcome = outcomes[k] ?? new Error(`scoring returned no outcome for submission ${submissionId}`);
      if (!(outcome instanceof Error)) {
        if (outcome.kind === 'scored') {
          scoredPhases.add(outcome.phaseId);
          this.log.log({
            msg:
              `[${this.config.PODIUM_WORKER_NAME}] scored submission ${submissionId}: ${outcome.instances} instances × ${outcome.metrics.join(', ')} in ${Date.now() - started} ms` +
              (valid.length > 1 ? ` (batch of ${valid.length})` : ''),
            jobId: job.id,
            submissionId,
            attempt: outcome.attempt,
            event: 'job-done',
          });
        } else this.log.warn({ msg: `skipped job ${job.id}: ${outcome.kind === 'skipped' ? outcome.reason : ''}`, jobId: job.id, submissionId });
        continue;
      }
      if (await this.settleFailure(job, submissionId, outcome)) retry.push(job.id);
    }
    if (retry.length > 0) await this.boss.fail(SCORE_SUBMISSION_QUEUE, retry);
    // The scores are committed: queue the phase's leaderboards (coalesced per phase). A lost send
    // is not fatal: the next read of a board whose stamp moved queues it again.
    for (const phaseId of scoredPhases) {
      await sendLeaderboardJob(this.boss, phaseId, 'scored').catch((e: unknown) =>
        this.log.warn({ msg: `could not queue the leaderboards of phase ${phaseId}: ${e instanceof Error ? e.message : String(e)}`, phaseId }),
      );
    }
    return retry;
  }

  /** Fails the submission when retrying cannot help or retries are used up; true = retry. */
  private async settleFailure(job: PgBoss.JobWithMetadata<unknown>, submissionId: string, e: Error): Promise<boolean> {
    const ids = { jobId: job.id, submissionId };
    if (e instanceof PermanentScoringError) {
      this.log.warn({ msg: `submission ${submissionId} failed: ${e.message}`, ...ids });
      await this.scoring.fail(submissionId, e.message);
      return false;
    }
    if (job.retryCount >= job.retryLimit) {
      this.log.error({ msg: `submission ${submissionId} failed after ${job.retryCount + 1} attempts: ${e.message}`, ...ids });
      await this.scoring.fail(submissionId, `scoring failed after ${job.retryCount + 1} attempts: ${e.message}`);
      return false;
    }
    this.log.warn({ msg: `attempt ${job.retryCount + 1} of ${SCORE_JOB_MAX_ATTEMPTS} for submission ${submissionId} failed, will retry: ${e.message}`, ...ids });
    // QUEUED again and the job failed for pg-boss's retry in one transaction, so a crash between
    // the two cannot leave a queued submission without a job. Not held (the lease was never
    // taken, or taken back): fail the job by id with the others.
    const handed = await this.scoring
      .handBack(submissionId, 'error', async (sql) => {
        await this.boss.fail(SCORE_SUBMISSION_QUEUE, job.id, { message: e.message }, { db: sql });
      })
      .catch(() => false);
    return !handed;
  }

  /**
   * SIGTERM: take no new job, let the current ones finish within the grace period, then hand
   * back whatever is still running (QUEUED again, its job retried at once by pg-boss) and stop.
   */
  async beforeApplicationShutdown(signal?: string): Promise<void> {
    this.log.log({ msg: `stopping (${signal ?? 'shutdown'}): no new jobs; ${this.scoring.leases.held.size} in progress`, event: 'stopping' });
    this.stopping = true;
    clearTimeout(this.rescueTimer);
    await this.boss.offWork(SCORE_SUBMISSION_QUEUE).catch(() => undefined);
    const grace = this.config.PODIUM_WORKER_SHUTDOWN_GRACE_SECONDS * 1000;
    await Promise.race([Promise.allSettled([...this.inFlight]), new Promise((r) => setTimeout(r, grace).unref())]);
    for (const [submissionId, { jobId }] of [...this.scoring.leases.held]) {
      const handed = await this.scoring
        .handBack(submissionId, 'shutdown', async (sql) => {
          if (jobId) await this.boss.fail(SCORE_SUBMISSION_QUEUE, jobId, { message: 'worker shut down; handed back' }, { db: sql });
        })
        .catch((e: unknown) => (this.log.error({ msg: `could not hand back submission ${submissionId}: ${String(e)}`, submissionId }), false));
      if (handed) this.log.warn({ msg: `handed submission ${submissionId} back to the queue`, submissionId, jobId, event: 'handed-back' });
    }
    await this.scoring.leases.stop();
    await this.boss.stop({ graceful: false, wait: true, timeout: 5_000 });
  }
}
