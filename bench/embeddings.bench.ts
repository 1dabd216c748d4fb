/**
 * Embedding-metrics benchmark: `npm run bench:embeddings`. Segments per second for every
 * registered metric of capability `embedding` (BERTScore, and MoverScore etc. once registered:
 * the list comes from the registry), scored through `@podium/embeddings` exactly as the worker
 * and CLI do (tokenise, sort by length, pad, onnxruntime, the metric's own code), on
 *  1. the committed tiny test encoder (models/test-encoder-tiny), and
 *  2. a BERT-base-shaped encoder with random weights (12 layers, hidden 768, every hidden state
 *     an output; generated once into tmp/embeddings-bench/ by models/make-bert-shaped-model.ts —
 *     speed only).
 * Segments: WMT17 de-en (KIT's output against the reference; against the German source for
 * XMoverScore, at hidden state min(8, last) with and without a generated CLP projection of the
 * encoder's width) from the data set registry when
 * PODIUM_DATA_MIRROR (or network) provides it, else synthetic news-like sentences.
 * Printed per model and metric: segments/s, and the share of the time spent in onnxruntime's
 * `run` (measured inside the encoder), in the metric's own code (prepare + scoreInstance), and
 * elsewhere (tokenising, padding, copying vectors). Baseline, measured in the same run: the
 * same texts through `encoder.embed` alone (no metric): the ratio metric/embed-only says what
 * the metric adds to the encoder's cost.
 * Options: `--quick` scores fewer segments; `--threads N` sets onnxruntime intra-op threads;
 * `--provider cuda` runs the encoders on CUDA (falls back to cpu).
 */
import { cpSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { dataSourceFromEnv, loadWmtTestSet } from '@podium/datasets';
import { loadEncoder, scoreEmbedding } from '@podium/embeddings';
import { isEmbeddingPlugin, metricPlugins } from '@podium/metrics';
import { sha256File } from '@podium/nli';
import { BERT_BASE, bertShapedModel } from '../models/make-bert-shaped-model';
import { encoderConfigJson } from '../models/make-test-encoder';

const ROOT = resolve(__dirname, '..');
const OUT = join(ROOT, 'tmp', 'embeddings-bench');
const args = process.argv.slice(2);
const quick = args.includes('--quick');
const threadsArg = args.indexOf('--threads');
const threads = threadsArg >= 0 ? Number(args[threadsArg + 1]) : undefined;
const provider = args.includes('--provider') && args[args.indexOf('--provider') + 1] === 'cuda' ? 'cuda' : 'cpu';

async function prepareModels(): Promise<void> {
  mkdirSync(OUT, { recursive: true });
  const tiny = join(ROOT, 'models', 'test-encoder-tiny');
  cpSync(tiny, join(OUT, 'test-encoder-tiny'), { recursive: true });
  const bert = join(OUT, 'bert-base-encoder');
  mkdirSync(bert, { recursive: true });
  if (!existsSync(join(bert, 'model.onnx'))) {
    process.stderr.write('generating the BERT-base-shaped encoder (~440 MB) into tmp/embeddings-bench/ …\n');
    writeFileSync(join(bert, 'model.onnx'), bertShapedModel(BERT_BASE, 1, 'hidden-states'));
  }
  cpSync(join(tiny, 'tokenizer.json'), join(bert, 'tokenizer.json'));
  writeFileSync(join(bert, 'config.json'), JSON.stringify(encoderConfigJson(BERT_BASE, 'random weights, speed only (bench/embeddings.bench.ts)'), null, 2));
  // A manifest of our own, so the encoders load through the normal verified path.
  const models: Record<string, unknown> = {};
  for (const name of ['test-encoder-tiny', 'bert-base-encoder']) {
    const files: Record<string, unknown> = {};
    for (const f of ['model.onnx', 'tokenizer.json', 'config.json']) files[f] = { remote: f, sha256: await sha256File(join(OUT, name, f)) };
    models[name] = { source: 'generated', kind: 'encoder', licence: 'MIT', files };
  }
  writeFileSync(join(OUT, 'manifest.json'), JSON.stringify({ version: 1, defaultModel: 'test-encoder-tiny', models }, null, 2));
}

async function segments(n: number): Promise<{ hyps: string[]; refs: string[][]; sources: string[]; from: string }> {
  try {
    const t = await loadWmtTestSet('wmt17-de-en', { source: dataSourceFromEnv() });
    const kit = t.systems.find((s) => s.name === 'KIT.4951') ?? t.systems[0];
    if (kit && t.instances.length >= n)
      return {
        hyps: kit.outputs.slice(0, n),
        refs: t.instances.slice(0, n).map((i) => i.references.slice(0, 1)),
        sources: t.instances.slice(0, n).map((i) => i.source),
        from: 'WMT17 de-en (KIT.4951 vs reference; XMoverScore vs the German source)',
      };
  } catch (err) {
    process.stderr.write(`WMT17 not available (${(err as Error).message.split('\n')[0] ?? ''}); using synthetic sentences\n`);
  }
  const words = 'the police said on monday that the new year would bring more people to the city and its old market'.split(' ');
  const sentence = (i: number, len: number) => Array.from({ length: len }, (_, j) => words[(i * 5 + j * 7) % words.length]).join(' ');
  const refs = Array.from({ length: n }, (_, i) => [sentence(i + 1, 15 + ((i + 3) % 20))]);
  return { hyps: Array.from({ length: n }, (_, i) => sentence(i, 15 + (i % 20))), refs, sources: refs.map((r) => r[0] ?? ''), from: 'synthetic' };
}

/** A d×d orthogonal matrix (Gram–Schmidt over seeded pseudo-random rows): a CLP mapping's shape and cost, not a fitted one. */
function generatedProjection(d: number): number[][] {
  let seed = 12345;
  const rand = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648) * 2 - 1;
  const rows: number[][] = [];
  while (rows.length < d) {
    let x = Array.from({ length: d }, rand);
    for (const q of rows) {
      const p = x.reduce((a, y, i) => a + y * (q[i] ?? 0), 0);
      x = x.map((y, i) => y - p * (q[i] ?? 0));
    }
    const norm = Math.sqrt(x.reduce((a, y) => a + y * y, 0));
    rows.push(x.map((y) => y / norm));
  }
  return rows;
}

