import { ConflictError, newInviteCode } from '@podium/domain';
import type { Db, Tx } from './client';
import { Prisma, type Moderation, type Registration, type TaskKind } from './generated/client';
import { readOutputTexts, writeOutputTexts } from './output-texts';
import { txSql, type TxSql } from './submission.repository';
import { testSetChecksum, type NewInstance, type TestSetCommitmentRecord } from './task.repository';

/** What a task bundle import writes (validated and mapped by the caller; docs/adr/0029). */
export interface BundleImport {
  task: {
    slug: string;
    title: string;
    description: string;
    kind: TaskKind;
    sourceLang: string;
    targetLang: string;
    metrics: Prisma.InputJsonValue;
    combinedWeight: number | null;
    registration: Registration;
    oneTeamPerPerson: boolean;
  };
  testSets: {
    name: string;
    instances: NewInstance[];
    humanScores: { externalId: string; systemName: string; score: number }[];
    commitment: TestSetCommitmentRecord;
  }[];
  phases: {
    name: string;
    opensAt: Date;
    closesAt: Date;
    dailyLimit: number;
    totalLimit: number;
    leaderboardBeforeClose: boolean;
    teamInstanceScores: boolean;
    significanceResamples: number | null;
    significanceSeed: number;
    split: Prisma.InputJsonValue | null;
    testSet: string | null;
  }[];
  submissions: {
    phase: string;
    team: string;
    systemName: string;
    description: string;
    paperUrl: string | null;
    codeUrl: string | null;
    isBaseline: boolean;
    isPrimary: boolean;
    moderation: Moderation;
    checksum: string;
    /** In test-set order. */
    outputs: string[];
  }[];
}

export interface BundleImportResult {
  taskId: string;
  slug: string;
  phases: { id: string; name: string }[];
  submissions: number;
  teamsCreated: string[];
}

const INSERT_CHUNK = 5000;

/** Reads a task whole for a bundle, and writes a bundle's task in one transaction. */
export class BundleRepository {
  constructor(private readonly db: Db) {}

  /** The task, its phases (by opening) and every test set a phase of it uses, instances in order. */
  async taskForExport(taskId: string) {
    const task = await this.db.task.findUniqueOrThrow({ where: { id: taskId }, include: { phases: { orderBy: [{ opensAt: 'asc' }, { createdAt: 'asc' }] } } });
    const testSetIds = [...new Set(task.phases.flatMap((p) => (p.testSetId ? [p.testSetId] : [])))];
    const testSets = await this.db.testSet.findMany({
      where: { id: { in: testSetIds } },
      orderBy: { createdAt: 'asc' },
      include: { instances: { orderBy: { position: 'asc' }, include: { humanScores: true } } },
    });
    return { task, testSets };
  }

  /** The submissions of the phases (oldest first) with their team's name and outputs in test-set order. */
  async submissionsForExport(phaseIds: readonly string[]) {
    const submissions = await this.db.submission.findMany({
      where: { phaseId: { in: [...phaseIds] } },
      orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
      include: { team: { select: { name: true } } },
    });
    const withOutputs = [];
    for (const s of submissions) {
      const texts = (await readOutputTexts(this.db, [s.id])).get(s.id)?.texts ?? [];
      withOutputs.push({ ...s, outputs: texts.filter((t): t is string => t !== null) });
    }
    return withOutputs;
  }

  /**
   * Creates the task (its importer its first organiser), its test sets with their commitments,
   * its phases, and the submissions with their outputs (teams found by name, up to case and
   * NFKC, or created without members), each submission queued for scoring through `enqueue`
   * inside the same transaction, and the audit entry `task.import`. All or nothing.
   */
  async importTask(input: BundleImport, actorId: string, enqueue: (sql: TxSql, submissionId: string) => Promise<void>): Promise<BundleImportResult> {
    try {
      return await this.db.$transaction(async (tx) => this.write(tx, input, actorId, enqueue), { timeout: 300_000 });
    } catch (e) {
      if (e instanceof Prisma.PrismaClientKnownRequestError && e.code === 'P2002') {
        throw new ConflictError(`a task with slug '${input.task.slug}' already exists on this Podium; import it under another slug`, { field: 'slug' });
      }
      throw e;
    }
  }

