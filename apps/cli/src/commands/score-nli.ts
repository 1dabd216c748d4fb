/**
 * The NLI branch of `podium score`: `--metric nli` and `--metric combined`. score.command.ts
 * dispatches here; this module parses its own flags.
 */
import { join, resolve } from 'node:path';
import { COMBINED_PLUGIN, combineScores, combineWeightFor, combinedCorpus, combinedSignature, isMetricName, metricPlugin, METRIC_NAMES, score as scoreMetric, type MetricName } from '@podium/metrics';
import {
  defaultNliOptions,
  loadNliModel,
  nliAvailability,
  readManifest,
  scoreNli,
  type ExecutionProvider,
  type NliDirection,
  type NliFormula,
  type NliLongPremise,
  type NliMetricOptions,
  type NliRefsAggregation,
  type NliTaskKind,
} from '@podium/nli';
import { CliError } from '../cli-error';
import { parseFlags } from '../flags';
import { readLines } from '../io';
import { defaultModelsDir } from './models.command';

/** Usage text of the NLI options of `podium score`. */
export const NLI_SCORE_USAGE = `NLI metrics (MENLI, Chen & Eger 2022):
  podium score --metric nli --nli-model DIR --hyp FILE (--ref FILE… | --src FILE) [options]
  podium score --metric combined --nli-model DIR --with chrf --hyp FILE --ref FILE [--weight 0.2]

  --nli-model DIR     model folder (model.onnx, tokenizer.json, config.json), checked against
                      models/manifest.json; default models/<manifest default>
  --task KIND         mt | summarization | data-to-text | other: picks the paper defaults (default mt)
  --formula F         e | -c | e-n | e-c | e-n-2c (--formula -c and --formula=-c both work)
  --direction D       ref->hyp | ref<-hyp | ref<->hyp | src->hyp | src<-hyp | src<->hyp
                      (also written ->, <-, <-> or the words ref2hyp, hyp2ref, src2hyp, hyp2src,
                      both; -> <- <-> both take ref or src from the inputs given)
  --refs-agg A        max | mean over several --ref files (default max)
  --long L            truncate | chunk: premises longer than the model takes (default truncate)
  --batch-size N      pairs per onnxruntime run (default 32; scores do not depend on it)
  --provider P        cpu | cuda (cuda falls back to cpu, which the signature then records)
  --threads N         onnxruntime intra-op threads
  --with METRIC       combined: the other metric (${METRIC_NAMES.join(', ')})
  --weight W          combined: NLI weight w in C = w·N + (1−w)·M (default 0.2 for mt, 0.8 for summarization)`;

const FORMULAS: readonly NliFormula[] = ['e', '-c', 'e-n', 'e-c', 'e-n-2c'];
const TASKS: readonly NliTaskKind[] = ['mt', 'summarization', 'data-to-text', 'other'];

function oneOf<T extends string>(value: string | undefined, allowed: readonly T[], flag: string): T | undefined {
  if (value === undefined) return undefined;
  if (!(allowed as readonly string[]).includes(value)) throw new CliError(`${flag} must be one of ${allowed.join(', ')}; got '${value}'`);
  return value as T;
}

function positiveInt(value: string | undefined, flag: string): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new CliError(`${flag} must be a positive integer; got '${value}'`);
  return n;
}

/** Word aliases of --direction (arrows are awkward in shells). */
const DIRECTION_WORDS: Readonly<Record<string, string>> = {
  ref2hyp: 'ref->hyp',
  hyp2ref: 'ref<-hyp',
  src2hyp: 'src->hyp',
  hyp2src: 'src<-hyp',
  both: '<->',
};

function direction(value: string | undefined, mode: 'ref' | 'src'): NliDirection | undefined {
  if (value === undefined) return undefined;
  const word = DIRECTION_WORDS[value] ?? value;
  const full = /^(->|<-|<->)$/.test(word) ? `${mode}${word}hyp` : word;
  const allowed: readonly NliDirection[] = ['ref->hyp', 'ref<-hyp', 'ref<->hyp', 'src->hyp', 'src<-hyp', 'src<->hyp'];
  const d = oneOf(full, allowed, '--direction');
  if (d && !d.startsWith(mode)) throw new CliError(`--direction ${d} needs ${d.startsWith('src') ? '--src' : '--ref'}`);
  return d;
}

