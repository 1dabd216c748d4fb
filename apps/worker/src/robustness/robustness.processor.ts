import { Inject, Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import { ensureQueue, ROBUSTNESS_REPORT_QUEUE, robustnessReportJobV1, SCORE_SUBMISSION_QUEUE } from '@podium/contracts';
import type { WorkerConfig } from '@podium/config';
import PgBoss from 'pg-boss';
import { PermanentRobustnessError, RobustnessService } from './robustness.service';
import { PG_BOSS, WORKER_CONFIG } from '../tokens';

/**
 * Consumes robustness-report jobs, one at a time per worker (a suite is thousands of rows),
 * each under a lease on the report like scoring's (docs/adr/0017: renewed, reaped, fenced).
 * A bad payload is dropped; a permanent error fails the report at once; any other error hands
 * the report back and is retried by pg-boss, and the last attempt fails the report. (pg-boss itself is stopped by
 * the scoring processor at shutdown.) Reports yield to scoring: a job waits, up to
 * {@link MAX_YIELD_MS}, while submissions are queued or being scored, so a suite of thousands
 * of rows never delays a leaderboard.
 */
/** Longest a robustness job waits for queued scoring jobs before it runs anyway. */
export const MAX_YIELD_MS = 10 * 60_000;

@Injectable()
export class RobustnessProcessor implements OnApplicationBootstrap {
  private readonly log = new Logger(RobustnessProcessor.name);

  constructor(
    @Inject(PG_BOSS) private readonly boss: PgBoss,
    @Inject(WORKER_CONFIG) private readonly config: WorkerConfig,
    private readonly robustness: RobustnessService,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    await ensureQueue(this.boss, ROBUSTNESS_REPORT_QUEUE, 8, 300, (m) => this.log.warn(m));
    await this.boss.work(
      ROBUSTNESS_REPORT_QUEUE,
      { batchSize: 1, includeMetadata: true, pollingIntervalSeconds: this.config.PODIUM_WORKER_POLL_SECONDS },
      async ([job]) => (job ? this.handle(job) : undefined),
    );
    this.log.log(`${this.config.PODIUM_WORKER_NAME} is waiting for jobs on '${ROBUSTNESS_REPORT_QUEUE}'`);
  }

  /** Waits while scoring jobs are queued or running (in any worker), at most MAX_YIELD_MS. */
  async yieldToScoring(): Promise<void> {
    const deadline = Date.now() + MAX_YIELD_MS;
    const pause = Math.max(50, this.config.PODIUM_WORKER_POLL_SECONDS * 1000);
    while (Date.now() < deadline && (await this.boss.getQueueSize(SCORE_SUBMISSION_QUEUE, { before: 'completed' })) > 0) {
      await new Promise((resolve) => setTimeout(resolve, pause));
    }
  }

  async handle(job: PgBoss.JobWithMetadata<unknown>): Promise<void> {
    const payload = robustnessReportJobV1.safeParse(job.data);
    if (!payload.success) {
      this.log.error(`job ${job.id} has an invalid payload and is dropped: ${payload.error.message}`);
      return;
    }
    const { reportId, attempt } = payload.data;
    await this.yieldToScoring();
    const started = Date.now();
    try {
      const outcome = await this.robustness.compute(reportId, attempt, job.id);
      if (outcome.kind === 'done') {
        this.log.log(
          `[${this.config.PODIUM_WORKER_NAME}] robustness report ${reportId}: ${outcome.metric} accuracy ${outcome.accuracy.toFixed(3)} on ${outcome.rows} rows in ${Date.now() - started} ms`,
        );
      } else {
        this.log.warn(`skipped job ${job.id}: ${outcome.reason}`);
      }
    } catch (e) {
      const reason = e instanceof Error ? e.message : String(e);
      if (e instanceof PermanentRobustnessError) {
        this.log.warn(`robustness report ${reportId} failed: ${reason}`);
        await this.robustness.fail(reportId, attempt, reason);
        return;
      }
      if (job.retryCount >= job.retryLimit) {
        this.log.error(`robustness report ${reportId} failed after ${job.retryCount + 1} attempts: ${reason}`);
        await this.robustness.fail(reportId, attempt, `failed after ${job.retryCount + 1} attempts: ${reason}`);
        return;
      }
      this.log.warn(`attempt ${job.retryCount + 1} for robustness report ${reportId} failed, will retry: ${reason}`);
      // QUEUED again, so pg-boss's retry can take the lease at once (not after it lapses).
      await this.robustness.handBack(reportId).catch(() => false);
      throw e;
    }
  }
}
