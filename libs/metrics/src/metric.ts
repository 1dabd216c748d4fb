/* eslint-disable @typescript-eslint/no-non-null-assertion -- hot kernel: indices are bounded by the loops over these arrays; a check per access would cost throughput (npm run bench:metrics) */
/**
 * The classical metrics: their registry entries (see `registry.ts`) and one {@link Metric}
 * object per configured metric that turns a segment into sufficient statistics once; corpus
 * scores, sentence scores and bootstrap resampling all aggregate the same rows (after
 * sacreBLEU's design).
 */
import { z } from 'zod';
import {
  BLEU_SMOOTH_METHODS,
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
import { registerMetric, requireMetricDefinition, validateMetricOptions, type MetricDefinition } from './registry';
import { BLEU_TOKENIZERS, isBleuTokenizerName } from './tokenizers';

/** Names of the classical metrics. */
export type MetricName = 'bleu' | 'chrf' | 'chrf++' | 'ter' | 'rouge1' | 'rouge2' | 'rougeL' | 'rougeLsum';

/** Every {@link MetricName}, in display order (the classical metrics' registry entries). */
export const METRIC_NAMES = ['bleu', 'chrf', 'chrf++', 'ter', 'rouge1', 'rouge2', 'rougeL', 'rougeLsum'] as const satisfies readonly MetricName[];

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

const flag = (fallback: boolean) => z.boolean().default(fallback);

/** BLEU's options with sacreBLEU's defaults (`smoothValue` depends on `smooth`, so it has none here). */
const bleuOptions = z.strictObject({
  tokenize: z
    .enum(BLEU_TOKENIZERS, { error: (iss) => `unknown BLEU tokenizer '${String(iss.input)}' (expected one of ${BLEU_TOKENIZERS.join(', ')})` })
    .default('13a'),
  lowercase: flag(false),
  smooth: z
    .enum(BLEU_SMOOTH_METHODS, { error: (iss) => `unknown BLEU smoothing '${String(iss.input)}' (expected one of ${BLEU_SMOOTH_METHODS.join(', ')})` })
    .default('exp'),
  smoothValue: z.number().min(0).optional(),
  effectiveOrder: flag(false),
  sentenceEffectiveOrder: flag(true),
  maxNgramOrder: z.number().int().min(1).max(10).default(4),
});

/** chrF's options (sacreBLEU's defaults); chrF++ differs only in the default word order. */
const chrfOptions = (wordOrder: number) =>
  z
    .strictObject({
      lowercase: flag(false),
      charOrder: z.number().int().min(0).max(10).default(6),
      wordOrder: z.number().int().min(0).max(4).default(wordOrder),
      beta: z.number().min(1).default(2),
      whitespace: flag(false),
      epsSmoothing: flag(false),
    })
    .refine((o) => o.charOrder + o.wordOrder > 0, { error: 'chrF needs a positive char or word order' });

/** TER's options (sacreBLEU's defaults); `lowercase` is the inverse of `caseSensitive`, so neither has a default here. */
const terOptions = z
  .strictObject({
    tokenize: z.literal('tercom', { error: (iss) => `TER uses its own tokenizer 'tercom' (got '${String(iss.input)}'); use normalized/noPunct/asianSupport instead` }).optional(),
    lowercase: z.boolean().optional(),
    normalized: flag(false),
    noPunct: flag(false),
    asianSupport: flag(false),
    caseSensitive: z.boolean().optional(),
  })
  .refine((o) => o.lowercase === undefined || o.caseSensitive === undefined || o.lowercase !== o.caseSensitive, {
    error: 'TER options lowercase and caseSensitive contradict each other',
  });

/** ROUGE's options (rouge-score's defaults); it always lowercases. */
const rougeOptions = z.strictObject({
  stem: flag(false),
  lowercase: z.literal(true, { error: 'ROUGE always lowercases (rouge-score tokenizer); lowercase=false is not supported' }).optional(),
});

const VERSIONED = 'version:podium-<version>';

/** Registry entries of the classical metrics, in display order. */
const CLASSICAL_DEFINITIONS: readonly (MetricDefinition & { name: MetricName })[] = [
  {
    name: 'bleu',
    displayName: 'BLEU',
    kind: 'corpus',
    higherIsBetter: true,
    range: [0, 100],
    options: bleuOptions,
    signatureFormat: `bleu|nrefs:<n>|case:<mixed|lc>|eff:<yes|no>|tok:<tokenizer>|smooth:<method>[<value>]|${VERSIONED}`,
    description: 'BLEU from clipped n-gram counts (sacreBLEU 2.x); corpus score from summed statistics',
  },
  {
    name: 'chrf',
    displayName: 'chrF',
    kind: 'corpus',
    higherIsBetter: true,
    range: [0, 100],
    options: chrfOptions(0),
    signatureFormat: `chrf|nrefs:<n>|case:<mixed|lc>|eff:yes|nc:<char order>|nw:<word order>|space:<yes|no>|${VERSIONED}`,
    description: 'character n-gram F-score (sacreBLEU 2.x)',
  },
  {
    name: 'chrf++',
    displayName: 'chrF++',
    kind: 'corpus',
    higherIsBetter: true,
    range: [0, 100],
    options: chrfOptions(2),
    signatureFormat: `chrf++|nrefs:<n>|case:<mixed|lc>|eff:yes|nc:<char order>|nw:<word order>|space:<yes|no>|${VERSIONED}`,
    description: 'chrF with word bigrams (sacreBLEU 2.x)',
  },
  {
    name: 'ter',
    displayName: 'TER',
    kind: 'corpus',
    higherIsBetter: false,
    range: [0, Number.POSITIVE_INFINITY],
    options: terOptions,
    signatureFormat: `ter|nrefs:<n>|case:<mixed|lc>|tok:tercom|norm:<yes|no>|punct:<yes|no>|asian:<yes|no>|${VERSIONED}`,
    description: 'translation edit rate with shifts (sacreBLEU 2.x, tercom); lower is better',
  },
  ...(['rouge1', 'rouge2', 'rougeL', 'rougeLsum'] as const).map(
    (name): MetricDefinition & { name: MetricName } => ({
      name,
      displayName: { rouge1: 'ROUGE-1', rouge2: 'ROUGE-2', rougeL: 'ROUGE-L', rougeLsum: 'ROUGE-Lsum' }[name],
      kind: 'sentence',
      higherIsBetter: true,
      range: [0, 1],
      options: rougeOptions,
      signatureFormat: `${name}|nrefs:<n>|case:lc|tok:rouge-score|stem:<yes|no>|multi:max|${VERSIONED}`,
      description: `${name} F-measure (Google rouge-score); corpus score is the mean over instances`,
    }),
  ),
];
for (const d of CLASSICAL_DEFINITIONS) registerMetric(d);

/**
 * Validates a loosely typed option record (as a task's metric configuration stores it)
 * against the metric's registered zod schema and returns {@link MetricOptions} with the
 * defaults filled in; unknown keys and wrong types are a {@link MetricOptionError}.
 * Example: `parseMetricOptions('bleu', { tokenize: 'intl' }).smooth` → `'exp'`.
 */
export function parseMetricOptions(metric: MetricName, record: Readonly<Record<string, unknown>>): MetricOptions {
  if (!isMetricName(metric)) throw new MetricInputError(`unknown metric '${String(metric)}' (expected one of ${METRIC_NAMES.join(', ')})`);
  return validateMetricOptions(metric, record);
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
  const sum = new Array<number>(rows[0]!.length).fill(0);
  for (const row of rows) for (let i = 0; i < sum.length; i++) sum[i]! += row[i]!;
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
  options = parseMetricOptions(name, options as Readonly<Record<string, unknown>>);
  // Direction and range come from the registry entry, the one place that states them.
  const def = requireMetricDefinition(name);
  const facts: Pick<Metric, 'higherIsBetter' | 'range'> = { higherIsBetter: def.higherIsBetter, range: [def.range[0], def.range[1]] };
  const corpusFromStats = (m: Pick<Metric, 'corpusFromSum'>) => (rows: readonly (readonly number[])[]) =>
    m.corpusFromSum(sumStats(rows), rows.length);

  if (name === 'bleu') {
    const { tokenize } = options;
    const c = resolveBleuConfig({ ...options, tokenize: tokenize !== undefined && isBleuTokenizerName(tokenize) ? tokenize : undefined });
    const m = {
      corpusFromSum: (sum: readonly number[]) => bleuFromStats(sum, c, c.effectiveOrder),
    };
    return {
      name,
      signature: withName(name, bleuSignature(c, nrefs, c.effectiveOrder)),
      sentenceSignature: withName(name, bleuSignature(c, nrefs, c.sentenceEffectiveOrder)),
      ...facts,
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
      ...facts,
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
      ...facts,
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
    ...facts,
    refAggregation: 'reference with the highest F-measure (rouge-score score_multi)',
    additiveStats: false,
    stats: (hyp, refs) => rougeStats(type, c, hyp, refs),
    // Rows are [precision, recall, fmeasure]; the corpus score is the mean F-measure.
    corpusFromSum: (sum, count) => (count > 0 ? sum[2]! / count : 0),
    corpusFromStats: (rows) => (rows.length > 0 ? sumStats(rows)[2]! / rows.length : 0),
    sentenceFromStats: (row) => row[2]!,
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
