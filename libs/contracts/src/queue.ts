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
