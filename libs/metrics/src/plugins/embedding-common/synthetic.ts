/**
 * Test-only: embedded texts built by hand from seeded random vectors, in the shape an encoder
 * writes them (`[CLS] … [SEP]`, WordPiece `##` pieces, punctuation), for the reference specs.
 */
import type { EmbeddedText, EncoderIdentity } from '../../embedding';
import { seededRandom } from '../../transport/lp-reference';

export const VOCAB = ['the', 'cat', 'sat', 'on', 'mat', 'dog', '##s', '##ing', ',', '.', '!', 'a', 'ran', 'big', 'house', '##ed', 'red', 'of', 'soldiers', 'killed'];
export const CLS = 101;
export const SEP = 102;

export function syntheticEncoder(numLayers = 6, hiddenSize = 8): EncoderIdentity {
  return { name: 'synthetic', sha256: 'ab'.repeat(32), numLayers, hiddenSize };
}

/** A random text of `len` vocabulary tokens between [CLS] and [SEP], vectors at every hidden state. */
export function randomText(rand: () => number, len: number, enc: EncoderIdentity, layerIndices?: readonly number[]): EmbeddedText {
  const words = Array.from({ length: len }, () => Math.floor(rand() * VOCAB.length));
  const tokens = ['[CLS]', ...words.map((w) => VOCAB[w] as string), '[SEP]'];
  const ids = [CLS, ...words.map((w) => w + 1000), SEP];
  const layersWanted = layerIndices ?? Array.from({ length: enc.numLayers + 1 }, (_, k) => k);
  const layers = layersWanted.map(() => tokens.map(() => Float32Array.from({ length: enc.hiddenSize }, () => rand() * 2 - 1)));
  let pos = 0;
  const offsets = tokens.map((t, k): readonly [number, number] => {
    if (k === 0 || k === tokens.length - 1) return [0, 0];
    const start = pos;
    pos += t.length + 1;
    return [start, start + t.length];
  });
  return { text: words.map((w) => VOCAB[w]).join(' '), tokens, ids, special: tokens.map((_, k) => k === 0 || k === tokens.length - 1), offsets, layers, layerIndices: [...layersWanted] };
}

export { seededRandom };
