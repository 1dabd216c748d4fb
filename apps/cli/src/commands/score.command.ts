import {
  BLEU_SMOOTH_METHODS,
  METRIC_NAMES,
  MetricInputError,
  isMetricName,
  metricPlugin,
  score,
  type MetricOptions,
} from '@podium/metrics';
import { CliError } from '../cli-error';
import { parseFlags } from '../flags';
import type { CliCommand } from '../command';
import { readLines } from '../io';

const USAGE = `usage: podium score --metric M --hyp FILE --ref FILE [--ref FILE…] [options]

Scores a system output (one segment per line) against one or more reference files with the
same number of lines. Prints {"metric","signature","sentenceSignature","corpus","instances"}.
BLEU, chrF and TER reproduce sacreBLEU 2.x (corpus score from summed statistics; instances are
sentence scores, sentence BLEU with effective order); ROUGE reproduces rouge-score (F-measure,
0–1, corpus = mean over instances, several references: best F).

  --metric M           ${METRIC_NAMES.join(' | ')} (nli | combined: see the NLI options;
                       bertscore and other embedding metrics: see the embedding options)
  --hyp FILE           system output
  --ref FILE           reference file; repeat for several references
  --tokenize T         BLEU tokenizer: 13a (default) | intl | zh | char | none
  --lowercase          BLEU/chrF: lowercase first (TER is case-insensitive unless --case-sensitive)
  --smooth M           BLEU smoothing: exp (default) | floor | add-k | none
  --smooth-value V     BLEU smoothing value for floor (0.1) / add-k (1)
  --effective-order    BLEU: effective order for the corpus score too
  --char-order N       chrF character order (default 6)
  --word-order N       chrF word order (default 0; chrf++: 2)
  --beta B             chrF recall weight (default 2)
  --whitespace         chrF: keep whitespace in character n-grams
  --eps-smoothing      chrF: chrF++.py eps smoothing instead of effective order
  --normalized         TER: tercom normalisation
  --no-punct           TER: remove punctuation
  --asian-support      TER: Asian-language normalisation
  --case-sensitive     TER: compare case-sensitively
  --stem               ROUGE: Porter stemming (as rouge-score use_stemmer=True)
  --sentence-sep S     rougeLsum: the string S inside a line separates sentences (e.g. '<n>')`;

const FLAGS = {
  metric: { type: 'string' },
  hyp: { type: 'string' },
  ref: { type: 'string', multiple: true },
  tokenize: { type: 'string' },
  lowercase: { type: 'boolean' },
  smooth: { type: 'string' },
  'smooth-value': { type: 'string' },
  'effective-order': { type: 'boolean' },
  'char-order': { type: 'string' },
  'word-order': { type: 'string' },
  beta: { type: 'string' },
  whitespace: { type: 'boolean' },
  'eps-smoothing': { type: 'boolean' },
  normalized: { type: 'boolean' },
  'no-punct': { type: 'boolean' },
  'asian-support': { type: 'boolean' },
  'case-sensitive': { type: 'boolean' },
  stem: { type: 'boolean' },
  'sentence-sep': { type: 'string' },
} as const;

function numberFlag(value: string | undefined, flag: string): number | undefined {
  if (value === undefined) return undefined;
  const v = Number(value);
  if (value.trim() === '' || !Number.isFinite(v)) throw new CliError(`--${flag} must be a number, got '${value}'`);
  return v;
}

function nonNegative(value: number | undefined, flag: string): number | undefined {
  if (value !== undefined && value < 0) throw new CliError(`--${flag} must be ≥ 0 (a count added to the n-gram matches), got ${value}`);
  return value;
}

/** Loads the NLI branch lazily so classical metrics work without it. */
async function runNli(argv: string[]): Promise<unknown> {
  const modulePath = './score-nli';
  let mod: { runNliScore?: (args: string[]) => Promise<unknown> };
  try {
    mod = (await import(modulePath)) as typeof mod;
  } catch {
    throw new CliError('NLI metrics are not available in this build');
  }
  if (typeof mod.runNliScore !== 'function') throw new CliError('NLI metrics are not available in this build');
  return mod.runNliScore(argv);
}

/** Loads the embedding branch lazily (it pulls in onnxruntime). */
async function runEmbedding(argv: string[]): Promise<unknown> {
  const mod = (await import('./score-embedding')) as { runEmbeddingScore: (args: string[]) => Promise<unknown> };
  return mod.runEmbeddingScore(argv);
}

