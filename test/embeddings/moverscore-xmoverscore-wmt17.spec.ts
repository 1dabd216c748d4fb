/**
 * @jest-environment <rootDir>/../libs/nli/jest-environment.js
 */
// Proof of issue #24 for MoverScore and XMoverScore: on 200 WMT17 de-en segments (the German
// source, the English reference and KIT's output, the registry's data set from the offline
// mirror) scored with the committed test encoder, Podium's scores equal an independent reference
// computation to 1e-6. The reference reads the vectors that `podium embed` wrote (the real CLI,
// JSONL) and computes each score the plain way the papers define it, with the choices the
// authors' code makes (moverscore.py / moverscore_v2.py; XMoverScore's score_utils_2.py):
// per-layer normalised [min, mean, max] power means, get_idf_dict's idf, pyemd's ÊMD with the
// largest distance as the penalty for unmatched mass; CLP e ↦ eW, UMD e ↦ e − (e·v)v, bigram
// means, the flows below the k-th smallest nonzero one dropped. The transport is solved as a
// linear programme by HiGHS (npm `highs`), not by Podium's transportation simplex; the reference
// shares no code with the plugins. The mapping is a generated 16×16 orthogonal matrix and unit
// vector (the encoder is 16-dimensional); the CLP case runs through `podium score
// --mapping-file` with a .npy file this spec writes, over all 200 segments; no mapping and UMD
// run on the first 60 (the same code path but for the remapping).
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import highsLoader from 'highs';
import { loadWmtTestSet, parseDataMirror } from '@podium/datasets';
import { loadEncoder, scoreEmbedding, type Encoder } from '@podium/embeddings';
import { MOVERSCORE_PLUGIN, XMOVERSCORE_PLUGIN } from '@podium/metrics';
import { mulberry32 } from '@podium/ranking';
import { compiledApp } from '../support/compiled-app';

jest.setTimeout(900_000);

