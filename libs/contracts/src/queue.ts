import { SENTENCE_TESTS } from '@podium/ranking';
import { z } from 'zod';

/** pg-boss queue that carries one job per submission to score. */
export const SCORE_SUBMISSION_QUEUE = 'score-submission';

/**
 * Payload of a scoring job, versioned so that old jobs in the queue stay readable.
 * A payload that fails this schema is failed permanently by the worker (never retried).
 */
export const scoreSubmissionJobV1 = z.object({
  v: z.literal(1),
  submissionId: z.uuid(),
  /** Why the job was queued: a fresh upload, an organiser's rescore, or a requeue after a worker stopped. */
  reason: z.enum(['submitted', 'rescore', 'requeue']),
});
export type ScoreSubmissionJob = z.infer<typeof scoreSubmissionJobV1>;

/** pg-boss queue of leaderboard computations: one job computes and stores boards of one phase. */
export const COMPUTE_LEADERBOARDS_QUEUE = 'compute-leaderboards';

/** A leaderboard view as a job carries it (the same fields as @podium/leaderboard's LeaderboardView). */
export const leaderboardViewPayload = z.object({
  metric: z.string().max(200),
  entries: z.enum(['primary', 'all']),
  test: z.enum(SENTENCE_TESTS).nullable(),
  correction: z.enum(['holm', 'bh', 'none']),
  /** null: the phase's seed. */
  seed: z.number().int().min(0).max(0x7fffffff).nullable(),
  /** null: the phase's setting. */
  resamples: z.number().int().min(1).max(100_000).nullable(),
});

/**
 * Payload of a leaderboard job. `views: null` computes every default view of the phase (sent
 * when a submission finishes scoring or the phase's settings or lifecycle flags change); a list
 * computes those views (a view asked for that is not a default one). Singleton per phase (and
 * per view list): a burst of sends while one waits coalesces into it (a job that started
 * already computes the stamp it read then; the waiting one picks up what changed since).
 */
export const computeLeaderboardsJobV1 = z.object({
  v: z.literal(1),
  phaseId: z.uuid(),
  views: z.array(leaderboardViewPayload).min(1).max(20).nullable(),
  reason: z.enum(['scored', 'settings', 'lifecycle', 'requested']),
});
export type ComputeLeaderboardsJob = z.infer<typeof computeLeaderboardsJobV1>;

/**
 * How one kind of job is sent and retried. Every producer (API, seed, tests, the reaper) sends
 * through {@link sendJob}, so these numbers live here only.
 */
export interface QueuePolicy {
  /** Retries after the first attempt, for a crash, an unexpected error or a stopped worker. */
  retryLimit: number;
  /** Seconds before the first retry; doubled (with jitter) for each later retry. */
  retryDelaySeconds: number;
  retryBackoff: boolean;
  /**
   * pg-boss's own expiry of an active job: only a backstop. A dead worker is found by its
   * lapsed lease ({@link LEASE}) in seconds; a job running longer than this is refused a
   * second run by the lease, never started beside the first.
   */
  expireInSeconds: number;
  /**
   * pg-boss queue policy: 'short' keeps at most one queued job per singleton key, so repeated
   * sends while one waits coalesce into it; default 'standard'.
   */
  policy?: 'standard' | 'short';
}

/** Retries for a scoring job whose worker crashed, threw unexpectedly or stopped. */
export const SCORE_JOB_RETRY_LIMIT = 3;

export const QUEUE_POLICY = {
  [SCORE_SUBMISSION_QUEUE]: { retryLimit: SCORE_JOB_RETRY_LIMIT, retryDelaySeconds: 1, retryBackoff: true, expireInSeconds: 60 * 60 },
  'robustness-report': { retryLimit: 2, retryDelaySeconds: 5, retryBackoff: true, expireInSeconds: 60 * 60 },
  // A crash is retried; a board that keeps failing is re-requested by the next read or score.
  [COMPUTE_LEADERBOARDS_QUEUE]: { retryLimit: 2, retryDelaySeconds: 2, retryBackoff: true, expireInSeconds: 30 * 60, policy: 'short' },
} as const satisfies Record<string, QueuePolicy>;
export type QueueName = keyof typeof QUEUE_POLICY;

/** Attempts a scoring job gets in all: the first and its retries ("attempt n of m"). */
export const SCORE_JOB_MAX_ATTEMPTS = SCORE_JOB_RETRY_LIMIT + 1;

/**
 * The lease a worker holds on a submission (or robustness report) while it works on it
 * (docs/adr/0007, 0017). The worker renews it every `renewSeconds`; a lease not renewed for
 * `ttlSeconds` means the worker stopped, and a reaper (every worker runs one, every
 * `reapSeconds`) hands the job back to the queue as a retry due at once. Kill → requeued is at
 * most ttl + reap (9 s by default); the re-run starts at the next poll of a free worker
 * (PODIUM_WORKER_POLL_SECONDS, 0.5 s). The ttl leaves three missed renewals of slack; a run that
 * loses its lease anyway is fenced (its late write refused), never doubled.
 * Overridden per worker by PODIUM_LEASE_TTL_SECONDS, PODIUM_LEASE_RENEW_SECONDS, PODIUM_LEASE_REAP_SECONDS.
 */
