/**
 * XMoverScore (Zhao et al. 2020): reference-free, the mover's distance between the source's and
 * the hypothesis's n-gram embeddings from a multilingual encoder (M-BERT), with the source
 * remapped into the target language's space by CLP (a linear, orthogonal Procrustes projection
 * W: e ↦ eW) or UMD (removing the bias direction v_B: e ↦ e − (e·v_B)v_B), plus an optional
 * target-side language-model term (T:2349–2408). Choices from the authors' code
 * (ACL20-Reference-Free-MT-Evaluation `score_utils_2.py`, `demo.py`):
 *
 * - hidden state `layer` (default 8, Hugging Face numbering), every token kept (`[CLS]`/`[SEP]`
 *   too), uniform weights (the code's `defaultdict(lambda: 1.)`), n-grams = means of `ngram`
 *   consecutive tokens (default 2; one n-gram of all tokens when a text is shorter);
 * - the mapping applies to the source only; vectors are then L2-normalised; cost = Euclidean;
 * - the flow of the exact transport between the uniform n-gram histograms; the smallest
 *   nonzero flows are removed (`dropout` 0.3): with k = max(⌊0.3 · #nonzero⌋, 1) and t the k-th
 *   smallest nonzero flow, flows below t are set to 0 (flows within 1e-12 count as equal, and a
 *   flow ≤ 1e-12 as zero, so that equal flows computed along different paths agree);
 *   score = 1 − Σ flow · cost;
 * - with `lm`, score + lmWeight · (mean token log-probability of the hypothesis under a causal
 *   LM, `EmbeddedInstance.hypLmLogProb`), lmWeight 0.1 as `demo.py`'s `metric_combination`.
 *
 * Differs from the code where it cannot matter: it adds 1e-9 to every histogram entry, which
 * pyemd's rounding of weights to 1e6 levels turns back into 0, so it is left out here.
 */
import { z } from 'zod';
import type { EmbeddedInstance, EmbeddedText, EmbeddingMetricPlugin, EncoderIdentity } from '../../embedding';
import { earthMoversDistance } from '../../transport';
import { PODIUM_METRICS_VERSION } from '../../version';
import { costMatrix, embeddingDefinition, encoderField, layerPosition, normalised, squaredDistance, toFloat64 } from '../embedding-common/common';
import { XMOVERSCORE_CONFORMANCE } from './conformance-cases';
import { decodeXMoverMapping, mappingFingerprint, XMOVER_MAPPING_DATASET, xMoverMappingPath } from './mapping';

const matrix = z.array(z.array(z.number()).min(1)).min(1);

export const xMoverScoreOptionsSchema = z
  .strictObject({
    layer: z.number().int().min(0).default(8),
    ngram: z.number().int().min(1).max(8).default(2),
    mapping: z.enum(['none', 'CLP', 'UMD']).default('none'),
    /** CLP: the d×d projection W (row vector e ↦ eW), as the authors' `.BAM.map` files. */
    projection: matrix.optional(),
    /** UMD: the bias direction v_B (d numbers), as the authors' `.GBDD.map` files. */
    bias: z.array(z.number()).min(1).optional(),
    /**
     * Source-target pair (`de-en`) of the authors' published mapping: without `projection`/`bias`,
     * the host fetches `mapping/layer-<layer>/europarl-v7.<pair>.<layer>.BAM|GBDD` through the data
     * set registry (`xmoverscore-mappings`) into `mappingFile`.
     */
    languagePair: z.string().regex(/^[a-z]{2,3}-[a-z]{2,3}$/, 'a language pair such as de-en').optional(),
    /** Set by the host: a mapping file's bytes, base64 (`.npy` or numpy text), from the registry or a local file. */
    mappingFile: z.string().min(1).optional(),
    /** Set by the host with `mappingFile`: where the file came from (its name in errors). */
    mappingFileName: z.string().optional(),
    dropout: z.number().min(0).max(0.99).default(0.3),
    lm: z.boolean().default(false),
    lmWeight: z.number().default(0.1),
  })
  .refine((o) => o.mapping !== 'CLP' || o.projection !== undefined || o.mappingFile !== undefined || o.languagePair !== undefined, {
    message: 'mapping CLP needs `projection` (a d×d matrix), a mapping file, or `languagePair` (the authors\' published mapping, fetched through the data set registry)',
    path: ['projection'],
  })
  .refine((o) => o.mapping !== 'UMD' || o.bias !== undefined || o.mappingFile !== undefined || o.languagePair !== undefined, {
    message: 'mapping UMD needs `bias` (d numbers), a mapping file, or `languagePair` (the authors\' published mapping, fetched through the data set registry)',
    path: ['bias'],
  })
  .refine((o) => o.projection === undefined || o.projection.every((row) => row.length === o.projection?.length), { message: 'projection must be square (d×d)', path: ['projection'] });

