/**
 * MoverScore (Zhao et al. 2019): the earth mover's distance between the idf-weighted n-gram
 * embeddings of a reference and a hypothesis, solved exactly, score = 1 − distance. The paper
 * fixes the transport problem (T:869–889) and the encoder (BERT, last five layers, power means
 * p ∈ {1, ±∞}: T:935, T:945); every choice it leaves open is taken from the authors' code
 * (emnlp19-moverscore @0c93804) and written in the signature:
 *
 * - `variant v1` (`moverscore.py`, the paper's metric): each layer's vectors L2-normalised, then
 *   the element-wise min, mean and max over the last five layers (`layers`) concatenated
 *   (3 × hidden size); tokens that are one `string.punctuation` character, contain `##` (word
 *   pieces: dropped, not merged) or are stop words are dropped, `[CLS]`/`[SEP]` are kept;
 *   n-grams of the kept tokens with stride 1 (one n-gram of every kept token when fewer than n),
 *   embedded as Σ idf_k/(Σ idf + 1e-5) · e_k and weighted Σ idf; each n-gram vector divided by
 *   (‖e‖ + 1e-6); cost = squared Euclidean distance; weights divided by (Σ + 1e-5); distance =
 *   pyemd's `emd`, whose unmatched mass (the two 1e-5 terms leave Σ ≠ 1) costs the largest
 *   entry of the (n+m)² distance matrix (ref–ref and hyp–hyp included), as pyemd's default does.
 * - `variant v2` (`moverscore_v2.py`): the last layer only, unigrams, dropped tokens weighted 0,
 *   vectors divided by (‖e‖ + 1e-30), cost = Euclidean distance √max(d², 1e-30), weights divided
 *   by (Σ + 1e-30), score = 1 − Σ flow·cost of `emd_with_flow`.
 * - idf: `corpus` = log((N+1)/(df+1)) over the hypotheses for hypothesis tokens and over all
 *   references (each a document) for reference tokens, unseen ids log(N+1) (`get_idf_dict`);
 *   `uniform` = 1 for every token (the code's `defaultdict(lambda: 1.)`).
 * - several references: the mean of the per-reference scores (the authors' summarisation
 *   script), or `max`.
 *
 * Exact where pyemd is not: pyemd rounds weights and costs to 1e6 levels before solving, so
 * scores from the reference code differ from these in about the sixth decimal.
 */
import { z } from 'zod';
import type { EmbeddedInstance, EmbeddedText, EmbeddingMetricPlugin, EncoderIdentity, TokenizedCorpus } from '../../embedding';
import { earthMoversDistance } from '../../transport';
import { PODIUM_METRICS_VERSION } from '../../version';
import {
  aggregate,
  costMatrix,
  documentsOf,
  embeddingDefinition,
  encoderField,
  fingerprint,
  IdfTable,
  layerPosition,
  normalised,
  poolRows,
  PYTHON_PUNCTUATION,
  referenceDocuments,
  squaredDistance,
  toFloat64,
} from '../embedding-common/common';
import { MOVERSCORE_CONFORMANCE } from './conformance-cases';

export const moverScoreOptionsSchema = z.strictObject({
  variant: z.enum(['v1', 'v2']).default('v1'),
  ngram: z.number().int().min(1).max(8).default(1),
  idf: z.enum(['corpus', 'uniform']).default('corpus'),
  removeSubwords: z.boolean().default(true),
  stopWords: z.array(z.string().min(1)).max(10_000).default([]),
  refsAggregation: z.enum(['mean', 'max']).default('mean'),
}).refine((o) => o.variant === 'v1' || o.ngram === 1, { message: 'moverscore variant v2 scores unigrams only (ngram must be 1)', path: ['ngram'] });

export type MoverScoreOptions = z.infer<typeof moverScoreOptionsSchema>;

/** Idf tables of the prepared corpus (none for uniform idf). */
export interface MoverScoreState {
  readonly hypIdf?: IdfTable;
  readonly refIdf?: IdfTable;
}

/** Number of last layers whose power means v1 concatenates. */
export const MOVERSCORE_POWER_MEAN_LAYERS = 5;

function parse(options: Readonly<Record<string, unknown>>): MoverScoreOptions {
  return moverScoreOptionsSchema.parse(options);
}

