import type { EmbeddedText } from '../../embedding';
import { runEmbeddingMetric } from '../embedding-common/common';
import { randomText, seededRandom, syntheticEncoder } from '../embedding-common/synthetic';
import { fitXMoverMapping, formatXMoverMapping, mutualNearestNeighbours, parseXMoverMapping, wordVectors } from './mapping';
import { dropSmallFlows, ngramMeans, remap, XMOVERSCORE_PLUGIN } from './xmoverscore.plugin';

const enc = syntheticEncoder(9, 6);

/** A rotation close to the identity: Givens rotations by `angle` on coordinate pairs (0,1), (2,3), … */
function smallRotation(d: number, angle: number): number[][] {
  const q = Array.from({ length: d }, (_, i) => Array.from({ length: d }, (_, j) => (i === j ? 1 : 0)));
  for (let i = 0; i + 1 < d; i += 2) {
    (q[i] as number[])[i] = Math.cos(angle);
    (q[i] as number[])[i + 1] = Math.sin(angle);
    (q[i + 1] as number[])[i] = -Math.sin(angle);
    (q[i + 1] as number[])[i + 1] = Math.cos(angle);
  }
  return q;
}

/** `t` with every vector at `layer` replaced by f(vector). */
function mapText(t: EmbeddedText, layer: number, f: (v: number[], k: number) => number[]): EmbeddedText {
  const p = t.layerIndices.indexOf(layer);
  return { ...t, layers: t.layers.map((l, li) => (li === p ? l.map((v, k) => Float32Array.from(f(Array.from(v), k))) : l)) };
}

