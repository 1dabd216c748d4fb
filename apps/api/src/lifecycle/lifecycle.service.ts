import { Injectable } from '@nestjs/common';
import { sendScoreJob } from '@podium/contracts';
import PgBoss from 'pg-boss';
import {
  LifecycleRepository,
  Moderation,
  Registration,
  SubmissionRepository,
  TaskRepository,
  type AuditRecord,
} from '@podium/db';
import { ForbiddenError, InvalidInputError, NotFoundError, UnauthenticatedError, type AuthUser } from '@podium/domain';
import { assertId } from '../common/ids';
import { assertActsForTeam, assertTaskOrganiser, isAdmin, organisesTask } from '../common/visibility';
import { LeaderboardJobs } from '../leaderboard/leaderboard-jobs';
import { assertIntegerArg } from '../common/integer-args';

const MAX_REASON = 2000;

/** Organiser actions on submissions and registrations, and a team's primary submission. */
@Injectable()
export class LifecycleService {
  constructor(
    private readonly lifecycle: LifecycleRepository,
    private readonly submissions: SubmissionRepository,
    private readonly tasks: TaskRepository,
    private readonly boss: PgBoss,
    private readonly leaderboards: LeaderboardJobs,
  ) {}

  private async submission(id: string) {
    assertId('submission', id);
    const s = await this.submissions.byId(id);
    if (!s) throw new NotFoundError('submission', id);
    return s;
  }

  /**
   * Hides or disqualifies a submission (or clears it with NONE). The reason is shown to the team
   * and organisers; to everyone who sees the submission only when `reasonPublic` (default false).
   */
  async moderate(user: AuthUser | null, id: string, moderation: Moderation, reason: string | undefined, reasonPublic = false) {
    const s = await this.submission(id);
    const organiser = assertTaskOrganiser(user, s.phase.taskId);
    const text = (reason ?? '').trim();
    if (moderation !== Moderation.NONE && text.length === 0) throw new InvalidInputError('give the team a reason', { field: 'reason' });
    if (text.length > MAX_REASON) throw new InvalidInputError(`the reason may have at most ${MAX_REASON} characters`, { field: 'reason' });
    const isPublic = moderation !== Moderation.NONE && reasonPublic;
    const result = await this.lifecycle.moderate(s.id, moderation, moderation === Moderation.NONE ? null : text, isPublic, {
      actorId: organiser.id,
      action: `submission.${moderation.toLowerCase()}`,
      targetType: 'submission',
      targetId: s.id,
      details: { taskId: s.phase.taskId, phase: s.phase.name, team: s.team.name, system: s.systemName, reason: text, reasonPublic: isPublic },
    });
    await this.leaderboards.refresh(s.phaseId, 'lifecycle');
    return result;
  }

  async setBaseline(user: AuthUser | null, id: string, isBaseline: boolean) {
    const s = await this.submission(id);
    const organiser = assertTaskOrganiser(user, s.phase.taskId);
    const result = await this.lifecycle.setBaseline(s.id, isBaseline, {
      actorId: organiser.id,
      action: isBaseline ? 'submission.baseline' : 'submission.not-baseline',
      targetType: 'submission',
      targetId: s.id,
      details: { taskId: s.phase.taskId, phase: s.phase.name, system: s.systemName },
    });
    await this.leaderboards.refresh(s.phaseId, 'lifecycle');
    return result;
  }

  /**
   * A member switches their team's primary submission of the phase (the one the default board
   * ranks): only while the phase is open, atomically, audited (the state machine, ADR 0013).
   */
  async markPrimary(user: AuthUser | null, id: string) {
    const s = await this.submission(id);
    const member = assertActsForTeam(s.teamId, user, s.phase.taskId);
    const result = await this.lifecycle.markPrimary(s.id, member.id);
    await this.leaderboards.refresh(s.phaseId, 'lifecycle');
    return result;
  }

