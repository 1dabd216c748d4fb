import { Injectable } from '@nestjs/common';
import { NotFoundError, ScoreRepository, SubmissionRepository, TaskRepository, type AuthUser, type LongScoreRow } from '@podium/db';
import { assertId } from '../common/ids';
import { assertCanSeePhaseScores, assertCanSeeSubmission } from '../common/visibility';

export interface ScoreExport {
  fileStem: string;
  pages: AsyncGenerator<LongScoreRow[]>;
}

/** Decides what a download contains and who may fetch it; the controller only streams. */
@Injectable()
export class DownloadsService {
  constructor(
    private readonly tasks: TaskRepository,
    private readonly submissions: SubmissionRepository,
    private readonly scores: ScoreRepository,
  ) {}

  async submissionScores(submissionId: string, user: AuthUser | null): Promise<ScoreExport> {
    assertId('submission', submissionId);
    const submission = await this.submissions.byId(submissionId);
    if (!submission) throw new NotFoundError('submission', submissionId);
    assertCanSeeSubmission(submission, submission.phase, user);
    return {
      fileStem: `${submission.phase.task.slug}-${submission.phase.name}-${submission.team.name}-${submission.systemName}-scores`,
      pages: this.scores.longRows([submission.id]),
    };
  }

  async phaseScores(phaseId: string, user: AuthUser | null): Promise<ScoreExport> {
    assertId('phase', phaseId);
    const phase = await this.tasks.phaseById(phaseId);
    if (!phase) throw new NotFoundError('phase', phaseId);
    assertCanSeePhaseScores(phase, user);
    const scored = await this.submissions.ofPhase(phaseId, { status: 'SCORED' });
    return { fileStem: `${phase.task.slug}-${phase.name}-scores`, pages: this.scores.longRows(scored.map((s) => s.id)) };
  }
}
