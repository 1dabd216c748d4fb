import { Inject, Injectable, Logger, Optional } from '@nestjs/common';
import { readFile } from 'node:fs/promises';
import {
  metricConfigListSchema,
  parseRobustnessSuite,
  robustnessSuiteIdSchema,
  taskKindFromDb,
  type MetricConfig,
  type RobustnessResult,
  type StoredTradeoffPoint,
  type TaskKindName,
} from '@podium/contracts';
import { BUILTIN_SUITES, type DataOptions, DataFetchError, suiteFile } from '@podium/datasets';
import { RobustnessRepository, type ReportLeaseOutcome, type RobustnessJobInput, type TxSql } from '@podium/db';
import { LeaseLostError, type LeaseHolder } from '@podium/domain';
import { MetricInputError, combinedRole, combinedSignature, metricPlugin } from '@podium/metrics';
import {
  generateSuite,
  menliPreferenceRows,
  parseMenliCsv,
  preferenceReport,
  TRADEOFF_WEIGHTS,
  tradeoffCurve,
  UnsupportedLanguageError,
  type PairScores,
  type PreferenceReport,
  type PreferenceRow,
} from '@podium/robustness';
import { MetricUnavailableError, type EmbeddingScorer, type NliScorer } from '../metrics/metric-runner';
import { LeaseKeeper } from '../leases/lease-keeper';
import { metricPairScorer } from './robustness-scorer';
import { EMBEDDING_SCORER, NLI_SCORER } from '../tokens';

/**
 * Where built-in suites are fetched from and cached (`DataOptions` of @podium/datasets); by
 * default PODIUM_DATA_MIRROR / PODIUM_CACHE.
 */
export const ROBUSTNESS_DATA_OPTIONS = Symbol('ROBUSTNESS_DATA_OPTIONS');

/** A report that retrying cannot fix (unknown suite or metric, unsupported language, bad options). */
export class PermanentRobustnessError extends Error {}

export type RobustnessOutcome =
  | { kind: 'done'; metric: string; rows: number; accuracy: number; signature: string }
  | { kind: 'skipped'; reason: string };

/** What a report stores from a preference test: everything but the failing rows themselves. */
export function robustnessResult(report: PreferenceReport, tradeoff?: StoredTradeoffPoint[]): RobustnessResult {
  return {
    higherIsBetter: report.higherIsBetter,
    overall: report.macroAccuracy,
    pooled: report.pooledAccuracy,
    phenomena: report.phenomena,
    failingCount: report.failing.length,
    bootstrap: report.bootstrap,
    ...(tradeoff ? { tradeoff } : {}),
  };
}


function isMetricFailure(e: unknown): e is Error {
  return e instanceof MetricUnavailableError || e instanceof MetricInputError;
}

/** Good- and bad-side scores of a configured metric on the suite rows, as runPreferenceTest computes them. */
async function scoreSuite(
  rows: readonly PreferenceRow[],
  config: MetricConfig,
  kind: TaskKindName,
  nli: NliScorer | null,
  embeddings: EmbeddingScorer | null = null,
): Promise<{ good: PairScores; bad: PairScores }> {
  const scorer = metricPairScorer(config, kind, nli, embeddings);
  const anchors = rows.map((r) => r.anchor);
  const good = await scorer(anchors, rows.map((r) => r.good));
  const bad = await scorer(anchors, rows.map((r) => r.bad));
  return { good, bad };
}

/** What a report run needs of the worker's {@link LeaseKeeper}. */
export type ReportLeases = Pick<LeaseKeeper, 'owner' | 'acquireReport' | 'reportHolder' | 'releaseReport' | 'refused'>;

/**
 * Leases taken straight from the repository and never renewed (no reaper either): for a service
 * built without a worker's LeaseKeeper (tests, scripts). Claims and fencing work the same. Since
 * nothing renews them they are taken for {@link UNRENEWED_TTL_SECONDS}, not the worker's short
 * ttl: a report run longer than that on a loaded machine would otherwise be reaped by any worker
 * of the same database while it computes.
 */
const UNRENEWED_TTL_SECONDS = 900;
function unrenewedLeases(reports: RobustnessRepository): ReportLeases {
  const held = new Map<string, bigint>();
  const log = new Logger('RobustnessService');
  const owner = `robustness-${process.pid}`;
  return {
    owner,
    async acquireReport(reportId, attempt, jobId) {
      const outcome = await reports.acquireLease(reportId, attempt, owner, jobId, UNRENEWED_TTL_SECONDS);
      if (outcome.kind === 'acquired') held.set(reportId, outcome.token);
      return outcome;
    },
    reportHolder: (reportId) => {
      const token = held.get(reportId);
      return token === undefined ? null : { owner, token };
    },
    releaseReport: (reportId) => void held.delete(reportId),
    refused: (e) => log.warn({ msg: `late write refused: robustness report ${e.submissionId}: ${e.message}`, event: 'fencing.refused', reportId: e.submissionId }),
  };
}

