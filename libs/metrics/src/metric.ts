/**
 * The metric registry: one {@link Metric} object per configured metric turns a segment into
 * sufficient statistics once; corpus scores, sentence scores and bootstrap resampling all
 * aggregate the same rows (after sacreBLEU's design).
 */
import {
  bleuFromStats,
  bleuSignature,
  bleuStats,
  resolveBleuConfig,
  type BleuSmoothMethod,
} from './bleu';
import { chrfFromStats, chrfSignature, chrfStats, resolveChrfConfig } from './chrf';
import { MetricInputError } from './errors';
import { resolveRougeConfig, rougeSignature, rougeStats, type RougeType } from './rouge';
import { resolveTerConfig, terFromStats, terSignature, terStats } from './ter';
import { BLEU_TOKENIZERS, isBleuTokenizerName } from './tokenizers';

/** Names of the classical metrics. */
export type MetricName = 'bleu' | 'chrf' | 'chrf++' | 'ter' | 'rouge1' | 'rouge2' | 'rougeL' | 'rougeLsum';

/** Every {@link MetricName}, in display order. */
export const METRIC_NAMES: readonly MetricName[] = ['bleu', 'chrf', 'chrf++', 'ter', 'rouge1', 'rouge2', 'rougeL', 'rougeLsum'];

/** True when `name` is a {@link MetricName}. Example: `isMetricName('chrf++')` → true. */
export function isMetricName(name: string): name is MetricName {
  return (METRIC_NAMES as readonly string[]).includes(name);
}

/**
 * Options of all metrics; each metric reads the ones that apply to it and rejects the
 * others with a {@link MetricInputError}. Defaults are sacreBLEU's / rouge-score's.
 */
export interface MetricOptions {
  /** BLEU tokenizer: `13a` (default), `intl`, `zh`, `char`, `none`. TER accepts only `tercom`. */
  tokenize?: string;
  /** BLEU/chrF: lowercase before scoring (default false). TER: the inverse of `caseSensitive`. */
  lowercase?: boolean;
  /** BLEU smoothing (default `exp`). */
  smooth?: BleuSmoothMethod;
  /** BLEU smoothing value for `floor` (default 0.1) and `add-k` (default 1). */
  smoothValue?: number;
  /** BLEU: effective order for the corpus score (default false, `eff:no`). */
  effectiveOrder?: boolean;
  /** BLEU: effective order for per-instance scores (default true, as sacreBLEU's `sentence_bleu`). */
  sentenceEffectiveOrder?: boolean;
  /** BLEU: maximum n-gram order (default 4). */
  maxNgramOrder?: number;
  /** ROUGE: Porter stemming of tokens longer than 3 characters (default false). */
  stem?: boolean;
  /** chrF: character n-gram order (default 6). */
  charOrder?: number;
  /** chrF: word n-gram order (default 0 for chrf, 2 for chrf++). */
  wordOrder?: number;
  /** chrF: recall weight β (default 2). */
  beta?: number;
  /** chrF: keep whitespace in character n-grams (default false). */
  whitespace?: boolean;
  /** chrF: eps smoothing as chrF++.py instead of effective order (default false). */
  epsSmoothing?: boolean;
  /** TER: tercom normalisation (default false). */
  normalized?: boolean;
  /** TER: remove punctuation (default false). */
  noPunct?: boolean;
  /** TER: Asian-language normalisation (default false). */
  asianSupport?: boolean;
  /** TER: case-sensitive comparison (default false). */
  caseSensitive?: boolean;
}

/** Option keys each metric family reads. */
const OPTION_KEYS: Record<'bleu' | 'chrf' | 'ter' | 'rouge', readonly (keyof MetricOptions)[]> = {
  bleu: ['tokenize', 'lowercase', 'smooth', 'smoothValue', 'effectiveOrder', 'sentenceEffectiveOrder', 'maxNgramOrder'],
  chrf: ['lowercase', 'charOrder', 'wordOrder', 'beta', 'whitespace', 'epsSmoothing'],
  ter: ['tokenize', 'lowercase', 'normalized', 'noPunct', 'asianSupport', 'caseSensitive'],
  rouge: ['stem', 'lowercase'],
};

