/* eslint-disable @typescript-eslint/no-non-null-assertion -- hot loop: indices are bounded by the loops over these arrays; a check per access would cost throughput (npm run bench:metrics) */
/**
 * The classical metrics' common interface: one {@link Metric} object per configured metric that
 * turns a segment into sufficient statistics once; corpus scores, sentence scores and bootstrap
 * resampling all aggregate the same rows (after sacreBLEU's design). The metrics themselves are
 * plugins, one folder each under `plugins/`; this file dispatches to their factories by name
 * through the registry.
 */
import { MetricInputError } from './errors';
import { isComputedPlugin } from './plugin';
import { COMPUTED_METRIC_PLUGINS } from './plugins';
import { metricPlugin, validateMetricOptions } from './registry';

/** Names of the metrics this library scores from texts, derived from the plugin folders. */
export type MetricName = (typeof COMPUTED_METRIC_PLUGINS)[number]['definition']['name'];

/** Every {@link MetricName}, in display order. */
export const METRIC_NAMES: readonly MetricName[] = COMPUTED_METRIC_PLUGINS.map((p) => p.definition.name);

/** True when `name` is a {@link MetricName}. Example: `isMetricName('chrf++')` → true. */
export function isMetricName(name: string): name is MetricName {
  return (METRIC_NAMES as readonly string[]).includes(name);
}

/**
 * Options of a metric as a task or the CLI gives them (a loosely typed record); each plugin's zod
 * schema (`definition.options`) validates them, fills in its defaults and rejects the options
 * that do not apply to it. Defaults are sacreBLEU's / rouge-score's.
 */
export type MetricOptions = Readonly<Record<string, unknown>>;

/**
 * Validates a loosely typed option record (as a task's metric configuration stores it)
 * against the metric's registered zod schema and returns it with the defaults filled in;
 * unknown keys and wrong types are a {@link MetricOptionError}.
 * Example: `parseMetricOptions('bleu', { tokenize: 'intl' }).smooth` → `'exp'`.
 */
export function parseMetricOptions(metric: MetricName, record: Readonly<Record<string, unknown>>): Record<string, unknown> {
  if (!isMetricName(metric)) throw new MetricInputError(`unknown metric '${String(metric)}' (expected one of ${METRIC_NAMES.join(', ')})`);
  return validateMetricOptions(metric, record);
}

/**
 * A configured metric: turns one instance into sufficient statistics and aggregates them.
 * Rows are plain number arrays so they can be resampled (paired bootstrap) and summed.
 */
export interface Metric {
  readonly name: string;
  /** Corpus-level signature: `<name>|` + sacreBLEU's signature body with our version. */
  readonly signature: string;
  /** Signature of the per-instance scores (e.g. `eff:yes` for sentence BLEU). */
  readonly sentenceSignature: string;
  readonly higherIsBetter: boolean;
  /** Score range; TER has no upper bound (`Infinity`). */
  readonly range: [number, number];
  /** How several references are combined, in words. */
  readonly refAggregation: string;
  /**
   * True when the corpus score is a function of the column sums of the instance statistics
   * (BLEU, chrF, chrF++, TER: sacreBLEU's sufficient statistics), so bootstrap and randomisation
   * can rescore resampled corpora from summed rows. False for ROUGE (mean of instance F).
   */
  readonly additiveStats: boolean;
  /** Sufficient statistics of one instance (hypothesis, its references). */
  stats(hyp: string, refs: readonly string[]): number[];
  /** Corpus score from the rows of the instances (summed, or averaged for ROUGE). */
  corpusFromStats(rows: readonly (readonly number[])[]): number;
  /** Corpus score from the element-wise sum of `count` rows (streaming, flat memory). */
  corpusFromSum(sum: readonly number[], count: number): number;
  /** Score of one instance from its row. */
  sentenceFromStats(row: readonly number[]): number;
}

export { sumStats } from './stats';

/**
 * Builds the {@link Metric} for `name` with `options` and `nrefs` references per instance
 * (`nrefs` only enters the signature) from the metric's plugin. Throws {@link MetricInputError}
 * for an unknown metric or bad options.
 * Example: `getMetric('bleu', {}).sentenceFromStats(getMetric('bleu', {}).stats('a b', ['a b']))`.
 */
export function getMetric(name: MetricName, options: MetricOptions = {}, nrefs = 1): Metric {
  const plugin = metricPlugin(name);
  if (!plugin || !isComputedPlugin(plugin)) throw new MetricInputError(`unknown metric '${name}' (expected one of ${METRIC_NAMES.join(', ')})`);
  return plugin.create(validateMetricOptions(name, options), nrefs);
}

