import { Injectable, type OnModuleInit } from '@nestjs/common';
import {
  metricConfigListSchema,
  ROBUSTNESS_REPORT_QUEUE,
  robustnessResultSchema,
  sendRobustnessJob,
  type MetricConfig,
} from '@podium/contracts';
import {
  RobustnessRepository,
  ScoreRepository,
  TaskRepository,
  type RobustnessReport,
  type RobustnessStatus,
  type Task,
} from '@podium/db';
import { NotFoundError, type AuthUser } from '@podium/domain';
import { COMBINED_PLUGIN, UNKNOWN_METRIC_HIGHER_IS_BETTER, combinedRole, metricDefinition } from '@podium/metrics';
import type { DaJudgement } from '@podium/datasets';
import { metaEvaluate, PHENOMENA, TRADEOFF_WEIGHTS } from '@podium/robustness';
import PgBoss from 'pg-boss';
import { assertId } from '../common/ids';
import { combinedKey, combineMatrices } from '@podium/leaderboard';
import { assertCanSeePhaseScores, assertTaskOrganiser } from '../common/visibility';
import { DEFAULT_ROBUSTNESS_SUITE, parseRunRobustnessArgs, type RunRobustnessArgs } from './robustness.inputs';
import {
  RobustnessMode,
  RobustnessReportStatus,
  type CorrelationTradeoffPoint,
  type MetricReportCard,
  type ReportCard,
  type RobustnessAccuracy,
  type RobustnessReportType,
} from './robustness.types';

/** GraphQL floats cannot be NaN (a correlation of constant scores): those become null. */
const finiteOrNull = (x: number): number | null => (Number.isFinite(x) ? x : null);

/** MENLI's phenomenon order (accuracy, then fluency); phenomena of other suites follow by name. */
function phenomenaInOrder(names: string[]): string[] {
  const rank = (p: string) => {
    const i = (PHENOMENA as readonly string[]).indexOf(p);
    return i < 0 ? PHENOMENA.length : i;
  };
  return [...names].sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
}

/** Metric keys in the task's configured order; keys it no longer configures follow by name. */
function inTaskOrder(keys: string[], configs: readonly MetricConfig[]): string[] {
  const order = configs.map((c) => c.key);
  const rank = (k: string) => (order.includes(k) ? order.indexOf(k) : order.length);
  return [...keys].sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
}

/** A stored report as the API shows it; a result that does not parse shows as no result. */
/** Stored pooled accuracy, or passed / n from the stored totals (interval unknown) for older reports. */
function pooledOf(result: { overall: { n: number; passed: number }; pooled?: { accuracy: number; ci: [number, number]; n: number; passed: number } }): RobustnessAccuracy {
  if (result.pooled) return { accuracy: result.pooled.accuracy, ci: { low: result.pooled.ci[0], high: result.pooled.ci[1] }, n: result.pooled.n, passed: result.pooled.passed };
  const { n, passed } = result.overall;
  return { accuracy: n > 0 ? passed / n : 0, ci: { low: null, high: null }, n, passed };
}

/** The stored status as the GraphQL enum (same names; the Record fails to compile if Prisma's enum grows). */
const REPORT_STATUS: Record<RobustnessStatus, RobustnessReportStatus> = {
  QUEUED: RobustnessReportStatus.QUEUED,
  RUNNING: RobustnessReportStatus.RUNNING,
  DONE: RobustnessReportStatus.DONE,
  FAILED: RobustnessReportStatus.FAILED,
};

export function toRobustnessReport(row: RobustnessReport): RobustnessReportType {
  const parsed = row.result === null ? null : robustnessResultSchema.safeParse(row.result);
  const result = parsed?.success ? parsed.data : null;
  const accuracy = (e: { accuracy: number; ci: [number, number]; n: number; passed: number }): RobustnessAccuracy => ({
    accuracy: e.accuracy,
    ci: { low: e.ci[0], high: e.ci[1] },
    n: e.n,
    passed: e.passed,
  });
  return {
    id: row.id,
    metric: row.metric,
    signature: row.signature,
    suite: row.suite,
    mode: row.mode === 'src' ? RobustnessMode.SRC : RobustnessMode.REF,
    status: REPORT_STATUS[row.status],
    error: row.error,
    higherIsBetter: result?.higherIsBetter ?? null,
    overall: result ? accuracy(result.overall) : null,
    macroAccuracy: result ? accuracy(result.overall) : null,
    pooledAccuracy: result ? pooledOf(result) : null,
    phenomena: result ? phenomenaInOrder(Object.keys(result.phenomena)).flatMap((p) => {
          const r = result.phenomena[p];
          // eslint-disable-next-line @typescript-eslint/no-misused-spread -- accuracy() returns a plain object; the class is only its GraphQL type
          return r ? [{ phenomenon: p, ...accuracy(r) }] : [];
        }) : [],
    failingCount: result?.failingCount ?? null,
    bootstrap: result?.bootstrap ?? null,
    tradeoff:
      result?.tradeoff?.map((p) => ({ with: p.with, w: p.w, accuracy: p.accuracy, ci: { low: p.ci[0], high: p.ci[1] }, signature: p.signature })) ?? null,
    createdAt: row.createdAt,
    finishedAt: row.finishedAt,
  };
}


