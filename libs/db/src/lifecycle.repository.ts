import { ConflictError, ForbiddenError, InvalidInputError, NotFoundError, assertPhaseAllows, assertScheduleEdit } from '@podium/domain';
import type { Db } from './client';
import { Prisma, SubmissionStatus, type Moderation, type Phase, type Registration } from './generated/client';

export interface AuditRecord {
  /** Null: the system (a phase that closed at its closesAt). */
  actorId: string | null;
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

  /** Newest first; `taskIds`: only entries of these tasks (`details.taskId`), or 'all'. */
  async auditLog(limit: number, taskIds: readonly string[] | 'all') {
    if (taskIds !== 'all' && taskIds.length === 0) return [];
    return this.db.auditEntry.findMany({
      where: taskIds === 'all' ? {} : { OR: taskIds.map((taskId) => ({ details: { path: ['taskId'], equals: taskId } })) },
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

  /** Counts of what closing, publishing or re-scoring a phase touches (the organise page's confirmations). */
  async phaseImpact(phaseId: string) {
    const [row] = await this.db.$queryRaw<
      { submissions: bigint; teams: bigint; scored: bigint; pending: bigint; baselines: bigint; moderated: bigint; teams_without_primary: bigint; rescorable: bigint }[]
    >`SELECT count(*) FILTER (WHERE status <> 'FAILED') AS submissions,
        count(DISTINCT team_id) FILTER (WHERE status <> 'FAILED') AS teams,
        count(*) FILTER (WHERE status = 'SCORED') AS scored,
        count(*) FILTER (WHERE status IN ('QUEUED', 'SCORING')) AS pending,
        count(*) FILTER (WHERE status <> 'FAILED' AND is_baseline) AS baselines,
        count(*) FILTER (WHERE status <> 'FAILED' AND moderation <> 'NONE') AS moderated,
        (count(DISTINCT team_id) FILTER (WHERE status <> 'FAILED' AND NOT is_baseline)) - (count(DISTINCT team_id) FILTER (WHERE is_primary AND NOT is_baseline)) AS teams_without_primary,
        count(*) FILTER (WHERE status <> 'SCORING') AS rescorable
      FROM submission WHERE phase_id = ${phaseId}::uuid`;
    const n = (v: bigint | undefined) => Number(v ?? 0);
    return {
      submissions: n(row?.submissions),
      teams: n(row?.teams),
      scored: n(row?.scored),
      pending: n(row?.pending),
      baselines: n(row?.baselines),
      moderated: n(row?.moderated),
      teamsWithoutPrimary: Math.max(0, n(row?.teams_without_primary)),
      rescorable: n(row?.rescorable),
    };
  }

  async updateTask(taskId: string, changes: TaskChanges, audit: AuditRecord) {
    return this.db.$transaction(async (tx) => {
      const task = await tx.task.update({ where: { id: taskId }, data: changes });
      await this.audit(tx, audit);
      return task;
    });
  }

  /**
   * Takes the phase's row lock for the rest of the transaction and reads it: every transition of
   * the phase (and every primary switch in it) runs under this lock, so they happen one at a time.
   */
  private async lockPhase(tx: Prisma.TransactionClient, phaseId: string): Promise<Phase> {
    await tx.$queryRaw`SELECT id FROM phase WHERE id = ${phaseId}::uuid FOR UPDATE`;
    const phase = await tx.phase.findUnique({ where: { id: phaseId } });
    if (!phase) throw new NotFoundError('phase', phaseId);
    return phase;
  }

  /**
   * Dates and limits only while the phase is scheduled or open, without closing or reopening it;
   * the name and the public flag until it is published. A published phase takes no edit at all.
   */
  async updatePhase(phaseId: string, changes: PhaseChanges, audit: AuditRecord, now: Date = new Date()) {
    return this.db.$transaction(async (tx) => {
      const phase = await this.lockPhase(tx, phaseId);
      const opensAt = changes.opensAt ?? phase.opensAt;
      const closesAt = changes.closesAt ?? phase.closesAt;
      const schedule = changes.opensAt !== undefined || changes.closesAt !== undefined || changes.dailyLimit !== undefined || changes.totalLimit !== undefined;
      if (closesAt <= opensAt) throw new InvalidInputError('The close date must be after the open date', { field: 'closesAt' });
      if (schedule) assertScheduleEdit(phase, { ...phase, opensAt, closesAt }, now);
      else assertPhaseAllows(phase, 'editDetails', now);
      try {
        const updated = await tx.phase.update({ where: { id: phaseId }, data: changes });
        await this.audit(tx, audit);
        return updated;
      } catch (e) {
        if (e instanceof Prisma.PrismaClientKnownRequestError && e.code === 'P2002') {
          throw new ConflictError(`the task already has a phase named '${changes.name ?? ''}'`, { field: 'name' });
        }
        throw e;
      }
    });
  }

  /**
   * The close transition, early: OPEN → CLOSED now, recording who closed it, and the primaries
   * frozen (teams without one get their latest scored submission) in the same transaction.
   */
  async closePhase(phaseId: string, at: Date, audit: AuditRecord & { actorId: string }) {
    return this.db.$transaction(async (tx) => {
      const phase = await this.lockPhase(tx, phaseId);
      assertPhaseAllows(phase, 'close', at);
      const updated = await tx.phase.update({ where: { id: phaseId }, data: { closedEarlyAt: at, closedById: audit.actorId } });
      await this.audit(tx, audit);
      return this.freezePrimariesIn(tx, updated, audit.actorId, at);
    });
  }

  /**
   * The publish transition: CLOSED → PUBLISHED, final. Primaries are frozen again first, so a team
   * whose only submissions were still being scored at close gets its primary now.
   */
  async publishPhase(phaseId: string, at: Date, audit: AuditRecord & { actorId: string }) {
    return this.db.$transaction(async (tx) => {
      const phase = await this.lockPhase(tx, phaseId);
      assertPhaseAllows(phase, 'publish', at);
      await this.freezePrimariesIn(tx, phase, audit.actorId, at);
      const updated = await tx.phase.update({ where: { id: phaseId }, data: { publishedAt: at, publishedById: audit.actorId } });
      await this.audit(tx, audit);
      return updated;
    });
  }

  /**
   * Phases whose closesAt passed (or that closed early) and whose primaries are not frozen yet:
   * freezes each in a transaction of its own, as the system. Idempotent and safe beside another
   * process doing the same (the phase lock, then a re-read). Returns the phases it froze.
   */
  async freezeDuePhases(now: Date = new Date(), limit = 100): Promise<string[]> {
    const due = await this.db.phase.findMany({
      where: { primariesFrozenAt: null, OR: [{ closedEarlyAt: { not: null } }, { closesAt: { lte: now } }, { publishedAt: { not: null } }] },
      select: { id: true },
      orderBy: { closesAt: 'asc' },
      take: limit,
    });
    const frozen: string[] = [];
    for (const { id } of due) {
      const done = await this.db.$transaction(async (tx) => {
        const phase = await this.lockPhase(tx, id);
        if (phase.primariesFrozenAt) return false;
        assertPhaseAllows(phase, 'freezePrimaries', now);
        await this.freezePrimariesIn(tx, phase, null, now);
        await this.audit(tx, {
          actorId: null,
          action: 'phase.closed',
          targetType: 'phase',
          targetId: phase.id,
          details: { taskId: phase.taskId, phase: phase.name, closedAt: (phase.closedEarlyAt ?? phase.closesAt).toISOString(), why: 'closesAt passed: primaries frozen' },
        });
        return true;
      });
      if (done) frozen.push(id);
    }
    return frozen;
  }

  /**
   * Inside a transition: each team of the phase without a primary gets its latest scored,
   * unmoderated, non-baseline submission as primary, audited one by one; the phase records when.
   */
  private async freezePrimariesIn(tx: Prisma.TransactionClient, phase: Phase, actorId: string | null, at: Date): Promise<Phase> {
    const candidates = await tx.submission.findMany({
      where: { phaseId: phase.id, status: SubmissionStatus.SCORED, moderation: 'NONE', isBaseline: false },
      orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
      select: { id: true, teamId: true, systemName: true, team: { select: { name: true } } },
    });
    const withPrimary = new Set((await tx.submission.findMany({ where: { phaseId: phase.id, isPrimary: true }, select: { teamId: true } })).map((s) => s.teamId));
    for (const s of candidates) {
      if (withPrimary.has(s.teamId)) continue;
      withPrimary.add(s.teamId);
      await tx.submission.update({ where: { id: s.id }, data: { isPrimary: true } });
      await this.audit(tx, {
        actorId,
        action: 'submission.primary-auto',
        targetType: 'submission',
        targetId: s.id,
        details: { taskId: phase.taskId, phase: phase.name, team: s.team.name, system: s.systemName, why: 'the team marked no primary before the phase closed: its latest scored submission' },
      });
    }
    if (phase.primariesFrozenAt) return phase;
    return tx.phase.update({ where: { id: phase.id }, data: { primariesFrozenAt: at } });
  }

  async moderate(submissionId: string, moderation: Moderation, reason: string | null, reasonPublic: boolean, audit: AuditRecord) {
    return this.db.$transaction(async (tx) => {
      const updated = await tx.submission.update({ where: { id: submissionId }, data: { moderation, moderationReason: reason, moderationReasonPublic: reasonPublic } });
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

  /**
   * Switches the team's primary submission of the phase to this one, atomically and audited: only
   * while the phase is open (checked under the phase lock, so a close cannot slip in between). The
   * partial unique index submission_one_primary_per_team is the database's guarantee of one.
   */
  async markPrimary(submissionId: string, actorId: string, now: Date = new Date()) {
    return this.db.$transaction(async (tx) => {
      const found = await tx.submission.findUnique({ where: { id: submissionId }, select: { phaseId: true } });
      if (!found) throw new NotFoundError('submission', submissionId);
      const phase = await this.lockPhase(tx, found.phaseId);
      assertPhaseAllows(phase, 'markPrimary', now);
      const s = await tx.submission.findUniqueOrThrow({ where: { id: submissionId }, include: { team: { select: { name: true } } } });
      if (s.moderation !== 'NONE') throw new ConflictError(`submission '${s.systemName}' was ${s.moderation.toLowerCase()} and cannot be primary`, { field: 'submissionId' });
      if (s.status === SubmissionStatus.FAILED) throw new ConflictError(`submission '${s.systemName}' failed to score and cannot be primary`, { field: 'submissionId' });
      if (s.isPrimary) return s;
      const previous = await tx.submission.findFirst({ where: { phaseId: s.phaseId, teamId: s.teamId, isPrimary: true }, select: { id: true, systemName: true } });
      if (previous) await tx.submission.update({ where: { id: previous.id }, data: { isPrimary: false } });
      const updated = await tx.submission.update({ where: { id: submissionId }, data: { isPrimary: true } });
      await this.audit(tx, {
        actorId,
        action: 'submission.primary',
        targetType: 'submission',
        targetId: s.id,
        details: { taskId: phase.taskId, phase: phase.name, team: s.team.name, system: s.systemName, previous: previous?.systemName ?? null },
      });
      return updated;
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

  /**
   * Idempotent and safe under concurrent calls (INSERT … ON CONFLICT DO NOTHING, then read).
   * Where the task allows one team per person, a team with a member in another team registered
   * for it is refused (FORBIDDEN naming the person).
   */
  async register(taskId: string, teamId: string, approved: boolean) {
    const clash = await this.db.membership.findFirst({
      where: {
        teamId,
        user: { memberships: { some: { teamId: { not: teamId }, team: { registrations: { some: { taskId, task: { oneTeamPerPerson: true } } } } } } },
      },
      select: { user: { select: { name: true } } },
    });
    if (clash) throw new ForbiddenError(`this task allows one team per person, and '${clash.user.name}' is already in another team registered for it`);
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

  /** A team's submissions in every phase (of these tasks only, when given), newest first. */
  async submissionsOfTeam(teamId: string, limit = 200, taskIds?: readonly string[]) {
    return this.db.submission.findMany({
      where: { teamId, ...(taskIds ? { phase: { taskId: { in: [...taskIds] } } } : {}) },
      include: { team: true },
      orderBy: { createdAt: 'desc' },
      take: limit,
    });
  }

  async recordAudit(entry: AuditRecord) {
    await this.audit(this.db, entry);
  }
}