describe('XMoverScore', () => {
  it('drops the flows below the k-th smallest nonzero one (hand case)', () => {
    // nonzero flows 0.1, 0.2, 0.3, 0.4; rate 0.5 → k = 2, threshold 0.2: only 0.1 goes.
    expect(Array.from(dropSmallFlows(Float64Array.from([0.1, 0.2, 0.3, 0, 0.4]), 0.5))).toEqual([0, 0.2, 0.3, 0, 0.4]);
    // rate 0.3 of 4 → k = max(1, 1) = 1: the smallest is the threshold, nothing goes.
    expect(Array.from(dropSmallFlows(Float64Array.from([0.1, 0.2, 0.3, 0.4]), 0.3))).toEqual([0.1, 0.2, 0.3, 0.4]);
  });

  it('remaps by CLP (eW) and UMD (e − (e·v)v), and averages n-grams (hand cases)', () => {
    const e = Float64Array.from([1, 2]);
    expect(Array.from(remap(e, { projection: Float64Array.from([0, 1, 1, 0]), dim: 2 }))).toEqual([2, 1]);
    expect(Array.from(remap(e, { bias: Float64Array.from([1, 0]), dim: 2 }))).toEqual([0, 2]);
    expect(() => remap(Float64Array.from([1, 2, 3]), { bias: Float64Array.from([1, 0]), dim: 2 })).toThrow(/2-dimensional/);
    expect(ngramMeans([Float64Array.from([0, 2]), Float64Array.from([2, 4]), Float64Array.from([4, 0])], 2).map((v) => Array.from(v))).toEqual([
      [1, 3],
      [3, 2],
    ]);
    expect(ngramMeans([Float64Array.from([0, 2])], 3).map((v) => Array.from(v))).toEqual([[0, 2]]);
  });

  it('scores a hypothesis whose vectors equal the source\'s 1, needs a source, and adds 0.1 × the LM log-probability', () => {
    const t = randomText(seededRandom(3), 5, enc);
    const same = runEmbeddingMetric(XMOVERSCORE_PLUGIN, [{ source: t, hyp: t, refs: [], hypLmLogProb: -2 }], { lm: true }, enc);
    expect((same.scores[0] as { score: number }).score).toBeCloseTo(1 - 0.2, 12);
    expect(() => runEmbeddingMetric(XMOVERSCORE_PLUGIN, [{ hyp: t, refs: [] }], {}, enc)).toThrow(/has no source/);
    expect(() => runEmbeddingMetric(XMOVERSCORE_PLUGIN, [{ source: t, hyp: t, refs: [] }], { lm: true }, enc)).toThrow(/no finite hypLmLogProb/);
  });

  it('validates options and writes the mapping\'s fingerprint in the signature', () => {
    expect(() => XMOVERSCORE_PLUGIN.definition.options.parse({ mapping: 'CLP' })).toThrow(/needs `projection`/);
    expect(() => XMOVERSCORE_PLUGIN.definition.options.parse({ mapping: 'UMD' })).toThrow(/needs `bias`/);
    expect(() => XMOVERSCORE_PLUGIN.definition.options.parse({ mapping: 'CLP', projection: [[1, 0]] })).toThrow(/square/);
    expect(() => XMOVERSCORE_PLUGIN.layers({ layer: 10 }, enc)).toThrow(/past the encoder's last layer/);
    expect(XMOVERSCORE_PLUGIN.layers({}, enc)).toEqual([8]);
    const o = XMOVERSCORE_PLUGIN.definition.options.parse({ mapping: 'UMD', bias: [1, 0, 0, 0, 0, 0] });
    expect(XMOVERSCORE_PLUGIN.signature(o, enc, 0)).toMatch(/^xmoverscore\|model:synthetic@abababababab\|layer:8\|ngram:2\|map:UMD@6:[0-9a-f]{8}\|idf:uniform\|cost:euclid\|dropout:0\.3\|lm:no\|version:podium-/);
    const o2 = XMOVERSCORE_PLUGIN.definition.options.parse({ mapping: 'UMD', bias: [0, 1, 0, 0, 0, 0] });
    expect(XMOVERSCORE_PLUGIN.signature(o2, enc, 0)).not.toBe(XMOVERSCORE_PLUGIN.signature(o, enc, 0));
  });

  it('reads and writes mapping files (numpy savetxt format) and names a bad line', () => {
    expect(parseXMoverMapping('CLP', '# W\n1 0\n0.5 -2e-3\n')).toEqual([
      [1, 0],
      [0.5, -0.002],
    ]);
    expect(parseXMoverMapping('UMD', '0.6\n0.8\n')).toEqual([0.6, 0.8]);
    expect(parseXMoverMapping('UMD', '0.6 0.8')).toEqual([0.6, 0.8]);
    expect(() => parseXMoverMapping('CLP', '1 0\n0\n')).toThrow(/row 2 has 1 numbers/);
    expect(() => parseXMoverMapping('CLP', '1 x\n')).toThrow(/line 1: "x"/);
    const w = [
      [0.1, 1 / 3],
      [-7, 1e-20],
    ];
    expect(parseXMoverMapping('CLP', formatXMoverMapping(w))).toEqual(w);
  });

  it('groups WordPiece words and aligns mutual nearest neighbours', () => {
    const t: EmbeddedText = {
      text: 'playing dogs',
      tokens: ['[CLS]', 'play', '##ing', 'dog', '##s', '[SEP]'],
      ids: [1, 2, 3, 4, 5, 6],
      special: [true, false, false, false, false, true],
      offsets: [[0, 0], [0, 4], [4, 7], [8, 11], [11, 12], [0, 0]],
      layers: [[0, 1, 3, 5, 7, 0].map((x) => Float32Array.from([x, -x]))],
      layerIndices: [8],
    };
    expect(wordVectors(t, 8).map((v) => Array.from(v))).toEqual([
      [2, -2],
      [6, -6],
    ]);
    // src 0 ↔ tgt 1 and src 1 ↔ tgt 0 are mutual; src 2's nearest (tgt 0) prefers src 1.
    const s = [[1, 0], [0, 1], [0.1, 1]].map((v) => Float64Array.from(v));
    const g = [[0, 1], [1, 0.05]].map((v) => Float64Array.from(v));
    expect(mutualNearestNeighbours(s, g)).toEqual([
      [0, 1],
      [1, 0],
    ]);
  });

  it('fits CLP (Procrustes) back to a known rotation and UMD to a known bias direction', async () => {
    const rand = seededRandom(11);
    const d = enc.hiddenSize;
    const layer = 8;
    const q = smallRotation(d, 0.2);
    const sources = Array.from({ length: 30 }, () => randomText(rand, 4 + Math.floor(rand() * 6), enc));
    // Targets: the same words with every vector rotated by Q; the alignment finds the pairs.
    const rotated = sources.map((s) => mapText(s, layer, (v) => q.map((_, j) => v.reduce((a, x, i) => a + x * ((q[i] as number[])[j] as number), 0))));
    const fit = await fitXMoverMapping(sources.map((s, k) => ({ source: s, target: rotated[k] as EmbeddedText })), layer);
    expect(fit.alignedPairs).toBeGreaterThan(100);
    fit.projection.forEach((row, i) => row.forEach((x, j) => expect(x).toBeCloseTo((q[i] as number[])[j] as number, 5)));
    // UMD: target = source − α_k·b with α varying: X − Z = α b, rank one, so v_B = ±b.
    const b = [1, 2, 0, -1, 0, 1].map((x) => x / Math.sqrt(7));
    const shifted = sources.map((s) => mapText(s, layer, (v, k) => v.map((x, i) => x - (0.05 + 0.01 * k) * (b[i] as number))));
    const umd = await fitXMoverMapping(sources.map((s, k) => ({ source: s, target: shifted[k] as EmbeddedText })), layer);
    expect(Math.abs(umd.bias.reduce((a, x, i) => a + x * (b[i] as number), 0))).toBeCloseTo(1, 5);
  });
});