export type XMoverScoreOptions = z.infer<typeof xMoverScoreOptionsSchema>;

/** The remapping, in float64, built once in `prepare`. */
export interface XMoverScoreState {
  readonly options: XMoverScoreOptions;
  readonly projection?: Float64Array; // row-major d×d
  readonly bias?: Float64Array;
  readonly dim?: number;
}

const parsed = new WeakMap<object, XMoverScoreOptions>();
function parse(options: Readonly<Record<string, unknown>>): XMoverScoreOptions {
  // A projection is d² numbers: validate an options object once, not per instance.
  let o = parsed.get(options);
  if (!o) {
    o = xMoverScoreOptionsSchema.parse(options);
    parsed.set(options, o);
  }
  return o;
}

const resolved = new WeakMap<object, { projection?: number[][]; bias?: number[] }>();
/**
 * The mapping's numbers: `projection`/`bias` as given, else the decoded `mappingFile`; never
 * a substitute: a mapping asked for by `languagePair` whose file the host did not load is an
 * error naming the file and the command that fetches it.
 */
export function resolveXMoverMapping(o: XMoverScoreOptions): { projection?: number[][]; bias?: number[] } {
  let r = resolved.get(o);
  if (r) return r;
  if (o.mapping === 'none') r = {};
  else if (o.mapping === 'CLP' && o.projection) r = { projection: o.projection };
  else if (o.mapping === 'UMD' && o.bias) r = { bias: o.bias };
  else if (o.mappingFile !== undefined) {
    const name = o.mappingFileName ?? 'file';
    if (o.mapping === 'CLP') {
      const projection = decodeXMoverMapping('CLP', o.mappingFile, name);
      r = { projection };
    } else r = { bias: decodeXMoverMapping('UMD', o.mappingFile, name) };
  } else {
    const pair = o.languagePair ?? '?';
    const dataset = XMOVER_MAPPING_DATASET;
    throw new Error(
      `xmoverscore: the ${o.mapping} mapping file ${xMoverMappingPath(o.mapping, pair, o.layer)} (data set ${dataset}) is not loaded; fetch it with \`podium data fetch ${dataset}\` (or give --mapping-file FILE)`,
    );
  }
  resolved.set(o, r);
  return r;
}

function stateOf(o: XMoverScoreOptions): XMoverScoreState {
  const m = resolveXMoverMapping(o);
  if (o.mapping === 'CLP' && m.projection) {
    const d = m.projection.length;
    const w = new Float64Array(d * d);
    m.projection.forEach((row, i) => {
      if (row.length !== d) throw new Error(`xmoverscore: the CLP projection must be square (d×d); row ${i + 1} has ${row.length} numbers, not ${d}`);
      row.forEach((x, j) => (w[i * d + j] = x));
    });
    return { options: o, projection: w, dim: d };
  }
  if (o.mapping === 'UMD' && m.bias) return { options: o, bias: Float64Array.from(m.bias), dim: m.bias.length };
  return { options: o };
}

