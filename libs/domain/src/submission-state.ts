import { ConflictError } from './errors';

/** A submission's status (the database enum of the same name; libs/db checks that the two agree). */
export const SubmissionStatus = { QUEUED: 'QUEUED', SCORING: 'SCORING', SCORED: 'SCORED', FAILED: 'FAILED' } as const;
export type SubmissionStatus = (typeof SubmissionStatus)[keyof typeof SubmissionStatus];

/**
 * The one place that says how a submission's status may change:
 *
 *   QUEUED ──lease──▶ SCORING ──save──▶ SCORED
 *     ▲  │              │  │
 *     │  └──fail──▶ FAILED ◀┘ (permanent error, attempts used up)
 *     └── requeue ◀─────┘ (worker stopped / handed back / error to retry)
 *   SCORED, FAILED ──rescore/requeue──▶ QUEUED
 *
 * SCORING → SCORING is not a transition: a second scoring run of a submission whose lease is
 * alive is refused ({@link LeaseHeldError}). Repositories write every status change with a
 * compare-and-set on the allowed sources below, so a stale writer changes nothing.
 */
export const SUBMISSION_TRANSITIONS: Readonly<Record<SubmissionStatus, readonly SubmissionStatus[]>> = {
  QUEUED: [SubmissionStatus.SCORING, SubmissionStatus.FAILED, SubmissionStatus.QUEUED],
  SCORING: [SubmissionStatus.SCORED, SubmissionStatus.FAILED, SubmissionStatus.QUEUED],
  SCORED: [SubmissionStatus.QUEUED],
  FAILED: [SubmissionStatus.QUEUED],
};

/** Statuses from which `to` may be reached. */
export function sourcesOf(to: SubmissionStatus): SubmissionStatus[] {
  return (Object.keys(SUBMISSION_TRANSITIONS) as SubmissionStatus[]).filter((from) => SUBMISSION_TRANSITIONS[from].includes(to));
}

export function canTransition(from: SubmissionStatus, to: SubmissionStatus): boolean {
  return SUBMISSION_TRANSITIONS[from].includes(to);
}

/** A status change the state machine does not allow (a domain error: CONFLICT). */
export class IllegalTransitionError extends ConflictError {
  constructor(
    readonly submissionId: string,
    readonly from: SubmissionStatus,
    readonly to: SubmissionStatus,
  ) {
    super(`submission '${submissionId}' cannot go from ${from} to ${to}`, { from, to });
  }
}

export function assertTransition(submissionId: string, from: SubmissionStatus, to: SubmissionStatus): void {
  if (!canTransition(from, to)) throw new IllegalTransitionError(submissionId, from, to);
}

/** Another worker holds a live lease on the submission: a second concurrent run is refused. */
export class LeaseHeldError extends ConflictError {
  constructor(
    readonly submissionId: string,
    readonly owner: string,
    readonly expiresAt: Date,
  ) {
    super(`submission '${submissionId}' is being scored by ${owner} (lease until ${expiresAt.toISOString()})`, { owner });
  }
}

/**
 * Who holds a lease and the fencing token its claim returned (docs/adr/0017): every claim takes
 * the next token, and a final write lands only while the row still carries it.
 */
export interface LeaseHolder {
  owner: string;
  token: bigint;
}

/**
 * The caller's lease lapsed and was taken back (reaped, handed to another worker): its writes are
 * refused. `token` is the one the caller's claim returned; `currentToken` the row's now (null:
 * the row is gone), larger when another claim came since.
 */
export class LeaseLostError extends ConflictError {
  constructor(
    readonly submissionId: string,
    readonly owner: string,
    readonly token: bigint | null = null,
    readonly currentToken: bigint | null = null,
    what = 'submission',
  ) {
    super(`${owner} no longer holds the lease on ${what} '${submissionId}'${token === null ? '' : ` (its token ${token}, now ${currentToken ?? 'none'})`}`, { owner });
  }
}

/** What a submission shows while queued again: "retrying after a worker stopped (attempt 2 of 4)". */
export function retryNote(s: { status: SubmissionStatus; retryReason: string | null; attempt: number }, maxAttempts: number): string | null {
  if (s.status !== SubmissionStatus.QUEUED && s.status !== SubmissionStatus.SCORING) return null;
  if (!s.retryReason || s.attempt === 0) return null;
  const why =
    s.retryReason === 'worker-stopped' ? 'after a worker stopped' : s.retryReason === 'shutdown' ? 'after a worker shut down' : s.retryReason === 'error' ? 'after an error' : 'after a requeue';
  const n = s.status === SubmissionStatus.QUEUED ? s.attempt + 1 : s.attempt;
  return `retrying ${why} (attempt ${Math.min(n, maxAttempts)} of ${maxAttempts})`;
}
