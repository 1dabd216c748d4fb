/**
 * XMoverScore's cross-lingual remappings: reading them from text and fitting them from a
 * parallel corpus.
 *
 * File format (what numpy's `savetxt` writes, the authors' `mapping/*.map` files): numbers
 * separated by spaces, tabs or commas, one matrix row per line, `#` starts a comment line.
 * - CLP (`…BAM.map`): d lines of d numbers, the projection W with e ↦ eW (row vector);
 * - UMD (`…GBDD.map`): d numbers (one line, or one per line), the bias direction v_B.
 * The authors' pickled `.BAM`/`.GBDD` arrays convert with `np.savetxt(name, np.load(f, allow_pickle=True))`.
 *
 * Fitting (`mapping/train_mapping.py` after fast_align over EuroParl, T:2370–2388), simplified:
 * words are WordPiece words (a token starting with `##` continues the previous word; special
 * tokens are skipped), a word's vector is the mean of its tokens' vectors (the authors'
 * `get_aligned_features_avgbpe.py`), and fast_align is replaced by mutual nearest neighbours
 * under cosine similarity between the two sentences' word vectors (SimAlign's argmax). From
 * the aligned pairs (X source, Z target, one row per pair): CLP = orthogonal Procrustes,
 * W = VUᵀ with ZᵀX = USVᵀ (so XW ≈ Z); UMD: v_B = the first right singular vector of X − Z.
 */
import type { EmbeddedText } from '../../embedding';
import { dot, layerPosition, normalised, toFloat64 } from '../embedding-common/common';

export type XMoverMappingKind = 'CLP' | 'UMD';

/** Reads a CLP matrix or a UMD vector from the text of a mapping file; errors name the line. */
export function parseXMoverMapping(kind: 'CLP', text: string): number[][];
export function parseXMoverMapping(kind: 'UMD', text: string): number[];
export function parseXMoverMapping(kind: XMoverMappingKind, text: string): number[][] | number[] {
  const rows: number[][] = [];
  text.split(/\r?\n/).forEach((line, k) => {
    const t = line.trim();
    if (t === '' || t.startsWith('#')) return;
    const row = t.split(/[\s,]+/).map((w) => {
      const x = Number(w);
      if (!Number.isFinite(x)) throw new Error(`mapping file line ${k + 1}: "${w}" is not a finite number`);
      return x;
    });
    rows.push(row);
  });
  if (rows.length === 0) throw new Error('mapping file holds no numbers');
  if (kind === 'UMD') {
    const v = rows.length === 1 ? (rows[0] as number[]) : rows.map((r, k) => {
      if (r.length !== 1) throw new Error(`UMD mapping file: expected one vector, row ${k + 1} has ${r.length} numbers`);
      return r[0] as number;
    });
    return v;
  }
  const d = rows.length;
  rows.forEach((r, k) => {
    if (r.length !== d) throw new Error(`CLP mapping file: expected a ${d}×${d} matrix, row ${k + 1} has ${r.length} numbers`);
  });
  return rows;
}

/** Writes a mapping in the format {@link parseXMoverMapping} reads (full float64 precision). */
export function formatXMoverMapping(mapping: readonly (readonly number[])[] | readonly number[]): string {
  const fmt = (x: number): string => String(x);
  if (mapping.length > 0 && Array.isArray(mapping[0])) return (mapping as readonly (readonly number[])[]).map((r) => r.map(fmt).join(' ')).join('\n') + '\n';
  return (mapping as readonly number[]).map(fmt).join(' ') + '\n';
}

/** FNV-1a over the numbers' shortest round-trip text: the mapping's identity in a signature. */
export function mappingFingerprint(values: readonly number[]): string {
  let h = 0x811c9dc5;
  for (const x of values) {
    const s = `${x};`;
    for (let i = 0; i < s.length; i++) {
      h ^= s.charCodeAt(i);
      h = Math.imul(h, 0x01000193) >>> 0;
    }
  }
  return `${values.length}:${h.toString(16).padStart(8, '0')}`;
}