const BOOLEAN_OPTIONS = new Set<keyof MetricOptions>([
  'lowercase',
  'effectiveOrder',
  'sentenceEffectiveOrder',
  'stem',
  'whitespace',
  'epsSmoothing',
  'normalized',
  'noPunct',
  'asianSupport',
  'caseSensitive',
]);
const NUMBER_OPTIONS = new Set<keyof MetricOptions>(['smoothValue', 'maxNgramOrder', 'charOrder', 'wordOrder', 'beta']);

function familyOf(name: MetricName): 'bleu' | 'chrf' | 'ter' | 'rouge' {
  if (name === 'bleu') return 'bleu';
  if (name === 'chrf' || name === 'chrf++') return 'chrf';
  if (name === 'ter') return 'ter';
  return 'rouge';
}

/**
 * Validates a loosely typed option record (as a task's metric configuration stores it)
 * into {@link MetricOptions} for `metric`; unknown keys and wrong types are a
 * {@link MetricInputError}. Example: `parseMetricOptions('bleu', { tokenize: 'intl' })`.
 */
export function parseMetricOptions(metric: MetricName, record: Readonly<Record<string, unknown>>): MetricOptions {
  const allowed = OPTION_KEYS[familyOf(metric)];
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(record)) {
    if (value === undefined) continue;
    if (!(allowed as readonly string[]).includes(key)) {
      throw new MetricInputError(`option '${key}' does not apply to ${metric} (allowed: ${allowed.join(', ')})`);
    }
    const k = key as keyof MetricOptions;
    if (BOOLEAN_OPTIONS.has(k) && typeof value !== 'boolean') throw new MetricInputError(`option '${key}' of ${metric} must be true or false`);
    if (NUMBER_OPTIONS.has(k) && typeof value !== 'number') throw new MetricInputError(`option '${key}' of ${metric} must be a number`);
    if ((k === 'tokenize' || k === 'smooth') && typeof value !== 'string') throw new MetricInputError(`option '${key}' of ${metric} must be a string`);
    out[key] = value;
  }
  return out as MetricOptions;
}

/** Rejects options that do not apply to `metric` or have the wrong type (callers may be untyped). */
function checkApplicable(metric: MetricName, options: MetricOptions): void {
  parseMetricOptions(metric, options as Readonly<Record<string, unknown>>);
}

/**
 * A configured metric: turns one instance into sufficient statistics and aggregates them.
 * Rows are plain number arrays so they can be resampled (paired bootstrap) and summed.
 */
