/**
 * @jest-environment <rootDir>/../libs/nli/jest-environment.js
 */
// Proof of issue #24 for BERTScore: on 250 WMT17 de-en segments (reference and KIT's output,
// the registry's data set from the offline mirror) scored with the committed test encoder,
// Podium's scores equal an independent reference computation to 1e-6. The reference reads the
// vectors that `podium embed` wrote (the real CLI, JSONL) and computes BERTScore the plain way
// bert_score's greedy_cos_idf states it (cosine matrix, row and column maxima, idf
// log((M+1)/(df+1)) from the references with [CLS]/[SEP] weighted 0, best of each of P, R, F
// over references, (x − b)/(1 − b) rescaling); it shares no code with the plugin.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { loadWmtTestSet, parseDataMirror } from '@podium/datasets';
import { loadEncoder, scoreEmbedding, type Encoder } from '@podium/embeddings';
import { BERTSCORE_PLUGIN } from '@podium/metrics';
import { compiledApp } from '../support/compiled-app';

jest.setTimeout(600_000);

const ROOT = resolve(__dirname, '..', '..');
const MODEL = join(ROOT, 'models', 'test-encoder-tiny');
const N = 250;
const tmp = mkdtempSync(join(tmpdir(), 'podium-bertscore-wmt17-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

interface Line {
  text: string;
  ids: number[];
  special: boolean[];
  layers: number[];
  vectors: number[][][];
}

function cli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((res) => {
    execFile(process.execPath, [compiledApp('apps/cli/src/main.ts'), ...args], { cwd: ROOT, maxBuffer: 1 << 30, env: { ...process.env, PODIUM_CACHE: join(tmp, 'cache') } }, (err, stdout, stderr) =>
      res({ code: err ? Number(err.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

async function embedFile(lines: string[], name: string): Promise<Line[]> {
  const file = join(tmp, name);
  writeFileSync(file, lines.join('\n') + '\n');
  const r = await cli(['embed', '--model', MODEL, '--layer', '2', '--out', `${file}.jsonl`, file]);
  if (r.code !== 0) throw new Error(`podium embed failed: ${r.stderr}`);
  return readFileSync(`${file}.jsonl`, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Line);
}

// ---- the reference computation: plain loops over the JSONL, as bert_score defines it ----
type Idf = (id: number) => number;

function cosineMatrix(a: number[][], b: number[][]): number[][] {
  const norm = (v: number[]) => Math.sqrt(v.reduce((s, x) => s + x * x, 0));
  return a.map((u) => b.map((v) => u.reduce((s, x, k) => s + x * (v[k] ?? 0), 0) / (norm(u) * norm(v))));
}

function referenceBertScore(hyp: Line, ref: Line, idf: Idf): { p: number; r: number; f: number } {
  const words = (t: Line) => t.special.filter((s) => !s).length;
  if (words(hyp) === 0 || words(ref) === 0) return { p: 0, r: 0, f: 0 };
  const sim = cosineMatrix(hyp.vectors[0] ?? [], ref.vectors[0] ?? []);
  const wh = hyp.ids.map((id, i) => (hyp.special[i] ? 0 : idf(id)));
  const wr = ref.ids.map((id, j) => (ref.special[j] ? 0 : idf(id)));
  const rowMax = sim.map((row) => Math.max(...row));
  const colMax = ref.ids.map((_, j) => Math.max(...sim.map((row) => row[j] ?? -Infinity)));
  const sumWh = wh.reduce((a, b) => a + b, 0);
  const sumWr = wr.reduce((a, b) => a + b, 0);
  if (sumWh === 0 || sumWr === 0) return { p: 0, r: 0, f: 0 };
  const p = rowMax.reduce((s, x, i) => s + x * (wh[i] ?? 0), 0) / sumWh;
  const r = colMax.reduce((s, x, j) => s + x * (wr[j] ?? 0), 0) / sumWr;
  return { p, r, f: (2 * p * r) / (p + r) };
}

function referenceIdf(refs: Line[]): Idf {
  const df = new Map<number, number>();
  refs.forEach((r) => new Set(r.ids).forEach((id) => df.set(id, (df.get(id) ?? 0) + 1)));
  return (id) => Math.log((refs.length + 1) / ((df.get(id) ?? 0) + 1));
}

let hyps: string[];
let refs: string[];
let second: string[];
let encoder: Encoder;
let H: Line[];
let R: Line[];
let S: Line[];

beforeAll(async () => {
  const mirror = process.env['PODIUM_DATA_MIRROR'];
  if (!mirror) throw new Error('PODIUM_DATA_MIRROR must point at the offline data mirror (npm test sets it)');
  const t = await loadWmtTestSet('wmt17-de-en', { source: parseDataMirror(mirror), cacheDir: join(tmp, 'cache') });
  const kit = t.systems.find((s) => s.name === 'KIT.4951');
  const online = t.systems.find((s) => s.name === 'online-B.0');
  if (!kit || !online) throw new Error('WMT17 de-en lacks KIT.4951 or online-B.0');
  hyps = kit.outputs.slice(0, N);
  refs = t.instances.slice(0, N).map((i) => i.references[0] ?? '');
  second = online.outputs.slice(0, N); // a second "reference" for the several-references case
  [H, R, S] = await Promise.all([embedFile(hyps, 'hyp.txt'), embedFile(refs, 'ref.txt'), embedFile(second, 'second.txt')]);
  encoder = await loadEncoder(MODEL, { log: () => undefined });
});
afterAll(async () => (encoder as Encoder | undefined)?.close());

describe('BERTScore on 250 WMT17 de-en segments with the test encoder', () => {
  it('podium embed wrote one line per text with the layer asked for', () => {
    expect(H).toHaveLength(N);
    expect(R).toHaveLength(N);
    expect(H[0]?.layers).toEqual([2]);
    expect(H[0]?.special[0]).toBe(true);
    expect(H[0]?.vectors[0]?.[0]).toHaveLength(16);
  });

  it('F1 without idf equals the reference computation to 1e-6 (default layer: the last, 2)', async () => {
    const r = await scoreEmbedding(BERTSCORE_PLUGIN, encoder, { hyps, refs: refs.map((x) => [x]) }, {});
    const expected = H.map((h, i) => referenceBertScore(h, R[i] as Line, () => 1));
    expect(r.signature).toBe('bertscore|model:test-encoder-tiny@c61e852f3935|L:2|idf:no|rescale:no|nrefs:1|refs:best|version:podium-0.1.0');
    r.instances.forEach((x, i) => expect(Math.abs(x - (expected[i]?.f ?? NaN))).toBeLessThan(1e-6));
    expect(r.instances).toHaveLength(N);
    expect(r.components['P']).toHaveLength(N);
    expect(r.components['R']).toHaveLength(N);
    r.components['P']?.forEach((x, i) => expect(Math.abs(x - (expected[i]?.p ?? NaN))).toBeLessThan(1e-6));
    r.components['R']?.forEach((x, i) => expect(Math.abs(x - (expected[i]?.r ?? NaN))).toBeLessThan(1e-6));
    expect(Math.abs(r.corpus - expected.reduce((a, e) => a + e.f, 0) / N)).toBeLessThan(1e-6);
    // Not a constant: the scores spread (a fake score would not).
    expect(Math.max(...r.instances) - Math.min(...r.instances)).toBeGreaterThan(0.01);
  });

  it('with idf from the references, through `podium score` (the CLI), equals the reference to 1e-6', async () => {
    writeFileSync(join(tmp, 'h.txt'), hyps.join('\n') + '\n');
    writeFileSync(join(tmp, 'r.txt'), refs.join('\n') + '\n');
    const out = await cli(['score', '--metric', 'bertscore', '--model', MODEL, '--hyp', join(tmp, 'h.txt'), '--ref', join(tmp, 'r.txt'), '--idf']);
    expect(out.stderr).not.toMatch(/error/);
    expect(out.code).toBe(0);
    const r = JSON.parse(out.stdout) as { instances: number[]; signature: string };
    const idf = referenceIdf(R);
    const expected = H.map((h, i) => referenceBertScore(h, R[i] as Line, idf).f);
    expect(r.signature).toContain('|idf:yes|');
    expect(r.instances).toHaveLength(N);
    r.instances.forEach((x, i) => expect(Math.abs(x - (expected[i] ?? NaN))).toBeLessThan(1e-6));
  });

  it('with two references takes the best P, R and F each, then rescales with a baseline row, as bert_score', async () => {
    const baseline = 'LAYER,P,R,F\n0,0.5,0.5,0.5\n1,0.6,0.6,0.6\n2,0.8,0.7,0.75\n';
    const r = await scoreEmbedding(BERTSCORE_PLUGIN, encoder, { hyps, refs: refs.map((x, i) => [x, second[i] ?? '']) }, { idf: true, rescale: true, baselineTsv: baseline });
    const idf = referenceIdf([...R, ...S]); // M = every reference text, as bert_score flattens them
    const expected = H.map((h, i) => {
      const a = referenceBertScore(h, R[i] as Line, idf);
      const b = referenceBertScore(h, S[i] as Line, idf);
      return { p: (Math.max(a.p, b.p) - 0.8) / 0.2, r: (Math.max(a.r, b.r) - 0.7) / 0.3, f: (Math.max(a.f, b.f) - 0.75) / 0.25 };
    });
    expect(r.signature).toContain('|rescale:0.800000,0.700000,0.750000|nrefs:2|');
    expect(r.components['P']).toHaveLength(N);
    r.instances.forEach((x, i) => expect(Math.abs(x - (expected[i]?.f ?? NaN))).toBeLessThan(1e-6));
    r.components['P']?.forEach((x, i) => expect(Math.abs(x - (expected[i]?.p ?? NaN))).toBeLessThan(1e-6));
  });

  it('rescales English roberta-large layer 17 with the registry baseline file (as bert_score reads it)', async () => {
    // The encoder is the test one; only the baseline lookup is exercised: the file is fetched
    // from the data set registry and its layer-17 row parsed: rescale_baseline/en/roberta-large.tsv
    // row "17,0.83150584,0.8314941,0.83122575".
    const { withHostFiles } = await import('@podium/embeddings');
    const identity = { name: 'roberta-large', sha256: '0'.repeat(64), numLayers: 24, hiddenSize: 1024 };
    const o = await withHostFiles(BERTSCORE_PLUGIN, { rescale: true }, identity, { source: parseDataMirror(process.env['PODIUM_DATA_MIRROR']), cacheDir: join(tmp, 'cache') });
    expect(BERTSCORE_PLUGIN.signature(o, identity, 1)).toBe('bertscore|model:roberta-large@000000000000|L:17|idf:no|rescale:0.831506,0.831494,0.831226|nrefs:1|refs:best|version:podium-0.1.0');
  });
});