/** `podium score`: classical metrics (BLEU, chrF, chrF++, TER, ROUGE) on line-aligned files. */
export const scoreCommand: CliCommand = {
  name: 'score',
  summary: 'score a system output against references (BLEU, chrF, TER, ROUGE, NLI, BERTScore)',
  // The NLI part of the usage is loaded only when help is printed (it pulls in onnxruntime).
  get usage(): string {
    try {
      const nli = require('./score-nli') as { NLI_SCORE_USAGE?: unknown };
      const emb = require('./score-embedding') as { EMBEDDING_SCORE_USAGE?: unknown };
      const withNli = typeof nli.NLI_SCORE_USAGE === 'string' ? `${USAGE}\n\n${nli.NLI_SCORE_USAGE}` : USAGE;
      return typeof emb.EMBEDDING_SCORE_USAGE === 'string' ? `${withNli}\n\n${emb.EMBEDDING_SCORE_USAGE}` : withNli;
    } catch {
      return USAGE;
    }
  },
  async run(argv: string[]): Promise<unknown> {
    const metricIdx = argv.indexOf('--metric');
    const metricArg = metricIdx >= 0 ? argv[metricIdx + 1] : argv.find((a) => a.startsWith('--metric='))?.slice(9);
    // Model (NLI) and derived (combined) metrics need a model runtime: the lazily loaded NLI branch.
    const capability = metricArg === undefined ? undefined : metricPlugin(metricArg)?.capability;
    if (capability === 'model' || capability === 'derived') return runNli(argv);
    if (capability === 'embedding') return runEmbedding(argv);

    const values = parseFlags(argv, FLAGS);
    const metric = values.metric;
    if (metric === undefined) throw new CliError(`--metric is required (${METRIC_NAMES.join(', ')}, nli, combined)`);
    if (!isMetricName(metric)) throw new CliError(`unknown metric '${metric}' (expected ${METRIC_NAMES.join(', ')}, nli or combined)`);
    if (values.hyp === undefined) throw new CliError('--hyp FILE is required');
    const refFiles = values.ref ?? [];
    if (refFiles.length === 0) throw new CliError('at least one --ref FILE is required');

    const smooth = values.smooth;
    if (smooth !== undefined && !(BLEU_SMOOTH_METHODS as readonly string[]).includes(smooth)) {
      throw new CliError(`--smooth must be one of ${BLEU_SMOOTH_METHODS.join(', ')}, got '${smooth}'`);
    }
    const options: MetricOptions = {
      tokenize: values.tokenize,
      lowercase: values.lowercase,
      smooth,
      smoothValue: nonNegative(numberFlag(values['smooth-value'], 'smooth-value'), 'smooth-value'),
      effectiveOrder: values['effective-order'],
      charOrder: numberFlag(values['char-order'], 'char-order'),
      wordOrder: numberFlag(values['word-order'], 'word-order'),
      beta: numberFlag(values.beta, 'beta'),
      whitespace: values.whitespace,
      epsSmoothing: values['eps-smoothing'],
      normalized: values.normalized,
      noPunct: values['no-punct'],
      asianSupport: values['asian-support'],
      caseSensitive: values['case-sensitive'],
      stem: values.stem,
    };
    const sep = values['sentence-sep'];
    if (sep !== undefined && metricPlugin(metric)?.definition.newlineSeparatesSentences !== true) throw new CliError('--sentence-sep applies to rougeLsum only');
    if (sep === '') throw new CliError('--sentence-sep must not be empty');

    const split = (lines: string[]) => (sep === undefined ? lines : lines.map((l) => l.split(sep).join('\n')));
    const hyps = split(readLines(values.hyp, 'hypothesis'));
    if (hyps.length === 0) throw new CliError(`hypothesis file ${values.hyp} is empty`);
    const refStreams = refFiles.map((file) => {
      const lines = readLines(file, 'reference');
      if (lines.length !== hyps.length) {
        throw new CliError(`reference file ${file} has ${lines.length} lines but hypothesis file ${values.hyp} has ${hyps.length}`);
      }
      return split(lines);
    });

    try {
      const s = score(metric, options, hyps, refStreams);
      return {
        metric: s.metric,
        signature: s.signature,
        sentenceSignature: s.sentenceSignature,
        corpus: s.corpus,
        instances: s.instances,
      };
    } catch (err) {
      if (err instanceof MetricInputError) throw new CliError(err.message);
      throw err;
    }
  },
};