/** Runs `podium score --metric nli|combined …`; returns the JSON printed on stdout. */
export async function runNliScore(argv: string[]): Promise<unknown> {
  const values = parseFlags(argv, {
    metric: { type: 'string' },
    'nli-model': { type: 'string' },
    hyp: { type: 'string' },
    ref: { type: 'string', multiple: true },
    src: { type: 'string' },
    task: { type: 'string' },
    formula: { type: 'string' },
    direction: { type: 'string' },
    'refs-agg': { type: 'string' },
    long: { type: 'string' },
    'batch-size': { type: 'string' },
    provider: { type: 'string' },
    threads: { type: 'string' },
    with: { type: 'string' },
    weight: { type: 'string' },
  });
  const metric = values.metric;
  const capability = metric === undefined ? undefined : metricPlugin(metric)?.capability;
  if (capability !== 'model' && capability !== 'derived') throw new CliError(`--metric must be nli or combined here; got '${metric}'`);
  if (!values.hyp) throw new CliError('--hyp FILE is required');
  const refs = values.ref ?? [];
  if (refs.length > 0 && values.src) throw new CliError('give either --ref or --src, not both');
  if (refs.length === 0 && !values.src) throw new CliError('give --ref FILE (reference-based) or --src FILE (reference-free)');
  const mode = values.src ? 'src' : 'ref';
  const task = oneOf(values.task, TASKS, '--task') ?? 'mt';

  const defaults = defaultNliOptions(task, mode);
  const options: NliMetricOptions = {
    formula: oneOf(values.formula, FORMULAS, '--formula') ?? defaults.formula,
    direction: direction(values.direction, mode) ?? defaults.direction,
    refsAggregation: oneOf<NliRefsAggregation>(values['refs-agg'], ['max', 'mean'], '--refs-agg') ?? defaults.refsAggregation,
    long: oneOf<NliLongPremise>(values.long, ['truncate', 'chunk'], '--long') ?? defaults.long,
    batchSize: positiveInt(values['batch-size'], '--batch-size') ?? 32,
  };

  let other: MetricName | undefined;
  let weight = 0;
  if (capability === 'derived') {
    if (!values.with || !isMetricName(values.with)) throw new CliError(`--metric combined needs --with METRIC (${METRIC_NAMES.join(', ')}); got '${values.with ?? ''}'`);
    if (mode !== 'ref') throw new CliError('--metric combined needs --ref: the other metric is reference-based');
    other = values.with;
    weight = values.weight === undefined ? combineWeightFor(task) : Number(values.weight);
    if (!(weight >= 0 && weight <= 1)) throw new CliError(`--weight must lie in [0, 1]; got '${values.weight}'`);
  } else if (values.with || values.weight) {
    throw new CliError('--with and --weight apply to --metric combined only');
  }

  const hyps = readLines(values.hyp, 'hypothesis');
  const refStreams = refs.map((f, k) => readLines(f, `reference ${k + 1}`));
  const sources = values.src ? readLines(values.src, 'source') : undefined;
  for (const [k, stream] of refStreams.entries()) {
    if (stream.length !== hyps.length) throw new CliError(`reference file ${refs[k]} has ${stream.length} lines, the hypothesis file ${hyps.length}`);
  }
  if (sources && sources.length !== hyps.length) throw new CliError(`source file has ${sources.length} lines, the hypothesis file ${hyps.length}`);

  const modelsDir = defaultModelsDir();
  const modelDir = resolve(values['nli-model'] ?? join(modelsDir, readManifest(join(modelsDir, 'manifest.json')).defaultModel));
  const availability = nliAvailability(modelDir);
  if (!availability.available) throw new CliError(`NLI metrics unavailable: ${availability.reason}`);
  let model;
  try {
    model = await loadNliModel(modelDir, {
      provider: oneOf<ExecutionProvider>(values.provider, ['cpu', 'cuda'], '--provider') ?? 'cpu',
      intraOpThreads: positiveInt(values.threads, '--threads'),
    });
  } catch (err) {
    throw new CliError(`NLI metrics unavailable: ${(err as Error).message}`);
  }
  try {
    const nli = await scoreNli(model, { hyps, refStreams, sources }, options);
    if (capability === 'model') {
      // Same shape as the classical metrics; NLI's instance and corpus signatures coincide.
      return { metric: nli.metric, signature: nli.signature, sentenceSignature: nli.signature, corpus: nli.corpus, instances: nli.instances };
    }
    const otherName = other as MetricName;
    let m;
    try {
      m = scoreMetric(otherName, {}, hyps, refStreams);
    } catch (err) {
      throw new CliError((err as Error).message);
    }
    const combined = combineScores(nli.instances, m.instances, weight, { otherHigherIsBetter: m.higherIsBetter });
    const corpus = combinedCorpus(combined.values);
    const signature = combinedSignature({
      nliSignature: nli.signature,
      otherSignature: m.sentenceSignature,
      w: weight,
      otherHigherIsBetter: m.higherIsBetter,
      scale: 'given',
      bounds: combined.bounds,
      n: combined.n,
    });
    return { metric: COMBINED_PLUGIN.definition.name, signature, sentenceSignature: signature, corpus, instances: combined.values };
  } finally {
    await model.close();
  }
}
