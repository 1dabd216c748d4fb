import type { EmbeddedText } from '../../embedding';
import { runEmbeddingMetric } from '../embedding-common/common';
import { randomText, seededRandom, syntheticEncoder } from '../embedding-common/synthetic';
import { decodeXMoverMapping, fitXMoverMapping, formatXMoverMapping, mutualNearestNeighbours, parseNpy, parseXMoverMapping, wordVectors, xMoverMappingPath } from './mapping';
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

/**
 * A .npy file built byte by byte after the format's specification (numpy.lib.format): magic,
 * version, little-endian header length, the header dict padded with spaces to a multiple of 64
 * and ended by a newline, then the raw values.
 */
function npyBytes(descr: string, shape: string, values: number[], opts: { version?: 1 | 2; fortran?: boolean } = {}): Uint8Array {
  const version = opts.version ?? 1;
  const pre = version === 1 ? 10 : 12;
  const dict = `{'descr': '${descr}', 'fortran_order': ${opts.fortran ? 'True' : 'False'}, 'shape': ${shape}, }`;
  const header = dict + ' '.repeat((64 - ((pre + dict.length + 1) % 64)) % 64) + '\n';
  const size = descr === '<f4' ? 4 : 8;
  const out = new Uint8Array(pre + header.length + size * values.length);
  const view = new DataView(out.buffer);
  [0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59, version, 0].forEach((b, i) => (out[i] = b));
  if (version === 1) view.setUint16(8, header.length, true);
  else view.setUint32(8, header.length, true);
  for (let i = 0; i < header.length; i++) out[pre + i] = header.charCodeAt(i);
  values.forEach((x, k) => (size === 4 ? view.setFloat32(pre + header.length + 4 * k, x, true) : view.setFloat64(pre + header.length + 8 * k, x, true)));
  return out;
}
const b64 = (bytes: Uint8Array): string => btoa(Array.from(bytes, (b) => String.fromCharCode(b)).join(''));

describe('XMoverScore mapping files as the authors release them (.npy) and as numpy text', () => {
  it('reads float64 and float32 arrays, format versions 1 and 2', () => {
    expect(parseNpy(npyBytes('<f8', '(2, 2)', [1, 2, 3, 0.1]))).toEqual({ shape: [2, 2], data: Float64Array.from([1, 2, 3, 0.1]) });
    expect(parseNpy(npyBytes('<f4', '(3,)', [0.5, -1, 2], { version: 2 }))).toEqual({ shape: [3], data: Float64Array.from([0.5, -1, 2]) });
  });

  it('refuses what it cannot read, saying why', () => {
    expect(() => parseNpy(new TextEncoder().encode('0.1 0.2\n'))).toThrow(/not a \.npy file/);
    expect(() => parseNpy(npyBytes('|O', '(2,)', []))).toThrow(/dtype \|O is not supported .*pickled object array: convert it with np\.savetxt/);
    expect(() => parseNpy(npyBytes('>f8', '(1,)', [1]))).toThrow(/dtype >f8 is not supported/);
    expect(() => parseNpy(npyBytes('<f8', '(2, 2)', [1, 2, 3, 4], { fortran: true }))).toThrow(/Fortran order/);
    expect(() => parseNpy(npyBytes('<f8', '(2, 2)', [1, 2, 3]))).toThrow(/needs 32 bytes of data, the file has 24/);
  });

  it('decodes a CLP matrix or UMD vector from .npy or text content, and names the file in errors', () => {
    expect(decodeXMoverMapping('CLP', b64(npyBytes('<f8', '(2, 2)', [1, 2, 3, 4])), 'W.npy')).toEqual([
      [1, 2],
      [3, 4],
    ]);
    expect(decodeXMoverMapping('UMD', b64(npyBytes('<f4', '(1, 3)', [0.5, 0.25, 1])), 'v.npy')).toEqual([0.5, 0.25, 1]);
    expect(decodeXMoverMapping('UMD', b64(new TextEncoder().encode('0.5\n0.25\n')), 'v.map')).toEqual([0.5, 0.25]);
    expect(() => decodeXMoverMapping('CLP', b64(npyBytes('<f8', '(2, 3)', [1, 2, 3, 4, 5, 6])), 'W.npy')).toThrow('xmoverscore CLP mapping W.npy: a CLP mapping is a d×d matrix; the array has shape (2, 3)');
    expect(() => decodeXMoverMapping('UMD', b64(npyBytes('<f8', '(2, 2)', [1, 2, 3, 4])), 'v.npy')).toThrow(/UMD mapping is one vector/);
  });

  it('finds the published file of a pair and hidden state where the authors\' demo.py loads it', () => {
    expect(xMoverMappingPath('CLP', 'de-en', 8)).toBe('mapping/layer-8/europarl-v7.de-en.8.BAM');
    expect(xMoverMappingPath('UMD', 'zh-en', 8)).toBe('mapping/layer-8/europarl-v7.zh-en.8.GBDD');
    expect(XMOVERSCORE_PLUGIN.hostFiles?.({ mapping: 'CLP', languagePair: 'de-en' }, enc)).toEqual([
      { dataset: 'xmoverscore-mappings', path: 'mapping/layer-8/europarl-v7.de-en.8.BAM', into: 'mappingFile', encoding: 'base64', nameInto: 'mappingFileName', what: "XMoverScore's published CLP mapping for de-en at hidden state 8" },
    ]);
    // A mapping given inline or already loaded, or none at all: nothing to fetch.
    expect(XMOVERSCORE_PLUGIN.hostFiles?.({ mapping: 'UMD', languagePair: 'de-en', bias: [1, 0] }, enc)).toEqual([]);
    expect(XMOVERSCORE_PLUGIN.hostFiles?.({ languagePair: 'de-en' }, enc)).toEqual([]);
  });
});
