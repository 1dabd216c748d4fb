import { readFileSync } from 'node:fs';
import { fetchDatasetEntry, datasetFilePath, getDataset, type DataOptions, type Dataset } from '@podium/datasets';
import { parseOptionsWith, type EmbeddedInstance, type EmbeddedText, type EmbeddingMetricPlugin, type EncoderIdentity, type TokenizedCorpus, type TokenizedText } from '@podium/metrics';
import type { Encoder } from './encoder';

/** What an embedding metric scores: `refs[i]` are instance i's references (any number). */
export interface EmbeddingScoreInput {
  readonly hyps: readonly string[];
  readonly refs: readonly (readonly string[])[];
  /** `sources[i]`: instance i's source, for metrics that compare with the source. */
  readonly sources?: readonly string[];
}

/** Time spent, in milliseconds: the tokenizer, onnxruntime's `run`, and the metric's own code. */
export interface EmbeddingTiming {
  tokenizeMs: number;
  encoderMs: number;
  metricMs: number;
  totalMs: number;
}

/** Scores of one embedding metric over a corpus. */
export interface EmbeddingScoreResult {
  readonly metric: string;
  readonly signature: string;
  /** Mean of the instance scores. */
  readonly corpus: number;
  readonly instances: number[];
  /** Named parts of each instance score (BERTScore's P, R, F1), one array per name. */
  readonly components: Record<string, number[]>;
  readonly higherIsBetter: boolean;
  readonly timing: EmbeddingTiming;
}

/** Options of {@link scoreEmbedding}. */
export interface ScoreEmbeddingOptions {
  /** Texts per onnxruntime run (default 32). */
  batchSize?: number;
  /** Instances embedded together before they are scored and their vectors dropped (default 256). */
  chunkSize?: number;
  /** Called with the number of instances scored so far and the total. */
  onProgress?: (done: number, total: number) => void;
}

/**
 * Reads the registry files a plugin asks for with these options (`hostFiles`, e.g. BERTScore's
 * baseline) and returns the options with each file's text in its option. The data set is
 * fetched into the cache (from PODIUM_DATA_MIRROR where set), only the files needed. The
 * options come back validated, defaults filled in.
 * @throws MetricOptionError for a bad option; Error naming the file when the registry has none for these options.
 */
export async function withHostFiles(plugin: EmbeddingMetricPlugin, options: Readonly<Record<string, unknown>>, encoder: EncoderIdentity, data: DataOptions = {}): Promise<Record<string, unknown>> {
  // Validated first: a bad option is named by the registry's message, not the plugin's parser.
  const out: Record<string, unknown> = parseOptionsWith(plugin.definition, options);
  const name = plugin.definition.name;
  for (const f of plugin.hostFiles?.(out, encoder) ?? []) {
    let d: Dataset;
    try {
      d = getDataset(f.dataset);
    } catch {
      throw new Error(`${name}: the data set registry has no ${f.what} (no data set ${f.dataset}; \`podium data list\` names those it has)`);
    }
    const spec = d.files.find((x) => x.path === f.path);
    if (!spec) throw new Error(`${name}: the data set registry has no ${f.what} (${f.dataset}: ${f.path})`);
    const licence = d.files.filter((x) => x.path === d.upstream.licenceFile);
    try {
      await fetchDatasetEntry({ ...d, files: [...licence, spec] }, data);
    } catch (err) {
      // Never a substitute: the metric is unavailable until the file is there.
      throw new Error(`${name}: ${f.what} is missing: ${f.path} of data set ${f.dataset} could not be fetched (${(err as Error).message.split('\n')[0] ?? ''}); fetch it with \`podium data fetch ${f.dataset}\` (PODIUM_DATA_MIRROR / --mirror for an offline copy)`);
    }
    const file = datasetFilePath(d, f.path, data);
    out[f.into] = f.encoding === 'base64' ? readFileSync(file).toString('base64') : readFileSync(file, 'utf8');
    if (f.nameInto !== undefined) out[f.nameInto] = `${f.dataset}: ${f.path}`;
  }
  return out;
}

/**
 * Scores any `embedding` plugin with an encoder, as every host does: options validated, the
 * layers the plugin asks for, the corpus tokenised once and `prepare`d, then instances
 * embedded chunk by chunk (each distinct text once per chunk, batched by length) and scored.
 * Registry files the options need must already be in `options` ({@link withHostFiles}).
 *
 * @example
 * const enc = await loadEncoder('models/test-encoder-tiny');
 * const r = await scoreEmbedding(BERTSCORE_PLUGIN, enc, { hyps: ['The cat sat.'], refs: [['A cat sat.']] }, {});
 * // r.signature = 'bertscore|model:test-encoder-tiny@c61e852f3935|L:2|idf:no|rescale:no|nrefs:1|refs:best|version:…'
 */
