/**
 * The contract between a text encoder (a host's onnxruntime service, `@podium/embeddings`) and
 * the embedding metrics computed here from its vectors (BERTScore, MoverScore, XMoverScore,
 * DiscoScore). Pure data: the metrics never see a model, only what the encoder wrote, so a
 * reference implementation can recompute a score from the same vectors (`podium embed`).
 */
import type { MetricDefinition } from './plugin';

/** One text as an encoder saw it: its tokens and their hidden states at the requested layers. */
export interface EmbeddedText {
  /** The text that was encoded. */
  readonly text: string;
  /** Tokens as the tokenizer wrote them (word pieces, with `##` or `▁` as the model spells them). */
  readonly tokens: readonly string[];
  /** Token ids in the model's vocabulary. */
  readonly ids: readonly number[];
  /** True for the tokens the tokenizer added (`[CLS]`, `[SEP]`, `<s>`, `</s>`). */
  readonly special: readonly boolean[];
  /** Character offsets `[start, end)` of each token in `text` (`[0, 0]` for special tokens). */
  readonly offsets: readonly (readonly [number, number])[];
  /**
   * Hidden states: `layers[l][t]` is token t's vector at `layerIndices[l]`; every vector has the
   * encoder's hidden size.
   */
  readonly layers: readonly (readonly Float32Array[])[];
  /** The encoder layers `layers` holds, 0 being the embedding layer's output, as Hugging Face numbers `hidden_states`. */
  readonly layerIndices: readonly number[];
}

/** What a metric knows of the encoder that produced its vectors (it enters the signature). */
export interface EncoderIdentity {
  /** Model name as the manifest gives it, e.g. `roberta-large` or `test-encoder-tiny`. */
  readonly name: string;
  /** sha256 of the model file (hex); signatures carry its first 12 characters. */
  readonly sha256: string;
  /** Number of transformer layers (hidden_states has this many + 1 entries). */
  readonly numLayers: number;
  readonly hiddenSize: number;
}

/** A text's tokens without vectors: what corpus-level preparation (idf tables) needs. */
export type TokenizedText = Pick<EmbeddedText, 'text' | 'tokens' | 'ids' | 'special' | 'offsets'>;

/**
 * The whole corpus, tokenised but not embedded (vectors for every instance at once would not fit
 * in memory at 100,000 instances): what a metric may use before scoring instances (idf from the
 * references as BERTScore does, from hypotheses and references apart as MoverScore does).
 */
export interface TokenizedCorpus {
  readonly hyps: readonly TokenizedText[];
  /** `refs[i]` are the references of instance i (empty for reference-free metrics). */
  readonly refs: readonly (readonly TokenizedText[])[];
  /** `sources[i]` is instance i's source, present when the metric reads sources. */
  readonly sources?: readonly TokenizedText[];
}

/** One instance, embedded: what a metric scores. */
export interface EmbeddedInstance {
  readonly hyp: EmbeddedText;
  readonly refs: readonly EmbeddedText[];
  readonly source?: EmbeddedText;
  /**
   * Optional: the hypothesis's mean log-probability per token under a causal language model
   * (−mean NLL, e.g. GPT-2), for XMoverScore's target-side LM term; absent when no LM ran.
   */
  readonly hypLmLogProb?: number;
}

/** An instance's score and the parts a user may want beside it (BERTScore's P, R and F1). */
export interface EmbeddingInstanceScore {
  readonly score: number;
  readonly components?: Readonly<Record<string, number>>;
}

/**
 * A metric computed here from an encoder's vectors; the host (worker, CLI) runs the encoder.
 * The host: validates options with `definition.options`, asks `layers` which hidden states to
 * keep, tokenises the corpus and calls `prepare` once, then embeds instances in batches and
 * calls `scoreInstance` for each. The corpus score is the mean of the instance scores.
 */
export interface EmbeddingMetricPlugin<N extends string = string, S = unknown> {
  readonly capability: 'embedding';
  readonly definition: MetricDefinition<N>;
  /** In words, e.g. `a text encoder (BERT-family ONNX model)`: the error when a host has none says it. */
  readonly requirement: string;
  /** What the hypothesis is compared with: the references, or the source (reference-free). */
  readonly compares: 'references' | 'source';
  /** The hidden-state indices to keep (0 = embedding output … numLayers = last layer). */
  layers(options: Readonly<Record<string, unknown>>, encoder: EncoderIdentity): number[];
  /** Corpus-level state, e.g. idf tables; only token ids and texts, never vectors. */
  prepare(corpus: TokenizedCorpus, options: Readonly<Record<string, unknown>>, encoder: EncoderIdentity): S;
  /** Instance `index` of the prepared corpus. */
  scoreInstance(index: number, instance: EmbeddedInstance, state: S, options: Readonly<Record<string, unknown>>, encoder: EncoderIdentity): EmbeddingInstanceScore;
  /** The score signature (model name, sha256 prefix, layers and every option that changes a score). */
  signature(options: Readonly<Record<string, unknown>>, encoder: EncoderIdentity, nrefs: number): string;
  /**
   * Files of the datasets registry the metric reads with these options (BERTScore's baseline
   * table when rescaling): the host fetches each and puts its text into option `into` before
   * `layers`/`prepare`, so the plugin stays free of I/O. Absent or empty: none. (Added for #24.)
   */
  hostFiles?(options: Readonly<Record<string, unknown>>, encoder: EncoderIdentity): readonly EmbeddingHostFile[];
  /** Reference vectors on hand-made embeddings, checked by the shared conformance test. (Added for #24.) */
  readonly conformance?: readonly EmbeddingConformanceCase[];
}

/** A file a host reads from the datasets registry for an embedding metric ({@link EmbeddingMetricPlugin.hostFiles}). */
export interface EmbeddingHostFile {
  /** Data set name in the registry, e.g. `bertscore-baselines`. */
  readonly dataset: string;
  /** Path of the file inside the data set (as the registry lists it). */
  readonly path: string;
  /** Option that receives the file's text. */
  readonly into: string;
  /** What the file is, for the error when the registry has no such file. */
  readonly what: string;
  /** How the host puts the file's bytes into the option: as UTF-8 text (the default) or base64 (binary files, e.g. `.npy`). */
  readonly encoding?: 'utf8' | 'base64';
  /** Option that receives the file's name (registry data set and path), for the plugin's errors. */
  readonly nameInto?: string;
}

/** A reference vector of an embedding metric: hand-made vectors in, expected instance scores out. */
export interface EmbeddingConformanceCase {
  readonly encoder: EncoderIdentity;
  readonly instances: readonly EmbeddedInstance[];
  readonly options?: Readonly<Record<string, unknown>>;
  /** Expected instance scores, in order. */
  readonly scores: readonly number[];
  readonly tolerance: number;
  /** Where the expected values come from (worked by hand, a reference implementation). */
  readonly source: string;
}

/** The text-only part of embedded instances: the corpus `prepare` sees. */
export function tokenizedCorpusOf(instances: readonly EmbeddedInstance[]): TokenizedCorpus {
  const strip = (t: EmbeddedText): TokenizedText => ({ text: t.text, tokens: t.tokens, ids: t.ids, special: t.special, offsets: t.offsets });
  const hasSources = instances.length > 0 && instances.every((i) => i.source !== undefined);
  return {
    hyps: instances.map((i) => strip(i.hyp)),
    refs: instances.map((i) => i.refs.map(strip)),
    ...(hasSources ? { sources: instances.map((i) => strip(i.source as EmbeddedText)) } : {}),
  };
}
