/**
 * Transport and MoverScore-family benchmark: `npm run bench:transport`.
 *  1. The exact transport solver (`earthMoversDistance`, transportation simplex) against HiGHS's
 *     LP simplex (the `highs` package, the specs' independent reference) on the same random
 *     balanced instances, at the sizes MoverScore meets (n = m = 10, 30, 60 points; squared
 *     distances of random unit vectors as costs). Printed: instances/s of each and the ratio
 *     HiGHS time / ours (> 1: ours faster; HiGHS's time includes parsing the LP text, built
 *     beforehand), and the largest difference of the optima.
 *  2. The metrics' own code (no encoder: vectors are random, BERT-base-shaped: 13 hidden states
 *     of 768 dimensions, 30-token texts): segments/s of MoverScore v1/v2, XMoverScore and
 *     DiscoScore, what `bench:embeddings` adds to the encoder's time.
 * Options: `--quick` runs fewer instances.
 */
import highsLoader from 'highs';
import {
  DS_FOCUS_PLUGIN,
  DS_SENT_PLUGIN,
  MOVERSCORE_PLUGIN,
  XMOVERSCORE_PLUGIN,
  earthMoversDistance,
  runEmbeddingMetric,
  type EmbeddedInstance,
  type EmbeddedText,
  type EmbeddingMetricPlugin,
  type EncoderIdentity,
} from '@podium/metrics';
import { mulberry32 } from '@podium/ranking';

const quick = process.argv.includes('--quick');

/** A seeded uniform [0, 1) source (@podium/ranking's mulberry32). */
function rng(seed: number): () => number {
  const r = mulberry32(seed);
  return () => r.next();
}

function instance(rand: () => number, n: number, dim = 64): { a: number[]; b: number[]; cost: number[] } {
  const unit = (): number[] => {
    const v = Array.from({ length: dim }, () => rand() - 0.5);
    const s = Math.sqrt(v.reduce((x, y) => x + y * y, 0));
    return v.map((x) => x / s);
  };
  const xs = Array.from({ length: n }, unit);
  const ys = Array.from({ length: n }, unit);
  const a = xs.map(() => rand() + 0.1);
  const b = ys.map(() => rand() + 0.1);
  const sa = a.reduce((s, x) => s + x, 0);
  const sb = b.reduce((s, x) => s + x, 0);
  const cost: number[] = [];
  for (const x of xs) for (const y of ys) cost.push(x.reduce((s, xi, i) => s + (xi - (y[i] as number)) ** 2, 0));
  return { a: a.map((x) => x / sa), b: b.map((x) => x / sb), cost };
}

function lpText(a: number[], b: number[], cost: number[]): string {
  const n = a.length;
  const m = b.length;
  const v = (i: number, j: number): string => `x${i}_${j}`;
  const terms: string[] = [];
  for (let i = 0; i < n; i++) for (let j = 0; j < m; j++) terms.push(`${(cost[i * m + j] as number).toPrecision(17)} ${v(i, j)}`);
  const lines = ['Minimize', ` obj: ${terms.join(' + ')}`, 'Subject To'];
  for (let i = 0; i < n; i++) lines.push(` r${i}: ${Array.from({ length: m }, (_, j) => v(i, j)).join(' + ')} = ${(a[i] as number).toPrecision(17)}`);
  for (let j = 0; j < m; j++) lines.push(` c${j}: ${Array.from({ length: n }, (_, i) => v(i, j)).join(' + ')} = ${(b[j] as number).toPrecision(17)}`);
  lines.push('End', '');
  return lines.join('\n');
}

function seconds(f: () => void): number {
  const t = process.hrtime.bigint();
  f();
  return Number(process.hrtime.bigint() - t) / 1e9;
}