/** The hidden-state indices a variant reads: v1 the last five transformer layers (fewer if the encoder has fewer), v2 the last. */
export function moverScoreLayers(variant: 'v1' | 'v2', numLayers: number): number[] {
  if (numLayers < 1) throw new Error('moverscore needs an encoder with at least one transformer layer');
  if (variant === 'v2') return [numLayers];
  const first = Math.max(1, numLayers - MOVERSCORE_POWER_MEAN_LAYERS + 1);
  return Array.from({ length: numLayers - first + 1 }, (_, k) => first + k);
}

/** Whether moverscore keeps token `w` (punctuation, `##` word pieces and stop words go). */
export function keepToken(w: string, removeSubwords: boolean, stopWords: ReadonlySet<string>): boolean {
  return !PYTHON_PUNCTUATION.has(w) && !(removeSubwords && w.includes('##')) && !stopWords.has(w);
}

/** v1's token vectors: per-layer L2 normalisation, then [min, mean, max] over `layers`. */
export function powerMeanVectors(text: EmbeddedText, layers: readonly number[]): Float64Array[] {
  const positions = layers.map((l) => layerPosition(text.layerIndices, l, 'moverscore'));
  const out: Float64Array[] = [];
  for (let t = 0; t < text.tokens.length; t++) {
    const vs = positions.map((p) => normalised(toFloat64((text.layers[p] as readonly Float32Array[])[t] as Float32Array)));
    out.push(poolRows(vs, false));
  }
  return out;
}

/** v1's n-grams over the kept token positions: idf-weighted mean vectors and their idf sums. */
export function ngramPoints(vectors: readonly Float64Array[], idf: readonly number[], kept: readonly number[], n: number): { points: Float64Array[]; weights: number[] } {
  const w = kept.length - n + 1 <= 0 ? kept.length : n;
  const count = kept.length - w + 1;
  const dim = vectors.length > 0 ? (vectors[0] as Float64Array).length : 0;
  const points: Float64Array[] = [];
  const weights: number[] = [];
  for (let s = 0; s < count; s++) {
    const win = kept.slice(s, s + w);
    let total = 0;
    for (const k of win) total += idf[k] as number;
    const e = new Float64Array(dim);
    for (const k of win) {
      const scale = (idf[k] as number) / (total + 1e-5);
      const v = vectors[k] as Float64Array;
      for (let d = 0; d < dim; d++) e[d] = (e[d] as number) + scale * (v[d] as number);
    }
    points.push(e);
    weights.push(total);
  }
  return { points, weights };
}

function idfOf(text: EmbeddedText, table: IdfTable | undefined): number[] {
  return text.ids.map((id) => (table ? table.idf(id) : 1));
}

function scaled(w: readonly number[], eps: number): number[] {
  const s = w.reduce((a, x) => a + x, 0);
  return w.map((x) => x / (s + eps));
}

/** MoverScore of one hypothesis against one reference. */
export function moverScorePair(ref: EmbeddedText, hyp: EmbeddedText, o: MoverScoreOptions, layers: readonly number[], state: MoverScoreState): number {
  const stop = new Set(o.stopWords);
  const refIdf = idfOf(ref, state.refIdf);
  const hypIdf = idfOf(hyp, state.hypIdf);
  const keptOf = (t: EmbeddedText): number[] => t.tokens.map((w, k) => (keepToken(w, o.removeSubwords, stop) ? k : -1)).filter((k) => k >= 0);
  if (o.variant === 'v2') {
    const layer = layers[0] as number;
    const pts = (t: EmbeddedText, idf: number[], kept: number[]): { points: Float64Array[]; weights: number[] } => {
      const p = layerPosition(t.layerIndices, layer, 'moverscore');
      return {
        points: kept.map((k) => normalised(toFloat64((t.layers[p] as readonly Float32Array[])[k] as Float32Array), 1e-30)),
        weights: kept.map((k) => idf[k] as number),
      };
    };
    const r = pts(ref, refIdf, keptOf(ref));
    const h = pts(hyp, hypIdf, keptOf(hyp));
    const cost = costMatrix(r.points, h.points, (x, y) => Math.sqrt(Math.max(squaredDistance(x, y), 1e-30)));
    const sol = earthMoversDistance(scaled(r.weights, 1e-30), scaled(h.weights, 1e-30), cost);
    return 1 - sol.cost;
  }
  const r = ngramPoints(powerMeanVectors(ref, layers), refIdf, keptOf(ref), o.ngram);
  const h = ngramPoints(powerMeanVectors(hyp, layers), hypIdf, keptOf(hyp), o.ngram);
  const rp = r.points.map((p) => normalised(p, 1e-6));
  const hp = h.points.map((p) => normalised(p, 1e-6));
  const cost = costMatrix(rp, hp, squaredDistance);
  // pyemd's default penalty: the largest entry of the whole (n+m)² matrix it is given.
  const all = rp.concat(hp);
  let penalty = 0;
  for (let i = 0; i < all.length; i++) for (let j = i + 1; j < all.length; j++) penalty = Math.max(penalty, squaredDistance(all[i] as Float64Array, all[j] as Float64Array));
  const sol = earthMoversDistance(scaled(r.weights, 1e-5), scaled(h.weights, 1e-5), cost, { extraMassPenalty: penalty });
  return 1 - sol.distance;
}