/** Applies CLP (e ↦ eW) or UMD (e ↦ e − (e·v)v) to one vector. */
export function remap(e: Float64Array, state: Pick<XMoverScoreState, 'projection' | 'bias' | 'dim'>): Float64Array {
  const d = e.length;
  if (state.dim !== undefined && state.dim !== d) throw new Error(`xmoverscore: the mapping is for ${state.dim}-dimensional vectors, the encoder gives ${d}`);
  if (state.projection) {
    const out = new Float64Array(d);
    for (let i = 0; i < d; i++) {
      const x = e[i] as number;
      if (x === 0) continue;
      const base = i * d;
      for (let j = 0; j < d; j++) out[j] = (out[j] as number) + x * (state.projection[base + j] as number);
    }
    return out;
  }
  if (state.bias) {
    const b = state.bias;
    let s = 0;
    for (let i = 0; i < d; i++) s += (e[i] as number) * (b[i] as number);
    const out = new Float64Array(d);
    for (let i = 0; i < d; i++) out[i] = (e[i] as number) - s * (b[i] as number);
    return out;
  }
  return e;
}

/** Means of `n` consecutive vectors (one mean of all when fewer than n). */
export function ngramMeans(vectors: readonly Float64Array[], n: number): Float64Array[] {
  const w = Math.min(n, vectors.length);
  const out: Float64Array[] = [];
  if (w === 0) return out;
  const dim = (vectors[0] as Float64Array).length;
  for (let s = 0; s + w <= vectors.length; s++) {
    const m = new Float64Array(dim);
    for (let k = s; k < s + w; k++) {
      const v = vectors[k] as Float64Array;
      for (let d = 0; d < dim; d++) m[d] = (m[d] as number) + (v[d] as number);
    }
    for (let d = 0; d < dim; d++) m[d] = (m[d] as number) / w;
    out.push(m);
  }
  return out;
}

/** Flow values within this of each other count as equal; at most this, as zero. */
export const FLOW_TOLERANCE = 1e-12;

/** The code's noise removal: zero the flows below the k-th smallest nonzero one, k = max(⌊rate·#nonzero⌋, 1). */
export function dropSmallFlows(flow: Float64Array, rate: number): Float64Array {
  const nonzero = Array.from(flow).filter((f) => f > FLOW_TOLERANCE).sort((a, b) => a - b);
  const out = Float64Array.from(flow, (f) => (f > FLOW_TOLERANCE ? f : 0));
  if (nonzero.length === 0) return out;
  const k = Math.max(Math.floor(nonzero.length * rate), 1);
  const threshold = nonzero[k - 1] as number;
  for (let i = 0; i < out.length; i++) if ((out[i] as number) < threshold - FLOW_TOLERANCE) out[i] = 0;
  return out;
}

function layerVectors(t: EmbeddedText, layer: number): Float64Array[] {
  const p = layerPosition(t.layerIndices, layer, 'xmoverscore');
  return (t.layers[p] as readonly Float32Array[]).map((v) => toFloat64(v));
}

/** XMoverScore's mover part (without the LM term) of one source–hypothesis pair. */
export function xMoverDistanceScore(source: EmbeddedText, hyp: EmbeddedText, state: XMoverScoreState): number {
  const o = state.options;
  const src = ngramMeans(layerVectors(source, o.layer).map((e) => remap(e, state)), o.ngram).map((e) => normalised(e));
  const tgt = ngramMeans(layerVectors(hyp, o.layer), o.ngram).map((e) => normalised(e));
  if (src.length === 0 || tgt.length === 0) throw new Error('xmoverscore: a text without tokens');
  const cost = costMatrix(src, tgt, (x, y) => Math.sqrt(squaredDistance(x, y)));
  const sol = earthMoversDistance(src.map(() => 1 / src.length), tgt.map(() => 1 / tgt.length), cost);
  const flow = dropSmallFlows(sol.flow, o.dropout);
  let s = 0;
  for (let k = 0; k < flow.length; k++) s += (flow[k] as number) * (cost[k] as number);
  return 1 - s;
}