function configuredMetrics(task: Task): MetricConfig[] {
  const parsed = metricConfigListSchema.safeParse(task.metrics);
  return parsed.success ? parsed.data : [];
}

/** Direction of a configured metric from the metric registry; else what the report stored; else the registry's default. */
function higherIsBetterOf(config: MetricConfig | undefined, report: RobustnessReportType | null): boolean {
  return (config && metricDefinition(config.name)?.higherIsBetter) ?? report?.higherIsBetter ?? UNKNOWN_METRIC_HIGHER_IS_BETTER;
}

/** The role a configured metric takes in the combined metric, from its plugin's capability. */
function combinedRoleOf(config: MetricConfig): 'weighted' | 'other' | null {
  return combinedRole(metricDefinition(config.name)?.capability);
}

@Injectable()
export class RobustnessService implements OnModuleInit {
  constructor(
    private readonly reports: RobustnessRepository,
    private readonly tasks: TaskRepository,
    private readonly scores: ScoreRepository,
    private readonly boss: PgBoss,
  ) {}

  async onModuleInit(): Promise<void> {
    await this.boss.createQueue(ROBUSTNESS_REPORT_QUEUE);
  }

  private async task(slug: string): Promise<Task> {
    const task = await this.tasks.taskBySlug(slug);
    if (!task) throw new NotFoundError('task', slug);
    return task;
  }

  /** Reports of a task, in the order of its configured metrics, then suite and mode. */
  async reportsOf(taskSlug: string): Promise<{ task: Task; reports: RobustnessReportType[] }> {
    const task = await this.task(taskSlug);
    const rows = await this.reports.ofTask(task.id);
    const order = inTaskOrder([...new Set(rows.map((r) => r.metric))], configuredMetrics(task));
    rows.sort((a, b) => order.indexOf(a.metric) - order.indexOf(b.metric) || a.suite.localeCompare(b.suite) || a.mode.localeCompare(b.mode));
    return { task, reports: rows.map(toRobustnessReport) };
  }

  /** Queues one report per metric (all of the task's when none is named); a rerun replaces the old result. */
  async run(taskSlug: string, args: RunRobustnessArgs, user: AuthUser | null): Promise<RobustnessReportType[]> {
    const task = await this.task(taskSlug);
    assertTaskOrganiser(user, task.id);
    const run = parseRunRobustnessArgs(args, task);
    const rows = await this.reports.queue(
      run.metrics.map((metric) => ({ taskId: task.id, metric, suite: run.suite, mode: run.mode })),
      (sql, reportId, attempt) => sendRobustnessJob(this.boss, reportId, attempt, sql),
    );
    return rows.map(toRobustnessReport);
  }