function layerRange(layers: readonly number[]): string {
  return layers.length === 1 ? `${layers[0]}` : `${layers[0]}-${layers[layers.length - 1]}`;
}

export const MOVERSCORE_PLUGIN: EmbeddingMetricPlugin<'moverscore', MoverScoreState> = {
  capability: 'embedding',
  requirement: 'a text encoder (BERT-family ONNX model; the paper uses BERT-base fine-tuned on MNLI)',
  compares: 'references',
  definition: embeddingDefinition({
    name: 'moverscore',
    displayName: 'MoverScore',
    higherIsBetter: true,
    range: [-Infinity, 1],
    options: moverScoreOptionsSchema,
    signatureFormat:
      'moverscore|model:<name>@<sha256 12>|variant:<v1|v2>|layers:<first-last>|emb:<pmeans-min,mean,max|last>|ngram:<n>|idf:<corpus|uniform>|subwords:<removed|kept>|punct:removed|stop:<count>[@<fnv>]|cost:<sqeuclid|euclid>|refs:<mean|max>|nrefs:<n>|' +
      'version:podium-<version>',
    description: 'earth mover\'s distance between idf-weighted (n-gram) contextual embeddings of hypothesis and reference, solved exactly, score 1 − distance (Zhao et al. 2019, emnlp19-moverscore); corpus score is the mean over instances',
  }),
  layers(options, encoder) {
    return moverScoreLayers(parse(options).variant, encoder.numLayers);
  },
  prepare(corpus: TokenizedCorpus, options) {
    const o = parse(options);
    if (o.idf === 'uniform') return {};
    return { hypIdf: new IdfTable(documentsOf(corpus.hyps)), refIdf: new IdfTable(referenceDocuments(corpus)) };
  },
  scoreInstance(_index: number, instance: EmbeddedInstance, state, options, encoder: EncoderIdentity) {
    const o = parse(options);
    const layers = moverScoreLayers(o.variant, encoder.numLayers);
    const perRef = instance.refs.map((ref) => moverScorePair(ref, instance.hyp, o, layers, state));
    return { score: aggregate(perRef, o.refsAggregation) };
  },
  signature(options, encoder, nrefs) {
    const o = parse(options);
    const layers = moverScoreLayers(o.variant, encoder.numLayers);
    const stop = o.stopWords.length === 0 ? 'stop:0' : `stop:${o.stopWords.length}@${fingerprint([...new Set(o.stopWords)].sort().join('\n'))}`;
    return [
      'moverscore',
      encoderField(encoder),
      `variant:${o.variant}`,
      `layers:${layerRange(layers)}`,
      `emb:${o.variant === 'v1' ? 'pmeans-min,mean,max' : 'last'}`,
      `ngram:${o.ngram}`,
      `idf:${o.idf}`,
      `subwords:${o.removeSubwords ? 'removed' : 'kept'}`,
      'punct:removed',
      stop,
      `cost:${o.variant === 'v1' ? 'sqeuclid' : 'euclid'}`,
      `refs:${o.refsAggregation}`,
      `nrefs:${nrefs}`,
      `version:${PODIUM_METRICS_VERSION}`,
    ].join('|');
  },
  conformance: MOVERSCORE_CONFORMANCE,
};