export async function scoreEmbedding(
  plugin: EmbeddingMetricPlugin,
  encoder: Encoder,
  input: EmbeddingScoreInput,
  rawOptions: Readonly<Record<string, unknown>>,
  options: ScoreEmbeddingOptions = {},
): Promise<EmbeddingScoreResult> {
  const t0 = performance.now();
  const enc0 = encoder.runtimeMs;
  const n = input.hyps.length;
  if (input.refs.length !== n) throw new Error(`${n} hypotheses but ${input.refs.length} reference lists`);
  if (input.sources !== undefined && input.sources.length !== n) throw new Error(`${n} hypotheses but ${input.sources.length} sources`);
  if (plugin.compares === 'source' && input.sources === undefined) throw new Error(`${plugin.definition.name} compares hypotheses with their sources; none were given`);
  if (plugin.compares === 'references' && input.refs.some((r) => r.length === 0)) throw new Error(`${plugin.definition.name} needs at least one reference per instance`);
  const opts = parseOptionsWith(plugin.definition, rawOptions);
  const identity = encoder.identity;
  const layers = plugin.layers(opts, identity);
  const metric = { ms: 0 };
  const timed = <T>(f: () => T): T => {
    const s = performance.now();
    try {
      return f();
    } finally {
      metric.ms += performance.now() - s;
    }
  };

  // Each distinct text is tokenised once.
  const tokCache = new Map<string, TokenizedText>();
  const tokenize = (text: string) => {
    let t = tokCache.get(text);
    if (t === undefined) tokCache.set(text, (t = encoder.tokenize(text)));
    return t;
  };
  const tk0 = performance.now();
  const corpus: TokenizedCorpus = {
    hyps: input.hyps.map(tokenize),
    refs: input.refs.map((r) => r.map(tokenize)),
    ...(input.sources ? { sources: input.sources.map(tokenize) } : {}),
  };
  const tokenizeMs = performance.now() - tk0;
  const state = timed(() => plugin.prepare(corpus, opts, identity));

  const scores: number[] = new Array<number>(n);
  const components: Record<string, number[]> = {};
  const chunk = options.chunkSize ?? 256;
  for (let lo = 0; lo < n; lo += chunk) {
    const hi = Math.min(n, lo + chunk);
    const texts = new Map<string, number>();
    const want = (t: string) => {
      if (!texts.has(t)) texts.set(t, texts.size);
    };
    for (let i = lo; i < hi; i++) {
      want(input.hyps[i] ?? '');
      if (plugin.compares === 'references') (input.refs[i] ?? []).forEach(want);
      if (input.sources) want(input.sources[i] ?? '');
    }
    const embedded = await encoder.embed([...texts.keys()].map(tokenize), layers, { batchSize: options.batchSize ?? 32 });
    const get = (t: string): EmbeddedText => embedded[texts.get(t) ?? -1] as EmbeddedText;
    for (let i = lo; i < hi; i++) {
      const instance: EmbeddedInstance = {
        hyp: get(input.hyps[i] ?? ''),
        refs: plugin.compares === 'references' ? (input.refs[i] ?? []).map(get) : [],
        ...(input.sources ? { source: get(input.sources[i] ?? '') } : {}),
      };
      const s = timed(() => plugin.scoreInstance(i, instance, state, opts, identity));
      if (!Number.isFinite(s.score)) throw new Error(`${plugin.definition.name} gave instance ${i} the score ${s.score}`);
      scores[i] = s.score;
      for (const [k, v] of Object.entries(s.components ?? {})) (components[k] ??= new Array<number>(n).fill(Number.NaN))[i] = v;
    }
    options.onProgress?.(hi, n);
  }
  const nrefs = Math.max(0, ...input.refs.map((r) => r.length));
  const signature = plugin.signature(opts, identity, nrefs);
  const corpusScore = scores.reduce((a, b) => a + b, 0) / Math.max(1, n);
  const totalMs = performance.now() - t0;
  return {
    metric: plugin.definition.name,
    signature,
    corpus: corpusScore,
    instances: scores,
    components,
    higherIsBetter: plugin.definition.higherIsBetter,
    timing: { tokenizeMs, encoderMs: encoder.runtimeMs - enc0, metricMs: metric.ms, totalMs },
  };
}