  /** Re-scores a whole phase after a metric fix; the replaced corpus scores stay in the history. */
  /**
   * Queues one submission, or every submission of a phase not being scored right now, for
   * scoring again. The scores they had move to their score history with their signatures, and
   * the audit log names who asked: all in the transaction that requeues them.
   */
  async rescore(user: AuthUser | null, target: { submissionId?: string; phaseId?: string }): Promise<number> {
    if (!user) throw new UnauthenticatedError();
    if (!!target.submissionId === !!target.phaseId) {
      throw new InvalidInputError('give exactly one of submissionId and phaseId', { field: 'submissionId' });
    }
    let ids: string[];
    let phaseId: string;
    let audit: Omit<AuditRecord, 'actorId' | 'action'>;
    let organiser: AuthUser;
    if (target.submissionId) {
      const s = await this.submission(target.submissionId);
      organiser = assertTaskOrganiser(user, s.phase.taskId);
      ids = [s.id];
      phaseId = s.phaseId;
      audit = { targetType: 'submission', targetId: s.id, details: { taskId: s.phase.taskId, phaseId: s.phaseId, system: s.systemName } };
    } else {
      phaseId = String(target.phaseId); // assertId refuses "undefined" as it refused undefined
      assertId('phase', phaseId);
      const phase = await this.tasks.phaseById(phaseId);
      if (!phase) throw new NotFoundError('phase', phaseId);
      organiser = assertTaskOrganiser(user, phase.taskId);
      ids = (await this.submissions.ofPhase(phaseId)).filter((s) => s.status !== 'SCORING').map((s) => s.id);
      audit = { targetType: 'phase', targetId: phase.id, details: { taskId: phase.taskId, phase: phase.name, submissions: ids.length } };
    }
    if (ids.length === 0) return 0;
    const requeued = await this.submissions.requeue(
      ids,
      (sql, submissionId) => sendScoreJob(this.boss, submissionId, 'rescore', sql),
      null,
      async (tx) => {
        await this.lifecycle.archiveCorpusScoresIn(tx, ids, { actorId: organiser.id, action: `${audit.targetType}.rescore`, ...audit });
      },
    );
    // The requeued submissions leave the board until they are scored again.
    await this.leaderboards.refresh(phaseId, 'lifecycle');
    return requeued;
  }

  /**
   * The audit log of the caller's tasks (one task with taskSlug); administrators see every
   * entry, also those of no task (tokens issued for other users).
   */
  async auditLog(user: AuthUser | null, taskSlug: string | undefined, limit: number) {
    if (!user) throw new UnauthenticatedError();
    assertIntegerArg('limit', limit, 1, 1000);
    let taskIds: readonly string[] | 'all' = isAdmin(user) ? 'all' : user.organisedTaskIds;
    if (taskSlug) {
      const task = await this.tasks.taskBySlug(taskSlug);
      if (!task) throw new NotFoundError('task', taskSlug);
      assertTaskOrganiser(user, task.id);
      taskIds = [task.id];
    }
    return (await this.lifecycle.auditLog(limit, taskIds)).map((e) => ({ ...e, actor: e.actor?.name ?? 'system', details: (e.details ?? {}) as Record<string, unknown> }));
  }

  /** A team registers for a task: approved at once when registration is open, else pending. */
  async register(user: AuthUser | null, taskSlug: string, teamId: string) {
    const task = await this.tasks.taskBySlug(taskSlug);
    if (!task) throw new NotFoundError('task', taskSlug);
    assertActsForTeam(teamId, user, task.id);
    return this.lifecycle.register(task.id, teamId, task.registration === Registration.OPEN || organisesTask(user, task.id));
  }

  async approve(user: AuthUser | null, taskSlug: string, teamId: string) {
    const task = await this.tasks.taskBySlug(taskSlug);
    if (!task) throw new NotFoundError('task', taskSlug);
    const organiser = assertTaskOrganiser(user, task.id);
    if (!(await this.lifecycle.registration(task.id, teamId))) throw new NotFoundError('registration of team', teamId);
    return this.lifecycle.approve(task.id, teamId, {
      actorId: organiser.id,
      action: 'registration.approve',
      targetType: 'team',
      targetId: teamId,
      details: { taskId: task.id },
    });
  }

  async registrations(user: AuthUser | null, taskSlug: string) {
    const task = await this.tasks.taskBySlug(taskSlug);
    if (!task) throw new NotFoundError('task', taskSlug);
    assertTaskOrganiser(user, task.id);
    return this.lifecycle.registrationsOfTask(task.id);
  }

  /**
   * Whether a team may submit to a task: registration open or approved; the task's organisers always.
   * Writes nothing: with open registration and none yet, `registerOnAccept` asks the caller to
   * register the team in the same transaction that stores the submission, so a refused
   * submission leaves no registration behind.
   */
  async assertMaySubmit(user: AuthUser, task: { id: string; slug: string; registration: Registration }, teamId: string): Promise<{ registerOnAccept: boolean }> {
    if (organisesTask(user, task.id)) return { registerOnAccept: false };
    const reg = await this.lifecycle.registration(task.id, teamId);
    if (task.registration === Registration.OPEN) return { registerOnAccept: !reg };
    if (reg?.status !== 'APPROVED') {
      throw new ForbiddenError(`task '${task.slug}' needs an organiser's approval of your team before you submit${reg ? ' (requested, pending)' : '; register the team first'}`);
    }
    return { registerOnAccept: false };
  }
}
