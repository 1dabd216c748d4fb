/**
 * The embedding branch of `podium score`: any metric of capability `embedding` (BERTScore, and
 * MoverScore etc. once registered). score.command.ts dispatches here; this module loads
 * onnxruntime only when used.
 */
import { createReadStream, readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { join, resolve } from 'node:path';
import { encoderAvailability, loadEncoder, scoreEmbedding, withHostFiles } from '@podium/embeddings';
import { isEmbeddingPlugin, metricPlugins, nounLemmas, optionNames, parseOptionsWith, requireMetricPlugin, type EmbeddingMetricPlugin } from '@podium/metrics';
import { CliError } from '../cli-error';
import { parseFlags } from '../flags';
import { readLines } from '../io';
import { cliDataOptions } from './data-options';
import { defaultModelsDir } from './models.command';

/** The encoder service, for `podium embed` (which loads this module lazily). */
export { embeddedTextToJson, encoderAvailability, loadEncoder } from '@podium/embeddings';

/** Names of the registered embedding metrics. */
export function embeddingMetricNames(): string[] {
  return metricPlugins().filter(isEmbeddingPlugin).map((p) => p.definition.name);
}

/** Usage text of the embedding metrics of `podium score`. */
export const EMBEDDING_SCORE_USAGE = `Embedding metrics (${embeddingMetricNames().join(', ')}), from a text encoder's hidden states:
  podium score --metric bertscore --model DIR --hyp FILE --ref FILE [--ref FILE…] [options]

  --model DIR         encoder folder (model.onnx with outputs hidden_states.0…N, tokenizer.json,
                      config.json), checked against models/manifest.json; a bare name is looked up
                      in models/ (PODIUM_MODELS_DIR); default models/test-encoder-tiny
  --src FILE          sources (metrics that compare with the source)
  --layer L           hidden state to use (0 = embeddings; default: the metric's per-model default)
  --idf               idf weights from the references (BERTScore)
  --rescale           rescale with bert_score's published baseline for --lang and the model
                      (fetched through the data set registry: PODIUM_DATA_MIRROR / --mirror)
  --lang L            language of the texts (default en)
  --mapping M         XMoverScore's remapping of the source: none | CLP | UMD
  --lang-pair S-T     XMoverScore: use the authors' published CLP/UMD mapping for S-T (e.g.
                      de-en, hidden state 8 of bert-base-multilingual-cased), fetched through the
                      data set registry (\`podium data fetch xmoverscore-mappings\`)
  --mapping-file F    XMoverScore: a CLP matrix / UMD vector of your own (.npy, or numpy text as
                      np.savetxt writes it), e.g. from fitting on a parallel corpus
  --focus NN|Entity   DiscoScore DS-Focus: nouns (default) or semantic entities
  --word-vectors F    DS-Focus Entity: static word vectors, word2vec text format (the paper:
                      Dep2Vec, deps.words); only the rows of the texts' nouns are read
  --options JSON      any other metric option, e.g. '{"idf":true}'
  --batch-size N      texts per onnxruntime run (default 32; scores do not depend on it)
  --provider P        cpu | cuda (cuda falls back to cpu)
  --threads N         onnxruntime intra-op threads
Prints {"metric","signature","sentenceSignature","corpus","instances","components"}; BERTScore's
instance scores are F1, its components P, R and F1 (as bert_score reports them).`;

function positiveInt(value: string | undefined, flag: string): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new CliError(`${flag} must be a positive integer; got '${value}'`);
  return n;
}

/** A model argument: a folder path, or a bare name under the models folder. */
export function modelDirOf(model: string | undefined): string {
  const m = model ?? 'test-encoder-tiny';
  return m.includes('/') || m.startsWith('.') ? resolve(m) : join(defaultModelsDir(), m);
}