  /**
   * Segment-level Pearson and Kendall τ-b and system-level Pearson of every metric stored in
   * the phase against the test set's human scores (metaEvaluate), next to the metric's
   * robustness report on `suite` in `mode`.
   */
  async reportCard(
    phaseId: string,
    options: { metric?: string; suite?: string; mode?: RobustnessMode },
    user: AuthUser | null,
  ): Promise<ReportCard> {
    assertId('phase', phaseId);
    const phase = await this.tasks.phaseById(phaseId);
    if (!phase) throw new NotFoundError('phase', phaseId);
    assertCanSeePhaseScores(phase, user);
    const suite = options.suite ?? DEFAULT_ROBUSTNESS_SUITE;
    const mode = options.mode ?? RobustnessMode.REF;

    const { systems, judgements } = await this.reports.humanJudgements(phaseId);
    const stored = await this.scores.metricsOfPhase(phaseId);
    if (options.metric !== undefined && !stored.includes(options.metric)) {
      throw new NotFoundError('metric with stored scores in this phase', options.metric);
    }
    const configs = configuredMetrics(phase.task);
    const metricKeys = options.metric !== undefined ? [options.metric] : inTaskOrder(stored, configs);
    const modeName: string = mode; // stored as the enum's value
    const robustness = new Map(
      (await this.reports.ofTask(phase.taskId)).filter((r) => r.suite === suite && r.mode === modeName).map((r) => [r.metric, toRobustnessReport(r)]),
    );
    const daJudgements: DaJudgement[] = judgements.map((j) => ({ lp: '', data: '', systems: j.systems, sid: j.position + 1, human: j.human }));
    const submissionOf = new Map(systems.map((s) => [s.systemName, s.submissionId]));

    const metrics: MetricReportCard[] = [];
    for (const key of metricKeys) {
      const report = robustness.get(key) ?? null;
      const higherIsBetter = higherIsBetterOf(configs.find((c) => c.key === key), report);
      const scores = await this.reports.metricScores(systems.map((s) => s.submissionId), key);
      const systemScores: Record<string, number> = {};
      let signature = '';
      for (const s of systems) {
        const sc = scores.get(s.submissionId);
        if (sc?.corpus !== null && sc?.corpus !== undefined) systemScores[s.systemName] = sc.corpus;
        signature ||= sc?.signature ?? '';
      }
      const card = metaEvaluate({
        judgements: daJudgements,
        segmentScore: (system, sid) => scores.get(submissionOf.get(system) ?? '')?.values.get(sid - 1),
        systemScores,
        higherIsBetter,
      });
      metrics.push({
        metric: key,
        signature,
        higherIsBetter,
        humanCorrelation: {
          segmentPearson: finiteOrNull(card.segment.pearson),
          segmentKendallTauB: finiteOrNull(card.segment.kendallTauB),
          segmentN: card.segment.n,
          systemPearson: finiteOrNull(card.system.pearson),
          systemN: card.system.n,
        },
        robustness: report,
        tradeoff: null,
      });
    }
    if (judgements.length > 0 && phase.testSetId) {
      for (const card of metrics) {
        const nli = configs.find((c) => c.key === card.metric && combinedRoleOf(c) === 'weighted');
        if (!nli) continue;
        const others = configs.filter((c) => combinedRoleOf(c) === 'other' && stored.includes(c.key));
        card.tradeoff = await this.correlationTradeoff(phaseId, phase.testSetId, nli, others, systems, daJudgements);
      }
    }
    return {
      phaseId,
      humanScores: judgements.reduce((n, j) => n + j.systems.length, 0),
      systems: systems.map((s) => s.systemName).sort(),
      suite,
      mode,
      metrics,
    };
  }

  /**
   * The correlation side of MENLI's trade-off curve: for each other metric M and w = 0, .1, …, 1,
   * metaEvaluate of C = w·NLI + (1−w)·M, combined as the leaderboard's combined metric does
   * (combineMatrices: min–max over every stored instance score of the phase, M flipped when lower
   * is better), judged on the latest submission of each system as the report card is.
   */
  private async correlationTradeoff(
    phaseId: string,
    testSetId: string,
    nli: MetricConfig,
    others: readonly MetricConfig[],
    judged: readonly { systemName: string; submissionId: string }[],
    judgements: readonly DaJudgement[],
  ): Promise<CorrelationTradeoffPoint[]> {
    const points: CorrelationTradeoffPoint[] = [];
    const n = await this.scores.matrix(phaseId, nli.key, testSetId);
    for (const other of others) {
      const m = await this.scores.matrix(phaseId, other.key, testSetId);
      const otherHigherIsBetter = higherIsBetterOf(other, null);
      for (const w of TRADEOFF_WEIGHTS) {
        const c = combineMatrices({ key: combinedKey(nli.key, other.key), nli, other, w, otherHigherIsBetter }, n, m);
        const row = new Map(c.systems.map((s, k) => [s.submissionId, k]));
        const systemScores: Record<string, number> = {};
        for (const s of judged) {
          const k = row.get(s.submissionId);
          const value = k === undefined ? undefined : c.corpus[k]?.value;
          if (value !== undefined && Number.isFinite(value)) systemScores[s.systemName] = value;
        }
        const submissionOf = new Map(judged.map((s) => [s.systemName, s.submissionId]));
        const card = metaEvaluate({
          judgements,
          segmentScore: (system, sid) => {
            const k = row.get(submissionOf.get(system) ?? '');
            const v = k === undefined ? undefined : c.values[k]?.[sid - 1];
            return v !== undefined && Number.isFinite(v) ? v : undefined;
          },
          systemScores,
          higherIsBetter: COMBINED_PLUGIN.definition.higherIsBetter,
        });
        points.push({
          with: other.key,
          w,
          segmentPearson: finiteOrNull(card.segment.pearson),
          systemPearson: finiteOrNull(card.system.pearson),
          segmentN: card.segment.n,
        });
      }
    }
    return points;
  }
}
