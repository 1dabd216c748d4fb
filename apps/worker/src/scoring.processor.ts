import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { SCORE_SUBMISSION_QUEUE, scoreSubmissionJobV1 } from '@podium/contracts';
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
    await this.boss.createQueue(SCORE_SUBMISSION_QUEUE);
    for (let i = 0; i < this.config.PODIUM_WORKER_CONCURRENCY; i++) {
      await this.boss.work(
        SCORE_SUBMISSION_QUEUE,
        { batchSize: 1, includeMetadata: true, pollingIntervalSeconds: this.config.PODIUM_WORKER_POLL_SECONDS },
        async ([job]) => (job ? this.handle(job) : undefined),
      );
    }
    this.log.log(`${this.config.PODIUM_WORKER_NAME} is waiting for jobs on '${SCORE_SUBMISSION_QUEUE}'`);
  }

  async handle(job: PgBoss.JobWithMetadata<unknown>): Promise<void> {
    const payload = scoreSubmissionJobV1.safeParse(job.data);
    if (!payload.success) {
      // Never retried: the same payload would fail again.
      this.log.error(`job ${job.id} has an invalid payload and is dropped: ${payload.error.message}`);
      return;
    }
    const { submissionId } = payload.data;
    const started = Date.now();
    try {
      const outcome = await this.scoring.score(submissionId);
      if (outcome.kind === 'scored') {
        this.log.log(
          `[${this.config.PODIUM_WORKER_NAME}] scored submission ${submissionId}: ${outcome.instances} instances × ${outcome.metrics.join(', ')} in ${Date.now() - started} ms`,
        );
      } else {
        this.log.warn(`skipped job ${job.id}: ${outcome.kind === 'skipped' ? outcome.reason : ''}`);
      }
    } catch (e) {
      const reason = e instanceof Error ? e.message : String(e);
      if (e instanceof PermanentScoringError) {
        this.log.warn(`submission ${submissionId} failed: ${reason}`);
        await this.scoring.fail(submissionId, reason);
        return;
      }
      if (job.retryCount >= job.retryLimit) {
        this.log.error(`submission ${submissionId} failed after ${job.retryCount + 1} attempts: ${reason}`);
        await this.scoring.fail(submissionId, `scoring failed after ${job.retryCount + 1} attempts: ${reason}`);
        return;
      }
      this.log.warn(`attempt ${job.retryCount + 1} for submission ${submissionId} failed, will retry: ${reason}`);
      throw e;
    }
  }

  async onApplicationShutdown(): Promise<void> {
    await this.boss.stop({ graceful: true, wait: true, timeout: 20_000 });
  }
}
