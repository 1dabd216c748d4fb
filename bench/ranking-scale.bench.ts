/**
 * Leaderboard analysis at scale (issue #11): `npm run bench:ranking-scale -- --systems 100
 * --instances 10000 --corpus bleu`. Builds deterministic synthetic sentence scores and BLEU-like
 * sufficient statistics (10 counts per instance, scored by the real corpus BLEU of
 * @podium/metrics), runs `analyseSystems` as the API's adapter does (Holm, seed 12345, resamples
 * chosen automatically unless `--resamples` is given; corpus paired-bs without corpus AR) and
 * prints each stage's wall-clock time, the total, and memory: V8 heap + array buffers sampled at
 * every stage boundary (`heap peak`), and the process's peak resident set size before and after
 * the analysis (`maxRSS`, from getrusage). On a shared machine the total's CPU time (user +
 * system, all threads of the process: mostly the analysis, plus GC) is the steadier figure.
 *
 * Flags: --systems S (20) --instances N (5000) --corpus bleu|none (bleu) --resamples R (auto)
 * --repeat K (1; medians of K runs are printed) --stats arrays|flat (flat: one Float64Array per
 * system, arrays: number[][][] as the API builds today) --json (one JSON line at the end).
 * --incremental (issue #28): after the runs from scratch, analyses the first S − 1 systems with an
 * analysis memo, then all S with it (the last score's board), and prints that analysis' stages
 * beside the run from scratch, the ratio, and whether the two results are identical; the systems
 * the memo holds get no corpus statistics, as a board gives them (`--repeat 0`: the incremental
 * analysis alone). `--added A` (1): the memo holds the first S − A systems (a board a few scores
 * behind). `--decimals D` (2): sentence scores rounded to D decimals (0: many ties, as TER's).
 * Profile with `node --cpu-prof -r @swc-node/register bench/ranking-scale.bench.ts …`;
 * `--profile-incremental FILE` writes a CPU profile (.cpuprofile) of the incremental analysis alone.
 */
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector';
import { cpus, loadavg } from 'node:os';
import { getMetric } from '@podium/metrics';
import { analyseSystems, corpusStatsNeeded, emptyAnalysisMemo, mulberry32, type AnalyseOptions, type Analysis, type MemoUse, type ScoreTable } from '@podium/ranking';
import { isDeepStrictEqual } from 'node:util';

function flag(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  const value = i >= 0 ? process.argv[i + 1] : undefined;
  return value ?? fallback;
}

const systems = Number(flag('systems', '20'));
const instances = Number(flag('instances', '5000'));
const corpusKind = flag('corpus', 'bleu');
const resamplesFlag = flag('resamples', 'auto');
const repeat = Number(flag('repeat', '1'));
const statsFormat = flag('stats', 'flat');
const asJson = process.argv.includes('--json');
const incremental = process.argv.includes('--incremental');
const profileIncremental = flag('profile-incremental', '');
const added = Number(flag('added', '1'));
const decimals = Number(flag('decimals', '2'));
if (!(Number.isInteger(added) && added >= 1 && added < systems) || !(Number.isInteger(decimals) && decimals >= 0 && decimals <= 6)) {
  console.error('usage: --added A (1 ≤ A < systems) --decimals D (0 … 6)');
  process.exit(2);
}
if (!(systems >= 2 && instances >= 1 && (repeat >= 1 || (repeat === 0 && incremental))) || !['bleu', 'none'].includes(corpusKind) || !['arrays', 'flat'].includes(statsFormat)) {
  console.error('usage: --systems S≥2 --instances N≥1 --corpus bleu|none [--resamples R] [--repeat K] [--stats arrays|flat] [--json]');
  process.exit(2);
}

const WIDTH = 10; // BLEU: hyp length, ref length, 4 n-gram matches, 4 n-gram totals

/**
 * Deterministic synthetic board: system strength u_s ~ U(0,1), instance difficulty δ_l ~ N(0,1),
 * per-cell noise; sentence score rounded to --decimals decimals (ties occur, as with real metrics).
 * BLEU statistics: hypothesis length 8–40, reference length ±3, n-gram matches a binomial-like
 * share of the n-gram totals with precision growing with the cell's quality.
 */