function leaseRefusal(reportId: string, lease: Exclude<ReportLeaseOutcome, { kind: 'acquired' }>): string {
  switch (lease.kind) {
    case 'gone':
      return `robustness report ${reportId} no longer exists`;
    case 'stale':
      return `robustness report ${reportId} was queued again (attempt ${lease.attempt})`;
    case 'held':
      return `robustness report ${reportId} is being computed by ${lease.owner} (lease until ${lease.expiresAt.toISOString()})`;
    case 'settled':
      return `robustness report ${reportId} is ${lease.status}, not queued`;
  }
}

function taskKindName(kind: string): TaskKindName {
  const name = taskKindFromDb(kind);
  if (!name) throw new PermanentRobustnessError(`unknown task kind ${kind}`);
  return name;
}

@Injectable()
export class RobustnessService {
  private readonly leases: ReportLeases;

  constructor(
    private readonly reports: RobustnessRepository,
    @Inject(NLI_SCORER) private readonly nli: NliScorer | null,
    @Optional() @Inject(ROBUSTNESS_DATA_OPTIONS) private readonly dataOptions: DataOptions = {},
    @Optional() leases?: LeaseKeeper,
    @Optional() @Inject(EMBEDDING_SCORER) private readonly embeddings: EmbeddingScorer | null = null,
  ) {
    this.leases = leases ?? unrenewedLeases(reports);
  }

  /**
   * Runs the preference test of a task's metric on the report's suite and stores the result,
   * under the report's lease (renewed by the LeaseKeeper; docs/adr/0017): a job for an attempt
   * superseded by a rerun, or a report another worker holds, is skipped, and a result whose
   * lease was taken back meanwhile is refused (fencing) and dropped. On an error the lease stays
   * held until {@link fail} or {@link handBack} settles the report.
   */
  async compute(reportId: string, attempt: number, jobId: string | null = null): Promise<RobustnessOutcome> {
    const input = await this.reports.jobInput(reportId);
    if (!input) return { kind: 'skipped', reason: `robustness report ${reportId} no longer exists` };
    if (input.report.attempt !== attempt) {
      return { kind: 'skipped', reason: `robustness report ${reportId} was queued again (attempt ${input.report.attempt}, job ${attempt})` };
    }
    const lease = await this.leases.acquireReport(reportId, attempt, jobId);
    if (lease.kind !== 'acquired') return { kind: 'skipped', reason: leaseRefusal(reportId, lease) };
    const holder: LeaseHolder = { owner: this.leases.owner, token: lease.token };
    const outcome = await this.computeHeld(reportId, attempt, input, holder);
    this.leases.releaseReport(reportId);
    return outcome;
  }

  private async computeHeld(reportId: string, attempt: number, input: RobustnessJobInput, holder: LeaseHolder): Promise<RobustnessOutcome> {
    const metrics = metricConfigListSchema.safeParse(input.task.metrics);
    if (!metrics.success) throw new PermanentRobustnessError(`task '${input.task.slug}' has an invalid metric configuration: ${metrics.error.message}`);
    const config = metrics.data.find((m) => m.key === input.report.metric);
    if (!config) throw new PermanentRobustnessError(`task '${input.task.slug}' has no metric '${input.report.metric}'`);
    const mode = input.report.mode;
    if (mode !== 'ref' && mode !== 'src') throw new PermanentRobustnessError(`mode must be ref or src, not '${mode}'`);

    const rows = await this.suiteRows(input, mode);
    const kind = taskKindName(input.task.kind);
    let scores: { good: PairScores; bad: PairScores };
    try {
      scores = await scoreSuite(rows, config, kind, this.nli, this.embeddings);
    } catch (e) {
      if (isMetricFailure(e)) throw new PermanentRobustnessError(e.message);
      throw e;
    }
    const report = preferenceReport(rows, scores.good.values, scores.bad.values, scores.good);
    // The trade-off curve combines a report on the weighted (model) metric with every other one.
    const role = (name: string) => combinedRole(metricPlugin(name)?.capability);
    const others = role(config.name) === 'weighted' ? metrics.data.filter((m) => role(m.name) === 'other') : [];
    const tradeoff = others.length > 0 ? await this.tradeoff(rows, scores, report, others, kind) : undefined;
    let saved: boolean;
    try {
      saved = await this.reports.saveResult(reportId, attempt, report.signature, robustnessResult(report, tradeoff), holder);
    } catch (e) {
      if (!(e instanceof LeaseLostError)) throw e;
      this.leases.refused(e, 'robustness report');
      return { kind: 'skipped', reason: e.message };
    }
    if (!saved) return { kind: 'skipped', reason: `robustness report ${reportId} was queued again while it ran; result dropped` };
    return { kind: 'done', metric: config.key, rows: rows.length, accuracy: report.overall.accuracy, signature: report.signature };
  }

