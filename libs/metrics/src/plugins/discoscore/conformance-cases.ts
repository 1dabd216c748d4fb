/**
 * DiscoScore's reference vectors: the hand cases of `discoscore.spec.ts`, worked from the
 * paper's definitions (Zhao, Strube & Eger 2023 §3: F = AZ, DS-Focus = (1/N) Σ_shared
 * ‖F^hyp − F^ref‖², squared as the authors' code with +1e-9 in the denominator; A_ij = 1/(j − i),
 * Ŝ = (A + I)S, cosine of the [min, mean, max, sum] concatenation, or the mean row cosine when
 * the reference has one sentence). 2-d vectors at the last hidden state (2) of a 2-layer encoder;
 * foci and sentences from the wink-nlp tagger, as the plugin reads them.
 */
import type { EmbeddedText, EmbeddingConformanceCase, EncoderIdentity } from '../../embedding';

const ENCODER: EncoderIdentity = { name: 'hand-2d-2l', sha256: '3'.repeat(64), numLayers: 2, hiddenSize: 2 };

/** A WordPiece-like encoding of `text` (words and punctuation marks, `[CLS]`/`[SEP]` around); token k's vector is `vector(token, k)`. */
function encode(text: string, vector: (token: string, k: number) => readonly number[]): EmbeddedText {
  const tokens = ['[CLS]'];
  const offsets: [number, number][] = [[0, 0]];
  for (const m of text.matchAll(/\w+|[^\s\w]/g)) {
    tokens.push(m[0]);
    offsets.push([m.index, m.index + m[0].length]);
  }
  tokens.push('[SEP]');
  offsets.push([0, 0]);
  return {
    text,
    tokens,
    ids: tokens.map((_, k) => k),
    special: tokens.map((_, k) => k === 0 || k === tokens.length - 1),
    offsets,
    layers: [tokens.map((t, k) => Float32Array.from(vector(t, k)))],
    layerIndices: [2],
  };
}

/** Every token (1, 0) except "cat", whose vector is given. */
const withCat = (s: string, cat: readonly number[]): EmbeddedText => encode(s, (t) => (t === 'cat' ? cat : [1, 0]));

/** `[CLS]` and the first sentence's tokens (1, 0), the rest (0, 1). */
function twoSentences(s: string): EmbeddedText {
  const cut = s.indexOf('.') + 1;
  const t = encode(s, () => [0, 0]);
  const vecs = t.tokens.map((_, k) => Float32Array.from(k === 0 || (k < t.tokens.length - 1 && (t.offsets[k] as readonly [number, number])[0] < cut) ? [1, 0] : [0, 1]));
  return { ...t, layers: [vecs] };
}

const FOCUS_INSTANCES = [
  // hyp foci {cat, mat}, ref {cat, dog}; shared cat: F = (.6, .8) against (0, 1), ‖(.6, −.2)‖² = .4 over 2 hypothesis foci.
  { hyp: withCat('The cat sat on the mat.', [3, 4]), refs: [withCat('The cat saw a dog.', [0, 1])] },
  // "cat" twice: F_cat = (2, 0) against (1, 0): 1 over 1 hypothesis focus.
  { hyp: withCat('The cat saw the cat.', [1, 0]), refs: [withCat('The cat slept.', [1, 0])] },
  // No focus shared: 0 (the code's choice).
  { hyp: withCat('The cat saw the cat.', [1, 0]), refs: [withCat('A dog barked.', [1, 0])] },
];

export const DS_FOCUS_CONFORMANCE: readonly EmbeddingConformanceCase[] = [
  {
    encoder: ENCODER,
    instances: FOCUS_INSTANCES,
    scores: [0.4 / (2 + 1e-9), 1 / (1 + 1e-9), 0],
    tolerance: 1e-9,
    source: 'worked by hand (discoscore.spec.ts DS-Focus hand cases): squared distance of shared foci over the hypothesis foci + 1e-9',
  },
  {
    encoder: ENCODER,
    options: { norm: 'l2' },
    instances: FOCUS_INSTANCES,
    scores: [Math.sqrt(0.4) / (2 + 1e-9), 1 / (1 + 1e-9), 0],
    tolerance: 1e-9,
    source: 'worked by hand (discoscore.spec.ts DS-Focus hand cases): plain norm of shared foci over the hypothesis foci + 1e-9',
  },
];

// hyp "The cat sat. The cat slept.": S0 = (1, 0), S1 = (0, 1), A01 = 1 (cat shared), so
// Ŝ0 = (a, a), a = 1/√2, Ŝ1 = (0, 1): min (0, a), mean (a/2, (a+1)/2), max (a, 1), sum (a, a+1).
// ref "The cat sat. A dog ran.": no shared focus, rows (1, 0), (0, 1): min (0, 0), mean (.5, .5), max (1, 1), sum (1, 1).
const A = Math.SQRT1_2;
const G = [0, A, A / 2, (A + 1) / 2, A, 1, A, A + 1];
const H = [0, 0, 0.5, 0.5, 1, 1, 1, 1];
const norm = (v: readonly number[]): number => Math.sqrt(v.reduce((s, x) => s + x * x, 0));
const TWO_SENTENCE_COSINE = G.reduce((s, x, i) => s + x * (H[i] as number), 0) / (norm(G) * norm(H));

export const DS_SENT_CONFORMANCE: readonly EmbeddingConformanceCase[] = [
  {
    encoder: ENCODER,
    instances: [
      // One-sentence reference, all (1, 0): mean of cos((1,0), (a,a)) = a and cos((1,0), (0,1)) = 0.
      { hyp: twoSentences('The cat sat. The cat slept.'), refs: [encode('The cat sat.', () => [1, 0])] },
      { hyp: twoSentences('The cat sat. The cat slept.'), refs: [twoSentences('The cat sat. A dog ran.')] },
    ],
    scores: [A / 2, TWO_SENTENCE_COSINE],
    tolerance: 1e-9,
    source: 'worked by hand (discoscore.spec.ts DS-SENT hand cases): Ŝ = (A + I)S, U graph, row cosines or the cosine of [min, mean, max, sum]',
  },
];