function synthetic(k: number, n: number, withStats: boolean): { table: ScoreTable; stats: Float64Array[] | null } {
  const rng = mulberry32(20261124);
  const strength = Array.from({ length: k }, () => rng.next());
  const difficulty = Array.from({ length: n }, () => rng.nextNormal());
  const scores: number[][] = [];
  const stats: Float64Array[] | null = withStats ? [] : null;
  for (let s = 0; s < k; s++) {
    const row = new Array<number>(n);
    const st = withStats ? new Float64Array(n * WIDTH) : null;
    for (let l = 0; l < n; l++) {
      const quality = 50 + 10 * (difficulty[l] ?? 0) + 5 * (strength[s] ?? 0) + 8 * rng.nextNormal();
      row[l] = Math.round(quality * 10 ** decimals) / 10 ** decimals;
      if (st) {
        const hyp = 8 + rng.nextInt(33);
        const ref = Math.max(1, hyp + rng.nextInt(7) - 3);
        const precision = Math.min(0.95, Math.max(0.05, quality / 100));
        const o = l * WIDTH;
        st[o] = hyp;
        st[o + 1] = ref;
        for (let g = 0; g < 4; g++) {
          const total = Math.max(0, hyp - g);
          const p = Math.pow(precision, g + 1);
          st[o + 2 + g] = Math.min(total, Math.round(total * p + (rng.next() - 0.5) * 2));
          st[o + 6 + g] = total;
        }
      }
    }
    scores.push(row);
    if (stats && st) stats.push(st);
  }
  return {
    table: {
      systems: Array.from({ length: k }, (_, s) => `sys${String(s).padStart(3, '0')}`),
      instances: Array.from({ length: n }, (_, l) => `seg${String(l).padStart(6, '0')}`),
      scores,
    },
    stats,
  };
}

function asArrays(flat: Float64Array[]): number[][][] {
  return flat.map((f) => {
    const n = f.length / WIDTH;
    const rows: number[][] = new Array<number[]>(n);
    for (let l = 0; l < n; l++) rows[l] = Array.from(f.subarray(l * WIDTH, (l + 1) * WIDTH));
    return rows;
  });
}

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const h = s.length >> 1;
  return s.length % 2 ? (s[h] ?? NaN) : ((s[h - 1] ?? NaN) + (s[h] ?? NaN)) / 2;
};
const mb = (bytes: number): number => Math.round(bytes / 1048576);
const heapNow = (): number => {
  const m = process.memoryUsage();
  return m.heapUsed + m.arrayBuffers;
};

const t0 = performance.now();
const { table, stats } = synthetic(systems, instances, corpusKind === 'bleu');
const bleu = getMetric('bleu');
let corpus: AnalyseOptions['corpus'] | undefined;
if (stats) {
  corpus =
    statsFormat === 'flat'
      ? { stats: { width: WIDTH, data: stats }, corpusFromStats: (rows: number[][]) => bleu.corpusFromStats(rows), ar: false }
      : { stats: asArrays(stats), corpusFromStats: (rows: number[][]) => bleu.corpusFromStats(rows), ar: false };
}
const buildSeconds = (performance.now() - t0) / 1000;
const rssBefore = process.resourceUsage().maxRSS * 1024;
const heapInput = heapNow();

const stageTimes = new Map<string, number[]>();
const stageCpu = new Map<string, number[]>();
const totals: number[] = [];
const cpuTotals: number[] = [];
let heapPeak = heapInput;
let resamples = 0;
let eloOrders = 0;
let fromScratch: Analysis | null = null;
for (let run = 0; run < repeat; run++) {
  const start = performance.now();
  const cpuStart = process.cpuUsage();
  let cpuMark = process.cpuUsage();
  const analysis = analyseSystems(table, {
    seed: 12345,
    correction: 'holm',
    ...(resamplesFlag !== 'auto' ? { resamples: Number(resamplesFlag) } : {}),
    ...(corpus ? { corpus } : {}),
    onStage: (name, ms) => {
      const list = stageTimes.get(name) ?? [];
      list.push(ms);
      stageTimes.set(name, list);
      const used = process.cpuUsage(cpuMark);
      cpuMark = process.cpuUsage();
      const cpuList = stageCpu.get(name) ?? [];
      cpuList.push((used.user + used.system) / 1000);
      stageCpu.set(name, cpuList);
      heapPeak = Math.max(heapPeak, heapNow());
    },
  });
  totals.push(performance.now() - start);
  const cpu = process.cpuUsage(cpuStart);
  cpuTotals.push((cpu.user + cpu.system) / 1000);
  heapPeak = Math.max(heapPeak, heapNow());
  resamples = analysis.settings.resamples;
  eloOrders = analysis.settings.elo_orders;
  fromScratch = analysis;
}
const baseOptions: AnalyseOptions = { seed: 12345, correction: 'holm', ...(resamplesFlag !== 'auto' ? { resamples: Number(resamplesFlag) } : {}) };
let incrementalResult: { stages: Map<string, number>; total: number; cpu: number; identical: boolean | null; use: MemoUse | null; warmSeconds: number } | null = null;
if (incremental) {
  const memo = emptyAnalysisMemo();
  const fingerprints = table.systems.map((s) => `${s}:20261124`);
  const warmStart = performance.now();
  const first = systems - added;
  analyseSystems(
    { ...table, systems: table.systems.slice(0, first), scores: table.scores.slice(0, first) },
    { ...baseOptions, ...(corpus && stats ? { corpus: { ...corpus, stats: { width: WIDTH, data: stats.slice(0, first) } } } : {}), memo, fingerprints: fingerprints.slice(0, first) },
  );
  const warmSeconds = (performance.now() - warmStart) / 1000;
  const stages = new Map<string, number>();
  let use: MemoUse | null = null;
  const profiler = profileIncremental ? new Session() : null;
  profiler?.connect();
  profiler?.post('Profiler.enable');
  profiler?.post('Profiler.start');
  const start = performance.now();
  const cpuStart = process.cpuUsage();
  // as a board gives them: no statistics for the systems whose corpus columns the memo holds (corpusStatsNeeded)
  const needed = corpus && stats ? corpusStatsNeeded(table, { ...baseOptions, corpus: { ...corpus, stats: { width: WIDTH, data: [] } }, memo, fingerprints }) : [];
  const lazyCorpus = corpus && stats ? { ...corpus, stats: { width: WIDTH, data: stats.map((f, s) => (needed[s] ? f : new Float64Array(0))) } } : corpus;
  const analysis = analyseSystems(table, {
    ...baseOptions,
    ...(lazyCorpus ? { corpus: lazyCorpus } : {}),
    memo,
    fingerprints,
    onMemoUse: (u) => (use = u),
    onStage: (name, ms) => stages.set(name, ms),
  });
  const total = performance.now() - start;
  const cpu = process.cpuUsage(cpuStart);
  profiler?.post('Profiler.stop', (error, result) => {
    if (error) console.error(`profile: ${error.message}`);
    else writeFileSync(profileIncremental, JSON.stringify(result.profile));
  });
  profiler?.disconnect();
  incrementalResult = { stages, total, cpu: (cpu.user + cpu.system) / 1000, identical: fromScratch === null ? null : isDeepStrictEqual(analysis, fromScratch), use, warmSeconds };
}
const rssAfter = process.resourceUsage().maxRSS * 1024;