/** Result of {@link score}. */
export interface MetricScore {
  metric: MetricName;
  /** Corpus-level signature, e.g. `bleu|nrefs:1|case:mixed|eff:no|tok:13a|smooth:exp|version:podium-0.1.0`. */
  signature: string;
  /** Signature of `instances` (sentence BLEU: `eff:yes`). */
  sentenceSignature: string;
  /** Corpus score: 0–100 for BLEU, chrF and TER (sacreBLEU scale); mean F-measure 0–1 for ROUGE. */
  corpus: number;
  /** One score per hypothesis, on the same scale as `corpus`. */
  instances: number[];
  higherIsBetter: boolean;
  range: [number, number];
}

function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

/**
 * Checks that `refStreams` holds at least one stream and every stream has one line per
 * hypothesis; throws {@link MetricInputError} otherwise.
 */
export function validateStreams(hyps: readonly string[], refStreams: readonly (readonly string[])[]): void {
  if (refStreams.length === 0) throw new MetricInputError('no reference stream given (need at least one)');
  if (hyps.length === 0) throw new MetricInputError('no hypotheses to score (the hypothesis stream is empty)');
  refStreams.forEach((stream, k) => {
    if (stream.length === 0) throw new MetricInputError(`reference stream ${k + 1} is empty but there ${hyps.length === 1 ? 'is' : 'are'} ${plural(hyps.length, 'hypothesis', 'hypotheses')}`);
    if (stream.length !== hyps.length) {
      throw new MetricInputError(
        `reference stream ${k + 1} has ${plural(stream.length, 'line')} but there ${hyps.length === 1 ? 'is' : 'are'} ${plural(hyps.length, 'hypothesis', 'hypotheses')}`,
      );
    }
  });
}

/**
 * Scores a corpus: `refStreams[k][i]` is the k-th reference of hypothesis `i`.
 * Corpus BLEU/chrF/TER come from summed statistics (as sacreBLEU's `corpus_score`),
 * instances from each row (as `sentence_score`; sentence BLEU with effective order).
 * Example: `score('bleu', {}, ['the cat sat'], [['the cat sat']]).corpus` → 100.
 */
export function score(
  metric: MetricName,
  options: MetricOptions,
  hyps: readonly string[],
  refStreams: readonly (readonly string[])[],
): MetricScore {
  return scoreRows(metric, options, hyps, refStreams).score;
}

/**
 * {@link score}, also returning the sufficient statistics it summed: `stats[i]` is
 * `getMetric(metric, options, refStreams.length).stats(hyps[i], refs of i)`, the row the
 * instance score and (summed) the corpus score come from. The worker stores them so that
 * resampling never retokenises the texts.
 * Example: `scoreWithStats('bleu', { maxNgramOrder: 2 }, ['a b'], [['a c']]).stats` → `[[2, 2, 1, 0, 2, 1]]`.
 */
export function scoreWithStats(
  metric: MetricName,
  options: MetricOptions,
  hyps: readonly string[],
  refStreams: readonly (readonly string[])[],
): MetricScore & { stats: number[][] } {
  const { score: result, rows } = scoreRows(metric, options, hyps, refStreams);
  return { ...result, stats: rows };
}

function scoreRows(
  metric: MetricName,
  options: MetricOptions,
  hyps: readonly string[],
  refStreams: readonly (readonly string[])[],
): { score: MetricScore; rows: number[][] } {
  const m = getMetric(metric, options, refStreams.length);
  validateStreams(hyps, refStreams);
  const rows = new Array<number[]>(hyps.length);
  const instances = new Array<number>(hyps.length);
  const refs = new Array<string>(refStreams.length);
  for (let i = 0; i < hyps.length; i++) {
    for (let k = 0; k < refStreams.length; k++) refs[k] = refStreams[k]![i]!;
    rows[i] = m.stats(hyps[i]!, refs);
    instances[i] = m.sentenceFromStats(rows[i]!);
  }
  return {
    score: {
      metric,
      signature: m.signature,
      sentenceSignature: m.sentenceSignature,
      corpus: m.corpusFromStats(rows),
      instances,
      higherIsBetter: m.higherIsBetter,
      range: m.range,
    },
    rows,
  };
}

/**
 * Sufficient statistics of N instances in one row-major array: `data[i * width + j]` is value j
 * of instance i (the layout the ranking library resamples and the worker stores), 8 bytes a
 * value and no array per instance.
 */
export interface StatsMatrix {
  rows: number;
  width: number;
  data: Float64Array;
}

