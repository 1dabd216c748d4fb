/**
 * XMoverScore's reference vectors on hand-made 3-d embeddings at hidden state 8 (the default
 * `layer`) of an 8-layer encoder. The expected scores were computed once with the plain
 * recomputation of `xmoverscore.reference.spec.ts` (after the authors' `score_utils_2.py`:
 * mapping, n-gram means, the (n+m)-point histograms, `topk` noise removal; the transport solved
 * as a linear programme by HiGHS) by a throwaway script calling its `reference`, and pasted here
 * as literals: they do not come from the plugin.
 */
import type { EmbeddedInstance, EmbeddedText, EmbeddingConformanceCase, EncoderIdentity } from '../../embedding';

/** A text of hand-made vectors (one per token, `[CLS]` and `[SEP]` included) at hidden state 8. */
function text(words: string, vectors: readonly (readonly [number, number, number])[]): EmbeddedText {
  const tokens = ['[CLS]', ...words.split(' '), '[SEP]'];
  if (tokens.length !== vectors.length) throw new Error(`xmoverscore conformance: ${tokens.length} tokens, ${vectors.length} vectors`);
  let at = 0;
  const offsets = tokens.map((t, k): readonly [number, number] => {
    if (k === 0 || k === tokens.length - 1) return [0, 0];
    const o: [number, number] = [at, at + t.length];
    at += t.length + 1;
    return o;
  });
  return {
    text: words,
    tokens,
    ids: tokens.map((_, k) => k),
    special: tokens.map((_, k) => k === 0 || k === tokens.length - 1),
    offsets,
    layers: [vectors.map((v) => Float32Array.from(v))],
    layerIndices: [8],
  };
}

const ENCODER: EncoderIdentity = { name: 'hand-3d-8l', sha256: '2'.repeat(64), numLayers: 8, hiddenSize: 3 };

/** The instances every case scores (sources in one "language", hypotheses in another). */
export const XMOVERSCORE_CONFORMANCE_INSTANCES: readonly EmbeddedInstance[] = [
  {
    source: text('die Katze', [[1, 0, 0], [3, 1, 0], [0, 2, 1], [0, 0, 1]]),
    hyp: text('the cat', [[1, 0, 1], [2, 1, 1], [0, 3, 1], [0, 1, 1]]),
    refs: [],
    hypLmLogProb: -2.5,
  },
  {
    source: text('der Hund lief', [[1, 0, 0], [2, 2, 1], [1, 3, 0], [0, 1, 2], [0, 0, 1]]),
    hyp: text('the dog ran', [[1, 1, 0], [2, 1, 2], [1, 2, 1], [1, 1, 3], [0, 1, 1]]),
    refs: [],
    hypLmLogProb: -1.75,
  },
  {
    source: text('Haus', [[1, 0, 0], [2, 0, 3], [0, 0, 1]]),
    hyp: text('a big house', [[1, 1, 1], [0, 2, 1], [3, 1, 0], [2, 0, 2], [1, 0, 1]]),
    refs: [],
    hypLmLogProb: -3,
  },
];

/** CLP's projection W (e ↦ eW), hand-made. */
const PROJECTION = [
  [0, 1, 0],
  [1, 0, 0],
  [0, 0.5, 1],
];
/** UMD's bias direction v_B (a unit vector). */
const BIAS = [0.6, 0, 0.8];

export const XMOVERSCORE_CONFORMANCE: readonly EmbeddingConformanceCase[] = [
  {
    encoder: ENCODER,
    instances: XMOVERSCORE_CONFORMANCE_INSTANCES,
    scores: [0.5875169890439677, 0.6362588834837895, 0.4192782788889394],
    tolerance: 1e-9,
    source: 'xmoverscore.reference.spec.ts reference (score_utils_2.py: no mapping, bigrams, dropout 0.3), transport by HiGHS LP',
  },
  {
    encoder: ENCODER,
    options: { mapping: 'CLP', projection: PROJECTION, ngram: 1, lm: true },
    instances: XMOVERSCORE_CONFORMANCE_INSTANCES,
    scores: [0.28301783211121334, 0.4055841420330939, -0.08845787440872144],
    tolerance: 1e-9,
    source: 'xmoverscore.reference.spec.ts reference (CLP, unigrams, dropout 0.3) + 0.1 × hypLmLogProb (demo.py metric_combination), transport by HiGHS LP',
  },
  {
    encoder: ENCODER,
    options: { mapping: 'UMD', bias: BIAS, dropout: 0 },
    instances: XMOVERSCORE_CONFORMANCE_INSTANCES,
    scores: [0.2459083358650873, 0.05797088036352349, -0.22992043496740422],
    tolerance: 1e-9,
    source: 'xmoverscore.reference.spec.ts reference (UMD, bigrams, no dropout), transport by HiGHS LP',
  },
];
