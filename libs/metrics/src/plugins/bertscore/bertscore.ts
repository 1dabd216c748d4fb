/**
 * BERTScore (Zhang et al., 2020) from an encoder's token vectors, as `bert_score` 0.3.x computes
 * it (`greedy_cos_idf`): every token vector is normalised; each hypothesis token is matched to
 * its most similar reference token (special tokens included as candidates) and vice versa;
 * precision and recall are the weighted means of those maxima, the weights being idf (or 1)
 * with the tokenizer's special tokens weighted 0; F1 is their harmonic mean. Pure functions.
 */
import type { EmbeddedText, TokenizedText } from '../../embedding';

/** Precision, recall and F1 of one hypothesis against one reference. */
export interface BertScorePRF {
  readonly p: number;
  readonly r: number;
  readonly f: number;
}

/** Token-id → idf weight; ids the table lacks take `unseen`. */
export interface IdfTable {
  readonly weights: ReadonlyMap<number, number>;
  /** Weight of an id no reference holds: log(M + 1). */
  readonly unseen: number;
  /** Number of reference texts M. */
  readonly documents: number;
}

/**
 * idf over reference texts as `bert_score.get_idf_dict`: idf(w) = log((M + 1) / (df(w) + 1)),
 * df counting each text once; the caller weights special tokens 0.
 * Example: 2 references, a token in one of them → log(3/2).
 */
export function idfFromReferences(refs: readonly TokenizedText[]): IdfTable {
  const df = new Map<number, number>();
  for (const r of refs) for (const id of new Set(r.ids)) df.set(id, (df.get(id) ?? 0) + 1);
  const m = refs.length;
  const weights = new Map<number, number>();
  for (const [id, c] of df) weights.set(id, Math.log((m + 1) / (c + 1)));
  return { weights, unseen: Math.log(m + 1), documents: m };
}

/** Token weights of a text: 0 for special tokens, idf (or 1 without a table) for the others. */
export function tokenWeights(t: TokenizedText, idf: IdfTable | null): number[] {
  return t.ids.map((id, k) => (t.special[k] ? 0 : idf === null ? 1 : (idf.weights.get(id) ?? idf.unseen)));
}

/** Unit vectors (float64) of one layer's token vectors. */
export function normalised(vectors: readonly Float32Array[]): Float64Array[] {
  return vectors.map((v) => {
    let n = 0;
    for (let k = 0; k < v.length; k++) n += (v[k] as number) * (v[k] as number);
    const norm = Math.sqrt(n);
    const out = new Float64Array(v.length);
    for (let k = 0; k < v.length; k++) out[k] = (v[k] as number) / norm;
    return out;
  });
}

function dot(a: Float64Array, b: Float64Array): number {
  let s = 0;
  for (let k = 0; k < a.length; k++) s += (a[k] as number) * (b[k] as number);
  return s;
}

function hasText(t: TokenizedText): boolean {
  return t.special.some((s) => !s);
}

/**
 * Greedy cosine matching of hypothesis and reference at layer slot `slot` of the embedded texts.
 * A side with no token but special ones scores P = R = F = 0 (as bert_score, which warns), and
 * so does a side whose weights sum to 0 (every token in every reference under idf), where
 * bert_score would divide by zero.
 */
export function greedyMatch(hyp: EmbeddedText, ref: EmbeddedText, slot: number, idf: IdfTable | null): BertScorePRF {
  if (!hasText(hyp) || !hasText(ref)) return { p: 0, r: 0, f: 0 };
  const h = normalised(layerAt(hyp, slot));
  const r = normalised(layerAt(ref, slot));
  const wh = tokenWeights(hyp, idf);
  const wr = tokenWeights(ref, idf);
  const bestForHyp = new Array<number>(h.length).fill(-Infinity);
  const bestForRef = new Array<number>(r.length).fill(-Infinity);
  for (let i = 0; i < h.length; i++) {
    for (let j = 0; j < r.length; j++) {
      const s = dot(h[i] as Float64Array, r[j] as Float64Array);
      if (s > (bestForHyp[i] as number)) bestForHyp[i] = s;
      if (s > (bestForRef[j] as number)) bestForRef[j] = s;
    }
  }
  const p = weightedMean(bestForHyp, wh);
  const rec = weightedMean(bestForRef, wr);
  if (p === null || rec === null) return { p: 0, r: 0, f: 0 };
  const f = p + rec === 0 ? 0 : (2 * p * rec) / (p + rec);
  return { p, r: rec, f: Number.isFinite(f) ? f : 0 };
}

function weightedMean(values: readonly number[], weights: readonly number[]): number | null {
  let sw = 0;
  let s = 0;
  weights.forEach((w, k) => {
    sw += w;
    s += w * (values[k] as number);
  });
  return sw > 0 ? s / sw : null;
}

function layerAt(t: EmbeddedText, slot: number): readonly Float32Array[] {
  const l = t.layers[slot];
  if (l === undefined) throw new Error(`embedded text holds ${t.layers.length} layers, slot ${slot} asked for`);
  if (l.length !== t.ids.length) throw new Error(`embedded text has ${t.ids.length} tokens but ${l.length} vectors`);
  return l;
}

/** Several references: P, R and F each the best over the references (as bert_score's groups). */
export function bestOver(scores: readonly BertScorePRF[]): BertScorePRF {
  if (scores.length === 0) throw new Error('BERTScore needs at least one reference');
  return {
    p: Math.max(...scores.map((s) => s.p)),
    r: Math.max(...scores.map((s) => s.r)),
    f: Math.max(...scores.map((s) => s.f)),
  };
}

/** Baseline values of one layer (bert_score's `rescale_baseline/<lang>/<model>.tsv`). */
export interface BertScoreBaseline {
  readonly p: number;
  readonly r: number;
  readonly f: number;
}

/**
 * The row of `layer` in a baseline file (`LAYER,P,R,F`, comma-separated despite the .tsv name,
 * one row per layer: bert_score reads `iloc[num_layers]`).
 * @throws Error when the file has no such row or a value is not a number.
 */
export function parseBaseline(text: string, layer: number): BertScoreBaseline {
  const lines = text.split(/\r?\n/).filter((l) => l.trim() !== '');
  const header = lines[0]?.split(',').map((c) => c.trim());
  if (header?.join(',') !== 'LAYER,P,R,F') throw new Error(`baseline file does not start with LAYER,P,R,F (got '${lines[0] ?? ''}')`);
  const row = lines.slice(1).map((l) => l.split(',').map(Number)).find((c) => c[0] === layer);
  if (row === undefined) throw new Error(`baseline file has no row for layer ${layer} (it has ${lines.length - 1} layers)`);
  const [, p, r, f] = row;
  if (p === undefined || r === undefined || f === undefined || ![p, r, f].every(Number.isFinite)) throw new Error(`baseline row for layer ${layer} is not four numbers`);
  return { p, r, f };
}

/** (x − b) / (1 − b) for P, R and F. */
export function rescale(s: BertScorePRF, b: BertScoreBaseline): BertScorePRF {
  return { p: (s.p - b.p) / (1 - b.p), r: (s.r - b.r) / (1 - b.r), f: (s.f - b.f) / (1 - b.f) };
}