  private async write(tx: Tx, input: BundleImport, actorId: string, enqueue: (sql: TxSql, submissionId: string) => Promise<void>): Promise<BundleImportResult> {
    if (await tx.task.findUnique({ where: { slug: input.task.slug }, select: { id: true } })) {
      throw new ConflictError(`a task with slug '${input.task.slug}' already exists on this Podium; import it under another slug`, { field: 'slug' });
    }
    const task = await tx.task.create({ data: { ...input.task, createdById: actorId, organisers: { create: [{ userId: actorId }] } } });
    const testSets = new Map<string, { id: string; instanceIds: string[] }>();
    for (const t of input.testSets) {
      const testSet = await tx.testSet.create({ data: { taskId: task.id, name: t.name, checksum: testSetChecksum(t.instances), instanceCount: t.instances.length } });
      for (let i = 0; i < t.instances.length; i += INSERT_CHUNK) {
        await tx.instance.createMany({
          data: t.instances.slice(i, i + INSERT_CHUNK).map((inst, k) => ({
            testSetId: testSet.id,
            externalId: inst.externalId,
            position: i + k,
            source: inst.source,
            references: inst.references,
            ...(inst.context ? { context: inst.context as Prisma.InputJsonValue } : {}),
          })),
        });
      }
      const rows = await tx.instance.findMany({ where: { testSetId: testSet.id }, orderBy: { position: 'asc' }, select: { id: true, externalId: true } });
      const byExternal = new Map(rows.map((r) => [r.externalId, r.id]));
      const scores = t.humanScores.flatMap((h) => {
        const instanceId = byExternal.get(h.externalId);
        return instanceId ? [{ instanceId, systemName: h.systemName, score: h.score }] : [];
      });
      for (let i = 0; i < scores.length; i += INSERT_CHUNK) await tx.humanScore.createMany({ data: scores.slice(i, i + INSERT_CHUNK) });
      await tx.testSetCommitment.create({ data: { testSetId: testSet.id, salt: t.commitment.salt, commitment: t.commitment.commitment } });
      testSets.set(t.name, { id: testSet.id, instanceIds: rows.map((r) => r.id) });
    }
    const phases = new Map<string, { id: string; name: string; testSetId: string | null }>();
    for (const p of input.phases) {
      const testSet = p.testSet === null ? undefined : testSets.get(p.testSet);
      const phase = await tx.phase.create({
        data: {
          taskId: task.id,
          name: p.name,
          opensAt: p.opensAt,
          closesAt: p.closesAt,
          dailyLimit: p.dailyLimit,
          totalLimit: p.totalLimit,
          leaderboardBeforeClose: p.leaderboardBeforeClose,
          teamInstanceScores: p.teamInstanceScores,
          significanceResamples: p.significanceResamples,
          significanceSeed: p.significanceSeed,
          ...(p.split !== null ? { split: p.split } : {}),
          ...(testSet ? { testSetId: testSet.id } : {}),
        },
      });
      phases.set(p.name, { id: phase.id, name: phase.name, testSetId: testSet?.id ?? null });
    }
    const teams = new Map<string, string>();
    const teamsCreated: string[] = [];
    for (const s of input.submissions) {
      const phase = phases.get(s.phase);
      if (!phase) throw new ConflictError(`submission '${s.systemName}' names phase '${s.phase}', which the bundle does not hold`);
      let teamId = teams.get(s.team);
      if (teamId === undefined) {
        const found = await tx.$queryRaw<{ id: string }[]>`SELECT "id" FROM "team" WHERE lower(normalize("name", NFKC)) = lower(normalize(${s.team}, NFKC)) LIMIT 1`;
        teamId = found[0]?.id ?? (await tx.team.create({ data: { name: s.team, inviteCode: newInviteCode() } })).id;
        if (found.length === 0) teamsCreated.push(s.team);
        teams.set(s.team, teamId);
        await tx.taskRegistration.createMany({ data: [{ taskId: task.id, teamId, status: 'APPROVED' }], skipDuplicates: true });
      }
      const submission = await tx.submission.create({
        data: {
          phaseId: phase.id,
          teamId,
          submittedById: actorId,
          systemName: s.systemName,
          description: s.description,
          paperUrl: s.paperUrl,
          codeUrl: s.codeUrl,
          isBaseline: s.isBaseline,
          isPrimary: s.isPrimary,
          moderation: s.moderation,
          checksum: s.checksum,
          progressTotal: s.outputs.length,
        },
      });
      if (s.outputs.length > 0) {
        if (!phase.testSetId) throw new Error(`phase '${phase.name}' has outputs but no test set`);
        await writeOutputTexts(tx, submission.id, phase.testSetId, s.outputs);
      }
      await enqueue(txSql(tx), submission.id);
    }
    const details = {
      taskId: task.id,
      slug: task.slug,
      testSets: input.testSets.length,
      instances: input.testSets.reduce((n, t) => n + t.instances.length, 0),
      phases: input.phases.length,
      submissions: input.submissions.length,
      teamsCreated: teamsCreated.length,
    };
    await tx.auditEntry.create({ data: { actorId, action: 'task.import', targetType: 'task', targetId: task.id, details } });
    return { taskId: task.id, slug: task.slug, phases: [...phases.values()].map((p) => ({ id: p.id, name: p.name })), submissions: input.submissions.length, teamsCreated };
  }
}