export interface Metric {
  readonly name: MetricName;
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

/** Element-wise sum of statistics rows. Example: `sumStats([[1,2],[3,4]])` → `[4,6]`. */
export function sumStats(rows: readonly (readonly number[])[]): number[] {
  if (rows.length === 0) return [];
  const sum = new Array<number>(rows[0].length).fill(0);
  for (const row of rows) for (let i = 0; i < sum.length; i++) sum[i] += row[i];
  return sum;
}

function withName(name: MetricName, body: string): string {
  return `${name}|${body}`;
}

/**
 * Builds the {@link Metric} for `name` with `options` and `nrefs` references per instance
 * (`nrefs` only enters the signature). Throws {@link MetricInputError} for bad options.
 * Example: `getMetric('bleu', {}).sentenceFromStats(getMetric('bleu', {}).stats('a b', ['a b']))`.
 */
export function getMetric(name: MetricName, options: MetricOptions = {}, nrefs = 1): Metric {
  if (!isMetricName(name)) throw new MetricInputError(`unknown metric '${String(name)}' (expected one of ${METRIC_NAMES.join(', ')})`);
  checkApplicable(name, options);
  const corpusFromStats = (m: Pick<Metric, 'corpusFromSum'>) => (rows: readonly (readonly number[])[]) =>
    m.corpusFromSum(sumStats(rows), rows.length);

  if (name === 'bleu') {
    const { tokenize } = options;
    if (tokenize !== undefined && !isBleuTokenizerName(tokenize)) {
      throw new MetricInputError(`unknown BLEU tokenizer '${tokenize}' (expected one of ${BLEU_TOKENIZERS.join(', ')})`);
    }
    const c = resolveBleuConfig({ ...options, tokenize });
    const m = {
      corpusFromSum: (sum: readonly number[]) => bleuFromStats(sum, c, c.effectiveOrder),
    };
    return {
      name,
      signature: withName(name, bleuSignature(c, nrefs, c.effectiveOrder)),
      sentenceSignature: withName(name, bleuSignature(c, nrefs, c.sentenceEffectiveOrder)),
      higherIsBetter: true,
      range: [0, 100],
      refAggregation: 'n-gram counts clipped by their maximum count over references; closest reference length',
      additiveStats: true,
      stats: (hyp, refs) => bleuStats(c, hyp, refs),
      corpusFromSum: m.corpusFromSum,
      corpusFromStats: corpusFromStats(m),
      sentenceFromStats: (row) => bleuFromStats(row, c, c.sentenceEffectiveOrder),
    };
  }
  if (name === 'chrf' || name === 'chrf++') {
    const c = resolveChrfConfig(options, name === 'chrf++');
    const sig = withName(name, chrfSignature(c, nrefs));
    const m = { corpusFromSum: (sum: readonly number[]) => chrfFromStats(sum, c) };
    return {
      name,
      signature: sig,
      sentenceSignature: sig,
      higherIsBetter: true,
      range: [0, 100],
      refAggregation: 'statistics of the reference with the best sentence-level chrF',
      additiveStats: true,
      stats: (hyp, refs) => chrfStats(c, hyp, refs),
      corpusFromSum: m.corpusFromSum,
      corpusFromStats: corpusFromStats(m),
      sentenceFromStats: (row) => chrfFromStats(row, c),
    };
  }
  if (name === 'ter') {
    const c = resolveTerConfig(options);
    const sig = withName(name, terSignature(c, nrefs));
    return {
      name,
      signature: sig,
      sentenceSignature: sig,
      higherIsBetter: false,
      range: [0, Number.POSITIVE_INFINITY],
      refAggregation: 'fewest edits over references, divided by the average reference length',
      additiveStats: true,
      stats: (hyp, refs) => terStats(c, hyp, refs),
      corpusFromSum: (sum) => terFromStats(sum),
      corpusFromStats: (rows) => terFromStats(sumStats(rows)),
      sentenceFromStats: (row) => terFromStats(row),
    };
  }
  const type: RougeType = name;
  const c = resolveRougeConfig(options);
  const sig = withName(name, rougeSignature(c, nrefs));
  return {
    name,
    signature: sig,
    sentenceSignature: sig,
    higherIsBetter: true,
    range: [0, 1],
    refAggregation: 'reference with the highest F-measure (rouge-score score_multi)',
    additiveStats: false,
    stats: (hyp, refs) => rougeStats(type, c, hyp, refs),
    // Rows are [precision, recall, fmeasure]; the corpus score is the mean F-measure.
    corpusFromSum: (sum, count) => (count > 0 ? sum[2] / count : 0),
    corpusFromStats: (rows) => (rows.length > 0 ? sumStats(rows)[2] / rows.length : 0),
    sentenceFromStats: (row) => row[2],
  };
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
  const m = getMetric(metric, options, refStreams.length);
  validateStreams(hyps, refStreams);
  const rows: number[][] = new Array(hyps.length);
  const instances: number[] = new Array(hyps.length);
  const refs: string[] = new Array(refStreams.length);
  for (let i = 0; i < hyps.length; i++) {
    for (let k = 0; k < refStreams.length; k++) refs[k] = refStreams[k][i];
    rows[i] = m.stats(hyps[i], refs);
    instances[i] = m.sentenceFromStats(rows[i]);
  }
  return {
    metric,
    signature: m.signature,
    sentenceSignature: m.sentenceSignature,
    corpus: m.corpusFromStats(rows),
    instances,
    higherIsBetter: m.higherIsBetter,
    range: m.range,
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