export const XMOVERSCORE_PLUGIN: EmbeddingMetricPlugin<'xmoverscore', XMoverScoreState> = {
  capability: 'embedding',
  requirement: 'a multilingual text encoder (BERT-family ONNX model; the paper uses bert-base-multilingual-cased)',
  compares: 'source',
  definition: embeddingDefinition({
    name: 'xmoverscore',
    displayName: 'XMoverScore',
    higherIsBetter: true,
    range: [-Infinity, 1],
    options: xMoverScoreOptionsSchema,
    signatureFormat: 'xmoverscore|model:<name>@<sha256 12>|layer:<l>|ngram:<n>|map:<none|CLP@<fnv>|UMD@<fnv>>|idf:uniform|cost:euclid|dropout:<rate>|lm:<no|weight>|version:podium-<version>',
    description: 'reference-free: mover\'s distance between source and hypothesis n-gram embeddings of a multilingual encoder, the source remapped by CLP or UMD, optionally + 0.1 × the hypothesis\'s LM log-probability (Zhao et al. 2020); corpus score is the mean over instances',
  }),
  layers(options, encoder) {
    const o = parse(options);
    if (o.layer > encoder.numLayers) throw new Error(`xmoverscore: layer ${o.layer} is past the encoder's last layer (${encoder.numLayers})`);
    return [o.layer];
  },
  hostFiles(options) {
    const o = parse(options);
    if (o.mapping === 'none' || o.languagePair === undefined || o.mappingFile !== undefined) return [];
    if ((o.mapping === 'CLP' && o.projection) || (o.mapping === 'UMD' && o.bias)) return [];
    return [
      {
        dataset: XMOVER_MAPPING_DATASET,
        path: xMoverMappingPath(o.mapping, o.languagePair, o.layer),
        into: 'mappingFile',
        encoding: 'base64',
        nameInto: 'mappingFileName',
        what: `XMoverScore's published ${o.mapping} mapping for ${o.languagePair} at hidden state ${o.layer}`,
      },
    ];
  },
  prepare(_corpus, options) {
    return stateOf(parse(options));
  },
  scoreInstance(index: number, instance: EmbeddedInstance, state) {
    if (!instance.source) throw new Error(`xmoverscore: instance ${index} has no source (XMoverScore compares the hypothesis with the source)`);
    const mover = xMoverDistanceScore(instance.source, instance.hyp, state);
    const o = state.options;
    if (!o.lm) return { score: mover };
    const lp = instance.hypLmLogProb;
    if (lp === undefined || !Number.isFinite(lp)) throw new Error(`xmoverscore: lm is on but instance ${index} has no finite hypLmLogProb (the hypothesis's mean token log-probability)`);
    return { score: mover + o.lmWeight * lp, components: { mover, lmLogProb: lp } };
  },
  signature(options, encoder: EncoderIdentity) {
    const o = parse(options);
    const m = resolveXMoverMapping(o);
    const map = o.mapping === 'none' ? 'none' : `${o.mapping}@${mappingFingerprint(o.mapping === 'CLP' ? (m.projection ?? []).flat() : (m.bias ?? []))}`;
    return [
      'xmoverscore',
      encoderField(encoder),
      `layer:${o.layer}`,
      `ngram:${o.ngram}`,
      `map:${map}`,
      'idf:uniform',
      'cost:euclid',
      `dropout:${o.dropout}`,
      `lm:${o.lm ? o.lmWeight : 'no'}`,
      `version:${PODIUM_METRICS_VERSION}`,
    ].join('|');
  },
  conformance: XMOVERSCORE_CONFORMANCE,
};
