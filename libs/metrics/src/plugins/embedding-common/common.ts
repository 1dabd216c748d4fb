/**
 * What the MoverScore family (MoverScore, XMoverScore, DiscoScore) shares: the registry
 * definition of an embedding metric, idf tables as moverscore's `get_idf_dict`, token filters,
 * vector arithmetic in float64, fingerprints of option data for signatures, and a small runner
 * that scores a corpus with any {@link EmbeddingMetricPlugin} (the bench hook).
 */
import type { EmbeddedInstance, EmbeddingInstanceScore, EmbeddingMetricPlugin, EncoderIdentity, TokenizedCorpus, TokenizedText } from '../../embedding';
import type { MetricDefinition } from '../../plugin';

/**
 * A registry definition with capability `embedding` and kind `sentence` (the corpus score is
 * the mean of the instance scores).
 */
export function embeddingDefinition<N extends string>(d: Omit<MetricDefinition<N>, 'capability' | 'kind'>): MetricDefinition<N> {
  return { ...d, capability: 'embedding', kind: 'sentence' };
}

/** Python's `string.punctuation`: moverscore drops a token that is exactly one of these. */
export const PYTHON_PUNCTUATION = new Set(Array.from('!"#$%&\'()*+,-./:;<=>?@[\\]^_`{|}~'));

/**
 * Idf over documents as moverscore's `get_idf_dict`: each document counts a token id once,
 * idf(t) = log((N+1)/(df(t)+1)), and an id never seen gets log(N+1).
 */
export class IdfTable {
  private readonly df = new Map<number, number>();
  readonly documents: number;
  constructor(docs: readonly (readonly number[])[]) {
    this.documents = docs.length;
    for (const ids of docs) for (const id of new Set(ids)) this.df.set(id, (this.df.get(id) ?? 0) + 1);
  }
  idf(id: number): number {
    return Math.log((this.documents + 1) / ((this.df.get(id) ?? 0) + 1));
  }
}

/** Every reference text of the corpus, each a document (moverscore's `get_idf_dict(refs)`). */
export function referenceDocuments(corpus: TokenizedCorpus): number[][] {
  const docs: number[][] = [];
  for (const refs of corpus.refs) for (const r of refs) docs.push([...r.ids]);
  return docs;
}

export function documentsOf(texts: readonly TokenizedText[]): number[][] {
  return texts.map((t) => [...t.ids]);
}

/** Index of `layerIndex` in an embedded text's `layerIndices`, or a clear error. */
export function layerPosition(layerIndices: readonly number[], layerIndex: number, what: string): number {
  const p = layerIndices.indexOf(layerIndex);
  if (p < 0) throw new Error(`${what}: hidden state ${layerIndex} was not embedded (have ${layerIndices.join(', ') || 'none'})`);
  return p;
}

export function toFloat64(v: Float32Array | Float64Array | readonly number[]): Float64Array {
  return Float64Array.from(v);
}

export function norm(v: Float64Array): number {
  let s = 0;
  for (let i = 0; i < v.length; i++) s += (v[i] as number) * (v[i] as number);
  return Math.sqrt(s);
}

/** v / (‖v‖ + eps); a zero vector stays zero. */
export function normalised(v: Float64Array, eps = 0): Float64Array {
  const d = norm(v) + eps;
  const out = new Float64Array(v.length);
  if (d === 0) return out;
  for (let i = 0; i < v.length; i++) out[i] = (v[i] as number) / d;
  return out;
}

export function squaredDistance(x: Float64Array, y: Float64Array): number {
  let s = 0;
  for (let i = 0; i < x.length; i++) {
    const d = (x[i] as number) - (y[i] as number);
    s += d * d;
  }
  return s;
}

export function dot(x: Float64Array, y: Float64Array): number {
  let s = 0;
  for (let i = 0; i < x.length; i++) s += (x[i] as number) * (y[i] as number);
  return s;
}

/** Row-major cost matrix between two point lists. */
export function costMatrix(rows: readonly Float64Array[], cols: readonly Float64Array[], f: (x: Float64Array, y: Float64Array) => number): Float64Array {
  const m = cols.length;
  const c = new Float64Array(rows.length * m);
  for (let i = 0; i < rows.length; i++) for (let j = 0; j < m; j++) c[i * m + j] = f(rows[i] as Float64Array, cols[j] as Float64Array);
  return c;
}

/** FNV-1a (32 bit) over a string, hex: a short fingerprint of option data in a signature. */
export function fingerprint(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h.toString(16).padStart(8, '0');
}

/** `name@sha12` of the encoder, as every embedding signature starts. */
export function encoderField(encoder: EncoderIdentity): string {
  return `model:${encoder.name}@${encoder.sha256.slice(0, 12)}`;
}

/** Mean or max of per-reference scores. */
export function aggregate(scores: readonly number[], how: 'mean' | 'max'): number {
  if (scores.length === 0) throw new Error('no reference to compare the hypothesis with');
  return how === 'max' ? Math.max(...scores) : scores.reduce((s, x) => s + x, 0) / scores.length;
}

/**
 * Scores instances with an embedding plugin as a host does (options validated by the
 * definition's schema, `prepare` over the tokenised corpus, then `scoreInstance` per instance):
 * the bench hook, and what the specs use.
 */
export function runEmbeddingMetric<S>(
  plugin: EmbeddingMetricPlugin<string, S>,
  instances: readonly EmbeddedInstance[],
  rawOptions: Readonly<Record<string, unknown>>,
  encoder: EncoderIdentity,
): { scores: EmbeddingInstanceScore[]; corpus: number; options: Readonly<Record<string, unknown>>; signature: string } {
  const options = plugin.definition.options.parse(rawOptions);
  const strip = (t: TokenizedText): TokenizedText => ({ text: t.text, tokens: t.tokens, ids: t.ids, special: t.special, offsets: t.offsets });
  const sources = instances.every((i) => i.source !== undefined) ? instances.map((i) => strip(i.source as TokenizedText)) : undefined;
  const corpus: TokenizedCorpus = {
    hyps: instances.map((i) => strip(i.hyp)),
    refs: instances.map((i) => i.refs.map(strip)),
    ...(sources ? { sources } : {}),
  };
  const state = plugin.prepare(corpus, options, encoder);
  const scores = instances.map((inst, k) => plugin.scoreInstance(k, inst, state, options, encoder));
  const corpusScore = scores.length === 0 ? Number.NaN : scores.reduce((s, x) => s + x.score, 0) / scores.length;
  const nrefs = instances.reduce((mx, i) => Math.max(mx, i.refs.length), 0);
  return { scores, corpus: corpusScore, options, signature: plugin.signature(options, encoder, nrefs) };
}

/**
 * Per dimension over `rows` (vectors of one length): the minimum, the mean and the maximum, and
 * with `withSum` the sum after them, each block `dim` long (MoverScore's power means p = −∞, 1,
 * +∞; DiscoScore's graph embedding adds the sum).
 */
export function poolRows(rows: readonly Float64Array[], withSum: boolean): Float64Array {
  const dim = (rows[0] as Float64Array).length;
  const out = new Float64Array((withSum ? 4 : 3) * dim);
  for (let d = 0; d < dim; d++) {
    let mn = Infinity;
    let mx = -Infinity;
    let sum = 0;
    for (const r of rows) {
      const x = r[d] as number;
      if (x < mn) mn = x;
      if (x > mx) mx = x;
      sum += x;
    }
    out[d] = mn;
    out[dim + d] = sum / rows.length;
    out[2 * dim + d] = mx;
    if (withSum) out[3 * dim + d] = sum;
  }
  return out;
}