/** The option sets timed per metric: the defaults, plus idf for BERTScore and a CLP mapping for XMoverScore (its hidden state capped at the encoder's last). */
function optionSets(metric: string, identity: { numLayers: number; hiddenSize: number }): Record<string, unknown>[] {
  if (metric === 'bertscore') return [{}, { idf: true }];
  if (metric === 'xmoverscore') {
    const layer = Math.min(8, identity.numLayers);
    return [{ layer }, { layer, mapping: 'CLP', projection: generatedProjection(identity.hiddenSize) }];
  }
  return [{}];
}

const label = (o: Record<string, unknown>): string => JSON.stringify(o, (k, v: unknown) => (k === 'projection' ? `${(v as unknown[]).length}²` : v));

const pct = (x: number, total: number) => `${((100 * x) / total).toFixed(0)}%`.padStart(5);

async function bench(name: string, n: number): Promise<void> {
  const encoder = await loadEncoder(join(OUT, name), { manifestPath: join(OUT, 'manifest.json'), intraOpThreads: threads, provider, log: () => undefined });
  const data = await segments(n);
  const plugins = metricPlugins().filter(isEmbeddingPlugin);
  const inputOf = (plugin: (typeof plugins)[number], k: number) =>
    plugin.compares === 'source' ? { hyps: data.hyps.slice(0, k), refs: data.hyps.slice(0, k).map(() => []), sources: data.sources.slice(0, k) } : { hyps: data.hyps.slice(0, k), refs: data.refs.slice(0, k) };
  // Warm-up of the whole path (JIT, onnxruntime's first runs), untimed.
  const warm = Math.min(n, 16);
  for (const plugin of plugins) await scoreEmbedding(plugin, encoder, inputOf(plugin, warm), optionSets(plugin.definition.name, encoder.identity)[0] ?? {});
  // Baseline of the same run: the encoder alone over the same texts, at the last layer; measured
  // before and after the metrics and averaged (the machine's load drifts).
  const texts = [...data.hyps, ...data.refs.flat()];
  const embedSeconds = async () => {
    const e0 = performance.now();
    await encoder.embed(texts, [encoder.identity.numLayers]);
    return (performance.now() - e0) / 1000;
  };
  const before = await embedSeconds();
  console.log(`\n${name} on ${encoder.executionProvider} (${n} segments, ${data.from}; threads ${threads ?? 'default'})`);
  const rows: { name: string; options: string; rate: number; t: { encoderMs: number; metricMs: number; totalMs: number } }[] = [];
  for (const plugin of plugins) {
    for (const options of optionSets(plugin.definition.name, encoder.identity)) {
      const r = await scoreEmbedding(plugin, encoder, inputOf(plugin, n), options);
      rows.push({ name: plugin.definition.name, options: label(options), rate: n / (r.timing.totalMs / 1000), t: r.timing });
    }
  }
  const embedOnly = n / ((before + (await embedSeconds())) / 2);
  console.log(`embed only (baseline, mean of a run before and after): ${embedOnly.toFixed(1)} segments/s`);
  console.log('metric            options                                segments/s  vs embed-only  onnxruntime  metric  other');
  for (const { name: metric, options, rate, t } of rows) {
    const other = t.totalMs - t.encoderMs - t.metricMs;
    console.log(
      `${metric.padEnd(16)}  ${options.padEnd(37)}  ${rate.toFixed(1).padStart(10)}  ${(rate / embedOnly).toFixed(2).padStart(13)}  ${pct(t.encoderMs, t.totalMs).padStart(11)}  ${pct(t.metricMs, t.totalMs).padStart(6)}  ${pct(other, t.totalMs).padStart(5)}`,
    );
  }
  await encoder.close();
}

async function main(): Promise<void> {
  await prepareModels();
  await bench('test-encoder-tiny', quick ? 256 : 500); // WMT17 de-en has 506 judged segments
  await bench('bert-base-encoder', quick ? 16 : 64);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