/**
 * {@link scoreWithStats} with the statistics in one {@link StatsMatrix} instead of an array per
 * instance: the same rows, instance scores and corpus score bit for bit (the corpus score is
 * `corpusFromSum` of the column sums, added in instance order as `sumStats` adds them; every
 * plugin's conformance check pins `corpusFromSum` of the summed rows to `corpusFromStats`), but
 * N short-lived rows instead of N retained arrays, which a scoring job of 10⁵ instances and
 * several metrics would otherwise carry into the old generation of the garbage collector.
 * Throws {@link MetricInputError} when rows differ in width.
 * Example: `scoreWithFlatStats('bleu', { maxNgramOrder: 2 }, ['a b'], [['a c']]).stats.data` → `Float64Array [2, 2, 1, 0, 2, 1]`.
 */
export function scoreWithFlatStats(
  metric: MetricName,
  options: MetricOptions,
  hyps: readonly string[],
  refStreams: readonly (readonly string[])[],
): MetricScore & { stats: StatsMatrix } {
  const run = flatStatsRun(metric, options, hyps, refStreams);
  run.rows(0, hyps.length);
  return run.result();
}

/**
 * {@link scoreWithFlatStats} in slices of `slice` instances with `pause()` awaited between them,
 * so that a long run (10⁵ instances of TER take seconds) leaves its process's event loop free
 * meanwhile (a scoring worker renews its leases there); `onSlice` is told how many instances each
 * slice scored. The same rows, instance scores and corpus score, bit for bit.
 */
export async function scoreWithFlatStatsInSlices(
  metric: MetricName,
  options: MetricOptions,
  hyps: readonly string[],
  refStreams: readonly (readonly string[])[],
  pause: () => Promise<void>,
  slice = 2_000,
  onSlice: (instances: number) => void = () => undefined,
): Promise<MetricScore & { stats: StatsMatrix }> {
  if (!(Number.isInteger(slice) && slice > 0)) throw new MetricInputError(`slice must be a positive integer, got ${slice}`);
  const run = flatStatsRun(metric, options, hyps, refStreams);
  for (let from = 0; from < hyps.length; from += slice) {
    if (from > 0) await pause();
    const to = Math.min(hyps.length, from + slice);
    run.rows(from, to);
    onSlice(to - from);
  }
  return run.result();
}

/** The state of one flat-statistics run: `rows(from, to)` scores instances in order; `result()` sums and finishes. */
function flatStatsRun(
  metric: MetricName,
  options: MetricOptions,
  hyps: readonly string[],
  refStreams: readonly (readonly string[])[],
): { rows(from: number, to: number): void; result(): MetricScore & { stats: StatsMatrix } } {
  const m = getMetric(metric, options, refStreams.length);
  validateStreams(hyps, refStreams);
  const n = hyps.length;
  const instances = new Array<number>(n);
  const refs = new Array<string>(refStreams.length);
  let width = -1;
  let data = new Float64Array(0);
  return {
    rows(from: number, to: number): void {
      for (let i = from; i < to; i++) {
        for (let k = 0; k < refStreams.length; k++) refs[k] = refStreams[k]![i]!;
        const row = m.stats(hyps[i]!, refs);
        if (width < 0) {
          width = row.length;
          data = new Float64Array(n * width);
        } else if (row.length !== width) throw new MetricInputError(`${metric} statistics of instance ${i} have ${row.length} values, those of instance 0 have ${width}`);
        // TypedArray#set copies a plain array natively: no per-element loop over rows whose
        // element kinds differ from metric to metric.
        data.set(row, i * width);
        instances[i] = m.sentenceFromStats(row);
      }
    },
    result() {
      // Column sums in instance order, as sumStats adds the rows.
      const sum = new Array<number>(Math.max(0, width)).fill(0);
      for (let at = 0; at < data.length; ) for (let j = 0; j < width; j++, at++) sum[j]! += data[at]!;
      return {
        metric,
        signature: m.signature,
        sentenceSignature: m.sentenceSignature,
        corpus: m.corpusFromSum(sum, n),
        instances,
        higherIsBetter: m.higherIsBetter,
        range: m.range,
        stats: { rows: n, width: Math.max(0, width), data },
      };
    },
  };
}

/**
 * Signature, direction, range and reference aggregation of a metric without scoring.
 * Example: `metricInfo('ter').higherIsBetter` → false.
 */
export function metricInfo(
  metric: MetricName,
  options: MetricOptions = {},
  nrefs = 1,
): { signature: string; sentenceSignature: string; higherIsBetter: boolean; range: [number, number]; refAggregation: string } {
  const m = getMetric(metric, options, nrefs);
  return {
    signature: m.signature,
    sentenceSignature: m.sentenceSignature,
    higherIsBetter: m.higherIsBetter,
    range: m.range,
    refAggregation: m.refAggregation,
  };
}
