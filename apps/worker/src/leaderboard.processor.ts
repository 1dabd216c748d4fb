import { Inject, Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import type { WorkerConfig } from '@podium/config';
import { COMPUTE_LEADERBOARDS_QUEUE, computeLeaderboardsJobV1, ensureQueue } from '@podium/contracts';
import { LeaderboardRepository } from '@podium/db';
import { computeInThread, leaderboardViewSchema, type LeaderboardView, type ThreadSummary } from '@podium/leaderboard';
import PgBoss from 'pg-boss';
import { PG_BOSS, WORKER_CONFIG } from './tokens';

/**
 * Consumes leaderboard jobs, one at a time per worker: computes the boards of a phase in a
 * worker thread (the event loop keeps renewing scoring leases meanwhile) and stores each as it
 * is done. A bad payload is dropped; any error fails the job for pg-boss's retry.
 */
@Injectable()
export class LeaderboardProcessor implements OnApplicationBootstrap {
  private readonly log = new Logger(LeaderboardProcessor.name);

  constructor(
    @Inject(PG_BOSS) private readonly boss: PgBoss,
    @Inject(WORKER_CONFIG) private readonly config: WorkerConfig,
    private readonly boards: LeaderboardRepository,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    await ensureQueue(this.boss, COMPUTE_LEADERBOARDS_QUEUE, 8, 300, (m) => this.log.warn(m));
    await this.boss.work(
      COMPUTE_LEADERBOARDS_QUEUE,
      { batchSize: 1, includeMetadata: true, pollingIntervalSeconds: this.config.PODIUM_WORKER_POLL_SECONDS },
      async ([job]) => (job ? this.handle(job) : undefined),
    );
    this.log.log(`${this.config.PODIUM_WORKER_NAME} is waiting for jobs on '${COMPUTE_LEADERBOARDS_QUEUE}'`);
  }

  async handle(job: PgBoss.JobWithMetadata<unknown>): Promise<ThreadSummary | null> {
    const payload = computeLeaderboardsJobV1.safeParse(job.data);
    if (!payload.success) {
      this.log.error({ msg: `job ${job.id} has an invalid payload and is dropped: ${payload.error.message}`, jobId: job.id });
      return null;
    }
    const { phaseId } = payload.data;
    const views: LeaderboardView[] | null = payload.data.views ? payload.data.views.map((v) => leaderboardViewSchema.parse(v)) : null;
    return this.compute(phaseId, views, job.id);
  }

  /** Computes and stores boards of a phase (views null: its default views). */
  async compute(phaseId: string, views: LeaderboardView[] | null, jobId: string | null = null): Promise<ThreadSummary> {
    const started = Date.now();
    const summary = await computeInThread({ databaseUrl: this.config.DATABASE_URL, phaseId, views }, (board) => this.boards.store(phaseId, board.stamp, [board]));
    this.log.log({
      msg: `[${this.config.PODIUM_WORKER_NAME}] leaderboards of phase ${phaseId}: ${summary.views} views (${summary.computed} computed) for stamp ${summary.stamp.slice(0, 8)} in ${Date.now() - started} ms`,
      jobId,
      phaseId,
      event: 'leaderboards-stored',
    });
    return summary;
  }
}
