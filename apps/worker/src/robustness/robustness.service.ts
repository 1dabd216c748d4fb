import { Inject, Injectable, Optional } from '@nestjs/common';
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
import { RobustnessRepository, type RobustnessJobInput } from '@podium/db';
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
import { MetricUnavailableError, type NliScorer } from '../metrics/metric-runner';
import { metricPairScorer } from './robustness-scorer';
import { NLI_SCORER } from '../tokens';

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
): Promise<{ good: PairScores; bad: PairScores }> {
  const scorer = metricPairScorer(config, kind, nli);
  const anchors = rows.map((r) => r.anchor);
  const good = await scorer(anchors, rows.map((r) => r.good));
  const bad = await scorer(anchors, rows.map((r) => r.bad));
  return { good, bad };
}

function taskKindName(kind: string): TaskKindName {
  const name = taskKindFromDb(kind);
  if (!name) throw new PermanentRobustnessError(`unknown task kind ${kind}`);
  return name;
}

@Injectable()
export class RobustnessService {
  constructor(
    private readonly reports: RobustnessRepository,
    @Inject(NLI_SCORER) private readonly nli: NliScorer | null,
    @Optional() @Inject(ROBUSTNESS_DATA_OPTIONS) private readonly dataOptions: DataOptions = {},
  ) {}

  /**
   * Runs the preference test of a task's metric on the report's suite and stores the result.
   * A job for an attempt that has been superseded by a rerun is skipped.
   */
  async compute(reportId: string, attempt: number): Promise<RobustnessOutcome> {
    const input = await this.reports.jobInput(reportId);
    if (!input) return { kind: 'skipped', reason: `robustness report ${reportId} no longer exists` };
    if (input.report.attempt !== attempt) {
      return { kind: 'skipped', reason: `robustness report ${reportId} was queued again (attempt ${input.report.attempt}, job ${attempt})` };
    }
    if (!(await this.reports.markRunning(reportId, attempt))) {
      return { kind: 'skipped', reason: `robustness report ${reportId} is ${input.report.status}, not queued` };
    }
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
      scores = await scoreSuite(rows, config, kind, this.nli);
    } catch (e) {
      if (isMetricFailure(e)) throw new PermanentRobustnessError(e.message);
      throw e;
    }
    const report = preferenceReport(rows, scores.good.values, scores.bad.values, scores.good);
    // The trade-off curve combines a report on the weighted (model) metric with every other one.
    const role = (name: string) => combinedRole(metricPlugin(name)?.capability);
    const others = role(config.name) === 'weighted' ? metrics.data.filter((m) => role(m.name) === 'other') : [];
    const tradeoff = others.length > 0 ? await this.tradeoff(rows, scores, report, others, kind) : undefined;
    const saved = await this.reports.saveResult(reportId, attempt, report.signature, robustnessResult(report, tradeoff));
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
        m = await scoreSuite(rows, other, kind, this.nli);
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

  async fail(reportId: string, attempt: number, reason: string): Promise<void> {
    await this.reports.markFailed(reportId, attempt, reason);
  }
}
