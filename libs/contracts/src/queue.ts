import { z } from 'zod';

/** pg-boss queue that carries one job per submission to score. */
export const SCORE_SUBMISSION_QUEUE = 'score-submission';

/**
 * Payload of a scoring job, versioned so that old jobs in the queue stay readable.
 * A payload that fails this schema is failed permanently by the worker (never retried).
 */
export const scoreSubmissionJobV1 = z.object({
  v: z.literal(1),
  submissionId: z.string().uuid(),
  /** Why the job was queued: a fresh upload, or an organiser's rescore. */
  reason: z.enum(['submitted', 'rescore']),
});
export type ScoreSubmissionJob = z.infer<typeof scoreSubmissionJobV1>;

/** Retries for a job whose worker crashed or threw unexpectedly. */
export const SCORE_JOB_RETRY_LIMIT = 3;

/** The part of pg-boss that queueing needs (structural, so this library does not import it). */
export interface JobSender {
  send(
    name: string,
    data: object,
    options: { db?: { executeSql(text: string, values: unknown[]): Promise<{ rows: unknown[] }> }; retryLimit?: number; expireInMinutes?: number },
  ): Promise<string | null>;
}

/**
 * Queues the scoring of a submission. Pass `db` to write the job inside the caller's
 * transaction, so that a submission is never stored without its job (or the reverse).
 */
export async function sendScoreJob(
  boss: JobSender,
  submissionId: string,
  reason: ScoreSubmissionJob['reason'],
  db?: { executeSql(text: string, values: unknown[]): Promise<{ rows: unknown[] }> },
): Promise<void> {
  const payload: ScoreSubmissionJob = scoreSubmissionJobV1.parse({ v: 1, submissionId, reason });
  await boss.send(SCORE_SUBMISSION_QUEUE, payload, { db, retryLimit: SCORE_JOB_RETRY_LIMIT, expireInMinutes: 60 });
}

async function retrying(step: () => Promise<unknown>, attempts: number, delayMs: number): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await step();
      return;
    } catch (e) {
      if (attempt >= attempts) throw e;
      await new Promise((r) => setTimeout(r, delayMs * attempt));
    }
  }
}

/**
 * Starts pg-boss, retrying a few times: when several processes start at once on a fresh
 * database, their schema creation can deadlock in PostgreSQL, and all but one then fail.
 */
export async function startQueue(boss: { start(): Promise<unknown> }, attempts = 5, delayMs = 500): Promise<void> {
  await retrying(() => boss.start(), attempts, delayMs);
}

/**
 * Creates a queue if it does not exist, retrying as {@link startQueue} does: the api and a
 * worker starting together create the same queue at once, which can deadlock too.
 */
export async function ensureQueue(boss: { createQueue(name: string): Promise<unknown> }, name: string, attempts = 5, delayMs = 500): Promise<void> {
  await retrying(() => boss.createQueue(name), attempts, delayMs);
}
