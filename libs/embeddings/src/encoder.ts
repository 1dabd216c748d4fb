import { existsSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import type * as Ort from 'onnxruntime-node';
import type { EmbeddedText, EncoderIdentity, TokenizedText } from '@podium/metrics';
import { createSession, defaultManifestPath, fetchCommand, maxLengthOf, onnxRuntime, readJson, verifyModelDir, type ExecutionProvider, type ModelConfig } from '@podium/nli';
import { TextTokenizer } from './text-tokenizer';

/** Options of {@link loadEncoder}. */
export interface LoadEncoderOptions {
  /** `cuda` tries CUDA and falls back to CPU (logged); default `cpu`. */
  provider?: ExecutionProvider;
  /** onnxruntime intra-op threads; default: onnxruntime's choice (all cores). */
  intraOpThreads?: number;
  /** Manifest to verify checksums against; default `manifest.json` in the model directory's parent. */
  manifestPath?: string;
  /** Receives one line per notable event (provider chosen, fallback); default: stderr. */
  log?: (message: string) => void;
}

/** Options of {@link Encoder.embed}. */
export interface EmbedOptions {
  /** Texts per onnxruntime run (default 32); texts are sorted by length first. Results do not depend on it. */
  batchSize?: number;
  /** Called after each batch with texts done and total. */
  onProgress?: (done: number, total: number) => void;
}

/** A loaded, verified text encoder: its tokenizer and its hidden states. */
export interface Encoder {
  /** Name (the directory's), sha256 of model.onnx, layers and hidden size: what signatures name. */
  readonly identity: EncoderIdentity;
  /** The provider actually in use (after any fallback). */
  readonly executionProvider: ExecutionProvider;
  /** Longest input in tokens, special tokens included (longer texts are truncated, as bert_score). */
  readonly maxLength: number;
  /** Tokens, ids, special flags and offsets of a text. */
  tokenize(text: string): TokenizedText;
  /** Hidden states `layers` (0 = embedding output … numLayers) of each text, in input order. */
  embed(texts: readonly (string | TokenizedText)[], layers: readonly number[], options?: EmbedOptions): Promise<EmbeddedText[]>;
  /** Milliseconds spent inside onnxruntime's `run` since load (for benchmarks). */
  readonly runtimeMs: number;
  /** Releases the onnxruntime session. */
  close(): Promise<void>;
}

/** Name of the ONNX output holding hidden state `i`. */
export function hiddenStateOutput(i: number): string {
  return `hidden_states.${i}`;
}

/**
 * Loads a text encoder directory (`model.onnx` whose outputs are `hidden_states.0` …
 * `hidden_states.N`, `tokenizer.json`, `config.json` with `num_hidden_layers` and
 * `hidden_size`) after verifying each file's sha256 against the manifest (or its lock file).
 *
 * @example
 * const enc = await loadEncoder('models/test-encoder-tiny');
 * const [t] = await enc.embed(['The cat sat.'], [2]);
 * // t.tokens = ['[CLS]', 'the', 'cat', 'sat', '.', '[SEP]'], t.layers[0][1].length = 16
 * await enc.close();
 */
export async function loadEncoder(dir: string, options: LoadEncoderOptions = {}): Promise<Encoder> {
  const log = options.log ?? ((m: string) => process.stderr.write(m + '\n'));
  const modelDir = resolve(dir);
  const name = basename(modelDir);
  for (const f of ['model.onnx', 'tokenizer.json', 'config.json']) {
    if (!existsSync(join(modelDir, f))) throw new Error(`text encoder '${name}' is incomplete: ${join(modelDir, f)} is missing (fetch it with: ${fetchCommand(name)})`);
  }
  const config = readJson(join(modelDir, 'config.json'), 'model config') as ModelConfig;
  const numLayers = config.num_hidden_layers;
  const hiddenSize = config.hidden_size;
  if (typeof numLayers !== 'number' || typeof hiddenSize !== 'number') throw new Error(`text encoder '${name}': config.json lacks num_hidden_layers or hidden_size`);
  const verification = await verifyModelDir(modelDir, options.manifestPath ?? defaultManifestPath(modelDir));
  if (!verification.ok) throw new Error(`text encoder '${name}' failed verification: ${verification.problems.join('; ')}`);
  const tokenizerConfigPath = join(modelDir, 'tokenizer_config.json');
  const tokenizerConfig = existsSync(tokenizerConfigPath) ? (readJson(tokenizerConfigPath, 'tokenizer config') as Record<string, unknown>) : {};
  const maxLength = maxLengthOf(config, tokenizerConfig);
  const tokenizer = new TextTokenizer(readJson(join(modelDir, 'tokenizer.json'), 'tokenizer'), tokenizerConfig, maxLength, typeof config.pad_token_id === 'number' ? config.pad_token_id : undefined);
  const { session, used } = await createSession(join(modelDir, 'model.onnx'), options.provider ?? 'cpu', options.intraOpThreads, log, 'embeddings');
  const sha256 = verification.sha256['model.onnx'];
  if (sha256 === undefined) throw new Error(`${modelDir}: model.onnx was not verified`);
  log(`embeddings: encoder ${name}@${sha256.slice(0, 12)} (${numLayers} layers, hidden ${hiddenSize}) on ${used}`);
  return new OrtEncoder({ name, sha256, numLayers, hiddenSize }, used, maxLength, tokenizer, session);
}

class OrtEncoder implements Encoder {
  private readonly hasTypeIds: boolean;
  runtimeMs = 0;

  constructor(
    readonly identity: EncoderIdentity,
    readonly executionProvider: ExecutionProvider,
    readonly maxLength: number,
    private readonly tokenizer: TextTokenizer,
    private readonly session: Ort.InferenceSession,
  ) {
    for (const required of ['input_ids', 'attention_mask']) {
      if (!session.inputNames.includes(required)) throw new Error(`model.onnx has no '${required}' input (inputs: ${session.inputNames.join(', ')})`);
    }
    this.hasTypeIds = session.inputNames.includes('token_type_ids');
    const missing = Array.from({ length: identity.numLayers + 1 }, (_, i) => hiddenStateOutput(i)).filter((o) => !session.outputNames.includes(o));
    if (missing.length > 0) throw new Error(`model.onnx of '${identity.name}' does not output every hidden state: ${missing.join(', ')} missing (outputs: ${session.outputNames.join(', ')})`);
  }

  tokenize(text: string): TokenizedText {
    return this.tokenizer.encode(text);
  }

  async embed(texts: readonly (string | TokenizedText)[], layers: readonly number[], options: EmbedOptions = {}): Promise<EmbeddedText[]> {
    const batchSize = options.batchSize ?? 32;
    if (!Number.isInteger(batchSize) || batchSize < 1) throw new Error(`batch size must be a positive integer, got ${batchSize}`);
    for (const l of layers) {
      if (!Number.isInteger(l) || l < 0 || l > this.identity.numLayers) throw new RangeError(`layer ${l} is outside 0…${this.identity.numLayers} of '${this.identity.name}'`);
    }
    const tokenized = texts.map((t) => (typeof t === 'string' ? this.tokenize(t) : t));
    // Sorting by length keeps padding small; outputs go back to input order.
    const order = tokenized.map((t, i) => ({ t, i })).sort((a, b) => a.t.ids.length - b.t.ids.length || a.i - b.i);
    const out = new Array<EmbeddedText>(tokenized.length);
    for (let start = 0; start < order.length; start += batchSize) {
      const batch = order.slice(start, start + batchSize);
      const states = await this.run(batch.map((b) => b.t), layers);
      batch.forEach(({ t, i }, row) => {
        out[i] = { ...t, layers: layers.map((_, l) => states[l]?.[row] ?? []), layerIndices: [...layers] };
      });
      options.onProgress?.(Math.min(start + batchSize, order.length), order.length);
    }
    return out;
  }

  /** `result[l][row][token]`: vectors of each requested layer for each text of the batch. */
  private async run(batch: readonly TokenizedText[], layers: readonly number[]): Promise<Float32Array[][][]> {
    const rows = batch.length;
    const width = Math.max(...batch.map((b) => b.ids.length));
    const ids = new BigInt64Array(rows * width).fill(BigInt(this.tokenizer.padId));
    const mask = new BigInt64Array(rows * width);
    batch.forEach((b, r) => {
      b.ids.forEach((id, j) => {
        ids[r * width + j] = BigInt(id);
        mask[r * width + j] = 1n;
      });
    });
    const { Tensor } = onnxRuntime();
    const feeds: Record<string, Ort.Tensor> = { input_ids: new Tensor('int64', ids, [rows, width]), attention_mask: new Tensor('int64', mask, [rows, width]) };
    if (this.hasTypeIds) feeds['token_type_ids'] = new Tensor('int64', new BigInt64Array(rows * width), [rows, width]);
    const names = [...new Set(layers.map(hiddenStateOutput))];
    const t0 = performance.now();
    const result = await this.session.run(feeds, names);
    this.runtimeMs += performance.now() - t0;
    const H = this.identity.hiddenSize;
    return layers.map((l) => {
      const tensor = result[hiddenStateOutput(l)];
      if (tensor?.dims.length !== 3 || tensor.dims[2] !== H) throw new Error(`model.onnx output ${hiddenStateOutput(l)} is not [batch, seq, ${H}]`);
      const data = tensor.data as Float32Array;
      return batch.map((b, r) => b.ids.map((_, t) => data.slice((r * width + t) * H, (r * width + t + 1) * H)));
    });
  }

  async close(): Promise<void> {
    await this.session.release();
  }
}
