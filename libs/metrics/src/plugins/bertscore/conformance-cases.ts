/**
 * BERTScore's reference vectors on hand-made 2-d embeddings, worked by hand from the
 * definition (bert_score's `greedy_cos_idf`). Tokens: `[CLS]` (1,0), `[SEP]` (0,1), a (3,4),
 * b (0,2), c (4,3); unit vectors a = (.6,.8), b = (0,1), c = (.8,.6), so cos(a,c) = .96,
 * cos(a,b) = cos(a,[SEP]) = .8, cos(b,[SEP]) = 1, cos(c,[CLS]) = .8.
 */
import type { EmbeddedText, EmbeddingConformanceCase, EncoderIdentity } from '../../embedding';

const VEC: Record<string, readonly [number, number]> = { '[CLS]': [1, 0], '[SEP]': [0, 1], a: [3, 4], b: [0, 2], c: [4, 3] };
const ID: Record<string, number> = { '[CLS]': 101, '[SEP]': 102, a: 1, b: 2, c: 3 };

/** `[CLS] words… [SEP]` with the vectors above at one layer (hidden state 1). */
function text(...words: string[]): EmbeddedText {
  const tokens = ['[CLS]', ...words, '[SEP]'];
  let at = 0;
  const offsets = tokens.map((t, k): readonly [number, number] => {
    if (k === 0 || k === tokens.length - 1) return [0, 0];
    const o: [number, number] = [at, at + t.length];
    at += t.length + 1;
    return o;
  });
  return {
    text: words.join(' '),
    tokens,
    ids: tokens.map((t) => ID[t] ?? 0),
    special: tokens.map((_, k) => k === 0 || k === tokens.length - 1),
    offsets,
    layers: [tokens.map((t) => Float32Array.from(VEC[t] ?? [0, 0]))],
    layerIndices: [1],
  };
}

const ENCODER: EncoderIdentity = { name: 'hand-2d', sha256: '0'.repeat(64), numLayers: 1, hiddenSize: 2 };
const f1 = (p: number, r: number) => (2 * p * r) / (p + r);

export const BERTSCORE_CONFORMANCE: readonly EmbeddingConformanceCase[] = [
  {
    encoder: ENCODER,
    // P: a→a 1, b→[SEP] 1 (special tokens are candidates) = 1; R: a→a 1, c→a .96 = .98.
    // Second: P: c→a .96; R: a→c .96.
    instances: [
      { hyp: text('a', 'b'), refs: [text('a', 'c')] },
      { hyp: text('c'), refs: [text('a')] },
    ],
    scores: [f1(1, 0.98), 0.96],
    tolerance: 1e-7,
    source: 'worked by hand from bert_score greedy_cos_idf (no idf)',
  },
  {
    encoder: ENCODER,
    options: { idf: true },
    // M = 2 references; df(a) = 2 → idf 0, df(c) = 1 → log(3/2), b unseen → log 3.
    // First: P = b's 1 (a weighs 0) = 1; R = c's .96 = .96. Second: the reference's only word
    // weighs 0, so R is 0/0: F = 0 (bert_score fills its NaN F with 0).
    instances: [
      { hyp: text('a', 'b'), refs: [text('a', 'c')] },
      { hyp: text('c'), refs: [text('a')] },
    ],
    scores: [f1(1, 0.96), 0],
    tolerance: 1e-7,
    source: 'worked by hand: idf log((M+1)/(df+1)) of bert_score get_idf_dict, special tokens 0',
  },
  {
    encoder: ENCODER,
    options: { rescale: true, baselineTsv: 'LAYER,P,R,F\n0,0.1,0.1,0.1\n1,0.5,0.6,0.5\n' },
    // Two references: against (a c) P 1, R .98; against (b) P .9 (a→b .8, b→b 1), R 1.
    // Best of each: P 1, R 1, F f1(1, .98); rescaled with the layer-1 row: (F − .5) / .5.
    instances: [{ hyp: text('a', 'b'), refs: [text('a', 'c'), text('b')] }],
    scores: [(f1(1, 0.98) - 0.5) / 0.5],
    tolerance: 1e-7,
    source: 'worked by hand: best over references per P/R/F, then (x − b)/(1 − b) with the baseline row of the layer',
  },
];
