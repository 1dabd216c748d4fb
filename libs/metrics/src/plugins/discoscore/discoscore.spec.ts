/**
 * DiscoScore's graphs and scores on small texts computed by hand from the paper's definitions
 * (Zhao, Strube & Eger 2023 §3: F = AZ, DS-Focus = (1/N) Σ_shared ‖F^hyp − F^ref‖ (squared as
 * the authors' code), A_ij = 1/(j − i) or shared/(j − i), Ŝ = (A + I)S, cosine of the
 * mean-max-min-sum concatenation).
 */
import type { EmbeddedText } from '../../embedding';
import { runEmbeddingMetric } from '../embedding-common/common';
import { syntheticEncoder } from '../embedding-common/synthetic';
import { DS_FOCUS_PLUGIN, DS_SENT_PLUGIN, tokenSentences } from './discoscore.plugin';
import { entityFocusGraph, focusGraph, nounLemmas, sentenceGraph, tagText } from './foci';

const enc = syntheticEncoder(2, 2);

/**
 * A WordPiece-like encoding of `text`: words and punctuation marks, `split` word → pieces
 * (the first piece plain, the others `##…`), `[CLS]` and `[SEP]` around; the vector of token k
 * (at the last layer, 2) is `vector(token, k)`.
 */
function encode(text: string, vector: (token: string, k: number) => number[], split: Record<string, string[]> = {}): EmbeddedText {
  const tokens = ['[CLS]'];
  const offsets: [number, number][] = [[0, 0]];
  for (const m of text.matchAll(/\w+|[^\s\w]/g)) {
    const w = m[0];
    const start = m.index;
    const pieces = split[w] ?? [w];
    let at = start;
    pieces.forEach((p, i) => {
      const len = p.replace(/^##/, '').length;
      tokens.push(i === 0 ? p : p.startsWith('##') ? p : `##${p}`);
      offsets.push([at, at + len]);
      at += len;
    });
  }
  tokens.push('[SEP]');
  offsets.push([0, 0]);
  const vecs = tokens.map((t, k) => Float32Array.from(vector(t, k)));
  return {
    text,
    tokens,
    ids: tokens.map((_, k) => k),
    special: tokens.map((_, k) => k === 0 || k === tokens.length - 1),
    offsets,
    layers: [vecs],
    layerIndices: [2],
  };
}

describe('DiscoScore graphs (hand cases from the definitions)', () => {
  it('focus graph: one row per noun lemma, the last word piece of each occurrence', () => {
    // [CLS] The cat saw the cat ##s . [SEP]: "cat" occurs at 2 and as "cats" ending at 6.
    const t = encode('The cat saw the cats.', () => [1, 0], { cats: ['cat', '##s'] });
    expect(t.tokens).toEqual(['[CLS]', 'The', 'cat', 'saw', 'the', 'cat', '##s', '.', '[SEP]']);
    expect(focusGraph(t)).toEqual({ foci: ['cat'], positions: [[2, 6]] });
  });

  it('sentence graph U and W: 1/(j − i) or shared foci/(j − i) above the diagonal', () => {
    // s0 {cat, dog}, s1 {bird}, s2 {cat, dog}: only (0, 2) share, two foci at distance 2.
    const words = tagText('The cat and the dog slept. A bird sang. The cat saw the dog.');
    expect(sentenceGraph(words, 'U')).toEqual([
      [0, 0, 0.5],
      [0, 0, 0],
      [0, 0, 0],
    ]);
    expect(sentenceGraph(words, 'W')).toEqual([
      [0, 0, 1],
      [0, 0, 0],
      [0, 0, 0],
    ]);
    // s0 {cat}, s1 {dog}, s2 {cat, dog}: (0, 2) shares cat at distance 2, (1, 2) dog at 1.
    expect(sentenceGraph(tagText('The cat slept. A dog barked. The cat and the dog played.'), 'U')).toEqual([
      [0, 0, 0.5],
      [0, 0, 1],
      [0, 0, 0],
    ]);
  });

  it('assigns [CLS] to the first sentence and no sentence to [SEP]', () => {
    const t = encode('The cat sat. The cat slept.', () => [1, 0]);
    const { sentenceOf, count } = tokenSentences(t, tagText(t.text));
    expect(count).toBe(2);
    // [CLS] The cat sat . | The cat slept . | [SEP]
    expect(sentenceOf).toEqual([0, 0, 0, 0, 0, 1, 1, 1, 1, -1]);
  });
});

describe('DS-Focus (hand cases)', () => {
  // Every token (1, 0) except "cat", whose vector is given per text; vectors are normalised first.
  const text = (s: string, cat: number[]): EmbeddedText => encode(s, (t) => (t === 'cat' ? cat : [1, 0]));

  it('sums squared distances of shared foci over the hypothesis foci; lower is better', () => {
    // hyp foci {cat, mat}; ref foci {cat, dog}; shared: cat. F_cat: (3,4)/5 vs (0,1):
    // ‖(0.6, −0.2)‖² = 0.4, over N = 2 hypothesis foci: 0.2 (√0.4/2 with the plain norm).
    const hyp = text('The cat sat on the mat.', [3, 4]);
    const ref = text('The cat saw a dog.', [0, 1]);
    const r = runEmbeddingMetric(DS_FOCUS_PLUGIN, [{ hyp, refs: [ref] }], {}, enc);
    expect(r.scores[0]?.score).toBeCloseTo(0.2, 9);
    expect(runEmbeddingMetric(DS_FOCUS_PLUGIN, [{ hyp, refs: [ref] }], { norm: 'l2' }, enc).scores[0]?.score).toBeCloseTo(Math.sqrt(0.4) / 2, 9);
    expect(DS_FOCUS_PLUGIN.definition.higherIsBetter).toBe(false);
    // A second reference equal to the hypothesis scores 0: the mean over references is 0.1.
    expect(runEmbeddingMetric(DS_FOCUS_PLUGIN, [{ hyp, refs: [ref, hyp] }], {}, enc).scores[0]?.score).toBeCloseTo(0.1, 9);
  });

  it('counts a focus\'s frequency (F sums its occurrences) and is 0 when no focus is shared', () => {
    // hyp "cat … cat": F_cat = 2·(1,0) = (2,0); ref one cat (1,0): ‖(1,0)‖² = 1 over N = 1
    // (+1e-9 in the denominator, as the code).
    const hyp = text('The cat saw the cat.', [1, 0]);
    const ref = text('The cat slept.', [1, 0]);
    expect(runEmbeddingMetric(DS_FOCUS_PLUGIN, [{ hyp, refs: [ref] }], {}, enc).scores[0]?.score).toBeCloseTo(1 / (1 + 1e-9), 12);
    const other = text('A dog barked.', [1, 0]);
    expect(runEmbeddingMetric(DS_FOCUS_PLUGIN, [{ hyp, refs: [other] }], {}, enc).scores[0]?.score).toBe(0);
  });
});

describe('DS-SENT (hand cases)', () => {
  // Tokens of the first sentence (and [CLS]) get (1, 0), of the second (0, 1).
  const twoSentences = (s: string): EmbeddedText => {
    const cut = s.indexOf('.') + 1;
    let pos = 0;
    const t = encode(s, () => [0, 0]);
    const vecs = t.tokens.map((_, k) => {
      pos = (t.offsets[k] as [number, number])[0];
      return Float32Array.from(k === 0 || (k < t.tokens.length - 1 && pos < cut) ? [1, 0] : [0, 1]);
    });
    return { ...t, layers: [vecs] };
  };

  it('one-sentence reference: the mean cosine of its row with each aggregated hypothesis row', () => {
    // hyp s0 {cat}, s1 {cat}: A01 = 1, S0 = (1,0), S1 = (0,1); Ŝ0 = (1,1)/√2, Ŝ1 = (0,1).
    // ref: one sentence, all (1,0). Score = (cos((1,0),(1,1)/√2) + cos((1,0),(0,1)))/2 = (1/√2)/2.
    const hyp = twoSentences('The cat sat. The cat slept.');
    const ref = encode('The cat sat.', () => [1, 0]);
    expect(runEmbeddingMetric(DS_SENT_PLUGIN, [{ hyp, refs: [ref] }], {}, enc).scores[0]?.score).toBeCloseTo(Math.SQRT1_2 / 2, 9);
  });

  it('several sentences: cosine of the [min, mean, max, sum] concatenations', () => {
    // hyp rows as above: Ŝ0 = (a, a), a = 1/√2, Ŝ1 = (0, 1).
    //   min (0, a), mean (a/2, (a+1)/2), max (a, 1), sum (a, a+1).
    // ref "The cat sat. A dog ran.": no shared focus, A = 0, rows (1,0) and (0,1) →
    //   min (0,0), mean (.5,.5), max (1,1), sum (1,1).
    const a = Math.SQRT1_2;
    const g = [0, a, a / 2, (a + 1) / 2, a, 1, a, a + 1];
    const h = [0, 0, 0.5, 0.5, 1, 1, 1, 1];
    const dotGH = g.reduce((s, x, i) => s + x * (h[i] as number), 0);
    const expected = dotGH / Math.sqrt(g.reduce((s, x) => s + x * x, 0) * h.reduce((s, x) => s + x * x, 0));
    const hyp = twoSentences('The cat sat. The cat slept.');
    const ref = twoSentences('The cat sat. A dog ran.');
    expect(runEmbeddingMetric(DS_SENT_PLUGIN, [{ hyp, refs: [ref] }], {}, enc).scores[0]?.score).toBeCloseTo(expected, 9);
    // W weighs by shared foci: one shared focus here, so W = U.
    expect(runEmbeddingMetric(DS_SENT_PLUGIN, [{ hyp, refs: [ref] }], { graph: 'W' }, enc).scores[0]?.score).toBeCloseTo(expected, 9);
    // Identical texts: cosine 1.
    expect(runEmbeddingMetric(DS_SENT_PLUGIN, [{ hyp, refs: [hyp] }], {}, enc).scores[0]?.score).toBeCloseTo(1, 12);
  });

  it('signatures record the choices', () => {
    expect(DS_SENT_PLUGIN.signature({ graph: 'W' }, enc, 1)).toMatch(/^discoscore-sent\|model:synthetic@abababababab\|layer:2\|focus:NN-wink\|graph:W\|refs:mean\|nrefs:1\|version:podium-/);
    expect(DS_FOCUS_PLUGIN.signature({}, enc, 2)).toMatch(/^discoscore-focus\|model:synthetic@abababababab\|layer:2\|focus:NN-wink\|norm:squared\|refs:mean\|nrefs:2\|version:podium-/);
  });
});

describe('DS-Focus with Entity foci (hand cases from the paper\'s definition and the authors\' data_process)', () => {
  it('joins nouns whose word vectors have cosine > threshold into one entity per connected component', () => {
    // a–b and b–c have cosine cos 30° ≈ 0.866 > 0.8, a–c only 0.5: still one entity through b
    // (a connected component, as networkx's connected_components); d has no vector and stays alone.
    const s = Math.sqrt(3) / 2;
    const vectors: Record<string, number[]> = { a: [1, 0], b: [s, 0.5], c: [0.5, s] };
    const nn = { foci: ['a', 'b', 'c', 'd'], positions: [[1], [2, 7], [3], [4]] };
    expect(entityFocusGraph(nn, (w) => vectors[w], 0.8)).toEqual({ foci: ['a-b-c', 'd'], positions: [[1, 2, 7, 3], [4]] });
    // Above the threshold nothing joins: the NN foci come back.
    expect(entityFocusGraph(nn, (w) => vectors[w], 0.9)).toEqual(nn);
  });

  it('scores the entity\'s summed embedding: car and truck as one focus', () => {
    // Vectors: "car" (3,4) in the hypothesis, (0,1) in the reference; every other token (1,0);
    // normalised first. Word vectors: car (1,0), truck (0.9,0.1): cosine 0.994 > 0.8.
    // Entity: one focus "car-truck" in each text, F^hyp = (0.6,0.8) + (1,0) = (1.6,0.8),
    // F^ref = (0,1) + (1,0) = (1,1): ‖(0.6,−0.2)‖² = 0.4 over N = 1 hypothesis focus.
    // NN: car 0.4, truck 0, over N = 2 (+1e-9, as the code): 0.2.
    const hyp = encode('The car hit the truck.', (t) => (t === 'car' ? [3, 4] : [1, 0]));
    const ref = encode('The truck hit the car.', (t) => (t === 'car' ? [0, 1] : [1, 0]));
    const wordVectors = { car: [1, 0], truck: [0.9, 0.1], hit: [0, 1] };
    expect(nounLemmas([hyp.text, ref.text])).toEqual(new Set(['car', 'truck']));
    const entity = runEmbeddingMetric(DS_FOCUS_PLUGIN, [{ hyp, refs: [ref] }], { focus: 'Entity', wordVectors }, enc);
    expect(entity.scores[0]?.score).toBeCloseTo(0.4 / (1 + 1e-9), 12);
    expect(runEmbeddingMetric(DS_FOCUS_PLUGIN, [{ hyp, refs: [ref] }], {}, enc).scores[0]?.score).toBeCloseTo(0.4 / (2 + 1e-9), 12);
    // A threshold above their cosine keeps them apart: the NN score.
    expect(runEmbeddingMetric(DS_FOCUS_PLUGIN, [{ hyp, refs: [ref] }], { focus: 'Entity', wordVectors, threshold: 0.995 }, enc).scores[0]?.score).toBeCloseTo(0.4 / (2 + 1e-9), 12);
    expect(entity.signature).toMatch(/^discoscore-focus\|model:synthetic@abababababab\|layer:2\|focus:Entity-wink@3:[0-9a-f]{8}\|threshold:0\.8\|norm:squared\|refs:mean\|nrefs:1\|version:podium-/);
  });

  it('needs word vectors for Entity foci', () => {
    expect(() => DS_FOCUS_PLUGIN.definition.options.parse({ focus: 'Entity' })).toThrow(/focus Entity needs `wordVectors`/);
  });
});
