import { Injectable } from '@nestjs/common';
import {
  TASK_BUNDLE_FORMAT,
  TASK_BUNDLE_VERSION,
  commitInstances,
  newCommitmentSalt,
  sendScoreJob,
  taskBundleProblems,
  type MetricConfig,
  type TaskBundle,
  type TaskBundleInput,
} from '@podium/contracts';
import { BundleRepository, Moderation, Registration, TaskRepository, type BundleImportResult, type Prisma } from '@podium/db';
import { InvalidInputError, NotFoundError, type AuthUser } from '@podium/domain';
import { instanceSplitSchema } from '@podium/leaderboard';
import PgBoss from 'pg-boss';
import { parseInput } from '../common/parse-input';
import { assertCanCreateTasks, assertTaskOrganiser } from '../common/visibility';
import { LeaderboardJobs } from '../leaderboard/leaderboard-jobs';
import { outputsChecksum } from '../lifecycle/outputs-checksum';
import { checkMetricOptions } from '../tasks/metric-options';
import { kindFromDb, kindToDb, taskMetrics } from '../tasks/task.mapper';
import { createTaskSchema } from '../tasks/tasks.service';

/** At most this many problems of a refused bundle are named (then "… and N more"). */
const PROBLEMS_SHOWN = 20;

/**
 * Task bundles (issue #22, docs/adr/0029-task-bundles.md): a task's settings, phases, metrics and
 * test sets with references — and, when the organiser asks, its submissions with their outputs —
 * as one JSON file, and the import of such a file into another Podium in one transaction.
 */
@Injectable()
export class BundlesService {
  constructor(
    private readonly tasks: TaskRepository,
    private readonly bundles: BundleRepository,
    private readonly boss: PgBoss,
    private readonly leaderboards: LeaderboardJobs,
  ) {}

  /** The bundle of a task: its organisers (and administrators) only, since it holds the references. */
  async export(slug: string, user: AuthUser | null, withSubmissions: boolean): Promise<TaskBundleInput> {
    const found = await this.tasks.taskBySlug(slug);
    if (!found) throw new NotFoundError('task', slug);
    assertTaskOrganiser(user, found.id);
    const { task, testSets } = await this.bundles.taskForExport(found.id);
    const testSetName = new Map(testSets.map((t) => [t.id, t.name]));
    const phaseName = new Map(task.phases.map((p) => [p.id, p.name]));
    const submissions = withSubmissions ? await this.bundles.submissionsForExport(task.phases.map((p) => p.id)) : [];
    return {
      format: TASK_BUNDLE_FORMAT,
      version: TASK_BUNDLE_VERSION,
      exportedAt: new Date().toISOString(),
      task: {
        slug: task.slug,
        title: task.title,
        description: task.description,
        kind: kindFromDb(task.kind),
        sourceLang: task.sourceLang,
        targetLang: task.targetLang,
        metrics: taskMetrics(task).map((m) => ({ key: m.key, name: m.name, options: m.options })),
        combinedWeight: task.combinedWeight,
        registration: task.registration,
        oneTeamPerPerson: task.oneTeamPerPerson,
      },
      testSets: testSets.map((t) => ({
        name: t.name,
        instances: t.instances.map((i) => ({ id: i.externalId, source: i.source, references: i.references, ...(i.context ? { context: i.context as Record<string, unknown> } : {}) })),
        humanScores: t.instances.flatMap((i) => i.humanScores.map((h) => ({ instanceId: i.externalId, systemName: h.systemName, score: h.score }))),
      })),
      phases: task.phases.map((p) => ({
        name: p.name,
        opensAt: p.opensAt.toISOString(),
        closesAt: p.closesAt.toISOString(),
        dailyLimit: p.dailyLimit,
        totalLimit: p.totalLimit,
        leaderboardBeforeClose: p.leaderboardBeforeClose,
        teamInstanceScores: p.teamInstanceScores,
        significanceResamples: p.significanceResamples,
        significanceSeed: p.significanceSeed,
        split: p.split ?? null,
        testSet: p.testSetId ? (testSetName.get(p.testSetId) ?? null) : null,
      })),
      // A failed submission has nothing to score; it stays behind.
      submissions: submissions
        .filter((s) => s.status !== 'FAILED')
        .map((s) => ({
          phase: phaseName.get(s.phaseId) ?? '',
          team: s.team.name,
          systemName: s.systemName,
          description: s.description,
          paperUrl: s.paperUrl,
          codeUrl: s.codeUrl,
          isBaseline: s.isBaseline,
          isPrimary: s.isPrimary,
          moderation: s.moderation,
          outputs: s.outputs,
        })),
    };
  }

