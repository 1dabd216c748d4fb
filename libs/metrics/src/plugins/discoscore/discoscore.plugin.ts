/**
 * DiscoScore (Zhao, Strube & Eger 2023), with nouns as foci (NN), on the encoder's last hidden
 * state, as the authors' code (AIPHES/DiscoScore `disco_score/metrics/discourse.py`):
 *
 * - **DS-Focus** (T:1406–1415): token vectors L2-normalised (+1e-30); a focus's embedding is the
 *   sum of the vectors of its occurrences (F = AZ; one occurrence = the noun's last word piece);
 *   over the foci hypothesis and reference share, Σ ‖F^hyp − F^ref‖² (squared, as the code; `l2`
 *   for the paper's plain norm) divided by the number of hypothesis foci (+1e-9); 0 when no
 *   focus is shared (the code's choice). A distance: lower is better.
 * - **DS-SENT** (T:1423–1434): a sentence's embedding is the mean of its tokens' vectors (the
 *   leading `[CLS]` counts in the first sentence, trailing special tokens in none); Ŝ = (A + I)S
 *   with A the sentence graph (`U`: 1/(j − i), the code's; `W`: shared foci/(j − i)); rows
 *   L2-normalised; the cosine of the concatenated [min, mean, max, sum] over rows, or, when the
 *   reference has one sentence, the mean cosine of its row with each hypothesis row (the code's
 *   branch). A similarity: higher is better.
 * - several references: the mean (the code).
 *
 * Differences from the code, by design: foci and sentences come from wink-nlp (the code uses
 * UDPipe and NLTK), every NOUN/PROPN token is an occurrence of the focus keyed by its lower-cased
 * lemma (the code compares whitespace-split words with noun lemmas, which misses plurals and
 * nouns followed by punctuation), and the host's tokenisation is used as is (the code encodes
 * whitespace words without `[SEP]`).
 *
 * DS-Focus also takes Entity foci (`focus: Entity`, the paper's semantic entities): nouns whose
 * word vectors (`wordVectors`, Dep2Vec in the paper; the host loads the nouns' rows from a file
 * the user gives) have cosine > `threshold` (0.8, the paper's for DS-Focus) are joined into one
 * focus per connected component, as the authors' `focus_diff.data_process` ({@link entityFocusGraph}).
 * DS-SENT keeps NN foci only.
 */
import { z } from 'zod';
import type { EmbeddedInstance, EmbeddedText, EmbeddingMetricPlugin, EncoderIdentity } from '../../embedding';
import { PODIUM_METRICS_VERSION } from '../../version';
import { aggregate, dot, embeddingDefinition, encoderField, fingerprint, layerPosition, normalised, poolRows, squaredDistance, toFloat64 } from '../embedding-common/common';
import { DS_FOCUS_CONFORMANCE, DS_SENT_CONFORMANCE } from './conformance-cases';
import { entityFocusGraph, focusGraph, sentenceGraph, tagText, type TaggedWord } from './foci';

export const dsFocusOptionsSchema = z
  .strictObject({
    norm: z.enum(['squared', 'l2']).default('squared'),
    /** `NN`: every noun lemma is a focus; `Entity`: nouns joined by word-vector similarity (semantic entities). */
    focus: z.enum(['NN', 'Entity']).default('NN'),
    /** Entity: cosine above which two nouns are one entity (the paper: 0.8 for DS-Focus). */
    threshold: z.number().min(-1).max(1).default(0.8),
    /** Entity: static word vectors by lower-cased word (Dep2Vec in the paper); only the nouns of the texts are needed. */
    wordVectors: z.record(z.string(), z.array(z.number()).min(1)).optional(),
  })
  .refine((o) => o.focus !== 'Entity' || o.wordVectors !== undefined, {
    message: 'focus Entity needs `wordVectors` (word → vector; `podium score --word-vectors FILE` reads them from a word2vec text file such as Dep2Vec\'s deps.words)',
    path: ['wordVectors'],
  });
export const dsSentOptionsSchema = z.strictObject({
  graph: z.enum(['U', 'W']).default('U'),
});
export type DsFocusOptions = z.infer<typeof dsFocusOptionsSchema>;
export type DsSentOptions = z.infer<typeof dsSentOptionsSchema>;

/** Word count and FNV-1a over the sorted words and their numbers: the word vectors' identity in a signature. */
export function wordVectorsFingerprint(vectors: Readonly<Record<string, readonly number[]>>): string {
  const words = Object.keys(vectors).sort();
  return `${words.length}:${fingerprint(words.map((w) => `${w} ${(vectors[w] as readonly number[]).join(' ')}`).join('\n'))}`;
}

const TAG_CACHE_LIMIT = 2000;
const tagCache = new Map<string, TaggedWord[]>();
/** Tags a text once (references recur across a task's submissions). */
function tagged(text: string): TaggedWord[] {
  let w = tagCache.get(text);
  if (!w) {
    w = tagText(text);
    if (tagCache.size >= TAG_CACHE_LIMIT) tagCache.delete(tagCache.keys().next().value as string);
    tagCache.set(text, w);
  }
  return w;
}

