import { existsSync, readFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import type * as Ort from 'onnxruntime-node';
import { labelIndex, type NliLabelIndex } from './labels';
import { defaultManifestPath, verifyModelDir } from './manifest';
import { type EncodedPair, PairTokenizer } from './pair-tokenizer';

// Required on first use, so that `podium` commands that load no model do not pay for the native
// runtime at start-up.
/** onnxruntime-node, required on first use (shared by every model host: NLI, text encoders). */
export const onnxRuntime = (): typeof Ort => require('onnxruntime-node') as typeof Ort;

/** Execution providers Podium asks onnxruntime for. */
export type ExecutionProvider = 'cpu' | 'cuda';

/** Options of {@link loadNliModel}. */
export interface LoadNliModelOptions {
  /** `cuda` tries CUDA and falls back to CPU (logged); default `cpu`. */
  provider?: ExecutionProvider;
  /** onnxruntime intra-op threads; default: onnxruntime's choice (all cores). */
  intraOpThreads?: number;
  /** Manifest to verify checksums against; default `manifest.json` in the model directory's parent. */
  manifestPath?: string;
  /** Receives one line per notable event (provider chosen, fallback); default: stderr. */
  log?: (message: string) => void;
}

/** A premise/hypothesis pair. */
export interface NliPair {
  premise: string;
  hypothesis: string;
}

/** Softmax probabilities of entailment, neutral and contradiction (they sum to 1). */
export interface NliProbs {
  e: number;
  n: number;
  c: number;
}

/** Options of {@link NliModel.predict}. */
export interface NliPredictOptions {
  /** Pairs per onnxruntime run (default 32). Results do not depend on it. */
  batchSize?: number;
  /** Called after each batch with pairs done and total. */
  onProgress?: (done: number, total: number) => void;
}

/** A loaded, verified NLI cross-encoder. */
export interface NliModel {
  /** Manifest name (the directory's name). */
  readonly name: string;
  /** sha256 (hex) of `model.onnx`, as verified at load. */
  readonly sha256: string;
  /** The provider actually in use (after any fallback). */
  readonly executionProvider: ExecutionProvider;
  /** Longest input in tokens, special tokens included. */
  readonly maxLength: number;
  /** Output index of each class, from `config.json` `id2label`. */
  readonly labels: NliLabelIndex;
  /** Sub-word token count of a text without special tokens (for chunking long premises). */
  countTokens(text: string): number;
  /** Tokens the pair template adds around premise and hypothesis. */
  readonly specialTokensPerPair: number;
  /** Probabilities for each pair, in input order. */
  predict(pairs: readonly NliPair[], options?: NliPredictOptions): Promise<NliProbs[]>;
  /** Releases the onnxruntime session. */
  close(): Promise<void>;
}

/** The fields of a Hugging Face `config.json` Podium reads. */
export interface ModelConfig {
  id2label?: Record<string, string>;
  num_hidden_layers?: number;
  hidden_size?: number;
  max_position_embeddings?: number;
  model_type?: string;
  pad_token_id?: number | null;
}

/** Parses a JSON file; the error names `what` and the path. */
export function readJson(path: string, what: string): unknown {
  try {
    return JSON.parse(readFileSync(path, 'utf8'));
  } catch (err) {
    throw new Error(`cannot read ${what} ${path}: ${(err as Error).message}`);
  }
}

/**
 * Longest input the model takes: tokenizer_config.json `model_max_length` when it is a real
 * number, else config.json `max_position_embeddings` (minus RoBERTa's 2 offset positions),
 * else 512.
 */
export function maxLengthOf(config: ModelConfig, tokenizerConfig: Record<string, unknown>): number {
  const fromTokenizer = tokenizerConfig['model_max_length'];
  if (typeof fromTokenizer === 'number' && fromTokenizer > 0 && fromTokenizer < 1e6) return fromTokenizer;
  const positions = config.max_position_embeddings;
  if (typeof positions === 'number' && positions > 0) {
    return config.model_type === 'roberta' || config.model_type === 'xlm-roberta' ? positions - 2 : positions;
  }
  return 512;
}

/** Softmax of one row of logits, in float64, max-shifted for stability. */
export function softmax(logits: ArrayLike<number>): number[] {
  const xs = Array.from(logits);
  const max = Math.max(-Infinity, ...xs);
  const exps = xs.map((x) => Math.exp(x - max));
  const sum = exps.reduce((a, b) => a + b, 0);
  return exps.map((x) => x / sum);
}

/**
 * An onnxruntime session on `provider`; `cuda` falls back to CPU when the provider cannot start
 * (logged with `label`). Shared by the NLI model and the text encoders (@podium/embeddings).
 */
export async function createSession(
  modelPath: string,
  provider: ExecutionProvider,
  intraOpThreads: number | undefined,
  log: (m: string) => void,
  label = 'nli',
): Promise<{ session: Ort.InferenceSession; used: ExecutionProvider }> {
  const base: Ort.InferenceSession.SessionOptions = { graphOptimizationLevel: 'all' };
  if (intraOpThreads !== undefined) base.intraOpNumThreads = intraOpThreads;
  if (provider === 'cuda') {
    try {
      // logSeverityLevel 4: onnxruntime would otherwise print its own error for a missing provider.
      const session = await onnxRuntime().InferenceSession.create(modelPath, { ...base, logSeverityLevel: 4, executionProviders: ['cuda'] });
      return { session, used: 'cuda' };
    } catch (err) {
      const why = (err instanceof Error ? err.message : String(err)).replace(/\n[\s\S]*$/, '');
      log(`${label}: CUDA execution provider unavailable (${why}); falling back to cpu`);
    }
  }
  const session = await onnxRuntime().InferenceSession.create(modelPath, { ...base, executionProviders: ['cpu'] });
  return { session, used: 'cpu' };
}

/**
 * Loads an NLI model directory (`model.onnx`, `tokenizer.json`, `config.json`) after
 * verifying each file's sha256 against the manifest (or its lock file). Refuses a model
 * whose `id2label` does not name entailment, neutral and contradiction.
 *
 * @example
 * const model = await loadNliModel('models/test-nli-tiny');
 * const [p] = await model.predict([{ premise: 'The cat sat.', hypothesis: 'The cat sat.' }]);
 * // p.e ≈ 0.926 (see models/README.md for the test model's closed form)
 * await model.close();
 */
export async function loadNliModel(dir: string, options: LoadNliModelOptions = {}): Promise<NliModel> {
  const log = options.log ?? ((m: string) => process.stderr.write(m + '\n'));
  const modelDir = resolve(dir);
  const name = basename(modelDir);
  for (const f of ['model.onnx', 'tokenizer.json', 'config.json']) {
    if (!existsSync(join(modelDir, f))) {
      throw new Error(`NLI model '${name}' is incomplete: ${join(modelDir, f)} is missing (fetch it with: npm run -s podium -- models fetch ${name})`);
    }
  }
  const config = readJson(join(modelDir, 'config.json'), 'model config') as ModelConfig;
  const labels = labelIndex(config.id2label);
  const verification = await verifyModelDir(modelDir, options.manifestPath ?? defaultManifestPath(modelDir));
  if (!verification.ok) throw new Error(`NLI model '${name}' failed verification: ${verification.problems.join('; ')}`);
  const tokenizerConfigPath = join(modelDir, 'tokenizer_config.json');
  const tokenizerConfig = existsSync(tokenizerConfigPath)
    ? (readJson(tokenizerConfigPath, 'tokenizer config') as Record<string, unknown>)
    : {};
  const maxLength = maxLengthOf(config, tokenizerConfig);
  const tokenizer = new PairTokenizer(
    readJson(join(modelDir, 'tokenizer.json'), 'tokenizer'),
    tokenizerConfig,
    maxLength,
    typeof config.pad_token_id === 'number' ? config.pad_token_id : undefined,
  );
  const { session, used } = await createSession(
    join(modelDir, 'model.onnx'),
    options.provider ?? 'cpu',
    options.intraOpThreads,
    log,
  );
  const modelSha256 = verification.sha256['model.onnx'];
  if (modelSha256 === undefined) throw new Error(`${modelDir}: model.onnx was not verified`);
  log(`nli: model ${name}@${modelSha256.slice(0, 12)} on ${used}`);
  return new OrtNliModel(name, modelSha256, used, maxLength, labels, tokenizer, session);
}

class OrtNliModel implements NliModel {
  private readonly inputs: Set<string>;
  private readonly output: string;

  constructor(
    readonly name: string,
    readonly sha256: string,
    readonly executionProvider: ExecutionProvider,
    readonly maxLength: number,
    readonly labels: NliLabelIndex,
    private readonly tokenizer: PairTokenizer,
    private readonly session: Ort.InferenceSession,
  ) {
    this.inputs = new Set(session.inputNames);
    for (const required of ['input_ids', 'attention_mask']) {
      if (!this.inputs.has(required)) throw new Error(`model.onnx has no '${required}' input (inputs: ${session.inputNames.join(', ')})`);
    }
    const output = session.outputNames.includes('logits') ? 'logits' : session.outputNames[0];
    if (output === undefined) throw new Error('model.onnx has no outputs');
    this.output = output;
  }

  get specialTokensPerPair(): number {
    return this.tokenizer.specialTokensPerPair;
  }

  countTokens(text: string): number {
    return this.tokenizer.tokenize(text).length;
  }

  async predict(pairs: readonly NliPair[], options: NliPredictOptions = {}): Promise<NliProbs[]> {
    const batchSize = options.batchSize ?? 32;
    if (!Number.isInteger(batchSize) || batchSize < 1) throw new Error(`batch size must be a positive integer, got ${batchSize}`);
    // Each text is tokenised once per call: with ↔ every text is both premise and hypothesis,
    // and a source or reference recurs across systems.
    const tokens = new Map<string, string[]>();
    const tokenize = (text: string) => {
      let t = tokens.get(text);
      if (t === undefined) tokens.set(text, (t = this.tokenizer.tokenize(text)));
      return t;
    };
    const encoded = pairs.map((p) => this.tokenizer.encodeTokens(tokenize(p.premise), tokenize(p.hypothesis)));
    // Sorting by length keeps padding small; outputs go back to input order.
    const order = encoded.map((pair, i) => ({ pair, i })).sort((a, b) => a.pair.ids.length - b.pair.ids.length || a.i - b.i);
    const out = new Array<NliProbs>(pairs.length);
    for (let start = 0; start < order.length; start += batchSize) {
      const batch = order.slice(start, start + batchSize);
      const probs = await this.run(batch.map((b) => b.pair));
      for (const [row, { i }] of batch.entries()) {
        const p = probs[row];
        if (p === undefined) throw new Error(`model.onnx returned ${probs.length} rows for a batch of ${batch.length}`);
        out[i] = p;
      }
      options.onProgress?.(Math.min(start + batchSize, order.length), order.length);
    }
    return out;
  }

  private async run(batch: EncodedPair[]): Promise<NliProbs[]> {
    const rows = batch.length;
    const width = Math.max(...batch.map((b) => b.ids.length));
    const ids = new BigInt64Array(rows * width).fill(BigInt(this.tokenizer.padId));
    const mask = new BigInt64Array(rows * width);
    const types = new BigInt64Array(rows * width);
    batch.forEach((b, r) => {
      b.ids.forEach((id, j) => {
        ids[r * width + j] = BigInt(id);
        mask[r * width + j] = 1n;
      });
      b.typeIds.forEach((t, j) => (types[r * width + j] = BigInt(t))); // as long as ids
    });
    const { Tensor } = onnxRuntime();
    const feeds: Record<string, Ort.Tensor> = {
      input_ids: new Tensor('int64', ids, [rows, width]),
      attention_mask: new Tensor('int64', mask, [rows, width]),
    };
    if (this.inputs.has('token_type_ids')) feeds['token_type_ids'] = new Tensor('int64', types, [rows, width]);
    const result = await this.session.run(feeds);
    const tensor = result[this.output];
    const classes = tensor?.dims.at(-1);
    if (tensor === undefined || classes === undefined) throw new Error(`model.onnx returned no '${this.output}' output`);
    const data = tensor.data as Float32Array;
    const label = (p: number[], index: number): number => {
      const v = p[index];
      if (v === undefined) throw new Error(`label index ${index} is outside the model's ${classes} classes`);
      return v;
    };
    const probs: NliProbs[] = [];
    for (let r = 0; r < rows; r++) {
      const p = softmax(data.subarray(r * classes, (r + 1) * classes));
      probs.push({ e: label(p, this.labels.entailment), n: label(p, this.labels.neutral), c: label(p, this.labels.contradiction) });
    }
    return probs;
  }

  async close(): Promise<void> {
    await this.session.release();
  }
}