  /**
   * Creates the bundle's task on this Podium (under `slug` when given, else the bundle's own):
   * users who may create tasks, who become its first organiser. Every problem of the file is
   * named before anything is written; then all of it is written in one transaction, and the
   * submissions are queued for scoring here (a bundle carries no scores).
   */
  async import(body: unknown, user: AuthUser | null, slug: string | undefined): Promise<BundleImportResult> {
    const organiser = assertCanCreateTasks(user);
    const { bundle, problems } = taskBundleProblems(body, PROBLEMS_SHOWN);
    if (!bundle) throw new InvalidInputError(`the file is not a task bundle this Podium can import: ${problems.join('; ')}`);
    const t = parseInput(createTaskSchema, { ...bundle.task, slug: slug ?? bundle.task.slug }, 'task');
    const metrics: MetricConfig[] = t.metrics ?? bundle.task.metrics;
    checkMetricOptions(metrics);
    const result = await this.bundles.importTask(
      {
        task: {
          slug: t.slug,
          title: t.title,
          description: t.description,
          kind: kindToDb(t.kind),
          sourceLang: t.sourceLang,
          targetLang: t.targetLang,
          metrics: metrics,
          combinedWeight: t.combinedWeight,
          registration: Registration[bundle.task.registration],
          oneTeamPerPerson: bundle.task.oneTeamPerPerson,
        },
        testSets: bundle.testSets.map((s) => {
          const salt = newCommitmentSalt();
          return {
            name: s.name,
            instances: s.instances.map((i) => ({ externalId: i.id, source: i.source, references: i.references, context: i.context ?? null })),
            humanScores: s.humanScores.map((h) => ({ externalId: h.instanceId, systemName: h.systemName, score: h.score })),
            commitment: { salt, commitment: commitInstances(salt, s.instances) },
          };
        }),
        phases: bundle.phases.map((p, k) => ({
          name: p.name,
          opensAt: new Date(p.opensAt),
          closesAt: new Date(p.closesAt),
          dailyLimit: p.dailyLimit,
          totalLimit: p.totalLimit,
          leaderboardBeforeClose: p.leaderboardBeforeClose,
          teamInstanceScores: p.teamInstanceScores,
          significanceResamples: p.significanceResamples,
          significanceSeed: p.significanceSeed,
          split: this.split(bundle, k),
          testSet: p.testSet,
        })),
        submissions: bundle.submissions.map((s) => {
          const ids = this.instanceIdsOfPhase(bundle, s.phase);
          return {
            ...s,
            moderation: Moderation[s.moderation],
            checksum: outputsChecksum(ids, s.outputs.map((text, k) => ({ instanceId: ids[k] ?? '', text }))),
          };
        }),
      },
      organiser.id,
      (sql, submissionId) => sendScoreJob(this.boss, submissionId, 'submitted', sql),
    );
    for (const phase of result.phases) await this.leaderboards.refresh(phase.id, 'lifecycle');
    return result;
  }

  private instanceIdsOfPhase(bundle: TaskBundle, phase: string): string[] {
    const testSet = bundle.phases.find((p) => p.name === phase)?.testSet;
    return bundle.testSets.find((t) => t.name === testSet)?.instances.map((i) => i.id) ?? [];
  }

  /** A phase's split, checked as `updatePhase` checks one: public ids must be instances of its test set. */
  private split(bundle: TaskBundle, k: number): Prisma.InputJsonValue | null {
    const phase = bundle.phases[k];
    if (!phase || phase.split === null || phase.split === undefined) return null;
    const split = parseInput(instanceSplitSchema, phase.split, `phases.${String(k)}.split`);
    if (split.publicIds) {
      const known = new Set(this.instanceIdsOfPhase(bundle, phase.name));
      const unknown = split.publicIds.find((i) => !known.has(i));
      if (unknown !== undefined) throw new InvalidInputError(`phases[${String(k)}].split.publicIds: '${unknown}' is not an instance of the phase's test set`, { field: `phases.${String(k)}.split` });
    }
    return split;
  }
}