function lastLayer(t: EmbeddedText, encoder: EncoderIdentity): Float64Array[] {
  const p = layerPosition(t.layerIndices, encoder.numLayers, 'discoscore');
  return (t.layers[p] as readonly Float32Array[]).map((v) => toFloat64(v));
}

/** Focus embeddings F = AZ of a text (normalised token vectors summed per focus; Entity foci with `entities`). */
export function focusEmbeddings(t: EmbeddedText, encoder: EncoderIdentity, entities?: Pick<DsFocusOptions, 'threshold' | 'wordVectors'>): Map<string, Float64Array> {
  const z = lastLayer(t, encoder).map((v) => normalised(v, 1e-30));
  const nn = focusGraph(t, tagged(t.text));
  const vectors = entities?.wordVectors;
  const { foci, positions } = entities && vectors ? entityFocusGraph(nn, (w) => (Object.hasOwn(vectors, w) ? vectors[w] : undefined), entities.threshold) : nn;
  const out = new Map<string, Float64Array>();
  foci.forEach((f, i) => {
    const sum = new Float64Array(z.length > 0 ? (z[0] as Float64Array).length : encoder.hiddenSize);
    for (const u of positions[i] as number[]) {
      const v = z[u] as Float64Array;
      for (let d = 0; d < sum.length; d++) sum[d] = (sum[d] as number) + (v[d] as number);
    }
    out.set(f, sum);
  });
  return out;
}

/** DS-Focus of a hypothesis against one reference. */
export function dsFocusPair(hyp: EmbeddedText, ref: EmbeddedText, o: DsFocusOptions, encoder: EncoderIdentity): number {
  const entities = o.focus === 'Entity' ? o : undefined;
  const h = focusEmbeddings(hyp, encoder, entities);
  const r = focusEmbeddings(ref, encoder, entities);
  let sum = 0;
  let shared = 0;
  for (const [f, fh] of h) {
    const fr = r.get(f);
    if (!fr) continue;
    shared++;
    const d2 = squaredDistance(fh, fr);
    sum += o.norm === 'squared' ? d2 : Math.sqrt(d2);
  }
  if (shared === 0) return 0;
  return sum / (h.size + 1e-9);
}

/** Sentence index of each encoder token (−1: in none), and the number of sentences. */
export function tokenSentences(t: EmbeddedText, words: readonly TaggedWord[]): { sentenceOf: number[]; count: number } {
  const count = Math.max(1, words.reduce((m, w) => Math.max(m, w.sentence + 1), 0));
  const starts = new Array<number>(count).fill(Infinity);
  for (const w of words) starts[w.sentence] = Math.min(starts[w.sentence] as number, w.start);
  starts[0] = 0;
  const firstContent = t.special.findIndex((s) => !s);
  const sentenceOf = t.tokens.map((_, k) => {
    if (t.special[k]) return firstContent < 0 || k < firstContent ? 0 : -1;
    const start = (t.offsets[k] as readonly [number, number])[0];
    let s = 0;
    for (let i = 0; i < count; i++) if ((starts[i] as number) <= start) s = i;
    return s;
  });
  return { sentenceOf, count };
}

/** Ŝ = (A + I)S with rows L2-normalised: DS-SENT's graph-aggregated sentence embeddings. */
export function sentenceGraphEmbeddings(t: EmbeddedText, o: DsSentOptions, encoder: EncoderIdentity): Float64Array[] {
  const words = tagged(t.text);
  const vectors = lastLayer(t, encoder);
  const dim = vectors.length > 0 ? (vectors[0] as Float64Array).length : encoder.hiddenSize;
  const { sentenceOf, count } = tokenSentences(t, words);
  const s = Array.from({ length: count }, () => new Float64Array(dim));
  const n = new Array<number>(count).fill(0);
  sentenceOf.forEach((k, u) => {
    if (k < 0) return;
    const v = vectors[u] as Float64Array;
    const row = s[k] as Float64Array;
    for (let d = 0; d < dim; d++) row[d] = (row[d] as number) + (v[d] as number);
    n[k] = (n[k] as number) + 1;
  });
  s.forEach((row, k) => {
    if ((n[k] as number) > 0) for (let d = 0; d < dim; d++) row[d] = (row[d] as number) / (n[k] as number);
  });
  const a = count === 1 ? [[0]] : sentenceGraph(words, o.graph);
  return s.map((_, i) => {
    const out = Float64Array.from(s[i] as Float64Array);
    for (let j = i + 1; j < count; j++) {
      const w = (a[i] as number[])[j] as number;
      if (w === 0) continue;
      const sj = s[j] as Float64Array;
      for (let d = 0; d < dim; d++) out[d] = (out[d] as number) + w * (sj[d] as number);
    }
    return normalised(out, 1e-30);
  });
}

