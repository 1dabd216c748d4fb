import { z } from 'zod';
import { sendJob, QUEUE_POLICY, type JobSender, type SqlExecutor } from './queue';

/** pg-boss queue that carries one job per robustness report to compute. */
export const ROBUSTNESS_REPORT_QUEUE = 'robustness-report' as const;

/** Retries for a robustness job whose worker crashed or threw unexpectedly. */
export const ROBUSTNESS_JOB_RETRY_LIMIT = QUEUE_POLICY['robustness-report'].retryLimit;

/** Reference-based (`ref`: anchor = reference) or reference-free (`src`: anchor = source). */
export const ROBUSTNESS_MODES = ['ref', 'src'] as const;
export type RobustnessMode = (typeof ROBUSTNESS_MODES)[number];

/**
 * A suite id: `builtin:<name>` (a suite shipped with Podium, e.g. `builtin:wmt20-de`) or
 * `generated:<seed>` (generated from the task's own references with that seed).
 */
export const robustnessSuiteIdSchema = z
  .string()
  .regex(/^(builtin:[a-z0-9][a-z0-9-]*|generated:(0|[1-9][0-9]{0,8}))$/, "suite must be 'builtin:<name>' or 'generated:<seed>' (seed 0…999999999)");

/** A parsed suite id. */
export type RobustnessSuite = { kind: 'builtin'; name: string; id: string } | { kind: 'generated'; seed: number; id: string };

/** Parses a suite id already checked by {@link robustnessSuiteIdSchema}. */
export function parseRobustnessSuite(id: string): RobustnessSuite {
  const suite = robustnessSuiteIdSchema.parse(id);
  if (suite.startsWith('builtin:')) return { kind: 'builtin', name: suite, id: suite };
  return { kind: 'generated', seed: Number(suite.slice('generated:'.length)), id: suite };
}

/**
 * Payload of a robustness job. `attempt` is the report's attempt when queued: a worker drops
 * a job whose report has been queued again since, so an old job never overwrites a newer
 * result. A payload that fails this schema is dropped (never retried).
 */
export const robustnessReportJobV1 = z.object({
  v: z.literal(1),
  reportId: z.uuid(),
  attempt: z.number().int().positive(),
});
export type RobustnessReportJob = z.infer<typeof robustnessReportJobV1>;

/**
 * Queues the computation of a robustness report. Pass `db` to write the job inside the
 * caller's transaction, so that a queued report always has its job.
 */
export async function sendRobustnessJob(
  boss: JobSender,
  reportId: string,
  attempt: number,
  db?: SqlExecutor,
): Promise<void> {
  const payload: RobustnessReportJob = robustnessReportJobV1.parse({ v: 1, reportId, attempt });
  await sendJob(boss, ROBUSTNESS_REPORT_QUEUE, payload, db);
}

const accuracyEstimate = z.object({
  accuracy: z.number(),
  ci: z.tuple([z.number(), z.number()]),
  n: z.number().int(),
  passed: z.number().int(),
});

/**
 * One point of MENLI's trade-off curve stored with an NLI metric's report: the accuracy of
 * C = w·NLI + (1−w)·M on the same suite rows, M the task's metric `with`, both min–max scaled
 * per phenomenon over the pooled good and bad scores (upstream `combine_1.py`), M flipped when
 * lower is better; `ci` as the report's own interval (same bootstrap seed).
 */
export const tradeoffPointSchema = z.object({
  with: z.string(),
  w: z.number(),
  accuracy: z.number(),
  ci: z.tuple([z.number(), z.number()]),
  signature: z.string(),
});
export type StoredTradeoffPoint = z.infer<typeof tradeoffPointSchema>;

/**
 * What a finished robustness report stores (robustness_report.result): overall accuracy (mean
 * over phenomena) and per-phenomenon accuracies with 95% bootstrap intervals, the number of
 * failing rows, and the bootstrap settings; for an NLI metric with other metrics configured,
 * the trade-off curve with each of them. The API parses stored results with this schema.
 */
export const robustnessResultSchema = z.object({
  higherIsBetter: z.boolean(),
  /** Mean over phenomena (MENLI's number). */
  overall: accuracyEstimate,
  /** Passes / rows over all phenomena; absent in reports stored before it existed. */
  pooled: accuracyEstimate.optional(),
  phenomena: z.record(z.string(), accuracyEstimate),
  failingCount: z.number().int(),
  bootstrap: z.object({ seed: z.number().int(), resamples: z.number().int(), confidence: z.number() }),
  tradeoff: z.array(tradeoffPointSchema).optional(),
});
export type RobustnessResult = z.infer<typeof robustnessResultSchema>;