/** Word vectors of a text at a hidden state: WordPiece words, mean of their tokens. */
export function wordVectors(t: EmbeddedText, layer: number): Float64Array[] {
  const p = layerPosition(t.layerIndices, layer, 'xmoverscore mapping');
  const vs = t.layers[p] as readonly Float32Array[];
  const words: number[][] = [];
  t.tokens.forEach((tok, k) => {
    if (t.special[k]) return;
    const last = words[words.length - 1];
    if (tok.startsWith('##') && last && last[last.length - 1] === k - 1) last.push(k);
    else words.push([k]);
  });
  return words.map((ks) => {
    const m = new Float64Array((vs[0] as Float32Array).length);
    for (const k of ks) {
      const v = toFloat64(vs[k] as Float32Array);
      for (let d = 0; d < m.length; d++) m[d] = (m[d] as number) + (v[d] as number) / ks.length;
    }
    return m;
  });
}

/** Mutual nearest neighbours under cosine similarity: pairs (i, j) of source and target words. */
export function mutualNearestNeighbours(src: readonly Float64Array[], tgt: readonly Float64Array[]): [number, number][] {
  const a = src.map((v) => normalised(v));
  const b = tgt.map((v) => normalised(v));
  if (a.length === 0 || b.length === 0) return [];
  const sim = a.map((x) => b.map((y) => dot(x, y)));
  const bestForSrc = sim.map((row) => row.indexOf(Math.max(...row)));
  const bestForTgt = b.map((_, j) => {
    let best = 0;
    for (let i = 1; i < a.length; i++) if ((sim[i] as number[])[j] as number > ((sim[best] as number[])[j] as number)) best = i;
    return best;
  });
  const pairs: [number, number][] = [];
  bestForSrc.forEach((j, i) => {
    if (bestForTgt[j] === i) pairs.push([i, j]);
  });
  return pairs;
}

export interface FittedXMoverMapping {
  /** CLP: d×d orthogonal W, source e ↦ eW. */
  readonly projection: number[][];
  /** UMD: unit bias direction v_B. */
  readonly bias: number[];
  /** Aligned word pairs the fit used. */
  readonly alignedPairs: number;
}

/**
 * Fits CLP and UMD from embedded parallel sentences (source, its translation) at `layer`, the
 * hidden state XMoverScore will read (T:2370–2388; 1k sentence pairs suffice for M-BERT, T:2513).
 * The SVDs are ml-matrix's.
 */
export async function fitXMoverMapping(pairs: readonly { readonly source: EmbeddedText; readonly target: EmbeddedText }[], layer: number): Promise<FittedXMoverMapping> {
  // ml-matrix (SVD) loads on first use: `podium` starts without it.
  const { Matrix, SingularValueDecomposition } = await import('ml-matrix');
  const X: number[][] = [];
  const Z: number[][] = [];
  for (const { source, target } of pairs) {
    const s = wordVectors(source, layer);
    const t = wordVectors(target, layer);
    for (const [i, j] of mutualNearestNeighbours(s, t)) {
      X.push(Array.from(s[i] as Float64Array));
      Z.push(Array.from(t[j] as Float64Array));
    }
  }
  if (X.length < 2) throw new Error(`xmoverscore mapping: only ${X.length} aligned word pair(s); give more parallel sentences`);
  const x = new Matrix(X);
  const z = new Matrix(Z);
  const svd = new SingularValueDecomposition(z.transpose().mmul(x), { autoTranspose: true });
  const w = svd.rightSingularVectors.mmul(svd.leftSingularVectors.transpose());
  const diff = new SingularValueDecomposition(Matrix.sub(x, z), { autoTranspose: true });
  const bias = diff.rightSingularVectors.getColumn(0);
  return { projection: w.to2DArray(), bias, alignedPairs: X.length };
}

/** A numeric array read from a NumPy `.npy` file (format versions 1–3, little-endian float32/float64, C order). */
export interface NpyArray {
  readonly shape: readonly number[];
  readonly data: Float64Array;
}

/**
 * Reads a NumPy `.npy` file (what `np.save` writes; the authors' released `.BAM`/`.GBDD` files are
 * read with `np.load`). Only little-endian `<f4`/`<f8` in C order: anything else is refused with
 * the reason (a pickled array: convert it with `np.savetxt`).
 * @see https://numpy.org/doc/stable/reference/generated/numpy.lib.format.html
 */