function cosine(x: Float64Array, y: Float64Array): number {
  return dot(x, y) / Math.max(Math.sqrt(dot(x, x) * dot(y, y)), 1e-8);
}

/** [min, mean, max, sum] over rows. */
export function graphEmbedding(rows: readonly Float64Array[]): Float64Array {
  return poolRows(rows, true);
}

/** DS-SENT of a hypothesis against one reference. */
export function dsSentPair(hyp: EmbeddedText, ref: EmbeddedText, o: DsSentOptions, encoder: EncoderIdentity): number {
  const h = sentenceGraphEmbeddings(hyp, o, encoder);
  const r = sentenceGraphEmbeddings(ref, o, encoder);
  if (r.length === 1) return h.reduce((s, row) => s + cosine(r[0] as Float64Array, row), 0) / h.length;
  return cosine(graphEmbedding(r), graphEmbedding(h));
}

const REQUIREMENT = 'a text encoder (BERT-family ONNX model; the paper uses Conpono for DS-Focus and BERT-NLI for DS-SENT)';

export const DS_FOCUS_PLUGIN: EmbeddingMetricPlugin<'discoscore-focus', null> = {
  capability: 'embedding',
  requirement: REQUIREMENT,
  compares: 'references',
  definition: embeddingDefinition({
    name: 'discoscore-focus',
    displayName: 'DiscoScore DS-Focus',
    higherIsBetter: false,
    range: [0, Infinity],
    options: dsFocusOptionsSchema,
    signatureFormat: 'discoscore-focus|model:<name>@<sha256 12>|layer:<last>|focus:<NN-wink|Entity-wink@<words>:<fnv>>[|threshold:<t>]|norm:<squared|l2>|refs:mean|nrefs:<n>|version:podium-<version>',
    description: 'DiscoScore DS-Focus with nouns (NN, the default) or semantic entities (Entity: nouns joined by word-vector similarity) as foci: distance between the embeddings of the foci hypothesis and reference share, per hypothesis focus (lower is better; Zhao et al. 2023); corpus score is the mean over instances',
  }),
  layers(_options, encoder) {
    return [encoder.numLayers];
  },
  prepare() {
    return null;
  },
  scoreInstance(_index: number, instance: EmbeddedInstance, _state, options, encoder) {
    const o = dsFocusOptionsSchema.parse(options);
    return { score: aggregate(instance.refs.map((r) => dsFocusPair(instance.hyp, r, o, encoder)), 'mean') };
  },
  signature(options, encoder, nrefs) {
    const o = dsFocusOptionsSchema.parse(options);
    const focus =
      o.focus === 'NN' ? ['focus:NN-wink'] : [`focus:Entity-wink@${wordVectorsFingerprint(o.wordVectors ?? {})}`, `threshold:${o.threshold}`];
    return ['discoscore-focus', encoderField(encoder), `layer:${encoder.numLayers}`, ...focus, `norm:${o.norm}`, 'refs:mean', `nrefs:${nrefs}`, `version:${PODIUM_METRICS_VERSION}`].join('|');
  },
  conformance: DS_FOCUS_CONFORMANCE,
};

export const DS_SENT_PLUGIN: EmbeddingMetricPlugin<'discoscore-sent', null> = {
  capability: 'embedding',
  requirement: REQUIREMENT,
  compares: 'references',
  definition: embeddingDefinition({
    name: 'discoscore-sent',
    displayName: 'DiscoScore DS-SENT (NN)',
    higherIsBetter: true,
    range: [-1, 1],
    options: dsSentOptionsSchema,
    signatureFormat: 'discoscore-sent|model:<name>@<sha256 12>|layer:<last>|focus:NN-wink|graph:<U|W>|refs:mean|nrefs:<n>|version:podium-<version>',
    description: 'DiscoScore DS-SENT with nouns as foci: cosine between hypothesis and reference sentence-graph embeddings (Zhao et al. 2023); corpus score is the mean over instances',
  }),
  layers(_options, encoder) {
    return [encoder.numLayers];
  },
  prepare() {
    return null;
  },
  scoreInstance(_index: number, instance: EmbeddedInstance, _state, options, encoder) {
    const o = dsSentOptionsSchema.parse(options);
    return { score: aggregate(instance.refs.map((r) => dsSentPair(instance.hyp, r, o, encoder)), 'mean') };
  },
  signature(options, encoder, nrefs) {
    const o = dsSentOptionsSchema.parse(options);
    return ['discoscore-sent', encoderField(encoder), `layer:${encoder.numLayers}`, 'focus:NN-wink', `graph:${o.graph}`, 'refs:mean', `nrefs:${nrefs}`, `version:${PODIUM_METRICS_VERSION}`].join('|');
  },
  conformance: DS_SENT_CONFORMANCE,
};
