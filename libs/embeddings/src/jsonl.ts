import type { EmbeddedText } from '@podium/metrics';

/** One line of `podium embed`: a text, its tokens and their vectors at the requested layers. */
export interface EmbeddedJson {
  text: string;
  tokens: string[];
  ids: number[];
  special: boolean[];
  offsets: [number, number][];
  /** Hidden-state indices of `vectors` (0 = embedding output). */
  layers: number[];
  /** `vectors[l][t]`: token t's vector at `layers[l]`, float32 values written as shortest round-trip decimals. */
  vectors: number[][][];
}

/** The JSON object `podium embed` writes for one embedded text. */
export function embeddedTextToJson(t: EmbeddedText): EmbeddedJson {
  return {
    text: t.text,
    tokens: [...t.tokens],
    ids: [...t.ids],
    special: [...t.special],
    offsets: t.offsets.map(([a, b]) => [a, b]),
    layers: [...t.layerIndices],
    vectors: t.layers.map((layer) => layer.map((v) => Array.from(v))),
  };
}

/** An {@link EmbeddedText} back from a `podium embed` line (vectors as float32, as written). */
export function parseEmbeddedJson(line: string): EmbeddedText {
  const j = JSON.parse(line) as EmbeddedJson;
  return {
    text: j.text,
    tokens: j.tokens,
    ids: j.ids,
    special: j.special,
    offsets: j.offsets,
    layerIndices: j.layers,
    layers: j.vectors.map((layer) => layer.map((v) => Float32Array.from(v))),
  };
}