export function parseNpy(bytes: Uint8Array): NpyArray {
  const magic = [0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59]; // \x93NUMPY
  if (bytes.length < 10 || magic.some((b, i) => bytes[i] !== b)) throw new Error('not a .npy file (no \\x93NUMPY header): give a numpy .npy file or a text file as np.savetxt writes it');
  const major = bytes[6] as number;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const headerLen = major === 1 ? view.getUint16(8, true) : view.getUint32(8, true);
  const start = major === 1 ? 10 : 12;
  if (start + headerLen > bytes.length) throw new Error('.npy file: the header is cut off');
  const header = Array.from(bytes.subarray(start, start + headerLen), (b) => String.fromCharCode(b)).join('');
  const descr = /'descr':\s*'([^']+)'/.exec(header)?.[1];
  const fortran = /'fortran_order':\s*(True|False)/.exec(header)?.[1];
  const shapeText = /'shape':\s*\(([^)]*)\)/.exec(header)?.[1];
  if (descr === undefined || fortran === undefined || shapeText === undefined) throw new Error(`.npy file: unreadable header ${header.trim()}`);
  if (descr !== '<f8' && descr !== '<f4') throw new Error(`.npy file: dtype ${descr} is not supported (little-endian float32 or float64 only${descr.includes('O') ? '; a pickled object array: convert it with np.savetxt' : ''})`);
  if (fortran === 'True') throw new Error('.npy file: Fortran order is not supported (save a C-ordered array)');
  const shape = shapeText.split(',').map((s) => s.trim()).filter((s) => s !== '').map(Number);
  const count = shape.reduce((a, x) => a * x, 1);
  const size = descr === '<f8' ? 8 : 4;
  const offset = start + headerLen;
  if (bytes.length - offset !== count * size) throw new Error(`.npy file: shape (${shape.join(', ')}) needs ${count * size} bytes of data, the file has ${bytes.length - offset}`);
  const data = new Float64Array(count);
  for (let k = 0; k < count; k++) data[k] = size === 8 ? view.getFloat64(offset + 8 * k, true) : view.getFloat32(offset + 4 * k, true);
  return { shape, data };
}

function base64Bytes(b64: string): Uint8Array {
  const bin = atob(b64);
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

/**
 * A mapping file's content (base64, as a host hands it over: `.npy` or numpy text) as the CLP
 * matrix or the UMD vector. `name` goes into the errors.
 */
export function decodeXMoverMapping(kind: 'CLP', base64: string, name: string): number[][];
export function decodeXMoverMapping(kind: 'UMD', base64: string, name: string): number[];
export function decodeXMoverMapping(kind: XMoverMappingKind, base64: string, name: string): number[][] | number[] {
  try {
    const bytes = base64Bytes(base64);
    if (bytes[0] !== 0x93) {
      const text = new TextDecoder('utf-8').decode(bytes);
      return kind === 'CLP' ? parseXMoverMapping('CLP', text) : parseXMoverMapping('UMD', text);
    }
    const { shape, data } = parseNpy(bytes);
    if (kind === 'UMD') {
      if (shape.length !== 1 && !(shape.length === 2 && (shape[0] === 1 || shape[1] === 1))) throw new Error(`a UMD mapping is one vector; the array has shape (${shape.join(', ')})`);
      return Array.from(data);
    }
    const [d, e] = shape;
    if (shape.length !== 2 || d !== e || d === undefined) throw new Error(`a CLP mapping is a d×d matrix; the array has shape (${shape.join(', ')})`);
    return Array.from({ length: d }, (_, i) => Array.from(data.subarray(i * d, (i + 1) * d)));
  } catch (err) {
    throw new Error(`xmoverscore ${kind} mapping ${name}: ${(err as Error).message}`);
  }
}

/** The registry data set holding the authors' published mappings (every language pair). */
export const XMOVER_MAPPING_DATASET = 'xmoverscore-mappings';

/**
 * Path of the authors' published mapping for a language pair and hidden state inside their
 * repository (`mapping/layer-8/europarl-v7.de-en.8.BAM`; `.GBDD` for UMD), as their `demo.py`
 * loads it.
 */
export function xMoverMappingPath(kind: XMoverMappingKind, languagePair: string, layer: number): string {
  return `mapping/layer-${layer}/europarl-v7.${languagePair}.${layer}.${kind === 'CLP' ? 'BAM' : 'GBDD'}`;
}
