/**
 * MoverScore's reference vectors on hand-made 3-d embeddings of a 5-layer encoder (v1 reads
 * layers 1–5, v2 layer 5). The expected scores were computed once (a throwaway script calling its referenceV1/referenceV2) with the deliberately plain
 * recomputation of `moverscore.reference.spec.ts` (after the authors' `moverscore.py` /
 * `moverscore_v2.py`, `get_idf_dict` over these instances, the transport solved as a linear
 * programme by HiGHS) and pasted here as literals: they do not come from the plugin.
 */
import type { EmbeddedText, EmbeddingConformanceCase, EncoderIdentity } from '../../embedding';

type V3 = readonly [number, number, number];
/** Per token, its vector at hidden states 1…5. */
const VEC: Record<string, readonly [V3, V3, V3, V3, V3]> = {
  '[CLS]': [[1, 0, 0], [1, 1, 0], [1, 0, 1], [2, 1, 0], [1, 0, 0]],
  '[SEP]': [[0, 0, 1], [0, 1, 1], [1, 0, 2], [0, 1, 2], [0, 0, 1]],
  the: [[1, 1, 1], [2, 1, 1], [1, 2, 1], [1, 1, 2], [1, 1, 1]],
  cat: [[3, 1, 0], [2, 2, 1], [3, 0, 1], [4, 1, 1], [3, 1, 2]],
  dog: [[2, 1, 1], [3, 2, 0], [2, 1, 2], [3, 2, 1], [2, 2, 2]],
  sat: [[0, 2, 1], [1, 3, 0], [0, 2, 2], [1, 2, 3], [0, 3, 1]],
  ran: [[1, 2, 0], [0, 3, 1], [1, 1, 2], [0, 2, 3], [1, 3, 0]],
  '.': [[0, 1, 0], [0, 1, 0], [0, 1, 0], [0, 1, 0], [0, 1, 0]],
};
const ID: Record<string, number> = { '[CLS]': 101, '[SEP]': 102, the: 1, cat: 2, dog: 3, sat: 4, ran: 5, '.': 6 };

/** `[CLS] words… [SEP]` with the vectors above at hidden states 1–5. */
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
    layers: [0, 1, 2, 3, 4].map((l) => tokens.map((t) => Float32Array.from((VEC[t] ?? [])[l] ?? [0, 0, 0]))),
    layerIndices: [1, 2, 3, 4, 5],
  };
}

const ENCODER: EncoderIdentity = { name: 'hand-3d-5l', sha256: '1'.repeat(64), numLayers: 5, hiddenSize: 3 };

/**
 * One reference each, for the corpus-idf cases: the shared direction check (hypotheses replaced
 * by their references) then sees equal hypothesis and reference idf tables.
 */
export const MOVERSCORE_CONFORMANCE_INSTANCES = [
  { hyp: text('the', 'cat', 'sat', '.'), refs: [text('the', 'cat', 'sat')] },
  { hyp: text('the', 'dog', 'ran'), refs: [text('the', 'cat', 'ran', '.')] },
  { hyp: text('dog', 'sat'), refs: [text('the', 'dog', 'sat')] },
];

/** Two references each, for the uniform-idf case. */
export const MOVERSCORE_CONFORMANCE_MULTI_REF = [
  { hyp: text('dog', 'sat'), refs: [text('the', 'dog', 'sat'), text('cat', 'ran')] },
  { hyp: text('the', 'dog', 'ran'), refs: [text('the', 'cat', 'ran', '.'), text('dog', 'ran')] },
];

export const MOVERSCORE_CONFORMANCE: readonly EmbeddingConformanceCase[] = [
  {
    encoder: ENCODER,
    instances: MOVERSCORE_CONFORMANCE_INSTANCES,
    // `[CLS]`/`[SEP]` (in every text) weigh 0 under corpus idf; '.' is dropped as punctuation.
    scores: [0.9035892829204327, 0.9356039088834073, 0.9051636562083198],
    tolerance: 1e-9,
    source: 'moverscore.reference.spec.ts referenceV1 (moverscore.py: v1, corpus idf, unigrams, mean over references), transport by HiGHS LP',
  },
  {
    encoder: ENCODER,
    options: { ngram: 2, idf: 'uniform', refsAggregation: 'max' },
    instances: MOVERSCORE_CONFORMANCE_MULTI_REF,
    scores: [0.9776740161819699, 0.9901742198029763],
    tolerance: 1e-9,
    source: 'moverscore.reference.spec.ts referenceV1 (moverscore.py: v1, uniform idf, bigrams, max over references), transport by HiGHS LP',
  },
  {
    encoder: ENCODER,
    options: { variant: 'v2' },
    instances: MOVERSCORE_CONFORMANCE_INSTANCES,
    scores: [0.7835469730116635, 0.7693175510838378, 0.8481942664499875],
    tolerance: 1e-9,
    source: 'moverscore.reference.spec.ts referenceV2 (moverscore_v2.py: last layer, corpus idf, mean over references), transport by HiGHS LP',
  },
];