  /**
   * MENLI's trade-off curve of an NLI report (Figs. 1–2): for each other metric M of the task and
   * w = 0, .1, …, 1, the accuracy of C = w·NLI + (1−w)·M on the same rows, with the report's
   * bootstrap (same seed). tradeoffCurve scales N and M per phenomenon over the pooled good and
   * bad scores, as upstream `combine_1.py` does per dataset × phenomenon; the signature says so.
   * Per-row scores stay in memory. A metric that cannot score here (e.g. an unknown name) is left out.
   */
  private async tradeoff(
    rows: readonly PreferenceRow[],
    nli: { good: PairScores; bad: PairScores },
    report: PreferenceReport,
    others: readonly MetricConfig[],
    kind: TaskKindName,
  ): Promise<StoredTradeoffPoint[]> {
    const points: StoredTradeoffPoint[] = [];
    for (const other of others) {
      let m: { good: PairScores; bad: PairScores };
      try {
        m = await scoreSuite(rows, other, kind, this.nli, this.embeddings);
      } catch (e) {
        if (isMetricFailure(e)) continue;
        throw e;
      }
      const curve = tradeoffCurve({
        rows,
        nli: { good: nli.good.values, bad: nli.bad.values, higherIsBetter: nli.good.higherIsBetter },
        metric: { good: m.good.values, bad: m.bad.values, higherIsBetter: m.good.higherIsBetter },
        weights: TRADEOFF_WEIGHTS,
        bootstrap: report.bootstrap,
      });
      for (const p of curve) {
        const signature = combinedSignature({
          nliSignature: report.signature,
          otherSignature: m.good.signature,
          w: p.w,
          otherHigherIsBetter: m.good.higherIsBetter,
          scale: 'suite-phenomenon',
          extra: [`seed:${report.bootstrap.seed}`],
        });
        points.push({ with: other.key, w: p.w, accuracy: p.accuracy, ci: p.ci as [number, number], signature });
      }
    }
    return points;
  }

  /** Preference rows of the report's suite: a shipped MENLI suite, or one generated from the task's references. */
  async suiteRows(input: RobustnessJobInput, mode: 'ref' | 'src'): Promise<PreferenceRow[]> {
    const id = robustnessSuiteIdSchema.safeParse(input.report.suite);
    if (!id.success) throw new PermanentRobustnessError(`invalid suite '${input.report.suite}'`);
    const suite = parseRobustnessSuite(id.data);
    if (suite.kind === 'builtin') {
      if (!Object.hasOwn(BUILTIN_SUITES, suite.id)) throw new PermanentRobustnessError(`unknown built-in suite '${suite.id}' (known: ${Object.keys(BUILTIN_SUITES).join(', ')})`);
      // Fetched and verified through the dataset registry on first use, then read from the cache.
      let text: string;
      try {
        text = await readFile(await suiteFile(suite.id, this.dataOptions), 'utf8');
      } catch (e) {
        const reason = e instanceof DataFetchError ? e.message : `cannot be read: ${(e as Error).message}`;
        throw new PermanentRobustnessError(`built-in suite '${suite.id}': ${reason}`);
      }
      try {
        return menliPreferenceRows(parseMenliCsv(text), mode);
      } catch (e) {
        throw new PermanentRobustnessError(`suite '${suite.id}': ${(e as Error).message}`);
      }
    }
    if (mode !== 'ref') throw new PermanentRobustnessError('generated suites are reference-based only; use mode ref');
    const texts = await this.reports.taskTexts(input.task.id);
    if (texts.length === 0) throw new PermanentRobustnessError(`task '${input.task.slug}' has no test set to generate a suite from`);
    const hasSecond = texts.some((t) => t.references.length > 1);
    let generated;
    try {
      generated = generateSuite({
        references: texts.map((t) => t.references[0] ?? ''),
        secondReferences: hasSecond ? texts.map((t) => t.references[1] ?? '') : undefined,
        sources: texts.map((t) => t.source),
        language: input.task.targetLang.split(/[-_]/)[0],
        seed: suite.seed,
      });
    } catch (e) {
      if (e instanceof UnsupportedLanguageError) {
        throw new PermanentRobustnessError(`task '${input.task.slug}' has target language '${input.task.targetLang}': ${e.message}`);
      }
      throw e;
    }
    if (generated.rows.length === 0) throw new PermanentRobustnessError(`no adversarial rows could be generated from the references of task '${input.task.slug}'`);
    return menliPreferenceRows(generated.rows, 'ref');
  }

  /** Fails the report, while this worker's claim holds its lease (or, with no claim, for the attempt). */
  async fail(reportId: string, attempt: number, reason: string): Promise<void> {
    const holder = this.leases.reportHolder(reportId);
    this.leases.releaseReport(reportId);
    await this.reports.markFailed(reportId, attempt, reason, holder ?? undefined);
  }

  /** Hands the report back (QUEUED) with `alsoInTx` (its job's retry) in one transaction; false when not held. */
  async handBack(reportId: string, alsoInTx?: (sql: TxSql) => Promise<void>): Promise<boolean> {
    const holder = this.leases.reportHolder(reportId);
    this.leases.releaseReport(reportId);
    if (!holder) return false;
    return this.reports.releaseLease(reportId, holder, alsoInTx);
  }
}
