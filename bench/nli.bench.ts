/**
 * NLI benchmark: `npm run bench:nli`. Pairs per second on CPU through `@podium/nli`
 * (tokenise, sort by length, pad, onnxruntime, softmax) at batch sizes 1, 8 and 32, with every
 * pair exactly 128 tokens long (long premises truncated longest-first), for
 *  1. the committed tiny test model (models/test-nli-tiny), and
 *  2. a BERT-base-shaped cross-encoder with random weights (12 layers, hidden 768; generated
 *     once into tmp/nli-bench/ by models/make-bert-shaped-model.ts — speed only).
 * Baseline, measured in the same run: onnxruntime's `session.run` on ready-made int64 tensors
 * of the same shape (no tokenisation, no sorting, no softmax). Ratios printed: ours/raw (the
 * library's overhead; 1.00 = none) and batch b vs batch 1 of the same model.
 * Options: `--quick` runs fewer BERT pairs; `--threads N` sets onnxruntime intra-op threads.
 */
import { cpSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import * as ort from 'onnxruntime-node';
import { loadNliModel, sha256File, type NliPair } from '@podium/nli';
import { bertShapedModel } from '../models/make-bert-shaped-model';

const ROOT = resolve(__dirname, '..');
const OUT = join(ROOT, 'tmp', 'nli-bench');
const SEQ = 128;
const BATCH_SIZES = [1, 8, 32];
const args = process.argv.slice(2);
const quick = args.includes('--quick');
const threadsArg = args.indexOf('--threads');
const threads = threadsArg >= 0 ? Number(args[threadsArg + 1]) : undefined;

async function prepareModels(): Promise<void> {
  mkdirSync(OUT, { recursive: true });
  const tiny = join(ROOT, 'models', 'test-nli-tiny');
  cpSync(tiny, join(OUT, 'test-nli-tiny'), { recursive: true });
  const bert = join(OUT, 'bert-base-random');
  mkdirSync(bert, { recursive: true });
  if (!existsSync(join(bert, 'model.onnx'))) {
    process.stderr.write('generating the BERT-base-shaped model (~440 MB) into tmp/nli-bench/ …\n');
    writeFileSync(join(bert, 'model.onnx'), bertShapedModel());
  }
  cpSync(join(tiny, 'tokenizer.json'), join(bert, 'tokenizer.json'));
  const config = {
    _comment: 'random weights, speed only (bench/nli.bench.ts)',
    model_type: 'bert',
    id2label: { 0: 'contradiction', 1: 'entailment', 2: 'neutral' },
    max_position_embeddings: 512,
  };
  writeFileSync(join(bert, 'config.json'), JSON.stringify(config, null, 2));
  writeFileSync(join(bert, 'tokenizer_config.json'), JSON.stringify({ model_max_length: SEQ }));
  // A manifest of our own, so the models load through the normal verified path.
  const models: Record<string, unknown> = {};
  for (const name of ['test-nli-tiny', 'bert-base-random']) {
    const files: Record<string, unknown> = {};
    for (const f of ['model.onnx', 'tokenizer.json', 'config.json']) {
      files[f] = { remote: f, sha256: await sha256File(join(OUT, name, f)) };
    }
    models[name] = { source: 'generated', licence: 'MIT', labels: ['contradiction', 'entailment', 'neutral'], files };
  }
  writeFileSync(join(OUT, 'manifest.json'), JSON.stringify({ version: 1, defaultModel: 'test-nli-tiny', models }, null, 2));
}

/** Pairs whose encoding is exactly SEQ tokens: a long premise is truncated, the hypothesis kept. */
function pairs(n: number): NliPair[] {
  const words = 'the police said on monday that the new year would bring more people to the city and its old market'.split(' ');
  return Array.from({ length: n }, (_, i) => ({
    premise: Array.from({ length: 200 }, (_, j) => words[(i + j * 7) % words.length]).join(' '),
    hypothesis: Array.from({ length: 20 }, (_, j) => words[(i * 3 + j) % words.length]).join(' '),
  }));
}

async function seconds(fn: () => Promise<unknown>): Promise<number> {
  const t0 = process.hrtime.bigint();
  await fn();
  return Number(process.hrtime.bigint() - t0) / 1e9;
}

async function rawRun(session: ort.InferenceSession, n: number, batch: number): Promise<number> {
  const tensors = (rows: number) => {
    const ids = BigInt64Array.from({ length: rows * SEQ }, (_, i) => BigInt(5 + (i % 1000)));
    const ones = new BigInt64Array(rows * SEQ).fill(1n);
    const types = BigInt64Array.from({ length: rows * SEQ }, (_, i) => (i % SEQ >= SEQ - 21 ? 1n : 0n));
    return {
      input_ids: new ort.Tensor('int64', ids, [rows, SEQ]),
      attention_mask: new ort.Tensor('int64', ones, [rows, SEQ]),
      token_type_ids: new ort.Tensor('int64', types, [rows, SEQ]),
    };
  };
  const full = tensors(batch);
  const rest = n % batch === 0 ? undefined : tensors(n % batch);
  await session.run(full); // warm-up
  return seconds(async () => {
    for (let done = 0; done < n; done += batch) await session.run(done + batch <= n ? full : (rest as typeof full));
  });
}

async function bench(name: string, n: number): Promise<void> {
  const dir = join(OUT, name);
  const model = await loadNliModel(dir, { manifestPath: join(OUT, 'manifest.json'), intraOpThreads: threads, log: () => undefined });
  const sessionOptions: ort.InferenceSession.SessionOptions = { executionProviders: ['cpu'], graphOptimizationLevel: 'all' };
  if (threads !== undefined) sessionOptions.intraOpNumThreads = threads;
  const raw = await ort.InferenceSession.create(join(dir, 'model.onnx'), sessionOptions);
  const input = pairs(n);
  await model.predict(input.slice(0, Math.min(n, 8)), { batchSize: 8 }); // warm-up
  console.log(`\n${name} (${model.executionProvider}, ${n} pairs of ${SEQ} tokens, threads ${threads ?? 'default'})`);
  console.log('batch  podium pairs/s  raw ort pairs/s  podium/raw  vs batch 1');
  let base = 0;
  for (const batch of BATCH_SIZES) {
    const ours = n / (await seconds(() => model.predict(input, { batchSize: batch })));
    const theirs = n / (await rawRun(raw, n, batch));
    if (batch === 1) base = ours;
    console.log(
      `${String(batch).padStart(5)}  ${ours.toFixed(1).padStart(14)}  ${theirs.toFixed(1).padStart(15)}  ${(ours / theirs).toFixed(2).padStart(10)}  ${(ours / base).toFixed(2).padStart(10)}`,
    );
  }
  await model.close();
  await raw.release();
}

async function main(): Promise<void> {
  await prepareModels();
  await bench('test-nli-tiny', 2048);
  await bench('bert-base-random', quick ? 32 : 64);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