/** Runs `podium score --metric <embedding metric> …`; returns the JSON printed on stdout. */
export async function runEmbeddingScore(argv: string[]): Promise<unknown> {
  const values = parseFlags(argv, {
    metric: { type: 'string' },
    model: { type: 'string' },
    hyp: { type: 'string' },
    ref: { type: 'string', multiple: true },
    src: { type: 'string' },
    layer: { type: 'string' },
    idf: { type: 'boolean' },
    rescale: { type: 'boolean' },
    lang: { type: 'string' },
    options: { type: 'string' },
    'batch-size': { type: 'string' },
    provider: { type: 'string' },
    threads: { type: 'string' },
    mirror: { type: 'string' },
    cache: { type: 'string' },
    mapping: { type: 'string' },
    'mapping-file': { type: 'string' },
    'lang-pair': { type: 'string' },
    focus: { type: 'string' },
    'word-vectors': { type: 'string' },
  });
  const plugin = requireMetricPlugin(values.metric ?? '');
  if (!isEmbeddingPlugin(plugin)) throw new CliError(`--metric ${values.metric ?? ''} is not an embedding metric (${embeddingMetricNames().join(', ')})`);
  if (values.hyp === undefined) throw new CliError('--hyp FILE is required');
  const hyps = readLines(values.hyp, 'hypothesis file');
  const refStreams = (values.ref ?? []).map((f) => readLines(f, 'reference file'));
  const sources = values.src === undefined ? undefined : readLines(values.src, 'source file');
  if (plugin.compares === 'references' && refStreams.length === 0) throw new CliError('at least one --ref FILE is required');
  if (plugin.compares === 'source' && sources === undefined) throw new CliError(`${plugin.definition.name} compares with the source: --src FILE is required`);
  for (const [k, s] of [...refStreams, ...(sources ? [sources] : [])].entries()) {
    if (s.length !== hyps.length) throw new CliError(`input ${k + 1} has ${s.length} lines, the hypotheses ${hyps.length}`);
  }
  const options = metricOptions(plugin, values);
  const wordVectorsFile = values['word-vectors'];
  if (wordVectorsFile !== undefined) {
    if (!optionNames(plugin.definition).includes('wordVectors')) throw new CliError(`--word-vectors does not apply to ${plugin.definition.name}`);
    options['wordVectors'] = await readWordVectors(wordVectorsFile, nounLemmas([...hyps, ...refStreams.flat()]));
  }
  try {
    parseOptionsWith(plugin.definition, options); // before loading a model: a bad option fails fast
  } catch (err) {
    throw new CliError((err as Error).message);
  }
  const provider = values.provider;
  if (provider !== undefined && provider !== 'cpu' && provider !== 'cuda') throw new CliError(`--provider must be cpu or cuda; got '${provider}'`);
  const dir = modelDirOf(values.model ?? (typeof options['model'] === 'string' ? options['model'] : undefined));
  const availability = encoderAvailability(dir);
  if (!availability.available) throw new CliError(`${plugin.definition.name} is unavailable: ${availability.reason ?? 'no encoder'}`);
  const encoder = await loadEncoder(dir, {
    provider: provider ?? 'cpu',
    intraOpThreads: positiveInt(values.threads, '--threads'),
    manifestPath: join(dir, '..', 'manifest.json'),
    log: (m) => process.stderr.write(`podium score: ${m}\n`),
  });
  try {
    const { model: _model, ...rest } = options;
    const withFiles = await withHostFiles(plugin, rest, encoder.identity, cliDataOptions({ mirror: values.mirror, cache: values.cache }));
    const r = await scoreEmbedding(
      plugin,
      encoder,
      { hyps, refs: hyps.map((_, i) => refStreams.map((s) => s[i] ?? '')), ...(sources ? { sources } : {}) },
      withFiles,
      { batchSize: positiveInt(values['batch-size'], '--batch-size') },
    );
    return { metric: r.metric, signature: r.signature, sentenceSignature: r.signature, corpus: r.corpus, instances: r.instances, components: r.components };
  } catch (err) {
    if (err instanceof CliError) throw err;
    throw new CliError((err as Error).message);
  } finally {
    await encoder.close();
  }
}

