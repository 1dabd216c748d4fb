import type { Db } from './client';
import { ConflictError, InvalidInputError, NotFoundError } from './errors';
import { Prisma, type Moderation, type Registration } from './generated/client';

export interface AuditRecord {
  actorId: string;
  action: string;
  targetType: string;
  targetId: string;
  details?: Prisma.InputJsonValue;
}

export interface PhaseChanges {
  name?: string;
  opensAt?: Date;
  closesAt?: Date;
  dailyLimit?: number;
  totalLimit?: number;
  leaderboardBeforeClose?: boolean;
  teamInstanceScores?: boolean;
  /** A validated split (@podium/leaderboard instanceSplitSchema), or Prisma.DbNull to remove it. */
  split?: Prisma.InputJsonValue | typeof Prisma.DbNull;
}

export interface TaskChanges {
  title?: string;
  description?: string;
  metrics?: Prisma.InputJsonValue;
  combinedWeight?: number | null;
  registration?: Registration;
}

/**
 * The organiser's lifecycle of a task: edits, closing, publishing, moderation, primary
 * submissions, re-score history; each change is written with its audit entry in one transaction.
 */
export class LifecycleRepository {
  constructor(private readonly db: Db) {}

  async auditLog(limit = 200, taskId?: string) {
    return this.db.auditEntry.findMany({
      where: taskId ? { details: { path: ['taskId'], equals: taskId } } : {},
      orderBy: { createdAt: 'desc' },
      take: limit,
      include: { actor: { select: { name: true } } },
    });
  }

  private async audit(tx: Prisma.TransactionClient, entry: AuditRecord) {
    await tx.auditEntry.create({ data: { ...entry, details: entry.details ?? {} } });
  }

  /** How many submissions the task's phases have: metrics are frozen from the first on. */
  async submissionCountOfTask(taskId: string): Promise<number> {
    return this.db.submission.count({ where: { phase: { taskId } } });
  }

  async updateTask(taskId: string, changes: TaskChanges, audit: AuditRecord) {
    return this.db.$transaction(async (tx) => {
      const task = await tx.task.update({ where: { id: taskId }, data: changes });
      await this.audit(tx, audit);
      return task;
    });
  }

  async updatePhase(phaseId: string, changes: PhaseChanges, audit: AuditRecord) {
    return this.db.$transaction(async (tx) => {
      const phase = await tx.phase.findUnique({ where: { id: phaseId } });
      if (!phase) throw new NotFoundError('phase', phaseId);
      const opensAt = changes.opensAt ?? phase.opensAt;
      const closesAt = changes.closesAt ?? phase.closesAt;
      if (closesAt <= opensAt) throw new InvalidInputError('closesAt must be after opensAt', { field: 'closesAt' });
      try {
        const updated = await tx.phase.update({ where: { id: phaseId }, data: changes });
        await this.audit(tx, audit);
        return updated;
      } catch (e) {
        if (e instanceof Prisma.PrismaClientKnownRequestError && e.code === 'P2002') {
          throw new ConflictError(`the task already has a phase named '${changes.name}'`, { field: 'name' });
        }
        throw e;
      }
    });
  }

  async closePhase(phaseId: string, at: Date, audit: AuditRecord) {
    return this.db.$transaction(async (tx) => {
      const phase = await tx.phase.findUnique({ where: { id: phaseId } });
      if (!phase) throw new NotFoundError('phase', phaseId);
      if (phase.closedEarlyAt || phase.closesAt <= at) throw new ConflictError(`phase '${phase.name}' is already closed`, { field: 'phaseId' });
      const updated = await tx.phase.update({ where: { id: phaseId }, data: { closedEarlyAt: at } });
      await this.audit(tx, audit);
      return updated;
    });
  }

  /** Publishing (or un-publishing, `at` null) flips the visibility of references and outputs. */
  async setPublished(phaseId: string, at: Date | null, audit: AuditRecord) {
    return this.db.$transaction(async (tx) => {
      const updated = await tx.phase.update({ where: { id: phaseId }, data: { publishedAt: at } });
      await this.audit(tx, audit);
      return updated;
    });
  }