export const LEASE = { ttlSeconds: 8, renewSeconds: 2, reapSeconds: 1 } as const;

/** SQL in the caller's transaction; pg-boss's `db` option takes this shape. */
export interface SqlExecutor {
  executeSql(text: string, values: unknown[]): Promise<{ rows: unknown[] }>;
}

/** The part of pg-boss that queueing needs (structural, so this library does not import it). */
export interface JobSender {
  send(
    name: string,
    data: object,
    options: { db?: SqlExecutor; retryLimit?: number; retryDelay?: number; retryBackoff?: boolean; expireInSeconds?: number; singletonKey?: string; startAfter?: number; priority?: number },
  ): Promise<string | null>;
}

/** pg-boss send options for a queue, from its policy. */
export function sendOptions(queue: QueueName): { retryLimit: number; retryDelay: number; retryBackoff: boolean; expireInSeconds: number } {
  const p: QueuePolicy = QUEUE_POLICY[queue];
  return { retryLimit: p.retryLimit, retryDelay: p.retryDelaySeconds, retryBackoff: p.retryBackoff, expireInSeconds: p.expireInSeconds };
}

/** Sends one job with its queue's policy; `db` writes it inside the caller's transaction. */
export async function sendJob(boss: JobSender, queue: QueueName, payload: object, db?: SqlExecutor): Promise<string | null> {
  return boss.send(queue, payload, { ...(db ? { db } : {}), ...sendOptions(queue) });
}

/**
 * Queues the scoring of a submission. Pass `db` to write the job inside the caller's
 * transaction, so that a submission is never stored without its job (or the reverse).
 */
export async function sendScoreJob(boss: JobSender, submissionId: string, reason: ScoreSubmissionJob['reason'], db?: SqlExecutor): Promise<void> {
  const payload: ScoreSubmissionJob = scoreSubmissionJobV1.parse({ v: 1, submissionId, reason });
  const priority = reason === 'requeue' ? { priority: REQUEUE_PRIORITY } : {};
  await boss.send(SCORE_SUBMISSION_QUEUE, payload, { ...(db ? { db } : {}), ...sendOptions(SCORE_SUBMISSION_QUEUE), ...priority });
}

/**
 * pg-boss priority of a scoring job sent again because its worker stopped (the reaper) or an
 * organiser requeued it: workers fetch by priority, then age, so a submission that already lost
 * its worker runs next instead of waiting behind every submission queued meanwhile (ADR 0017).
 */
export const REQUEUE_PRIORITY = 10;

/**
 * Queues the computation of a phase's leaderboards (views null: its default views). Coalesces:
 * while a job of the same phase and views waits, this sends nothing (returns null). `startAfterSeconds`:
 * not before then (a worker that found the phase being computed elsewhere hands it back so).
 */
export async function sendLeaderboardJob(
  boss: JobSender,
  phaseId: string,
  reason: ComputeLeaderboardsJob['reason'],
  views: ComputeLeaderboardsJob['views'] = null,
  db?: SqlExecutor,
  startAfterSeconds?: number,
): Promise<string | null> {
  const payload: ComputeLeaderboardsJob = computeLeaderboardsJobV1.parse({ v: 1, phaseId, views, reason });
  const singletonKey = views ? `${phaseId}:${JSON.stringify(views)}` : phaseId;
  return boss.send(COMPUTE_LEADERBOARDS_QUEUE, payload, {
    ...(db ? { db } : {}),
    ...sendOptions(COMPUTE_LEADERBOARDS_QUEUE),
    singletonKey,
    ...(startAfterSeconds === undefined ? {} : { startAfter: startAfterSeconds }),
  });
}

/**
 * Starts pg-boss, retrying with backoff: when several processes start at once on a fresh
 * database, their schema creation can deadlock in PostgreSQL, and a database that is
 * restarting refuses connections for a moment.
 */
export async function startQueue(
  boss: { start(): Promise<unknown> },
  attempts = 5,
  delayMs = 500,
  log: (message: string) => void = () => undefined,
): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await boss.start();
      return;
    } catch (e) {
      if (attempt >= attempts) throw e;
      log(`queue start failed (attempt ${attempt} of ${attempts}): ${e instanceof Error ? e.message : String(e)}; retrying in ${delayMs * attempt} ms`);
      await new Promise((r) => setTimeout(r, delayMs * attempt));
    }
  }
}

/**
 * Creates a queue (idempotent), retrying like {@link startQueue}: processes creating queues at
 * the same moment on a fresh database can deadlock in PostgreSQL too.
 */
export async function ensureQueue(
  boss: { createQueue(name: string, options?: { name: string; policy?: 'standard' | 'short' }): Promise<unknown> },
  name: string,
  attempts = 5,
  delayMs = 300,
  log: (message: string) => void = () => undefined,
): Promise<void> {
  const policy = (QUEUE_POLICY as Record<string, QueuePolicy>)[name]?.policy;
  await startQueue({ start: () => (policy ? boss.createQueue(name, { name, policy }) : boss.createQueue(name)) }, attempts, delayMs, (m) => log(`creating queue '${name}': ${m}`));
}
