import { Controller, Get, Inject, Res } from '@nestjs/common';
import { LEASE, SCORE_SUBMISSION_QUEUE } from '@podium/contracts';
import { SubmissionRepository, type Db } from '@podium/db';
import type { Response } from 'express';
import PgBoss from 'pg-boss';
import { DB, QUEUE_SCHEMA } from '../common/tokens';

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
 * jobs wait and no worker is alive), 503 when it does not.
 */
@Controller('api/health')
export class HealthController {
  constructor(
    @Inject(DB) private readonly db: Db,
    private readonly boss: PgBoss,
    private readonly submissions: SubmissionRepository,
    @Inject(QUEUE_SCHEMA) private readonly queueSchema: string,
  ) {}

  @Get()
  async health(@Res({ passthrough: true }) res: Response): Promise<HealthReport> {
    const started = Date.now();
    const report: HealthReport = { status: 'ok', database: { ok: true, latencyMs: 0 }, queue: null, workers: null, submissions: null };
    try {
      await this.db.$queryRaw`SELECT 1`;
      report.database.latencyMs = Date.now() - started;
    } catch (e) {
      report.status = 'down';
      report.database = { ok: false, latencyMs: Date.now() - started, error: e instanceof Error ? e.message.replace(/\n[\s\S]*$/, '') : String(e) };
      res.status(503);
      return report;
    }
    const [queue, workers, counts] = await Promise.all([this.queue(), this.submissions.liveWorkers(LEASE.ttlSeconds), this.counts()]);
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
