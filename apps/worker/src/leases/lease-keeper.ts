import { Inject, Injectable, Logger } from '@nestjs/common';
import type { WorkerConfig } from '@podium/config';
import { LEASE, SCORE_JOB_MAX_ATTEMPTS, SCORE_SUBMISSION_QUEUE, sendScoreJob } from '@podium/contracts';
import { SubmissionRepository, type LapsedLease, type TxSql } from '@podium/db';
import { hostname } from 'node:os';
import PgBoss from 'pg-boss';
import { PG_BOSS, WORKER_CONFIG } from '../tokens';

/** Longest pause between heartbeats while the database is unreachable. */
const MAX_BACKOFF_MS = 5_000;

/**
 * The worker's side of scoring leases (docs/adr/0007-scoring-leases.md): it renews the leases
 * this worker holds and its heartbeat row every few seconds, and reaps lapsed leases of
 * workers that stopped: each goes back to pg-boss as a retry of its job (pg-boss's retry count
 * and backoff), or fails the submission when no attempt is left. Every worker runs one, so a
 * dead worker is noticed within ttl + reap seconds as long as any worker is alive.
 */
@Injectable()
export class LeaseKeeper {
  private readonly log = new Logger(LeaseKeeper.name);
  /** Submission id → pg-boss job id, for the leases held now. */
  readonly held = new Map<string, string | null>();
  readonly owner: string;
  readonly ttlSeconds: number;
  private readonly renewSeconds: number;
  private readonly reapSeconds: number;
  /** The pending tick of each loop (renewal, reaper). */
  private readonly timers = new Map<string, NodeJS.Timeout>();
  private failures = 0;
  private stopped = false;

  constructor(
    private readonly submissions: SubmissionRepository,
    @Inject(PG_BOSS) private readonly boss: PgBoss,
    @Inject(WORKER_CONFIG) private readonly config: WorkerConfig,
  ) {
    this.owner = config.PODIUM_WORKER_NAME;
    this.ttlSeconds = config.PODIUM_LEASE_TTL_SECONDS ?? LEASE.ttlSeconds;
    this.renewSeconds = config.PODIUM_LEASE_RENEW_SECONDS ?? LEASE.renewSeconds;
    this.reapSeconds = config.PODIUM_LEASE_REAP_SECONDS ?? LEASE.reapSeconds;
  }

  /** Takes the lease (compare-and-set); see SubmissionRepository.acquireLease. */
  async acquire(submissionId: string, jobId: string | null) {
    const outcome = await this.submissions.acquireLease(submissionId, this.owner, jobId, this.ttlSeconds);
    if (outcome.kind === 'acquired') this.held.set(submissionId, jobId);
    return outcome;
  }

  release(submissionId: string): void {
    this.held.delete(submissionId);
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
          next = Math.min(MAX_BACKOFF_MS, 250 * 2 ** Math.min(this.failures, 5));
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
    const ids = [...this.held.keys()];
    const kept = new Set(await this.submissions.renewLeases(this.owner, ids, this.ttlSeconds));
    for (const id of ids) {
      if (!kept.has(id) && this.held.has(id)) {
        this.log.warn({ msg: `lease on submission ${id} was taken back; its result will be discarded`, submissionId: id });
        this.held.delete(id);
      }
    }
    await this.submissions.heartbeat({ name: this.owner, host: hostname(), pid: process.pid, activeJobs: this.held.size });
  }

  /** Hands lapsed leases back to the queue; returns what it did. */
  async reap(onlyIds?: string[]): Promise<{ requeued: LapsedLease[]; failed: LapsedLease[] }> {
    const result = await this.submissions.reapExpiredLeases((sql, lapsed) => this.handBackJob(sql, lapsed), onlyIds ? { onlyIds } : {});
    for (const r of result.requeued) {
      this.log.warn({
        msg: `worker ${r.owner ?? '?'} stopped renewing its lease on submission ${r.submissionId}; queued attempt ${r.attempt + 1} of ${SCORE_JOB_MAX_ATTEMPTS}`,
        submissionId: r.submissionId,
        jobId: r.jobId,
        event: 'lease-reaped',
      });
    }
    for (const r of result.failed) {
      this.log.error({ msg: `submission ${r.submissionId} failed: its worker stopped during the last attempt`, submissionId: r.submissionId, jobId: r.jobId });
    }
    return result;
  }

  /**
   * Inside the reaper's transaction: fails the stopped worker's job so that pg-boss retries it
   * (its retry count and backoff), or, when pg-boss no longer holds it as active (it expired
   * it, or a late duplicate completed it), sends a fresh job.
   */
  private async handBackJob(sql: TxSql, lapsed: LapsedLease): Promise<'retry' | 'exhausted'> {
    // Read through pg-boss's own pool (its rows carry an interval Prisma cannot read); the
    // submission row is locked, so no other reaper acts on this job meanwhile.
    const job = lapsed.jobId ? await this.boss.getJobById(SCORE_SUBMISSION_QUEUE, lapsed.jobId, { includeArchive: false }) : null;
    const exhausted = lapsed.attempt >= SCORE_JOB_MAX_ATTEMPTS || (job !== null && job.state === 'active' && job.retryCount >= job.retryLimit);
    if (job && job.state === 'active') {
      await this.boss.fail(SCORE_SUBMISSION_QUEUE, job.id, { message: `worker ${lapsed.owner ?? '?'} stopped renewing its lease` }, { db: sql });
      return exhausted ? 'exhausted' : 'retry';
    }
    if (exhausted) return 'exhausted';
    await sendScoreJob(this.boss, lapsed.submissionId, 'requeue', sql);
    return 'retry';
  }
}
