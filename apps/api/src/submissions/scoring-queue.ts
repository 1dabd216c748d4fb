import { Injectable } from '@nestjs/common';
import { SCORE_JOB_RETRY_LIMIT, SCORE_SUBMISSION_QUEUE, scoreSubmissionJobV1, type ScoreSubmissionJob } from '@podium/contracts';
import type { TxSql } from '@podium/db';
import PgBoss from 'pg-boss';

/** Sends scoring jobs inside the caller's transaction, so a stored submission is always queued. */
@Injectable()
export class ScoringQueue {
  constructor(private readonly boss: PgBoss) {}

  async enqueue(sql: TxSql, submissionId: string, reason: ScoreSubmissionJob['reason']): Promise<void> {
    const payload = scoreSubmissionJobV1.parse({ v: 1, submissionId, reason });
    await this.boss.send(SCORE_SUBMISSION_QUEUE, payload, { db: sql, retryLimit: SCORE_JOB_RETRY_LIMIT });
  }

  /** A callback in the shape SubmissionRepository.create/requeue expect. */
  enqueuer(reason: ScoreSubmissionJob['reason']): (sql: TxSql, submissionId: string) => Promise<void> {
    return (sql, submissionId) => this.enqueue(sql, submissionId, reason);
  }
}