const rows: [string, string][] = [];
for (const [name, list] of stageTimes) rows.push([name, `${(median(list) / 1000).toFixed(3)} s wall, ${(median(stageCpu.get(name) ?? []) / 1000).toFixed(3)} s CPU`]);
rows.push(['total (median)', `${(median(totals) / 1000).toFixed(3)} s wall, ${(median(cpuTotals) / 1000).toFixed(3)} s CPU`]);
const pad = Math.max(...rows.map((r) => r[0].length));
console.log(
  `ranking-scale: ${systems} systems × ${instances} instances, corpus ${corpusKind}${corpus ? ` (${statsFormat})` : ''}, resamples ${resamples}${resamplesFlag === 'auto' ? ' (auto)' : ''}, Elo/TrueSkill orders ${eloOrders}, ${repeat} run(s); input built in ${buildSeconds.toFixed(1)} s`,
);
for (const [name, value] of rows) console.log(`  ${name.padEnd(pad)}  ${value}`);
console.log(`  heap+buffers: input ${mb(heapInput)} MB, peak at stage boundaries ${mb(heapPeak)} MB; maxRSS before analysis ${mb(rssBefore)} MB, after ${mb(rssAfter)} MB`);
if (incrementalResult) {
  const inc = incrementalResult;
  console.log(`  incremental (memo of the first ${systems - added} systems, built in ${inc.warmSeconds.toFixed(1)} s; then all ${systems}):`);
  for (const [name, ms] of inc.stages) console.log(`    ${name.padEnd(pad)}  ${(ms / 1000).toFixed(3)} s wall${stageTimes.has(name) ? ` (from scratch ${(median(stageTimes.get(name) ?? []) / 1000).toFixed(3)} s)` : ''}`);
  const against = repeat > 0 ? `; from scratch / incremental = ${(median(totals) / inc.total).toFixed(2)}× wall, ${(median(cpuTotals) / inc.cpu).toFixed(2)}× CPU; identical to the analysis from scratch: ${inc.identical ? 'yes' : 'NO'}` : ' (--repeat 0: no analysis from scratch to compare)';
  console.log(`    total  ${(inc.total / 1000).toFixed(3)} s wall, ${(inc.cpu / 1000).toFixed(3)} s CPU${against}`);
  console.log(`    memo: ${JSON.stringify(inc.use)}`);
}
console.log(`  all runs (s): ${totals.map((t) => (t / 1000).toFixed(3)).join(' ')}; load average ${loadavg()[0]?.toFixed(1)} on ${cpus().length} cores`);
if (asJson) {
  console.log(
    JSON.stringify({
      systems,
      instances,
      corpus: corpusKind,
      stats: statsFormat,
      resamples,
      eloOrders,
      stages: Object.fromEntries([...stageTimes].map(([k, v]) => [k, median(v) / 1000])),
      stagesCpu: Object.fromEntries([...stageCpu].map(([k, v]) => [k, median(v) / 1000])),
      total: median(totals) / 1000,
      cpu: median(cpuTotals) / 1000,
      runs: totals.map((t) => t / 1000),
      heapInputMB: mb(heapInput),
      heapPeakMB: mb(heapPeak),
      rssBeforeMB: mb(rssBefore),
      rssAfterMB: mb(rssAfter),
      ...(incrementalResult
        ? { incremental: { total: incrementalResult.total / 1000, cpu: incrementalResult.cpu / 1000, identical: incrementalResult.identical, stages: Object.fromEntries([...incrementalResult.stages].map(([k, v]) => [k, v / 1000])), memo: incrementalResult.use } }
        : {}),
    }),
  );
}