const ROOT = resolve(__dirname, '..', '..');
const MODEL = join(ROOT, 'models', 'test-encoder-tiny');
const N = 200;
/** Segments for the XMoverScore variants besides CLP (the transport of a German source's many word pieces is the slow part of this spec). */
const FEW = 60;
const tmp = mkdtempSync(join(tmpdir(), 'podium-mover-wmt17-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

interface Line {
  text: string;
  tokens: string[];
  ids: number[];
  special: boolean[];
  layers: number[];
  vectors: number[][][];
}
type Highs = Awaited<ReturnType<typeof highsLoader>>;

function cli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((res) => {
    execFile(process.execPath, [compiledApp('apps/cli/src/main.ts'), ...args], { cwd: ROOT, maxBuffer: 1 << 30, env: { ...process.env, PODIUM_CACHE: join(tmp, 'cache') } }, (err, stdout, stderr) =>
      res({ code: err ? Number(err.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

async function embedFile(lines: string[], name: string, layers: number[]): Promise<Line[]> {
  const file = join(tmp, name);
  writeFileSync(file, lines.join('\n') + '\n');
  const r = await cli(['embed', '--model', MODEL, ...layers.flatMap((l) => ['--layer', String(l)]), '--out', `${file}.jsonl`, file]);
  if (r.code !== 0) throw new Error(`podium embed failed: ${r.stderr}`);
  return readFileSync(`${file}.jsonl`, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Line);
}

// ---------------------------------------------------------------- the reference computation
const PUNCTUATION = '!"#$%&\'()*+,-./:;<=>?@[\\]^_`{|}~'; // Python's string.punctuation
const sum = (xs: number[]): number => xs.reduce((a, x) => a + x, 0);
const len = (v: number[]): number => Math.sqrt(sum(v.map((x) => x * x)));
const sqdist = (x: number[], y: number[]): number => sum(x.map((a, i) => (a - (y[i] as number)) ** 2));
const layerOf = (t: Line, l: number): number[][] => t.vectors[t.layers.indexOf(l)] as number[][];

/**
 * The transportation problem between masses a (rows) and b (columns) as an LP for HiGHS; the
 * lighter side ships all its mass, the heavier at most its own (pyemd's ÊMD). Points of zero
 * mass cannot ship or receive and are left out. Returns Σ flow·cost and the flows.
 */
function transportLp(highs: Highs, a: number[], b: number[], cost: (i: number, j: number) => number): { cost: number; flow: number[][] } {
  const rows = a.map((x, i) => [x, i] as const).filter(([x]) => x > 0);
  const cols = b.map((x, j) => [x, j] as const).filter(([x]) => x > 0);
  const flow = a.map(() => b.map(() => 0));
  if (rows.length === 0 || cols.length === 0) return { cost: 0, flow };
  const sa = sum(rows.map(([x]) => x));
  const sb = sum(cols.map(([x]) => x));
  const balanced = Math.abs(sa - sb) < 1e-14;
  const v = (i: number, j: number): string => `f${i}_${j}`;
  const obj = rows.flatMap(([, i]) => cols.map(([, j]) => `${cost(i, j).toPrecision(17)} ${v(i, j)}`));
  const lp = ['Minimize', ` z: ${obj.join(' + ')}`, 'Subject To'];
  for (const [x, i] of rows) lp.push(` r${i}: ${cols.map(([, j]) => v(i, j)).join(' + ')} ${balanced || sa < sb ? '=' : '<='} ${x.toPrecision(17)}`);
  for (const [x, j] of cols) lp.push(` c${j}: ${rows.map(([, i]) => v(i, j)).join(' + ')} ${balanced || sb < sa ? '=' : '<='} ${x.toPrecision(17)}`);
  lp.push('End', '');
  const r = highs.solve(lp.join('\n'), { primal_feasibility_tolerance: 1e-10, dual_feasibility_tolerance: 1e-10, solver: 'simplex' });
  if (r.Status !== 'Optimal') throw new Error(`HiGHS: ${r.Status}`);
  let total = 0;
  for (const [, i] of rows) {
    for (const [, j] of cols) {
      const c = r.Columns[v(i, j)];
      const f = c && 'Primal' in c ? c.Primal : 0;
      (flow[i] as number[])[j] = f;
      total += f * cost(i, j);
    }
  }
  return { cost: total, flow };
}

/** get_idf_dict: log((N+1)/(df+1)) over documents, an unseen id log(N+1). */
function idfDict(docs: Line[]): (id: number) => number {
  const df = new Map<number, number>();
  docs.forEach((d) => new Set(d.ids).forEach((id) => df.set(id, (df.get(id) ?? 0) + 1)));
  return (id) => Math.log((docs.length + 1) / ((df.get(id) ?? 0) + 1));
}

/** MoverScore v1 (moverscore.py, unigrams): last-layers power means, idf-weighted, 1 − ÊMD. */
function moverScoreV1(highs: Highs, ref: Line, hyp: Line, idfRef: (id: number) => number, idfHyp: (id: number) => number, layers: number[]): number {
  const points = (t: Line, idfOf: (id: number) => number): { e: number[][]; w: number[] } => {
    const kept = t.tokens.map((w, k) => [w, k] as const).filter(([w]) => !(w.length === 1 && PUNCTUATION.includes(w)) && !w.includes('##')).map(([, k]) => k);
    const e: number[][] = [];
    const w: number[] = [];
    for (const k of kept) {
      const per = layers.map((l) => {
        const x = layerOf(t, l)[k] as number[];
        const n = len(x);
        return x.map((y) => y / n);
      });
      const dim = (per[0] as number[]).length;
      const pm = [
        ...Array.from({ length: dim }, (_, d) => Math.min(...per.map((p) => p[d] as number))),
        ...Array.from({ length: dim }, (_, d) => sum(per.map((p) => p[d] as number)) / per.length),
        ...Array.from({ length: dim }, (_, d) => Math.max(...per.map((p) => p[d] as number))),
      ];
      const idf = idfOf(t.ids[k] as number);
      const g = pm.map((y) => (idf / (idf + 1e-5)) * y); // a unigram's idf-weighted mean
      const n = len(g) + 1e-6;
      e.push(g.map((y) => y / n));
      w.push(idf);
    }
    return { e, w };
  };
  const r = points(ref, idfRef);
  const h = points(hyp, idfHyp);
  const sr = sum(r.w) + 1e-5;
  const sh = sum(h.w) + 1e-5;
  const a = r.w.map((x) => x / sr);
  const b = h.w.map((x) => x / sh);
  const all = [...r.e, ...h.e];
  let penalty = 0; // pyemd: the largest entry of the whole (n+m)² distance matrix
  for (const x of all) for (const y of all) penalty = Math.max(penalty, sqdist(x, y));
  const t = transportLp(highs, a, b, (i, j) => sqdist(r.e[i] as number[], h.e[j] as number[]));
  return 1 - (t.cost + Math.abs(sum(a) - sum(b)) * penalty);
}

/** MoverScore v2 (moverscore_v2.py): last layer, subwords and punctuation weighted 0, Euclidean, 1 − Σ flow·cost. */
function moverScoreV2(highs: Highs, ref: Line, hyp: Line, idfRef: (id: number) => number, idfHyp: (id: number) => number, layer: number): number {
  const points = (t: Line, idf: (id: number) => number): { e: number[][]; w: number[] } => {
    const drop = (w: string): boolean => w.includes('##') || (w.length === 1 && PUNCTUATION.includes(w));
    const e = layerOf(t, layer).map((x) => {
      const n = len(x) + 1e-30;
      return x.map((y) => y / n);
    });
    return { e, w: t.tokens.map((w, k) => (drop(w) ? 0 : idf(t.ids[k] as number))) };
  };
  const r = points(ref, idfRef);
  const h = points(hyp, idfHyp);
  const sr = sum(r.w) + 1e-30;
  const sh = sum(h.w) + 1e-30;
  const t = transportLp(highs, r.w.map((x) => x / sr), h.w.map((x) => x / sh), (i, j) => Math.sqrt(Math.max(sqdist(r.e[i] as number[], h.e[j] as number[]), 1e-30)));
  return 1 - t.cost;
}

interface XMover {
  layer: number;
  projection?: number[][];
  bias?: number[];
}

/** XMoverScore (score_utils_2.py): remapped source, bigram means, Euclidean ÊMD flows, 30 % of the smallest dropped. */
function xMoverScore(highs: Highs, src: Line, hyp: Line, o: XMover): number {
  let s = layerOf(src, o.layer);
  const W = o.projection;
  if (W) s = s.map((e) => W.map((_, j) => sum(e.map((x, i) => x * ((W[i] as number[])[j] as number)))));
  const v = o.bias;
  if (v) s = s.map((e) => e.map((x, i) => x - sum(e.map((y, k) => y * (v[k] as number))) * (v[i] as number)));
  const bigrams = (E: number[][]): number[][] => {
    const n = Math.min(2, E.length);
    const out: number[][] = [];
    for (let c = 0; c + n <= E.length; c++) out.push((E[0] as number[]).map((_, d) => sum(E.slice(c, c + n).map((x) => x[d] as number)) / n));
    return out.map((x) => x.map((y) => y / len(x)));
  };
  const S = bigrams(s);
  const H = bigrams(layerOf(hyp, o.layer));
  const d = (i: number, j: number): number => Math.sqrt(sqdist(S[i] as number[], H[j] as number[]));
  const { flow } = transportLp(highs, S.map(() => 1 / S.length), H.map(() => 1 / H.length), d);
  const cells = flow.flatMap((row, i) => row.map((f, j) => ({ f, c: d(i, j) }))).filter((x) => x.f > 1e-12);
  const sorted = cells.map((x) => x.f).sort((a, b) => a - b);
  const threshold = sorted[Math.max(Math.floor(sorted.length * 0.3), 1) - 1] as number;
  return 1 - sum(cells.filter((x) => x.f >= threshold - 1e-12).map((x) => x.f * x.c));
}

// ---------------------------------------------------------------- generated mapping files
/** @podium/ranking's mulberry32, seeded: the generated mapping is the same every run. */
function seeded(seed: number): () => number {
  const rng = mulberry32(seed);
  return () => rng.next();
}

/** A d×d orthogonal matrix (Gram–Schmidt over random rows), as CLP's Procrustes solution is. */
function orthogonal(d: number, rand: () => number): number[][] {
  const rows: number[][] = [];
  while (rows.length < d) {
    let x = Array.from({ length: d }, () => rand() * 2 - 1);
    for (const q of rows) {
      const p = sum(x.map((y, i) => y * (q[i] as number)));
      x = x.map((y, i) => y - p * (q[i] as number));
    }
    const n = len(x);
    rows.push(x.map((y) => y / n));
  }
  return rows;
}

/** A NumPy .npy (format 1.0, '<f8', C order), as np.save writes it. */
function npy(shape: number[], values: number[]): Buffer {
  let header = `{'descr': '<f8', 'fortran_order': False, 'shape': (${shape.join(', ')}${shape.length === 1 ? ',' : ''}), }`;
  const pad = 64 - ((10 + header.length + 1) % 64);
  header = header + ' '.repeat(pad % 64) + '\n';
  const head = Buffer.alloc(10);
  Buffer.from([0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59, 1, 0]).copy(head);
  head.writeUInt16LE(header.length, 8);
  const body = Buffer.alloc(8 * values.length);
  values.forEach((x, k) => body.writeDoubleLE(x, 8 * k));
  return Buffer.concat([head, Buffer.from(header, 'latin1'), body]);
}

// ---------------------------------------------------------------- the data
let highs: Highs;
let encoder: Encoder;
let sources: string[];
let hyps: string[];
let refs: string[];
let S: Line[];
let H: Line[];
let R: Line[];
const rand = seeded(2017);
const W = orthogonal(16, rand);
const bias = ((): number[] => {
  const x = Array.from({ length: 16 }, () => rand() * 2 - 1);
  const n = len(x);
  return x.map((y) => y / n);
})();

beforeAll(async () => {
  const mirror = process.env['PODIUM_DATA_MIRROR'];
  if (!mirror) throw new Error('PODIUM_DATA_MIRROR must point at the offline data mirror (npm test sets it)');
  const t = await loadWmtTestSet('wmt17-de-en', { source: parseDataMirror(mirror), cacheDir: join(tmp, 'cache') });
  const kit = t.systems.find((s) => s.name === 'KIT.4951');
  if (!kit) throw new Error('WMT17 de-en lacks KIT.4951');
  hyps = kit.outputs.slice(0, N);
  refs = t.instances.slice(0, N).map((i) => i.references[0] ?? '');
  sources = t.instances.slice(0, N).map((i) => i.source);
  // The test encoder has 2 layers: MoverScore v1 reads hidden states 1–2 (its last five, capped), v2 and XMoverScore 2.
  [H, R, S] = await Promise.all([embedFile(hyps, 'hyp.txt', [1, 2]), embedFile(refs, 'ref.txt', [1, 2]), embedFile(sources, 'src.txt', [2])]);
  encoder = await loadEncoder(MODEL, { log: () => undefined });
  highs = await highsLoader();
});
afterAll(async () => (encoder as Encoder | undefined)?.close());

function expectAllClose(got: number[], expected: number[], n = N): void {
  expect(got).toHaveLength(n);
  const bad = got.map((x, i) => [i, x, expected[i] as number] as const).filter(([, x, e]) => !(Math.abs(x - e) < 1e-6));
  expect(bad.slice(0, 5)).toEqual([]);
  // Not a constant: the scores spread (a fake score would not).
  expect(Math.max(...got) - Math.min(...got)).toBeGreaterThan(0.01);
}

describe('MoverScore on 200 WMT17 de-en segments with the test encoder', () => {
  it('podium embed wrote hidden states 1 and 2 for every line', () => {
    expect(H).toHaveLength(N);
    expect(R).toHaveLength(N);
    expect(H[0]?.layers).toEqual([1, 2]);
    expect(H[0]?.vectors[1]?.[0]).toHaveLength(16);
  });

  it('v1 (the paper\'s metric, corpus idf, unigrams) equals the reference to 1e-6', async () => {
    const r = await scoreEmbedding(MOVERSCORE_PLUGIN, encoder, { hyps, refs: refs.map((x) => [x]) }, {});
    expect(r.signature).toMatch(/^moverscore\|model:test-encoder-tiny@c61e852f3935\|variant:v1\|layers:1-2\|emb:pmeans-min,mean,max\|ngram:1\|idf:corpus\|/);
    const idfH = idfDict(H);
    const idfR = idfDict(R);
    expectAllClose(r.instances, H.map((h, i) => moverScoreV1(highs, R[i] as Line, h, idfR, idfH, [1, 2])));
  });

  it('v2 (last layer, Euclidean cost) equals the reference to 1e-6', async () => {
    const r = await scoreEmbedding(MOVERSCORE_PLUGIN, encoder, { hyps, refs: refs.map((x) => [x]) }, { variant: 'v2' });
    expect(r.signature).toContain('|variant:v2|layers:2|emb:last|');
    const idfH = idfDict(H);
    const idfR = idfDict(R);
    expectAllClose(r.instances, H.map((h, i) => moverScoreV2(highs, R[i] as Line, h, idfR, idfH, 2)));
  });
});

describe('XMoverScore on 200 WMT17 de-en source–hypothesis pairs with the test encoder', () => {
  const few = () => ({ hyps: hyps.slice(0, FEW), refs: hyps.slice(0, FEW).map(() => []), sources: sources.slice(0, FEW) });

  it('without a remapping equals the reference to 1e-6 (first 60 segments)', async () => {
    const r = await scoreEmbedding(XMOVERSCORE_PLUGIN, encoder, few(), { layer: 2 });
    expect(r.signature).toMatch(/^xmoverscore\|model:test-encoder-tiny@c61e852f3935\|layer:2\|ngram:2\|map:none\|idf:uniform\|cost:euclid\|dropout:0.3\|lm:no\|/);
    expectAllClose(r.instances, H.slice(0, FEW).map((h, i) => xMoverScore(highs, S[i] as Line, h, { layer: 2 })), FEW);
  });

  it('with UMD (a generated unit bias direction) equals the reference to 1e-6 (first 60 segments)', async () => {
    const r = await scoreEmbedding(XMOVERSCORE_PLUGIN, encoder, few(), { layer: 2, mapping: 'UMD', bias });
    expect(r.signature).toMatch(/\|map:UMD@16:[0-9a-f]{8}\|/);
    expectAllClose(r.instances, H.slice(0, FEW).map((h, i) => xMoverScore(highs, S[i] as Line, h, { layer: 2, bias })), FEW);
  });

  it('with CLP from a .npy mapping file, through `podium score --mapping-file` (the CLI), equals the reference to 1e-6', async () => {
    writeFileSync(join(tmp, 'W.npy'), npy([16, 16], W.flat()));
    writeFileSync(join(tmp, 'h.txt'), hyps.join('\n') + '\n');
    writeFileSync(join(tmp, 's.txt'), sources.join('\n') + '\n');
    // The CLI (its own process) scores while this process computes the reference.
    const scoring = cli(['score', '--metric', 'xmoverscore', '--model', MODEL, '--src', join(tmp, 's.txt'), '--hyp', join(tmp, 'h.txt'), '--layer', '2', '--mapping', 'CLP', '--mapping-file', join(tmp, 'W.npy')]);
    const reference = H.map((h, i) => xMoverScore(highs, S[i] as Line, h, { layer: 2, projection: W }));
    const out = await scoring;
    expect(out.stderr).not.toMatch(/error/i);
    expect(out.code).toBe(0);
    const r = JSON.parse(out.stdout) as { instances: number[]; signature: string };
    expect(r.signature).toMatch(/\|map:CLP@256:[0-9a-f]{8}\|/);
    expectAllClose(r.instances, reference);
  });

  it('refuses a published mapping that is not there, naming the file and the fetch command; never a score', async () => {
    const empty = mkdtempSync(join(tmp, 'mirror-'));
    const args = ['score', '--metric', 'xmoverscore', '--model', MODEL, '--src', join(tmp, 's.txt'), '--hyp', join(tmp, 'h.txt'), '--lang-pair', 'de-en', '--mirror', empty, '--cache', join(tmp, 'empty-cache')];
    // Hidden state 8 (the default, as the authors' files): registered, but the mirror lacks it.
    const missing = await cli([...args, '--mapping', 'CLP']);
    expect(missing.code).not.toBe(0);
    expect(missing.stdout).toBe('');
    expect(missing.stderr).toMatch(/XMoverScore's published CLP mapping for de-en at hidden state 8 is missing: mapping\/layer-8\/europarl-v7\.de-en\.8\.BAM of data set xmoverscore-mappings could not be fetched/);
    expect(missing.stderr).toMatch(/fetch it with `podium data fetch xmoverscore-mappings`/);
    // Hidden state 2: the authors published no mapping for it.
    const unpublished = await cli([...args, '--mapping', 'UMD', '--layer', '2']);
    expect(unpublished.code).not.toBe(0);
    expect(unpublished.stdout).toBe('');
    expect(unpublished.stderr).toMatch(/the data set registry has no XMoverScore's published UMD mapping for de-en at hidden state 2 \(xmoverscore-mappings: mapping\/layer-2\/europarl-v7\.de-en\.2\.GBDD\)/);
  });
});
