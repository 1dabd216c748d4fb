import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { ensureQueue, SCORE_SUBMISSION_QUEUE, scoreSubmissionJobV1 } from '@podium/contracts';
import type { WorkerConfig } from '@podium/config';
import PgBoss from 'pg-boss';
import { PermanentScoringError, ScoringService } from './scoring.service';
import { PG_BOSS, WORKER_CONFIG } from './tokens';

/**
 * Consumes scoring jobs. A bad payload or a permanent error fails the submission at once; any
 * other error is rethrown so pg-boss retries the job, and the last attempt fails the submission.
 */
@Injectable()
export class ScoringProcessor implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly log = new Logger(ScoringProcessor.name);

  constructor(
    @Inject(PG_BOSS) private readonly boss: PgBoss,
    @Inject(WORKER_CONFIG) private readonly config: WorkerConfig,
    private readonly scoring: ScoringService,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    await ensureQueue(this.boss, SCORE_SUBMISSION_QUEUE);
    for (let i = 0; i < this.config.PODIUM_WORKER_CONCURRENCY; i++) {
      await this.boss.work(
        SCORE_SUBMISSION_QUEUE,
        { batchSize: this.config.PODIUM_WORKER_BATCH, includeMetadata: true, pollingIntervalSeconds: this.config.PODIUM_WORKER_POLL_SECONDS },
        async (jobs) => this.handleBatch(jobs),
      );
    }
    this.log.log(`${this.config.PODIUM_WORKER_NAME} is waiting for jobs on '${SCORE_SUBMISSION_QUEUE}' (up to ${this.config.PODIUM_WORKER_BATCH} at a time)`);
  }

  /**
   * Scores the jobs pg-boss handed over together (their NLI pairs share model batches) and
   * settles each job on its own: a job that must be retried is failed by id, so pg-boss retries
   * it alone, and the others complete when this returns.
   */
  async handleBatch(jobs: PgBoss.JobWithMetadata<unknown>[]): Promise<void> {
    const valid: { job: PgBoss.JobWithMetadata<unknown>; submissionId: string }[] = [];
    for (const job of jobs) {
      const payload = scoreSubmissionJobV1.safeParse(job.data);
      // Never retried: the same payload would fail again.
      if (!payload.success) this.log.error(`job ${job.id} has an invalid payload and is dropped: ${payload.error.message}`);
      else valid.push({ job, submissionId: payload.data.submissionId });
    }
    if (valid.length === 0) return;
    const started = Date.now();
    const outcomes = await this.scoring.scoreBatch(valid.map((v) => v.submissionId));
    const retry: string[] = [];
    for (const [k, { job, submissionId }] of valid.entries()) {
      const outcome = outcomes[k]!;
      if (!(outcome instanceof Error)) {
        if (outcome.kind === 'scored') {
          this.log.log(
            `[${this.config.PODIUM_WORKER_NAME}] scored submission ${submissionId}: ${outcome.instances} instances × ${outcome.metrics.join(', ')} in ${Date.now() - started} ms` +
              (valid.length > 1 ? ` (batch of ${valid.length})` : ''),
          );
        } else this.log.warn(`skipped job ${job.id}: ${outcome.kind === 'skipped' ? outcome.reason : ''}`);
        continue;
      }
      if (await this.settleFailure(job, submissionId, outcome)) retry.push(job.id);
    }
    if (retry.length > 0) await this.boss.fail(SCORE_SUBMISSION_QUEUE, retry);
  }

  /** Fails the submission when retrying cannot help or retries are used up; true = retry. */
  private async settleFailure(job: PgBoss.JobWithMetadata<unknown>, submissionId: string, e: Error): Promise<boolean> {
    if (e instanceof PermanentScoringError) {
      this.log.warn(`submission ${submissionId} failed: ${e.message}`);
      await this.scoring.fail(submissionId, e.message);
      return false;
    }
    if (job.retryCount >= job.retryLimit) {
      this.log.error(`submission ${submissionId} failed after ${job.retryCount + 1} attempts: ${e.message}`);
      await this.scoring.fail(submissionId, `scoring failed after ${job.retryCount + 1} attempts: ${e.message}`);
      return false;
    }
    this.log.warn(`attempt ${job.retryCount + 1} for submission ${submissionId} failed, will retry: ${e.message}`);
    return true;
  }

  async onApplicationShutdown(): Promise<void> {
    await this.boss.stop({ graceful: true, wait: true, timeout: 20_000 });
  }
}
