import { Controller, Get, Inject, Res } from '@nestjs/common';
import type { ApiConfig } from '@podium/config';
import { LEASE, SCORE_SUBMISSION_QUEUE } from '@podium/contracts';
import { SubmissionRepository, type Db } from '@podium/db';
import type { Response } from 'express';
import PgBoss from 'pg-boss';
import { API_CONFIG, DB, QUEUE_SCHEMA } from '../common/tokens';

/** `work`, or a rejection once `ms` passed (the work itself ends at the pool's query deadline). */
export function withDeadline<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`the database did not answer within ${ms} ms`)), ms);
  });
  return Promise.race([work, deadline]).finally(() => clearTimeout(timer));
}

export interface HealthReport {
  status: 'ok' | 'degraded' | 'down';
  database: { ok: boolean; latencyMs: number; error?: string };
  queue: { depth: number; active: number; oldestQueuedSeconds: number | null } | null;
  workers: { live: number; list: { name: string; host: string; activeJobs: number; lastSeenSecondsAgo: number }[] } | null;
  submissions: { queued: number; scoring: number; stuck: number } | null;
}

/**
 * GET /api/health: the database (a round trip), the scoring queue (jobs waiting, running,
 * age of the oldest waiting one), live workers (heartbeat within the lease ttl) and stuck
 * submissions (SCORING without a live lease). 200 when the database answers ("degraded" when
 * jobs wait and no worker is alive), 503 when it does not, or not within
 * PODIUM_HEALTH_TIMEOUT_SECONDS (a partitioned database never refuses, it stays silent; ADR 0019).
 */
@Controller('api/health')
export class HealthController {
  constructor(
    @Inject(DB) private readonly db: Db,
    private readonly boss: PgBoss,
    private readonly submissions: SubmissionRepository,
    @Inject(QUEUE_SCHEMA) private readonly queueSchema: string,
    @Inject(API_CONFIG) private readonly config: ApiConfig,
  ) {}

  @Get()
  async health(@Res({ passthrough: true }) res: Response): Promise<HealthReport> {
    const started = Date.now();
    const report: HealthReport = { status: 'ok', database: { ok: true, latencyMs: 0 }, queue: null, workers: null, submissions: null };
    const deadlineMs = this.config.PODIUM_HEALTH_TIMEOUT_SECONDS * 1000;
    let details: [NonNullable<HealthReport['queue']>, Awaited<ReturnType<SubmissionRepository['liveWorkers']>>, NonNullable<HealthReport['submissions']>];
    try {
      await withDeadline(this.db.$queryRaw`SELECT 1`, deadlineMs);
      report.database.latencyMs = Date.now() - started;
      details = await withDeadline(Promise.all([this.queue(), this.submissions.liveWorkers(LEASE.ttlSeconds), this.counts()]), deadlineMs);
    } catch (e) {
      report.status = 'down';
      // Prisma's message starts with the call site; the driver's reason is its last line.
      const message = e instanceof Error ? (e.message.trim().split('\n').pop() ?? e.message) : String(e);
      report.database = { ok: false, latencyMs: Date.now() - started, error: message };
      res.status(503);
      return report;
    }
    const [queue, workers, counts] = details;
    report.queue = queue;
    const now = Date.now();
    report.workers = {
      live: workers.length,
      list: workers.map((w) => ({ name: w.name, host: w.host, activeJobs: w.activeJobs, lastSeenSecondsAgo: Math.round((now - w.lastSeenAt.getTime()) / 100) / 10 })),
    };
    report.submissions = counts;
    if ((queue.depth > 0 && workers.length === 0) || counts.stuck > 0) report.status = 'degraded';
    return report;
  }

  private async queue(): Promise<NonNullable<HealthReport['queue']>> {
    const schema = this.queueSchema.replace(/"/g, '""');
    const result = await this.boss.getDb().executeSql(
      `SELECT count(*) FILTER (WHERE state IN ('created', 'retry'))::int AS depth,
              count(*) FILTER (WHERE state = 'active')::int AS active,
              EXTRACT(epoch FROM now() - min(created_on) FILTER (WHERE state IN ('created', 'retry')))::float8 AS oldest
       FROM "${schema}".job WHERE name = $1`,
      [SCORE_SUBMISSION_QUEUE],
    );
    const row = (result.rows[0] ?? {}) as { depth?: number; active?: number; oldest?: number | null };
    return { depth: row.depth ?? 0, active: row.active ?? 0, oldestQueuedSeconds: row.oldest == null ? null : Math.round(row.oldest * 10) / 10 };
  }

  private async counts(): Promise<NonNullable<HealthReport['submissions']>> {
    const [row] = await this.db.$queryRaw<{ queued: number; scoring: number; stuck: number }[]>`
      SELECT count(*) FILTER (WHERE status = 'QUEUED')::int AS queued,
             count(*) FILTER (WHERE status = 'SCORING')::int AS scoring,
             count(*) FILTER (WHERE status = 'SCORING' AND (lease_expires_at IS NULL OR lease_expires_at < now()))::int AS stuck
      FROM submission WHERE status IN ('QUEUED', 'SCORING')`;
    return row ?? { queued: 0, scoring: 0, stuck: 0 };
  }
}