  async moderate(submissionId: string, moderation: Moderation, reason: string | null, audit: AuditRecord) {
    return this.db.$transaction(async (tx) => {
      const updated = await tx.submission.update({ where: { id: submissionId }, data: { moderation, moderationReason: reason } });
      await this.audit(tx, audit);
      return updated;
    });
  }

  async setBaseline(submissionId: string, isBaseline: boolean, audit: AuditRecord) {
    return this.db.$transaction(async (tx) => {
      const updated = await tx.submission.update({ where: { id: submissionId }, data: { isBaseline } });
      await this.audit(tx, audit);
      return updated;
    });
  }

  /** Marks one submission of its team in its phase as primary; the team's others lose the mark. */
  async markPrimary(submissionId: string) {
    return this.db.$transaction(async (tx) => {
      const s = await tx.submission.findUnique({ where: { id: submissionId } });
      if (!s) throw new NotFoundError('submission', submissionId);
      await tx.submission.updateMany({ where: { phaseId: s.phaseId, teamId: s.teamId, isPrimary: true }, data: { isPrimary: false } });
      return tx.submission.update({ where: { id: submissionId }, data: { isPrimary: true } });
    });
  }

  /** Copies the corpus scores of the submissions into the history before they are re-scored. */
  /**
   * Copies the submissions' current corpus scores (with their signatures) into the score history
   * and records the audit entry, inside the caller's transaction (a re-score's requeue).
   */
  async archiveCorpusScoresIn(tx: Prisma.TransactionClient, submissionIds: string[], audit: AuditRecord): Promise<number> {
    const rows = await tx.corpusScore.findMany({ where: { submissionId: { in: submissionIds } } });
    if (rows.length > 0) {
      await tx.scoreHistory.createMany({ data: rows.map((r) => ({ submissionId: r.submissionId, metric: r.metric, signature: r.signature, value: r.value })) });
    }
    await this.audit(tx, audit);
    return rows.length;
  }

  async scoreHistory(submissionId: string) {
    return this.db.scoreHistory.findMany({ where: { submissionId }, orderBy: [{ replacedAt: 'desc' }, { metric: 'asc' }] });
  }

  /**
   * The earliest other submission of the phase with the same checksum, if any: of the same team
   * (`sameTeam`), or of another team (shown to organisers only: ADR 0014).
   */
  async duplicateOf(submission: { id: string; phaseId: string; teamId: string; checksum: string; createdAt: Date }, scope: 'sameTeam' | 'otherTeams') {
    return this.db.submission.findFirst({
      where: {
        phaseId: submission.phaseId,
        checksum: submission.checksum,
        id: { not: submission.id },
        createdAt: { lte: submission.createdAt },
        teamId: scope === 'sameTeam' ? submission.teamId : { not: submission.teamId },
      },
      orderBy: { createdAt: 'asc' },
      select: { id: true, systemName: true, teamId: true },
    });
  }

  async registration(taskId: string, teamId: string) {
    return this.db.taskRegistration.findUnique({ where: { taskId_teamId: { taskId, teamId } } });
  }

  /** Idempotent and safe under concurrent calls (INSERT … ON CONFLICT DO NOTHING, then read). */
  async register(taskId: string, teamId: string, approved: boolean) {
    await this.db.taskRegistration.createMany({ data: [{ taskId, teamId, status: approved ? 'APPROVED' : 'PENDING' }], skipDuplicates: true });
    return this.db.taskRegistration.findUniqueOrThrow({ where: { taskId_teamId: { taskId, teamId } } });
  }

  async approve(taskId: string, teamId: string, audit: AuditRecord) {
    return this.db.$transaction(async (tx) => {
      const r = await tx.taskRegistration.update({ where: { taskId_teamId: { taskId, teamId } }, data: { status: 'APPROVED' } });
      await this.audit(tx, audit);
      return r;
    });
  }

  async registrationsOfTask(taskId: string) {
    return this.db.taskRegistration.findMany({ where: { taskId }, include: { team: true }, orderBy: { createdAt: 'asc' } });
  }

  /** A team's submissions in every phase, newest first. */
  async submissionsOfTeam(teamId: string, limit = 200) {
    return this.db.submission.findMany({ where: { teamId }, include: { team: true }, orderBy: { createdAt: 'desc' }, take: limit });
  }

  async recordAudit(entry: AuditRecord) {
    await this.audit(this.db, entry);
  }
}