function text(rand: () => number, len: number, enc: EncoderIdentity, layerIndices: number[]): EmbeddedText {
  const words = ['the', 'cat', 'sat', 'on', 'mat', 'dog', 'house', 'red', 'soldiers', 'killed'];
  const toks: string[] = [];
  const offsets: [number, number][] = [[0, 0]];
  let pos = 0;
  for (let k = 0; k < len; k++) {
    const w = words[Math.floor(rand() * words.length)] as string;
    toks.push(w);
    offsets.push([pos, pos + w.length]);
    pos += w.length + 1;
  }
  offsets.push([0, 0]);
  const tokens = ['[CLS]', ...toks, '[SEP]'];
  return {
    text: toks.join(' '),
    tokens,
    ids: tokens.map((t) => t.length * 7 + (t.charCodeAt(0) % 13)),
    special: tokens.map((_, k) => k === 0 || k === tokens.length - 1),
    offsets,
    layers: layerIndices.map(() => tokens.map(() => Float32Array.from({ length: enc.hiddenSize }, () => rand() - 0.5))),
    layerIndices,
  };
}

async function main(): Promise<void> {
  const highs = await highsLoader();
  process.stdout.write('exact transport vs HiGHS LP (same instances)\n');
  process.stdout.write('  n=m   instances  ours/s     highs/s    ratio   max |Δ optimum|\n');
  for (const n of [10, 30, 60]) {
    const count = quick ? Math.max(5, Math.floor(200 / n)) : Math.max(20, Math.floor(2000 / n));
    const rand = rng(n);
    const problems = Array.from({ length: count }, () => instance(rand, n));
    // Warm both up (JIT, wasm) on instances outside the timing.
    for (let w = 0; w < 5; w++) {
      const p = instance(rand, n);
      earthMoversDistance(p.a, p.b, p.cost);
      highs.solve(lpText(p.a, p.b, p.cost), { solver: 'simplex' });
    }
    const ours: number[] = [];
    const lp: number[] = [];
    const tOurs = seconds(() => problems.forEach((p) => ours.push(earthMoversDistance(p.a, p.b, p.cost).distance)));
    const texts = problems.map((p) => lpText(p.a, p.b, p.cost));
    const tLp = seconds(() => texts.forEach((t) => lp.push(highs.solve(t, { solver: 'simplex' }).ObjectiveValue)));
    const diff = ours.reduce((m, x, i) => Math.max(m, Math.abs(x - (lp[i] as number))), 0);
    process.stdout.write(`  ${String(n).padStart(3)}   ${String(count).padStart(9)}  ${(count / tOurs).toFixed(1).padStart(8)}   ${(count / tLp).toFixed(1).padStart(8)}   ${(tLp / tOurs).toFixed(2).padStart(5)}   ${diff.toExponential(1)}\n`);
  }

  const enc: EncoderIdentity = { name: 'bert-base-shaped-random', sha256: '0'.repeat(64), numLayers: 12, hiddenSize: 768 };
  const rand = rng(7);
  const segments = quick ? 20 : 100;
  process.stdout.write(`\nmetric code only (random BERT-base-shaped vectors, 30-token texts, ${segments} segments)\n`);
  const cases: [string, EmbeddingMetricPlugin, Record<string, unknown>][] = [
    ['moverscore v1', MOVERSCORE_PLUGIN, {}],
    ['moverscore v2', MOVERSCORE_PLUGIN, { variant: 'v2' }],
    ['xmoverscore', XMOVERSCORE_PLUGIN, {}],
    ['discoscore-focus', DS_FOCUS_PLUGIN, {}],
    ['discoscore-sent', DS_SENT_PLUGIN, {}],
  ];
  for (const [name, plugin, options] of cases) {
    // Only the hidden states the metric asks for, as a host keeps them.
    const layers = plugin.layers(plugin.definition.options.parse(options), enc);
    const instances: EmbeddedInstance[] = Array.from({ length: segments }, () => ({ hyp: text(rand, 30, enc, layers), refs: [text(rand, 30, enc, layers)], source: text(rand, 30, enc, layers) }));
    runEmbeddingMetric(plugin, instances.slice(0, 5), options, enc); // warm-up (JIT, the tagger) outside the timing
    const t = seconds(() => runEmbeddingMetric(plugin, instances, options, enc));
    process.stdout.write(`  ${name.padEnd(18)} ${(segments / t).toFixed(1).padStart(8)} segments/s\n`);
  }
}

void main();