function metricOptions(
  plugin: EmbeddingMetricPlugin,
  values: { layer?: string; idf?: boolean; rescale?: boolean; lang?: string; options?: string; mapping?: string; 'mapping-file'?: string; 'lang-pair'?: string; focus?: string },
): Record<string, unknown> {
  let extra: Record<string, unknown> = {};
  if (values.options !== undefined) {
    try {
      const parsed = JSON.parse(values.options) as unknown;
      if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new Error('not an object');
      extra = parsed as Record<string, unknown>;
    } catch (err) {
      throw new CliError(`--options must be a JSON object: ${(err as Error).message}`);
    }
  }
  const known = new Set(optionNames(plugin.definition));
  /** Sets option `name` from flag `--${typed}` (named in the message as the user types it). */
  const flag = (name: string, value: unknown, typed: string = name) => {
    if (value === undefined) return;
    if (!known.has(name)) throw new CliError(`--${typed} does not apply to ${plugin.definition.name}`);
    extra[name] = value;
  };
  flag('layer', values.layer === undefined ? undefined : Number(values.layer));
  flag('idf', values.idf);
  flag('rescale', values.rescale);
  flag('lang', values.lang);
  flag('mapping', values.mapping);
  flag('languagePair', values['lang-pair'], 'lang-pair');
  flag('focus', values.focus);
  const mappingFile = values['mapping-file'];
  if (mappingFile !== undefined) {
    if (!known.has('mappingFile')) throw new CliError(`--mapping-file does not apply to ${plugin.definition.name}`);
    let bytes: Buffer;
    try {
      bytes = readFileSync(mappingFile);
    } catch (err) {
      throw new CliError(`--mapping-file ${mappingFile}: ${(err as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (err as Error).message}`);
    }
    extra['mappingFile'] = bytes.toString('base64');
    extra['mappingFileName'] = mappingFile;
  }
  return extra;
}

/**
 * The rows of a word2vec text file (`word v1 … vd` per line, an optional `count dim` header;
 * Dep2Vec's deps.words has this shape) for the words in `wanted`, read as a stream: the file
 * may hold hundreds of thousands of words, DiscoScore's Entity foci need only the texts' nouns.
 */
export async function readWordVectors(file: string, wanted: ReadonlySet<string>): Promise<Record<string, number[]>> {
  const out: Record<string, number[]> = {};
  let dim: number | undefined;
  let lineNo = 0;
  try {
    const lines = createInterface({ input: createReadStream(file, { encoding: 'utf8' }), crlfDelay: Infinity });
    for await (const line of lines) {
      lineNo++;
      const sp = line.indexOf(' ');
      if (sp <= 0) continue;
      const word = line.slice(0, sp);
      if (lineNo === 1 && /^\d+ \d+\s*$/.test(line)) continue; // the word2vec header
      if (!wanted.has(word) || Object.hasOwn(out, word)) continue;
      const v = line.slice(sp + 1).trim().split(/\s+/).map(Number);
      if (v.some((x) => !Number.isFinite(x))) throw new CliError(`--word-vectors ${file} line ${lineNo}: not a row of numbers after the word`);
      if (dim !== undefined && v.length !== dim) throw new CliError(`--word-vectors ${file} line ${lineNo}: ${v.length} numbers, earlier rows ${dim}`);
      dim = v.length;
      out[word] = v;
    }
  } catch (err) {
    if (err instanceof CliError) throw err;
    throw new CliError(`--word-vectors ${file}: ${(err as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (err as Error).message}`);
  }
  return out;
}

/** An embedding metric ready to score line-aligned texts with a loaded encoder (robustness, report cards). */
export interface CliEmbeddingScorer {
  /** `refs[i]`: instance i's references (or its anchor). */
  score(hyps: readonly string[], refs: readonly (readonly string[])[]): Promise<{ instances: number[]; corpus: number; signature: string; higherIsBetter: boolean }>;
  close(): Promise<void>;
}

/** Loads the encoder of `--model` (default test-encoder-tiny) for embedding metric `metric` with its default options. */
export async function cliEmbeddingScorer(metric: string, model: string | undefined): Promise<CliEmbeddingScorer> {
  const plugin = requireMetricPlugin(metric);
  if (!isEmbeddingPlugin(plugin)) throw new CliError(`${metric} is not an embedding metric`);
  const dir = modelDirOf(model);
  const availability = encoderAvailability(dir);
  if (!availability.available) throw new CliError(`${metric} is unavailable: ${availability.reason ?? 'no encoder'}`);
  const encoder = await loadEncoder(dir, { manifestPath: join(dir, '..', 'manifest.json'), log: () => undefined });
  const options = await withHostFiles(plugin, {}, encoder.identity, cliDataOptions());
  return {
    async score(hyps, refs) {
      const r = await scoreEmbedding(plugin, encoder, { hyps, refs }, options);
      return { instances: r.instances, corpus: r.corpus, signature: r.signature, higherIsBetter: r.higherIsBetter };
    },
    close: () => encoder.close(),
  };
}
