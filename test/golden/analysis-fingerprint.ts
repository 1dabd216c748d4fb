/**
 * Boards before/after a ranking refactor: runs analyseSystems on the golden fixtures (11 WMT17
 * systems × 100 sentence scores, six metrics, TER lower-is-better), the paper's Fig. 1 example and
 * — with the data mirror — the demo's WMT17 de-en test set (11 systems × 506 segments, chrF with
 * corpus statistics), and writes every number as exact text (NaN, ±Infinity and −0 kept).
 *
 *   node -r @swc-node/register test/golden/analysis-fingerprint.ts write /tmp/before.json
 *   node -r @swc-node/register test/golden/analysis-fingerprint.ts compare /tmp/before.json
 *
 * `compare` drops what a newer version adds (fields absent from the older file, e.g. the
 * per-method `methods` values and descriptors) and fails on any other difference.
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { getMetric } from '@podium/metrics';
import { analyseSystems, type AnalyseOptions, type ScoreTable } from '@podium/ranking';

const repo = path.resolve(__dirname, '..', '..');
const golden = JSON.parse(readFileSync(path.join(repo, 'test/golden/sacrebleu-wmt17-de-en.json'), 'utf8')) as {
  systems: Record<string, Record<string, { sentence_first100?: number[] }>>;
};
const LOWER_IS_BETTER = new Set(['ter']);

function cases(): [string, ScoreTable, AnalyseOptions][] {
  const out: [string, ScoreTable, AnalyseOptions][] = [];
  const systems = Object.keys(golden.systems).sort();
  const metrics = Object.keys(golden.systems[systems[0] ?? ''] ?? {});
  for (const metric of metrics) {
    const scores = systems.map((s) => golden.systems[s]?.[metric]?.sentence_first100 ?? []);
    if ((scores[0] ?? []).length === 0) continue; // corpus-only figures for this metric
    const table = { systems, instances: (scores[0] ?? []).map((_, i) => String(i).padStart(3, '0')), scores, higherIsBetter: !LOWER_IS_BETTER.has(metric) };
    out.push([`golden ${metric}`, table, { resamples: 1000 }]);
    out.push([`golden ${metric} sign test`, table, { resamples: 500, test: 'sign', seed: 7, correction: 'bh' }]);
  }
  out.push(['fig1', { systems: ['A', 'B', 'C'], instances: ['1', '2', '3', '4', '5'], scores: [[1, 5, 11, 12, 17], [5, 11, 12, 17, 1], [2, 6, 7, 13, 18]] }, { resamples: 2000 }]);
  const mirror = process.env['PODIUM_DATA_MIRROR'];
  const wmt = mirror ? path.join(mirror, 'cyr19/MENLI/911238d470288125d35cc950f69411bc619a2c4b/experiments/datasets/WMT17') : '';
  const dir = path.join(wmt, 'system-outputs/newstest2017/de-en');
  if (mirror && existsSync(dir)) {
    const read = (p: string) => readFileSync(p, 'utf8').replace(/\n$/, '').split('\n');
    const refs = read(path.join(wmt, 'references/newstest2017-deen-ref.en'));
    const files = readdirSync(dir).sort();
    const take = 506;
    const m = getMetric('chrf', {});
    const stats = files.map((f) => read(path.join(dir, f)).slice(0, take).map((h, i) => m.stats(h, [refs[i] ?? ''])));
    const table = { systems: files, instances: Array.from({ length: take }, (_, i) => String(i).padStart(4, '0')), scores: stats.map((rows) => rows.map((r) => m.sentenceFromStats(r))) };
    out.push(['demo-size wmt17 de-en chrf (corpus)', table, { resamples: 2000, corpus: { stats, corpusFromStats: (rows) => m.corpusFromStats(rows) } }]);
  } else process.stderr.write('no PODIUM_DATA_MIRROR: the demo-size case is skipped\n');
  return out;
}

const exact = (_key: string, v: unknown): unknown => (typeof v === 'number' ? (Object.is(v, -0) ? '-0' : Number.isFinite(v) ? v : String(v)) : v);

/** Keeps only the paths the older result has (newer additions are not differences). */
function restrict(newer: unknown, older: unknown): unknown {
  if (Array.isArray(newer) && Array.isArray(older)) return newer.map((v, i) => restrict(v, older[i]));
  if (newer && older && typeof newer === 'object' && typeof older === 'object' && !Array.isArray(older)) {
    return Object.fromEntries(Object.keys(older).map((k) => [k, restrict((newer as Record<string, unknown>)[k], (older as Record<string, unknown>)[k])]));
  }
  return newer;
}

const [mode, file] = process.argv.slice(2);
if (!file || (mode !== 'write' && mode !== 'compare')) throw new Error('usage: analysis-fingerprint.ts write|compare FILE');
const results = Object.fromEntries(cases().map(([name, table, options]) => [name, JSON.parse(JSON.stringify(analyseSystems(table, options), exact)) as unknown]));
if (mode === 'write') {
  writeFileSync(file, JSON.stringify(results));
  process.stdout.write(`${Object.keys(results).length} analyses written to ${file}\n`);
} else {
  const before = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
  let differ = 0;
  for (const [name, old] of Object.entries(before)) {
    const same = JSON.stringify(restrict(results[name], old)) === JSON.stringify(old);
    if (!same) differ++;
    process.stdout.write(`${same ? 'identical' : 'DIFFERENT'}  ${name}\n`);
  }
  process.stdout.write(`${Object.keys(before).length - differ} of ${Object.keys(before).length} analyses bit-identical (new fields excluded)\n`);
  if (differ > 0) process.exitCode = 1;
}
