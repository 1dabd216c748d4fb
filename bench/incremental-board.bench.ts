/**
 * The board soon after the last score (issue #28 item 2, docs/adr/0027-incremental-boards.md):
 * `npm run bench:incremental-board -- --systems 100 --instances 10000 [--metrics bleu,chrf,ter]
 * [--profile] [--fill] [--threads T] [--lag K] [--no-scratch] [--no-column-cache]`.
 *
 * An embedded PostgreSQL of its own; a task scored with the given metrics; S − 1 submissions'
 * score columns stored as the worker stores them (sentence values and the corpus metrics'
 * sufficient statistics: real `metric.stats` rows of a pool of synthetic sentence pairs, picked
 * per cell by the system's quality), then every default view computed (`computePhaseBoards`, in
 * this process, no worker thread), which keeps each view's analysis memo. Then the last
 * submission is stored and, in the same run:
 *  - incremental: every view computed again with the kept memos — the time to the default board
 *    and to every view, what the memo saved;
 *  - from scratch (the baseline, main's path): memos and stored boards deleted, the same again.
 * Prints both, their ratio, whether every board is byte for byte the same (but its computedAt),
 * and with --profile the CPU profile shares of each (node:inspector; self time by where the code
 * lives: ranking kernels, metrics, database client, serialising and compressing, memo, the rest;
 * idle = waiting on PostgreSQL). With --fill, one more submission stays queued (never scored),
 * so the phase is still being scored and the computations fill their memos first
 * (PhaseBoardsOptions.fillMemos, as the worker's do during a burst); the fills' time is printed apart.
 * With --threads T the computations run as the worker runs them: T worker threads
 * (computeInThread), the analyses shared out between them, each thread lowering its priority as the
 * worker's do (profile them with `node --cpu-prof`: the threads inherit it; --profile then only
 * times the main thread). With --lag K the memos lack K systems, not one: the last K submissions
 * are stored after the computation that keeps the memos (the final computation of a burst whose
 * fills fell behind). With threads, the warm and incremental computations share a column cache
 * as a worker's threads do (BoardColumnCache, PODIUM_LEADERBOARD_COLUMN_CACHE_MB): the incremental
 * one reads only the K new columns of each metric; --no-column-cache reads every column, as before.
 * The computation from scratch never has one.
 * Results JSON in bench-results/incremental-board-<date>.json.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { Session, type Profiler } from 'node:inspector';
import { cpus, loadavg } from 'node:os';
import path from 'node:path';
import { getMetric, parseMetricOptions, type MetricName } from '@podium/metrics';
import { IdentityRepository, Role, SubmissionRepository, TaskKind, TaskRepository, type Db } from '@podium/db';
import { BoardColumnCache, computeInThread, computePhaseBoards, type AnalysisStage, type ComputedBoard, type PhaseBoardsSummary } from '@podium/leaderboard';
import { mulberry32 } from '@podium/ranking';
import { openBenchStore } from '../test/e2e/support/faults';
import { startOwnPostgres } from '../test/e2e/support/postgres';
import { freePort, repoRoot } from '../test/e2e/support/processes';
import { POOL, sentencePool } from './platform/sentence-pool';

function flag(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return (i >= 0 ? process.argv[i + 1] : undefined) ?? fallback;
}
const SYSTEMS = Number(flag('systems', '20'));
const INSTANCES = Number(flag('instances', '2000'));
const METRICS = flag('metrics', 'bleu,chrf,ter').split(',') as MetricName[];
const PROFILE = process.argv.includes('--profile');
const FILL = process.argv.includes('--fill');
/** The incremental computation only (to profile it): no run from scratch, so nothing compared against it. */
const NO_SCRATCH = process.argv.includes('--no-scratch');
const THREADS = Number(flag('threads', '0'));
const LAG = Number(flag('lag', '1'));
const COLUMN_CACHE = !process.argv.includes('--no-column-cache');
if (!(SYSTEMS >= 3 && INSTANCES >= 10 && Number.isInteger(THREADS) && THREADS >= 0 && Number.isInteger(LAG) && LAG >= 1 && LAG < SYSTEMS - 1) || process.argv.includes('--help')) {
  console.error('usage: npm run bench:incremental-board -- --systems S≥3 --instances N≥10 [--metrics bleu,chrf,ter] [--profile] [--fill] [--threads T] [--lag K (1 ≤ K < S − 1)] [--no-scratch] [--no-column-cache]');
  process.exit(process.argv.includes('--help') ? 0 : 2);
}
const say = (m: string) => process.stderr.write(`[bench:incremental-board] ${new Date().toISOString().slice(11, 19)} ${m}\n`);

interface Category {
  name: string;
  test: (url: string, fn: string) => boolean;
}
const CATEGORIES: Category[] = [
  { name: 'serialising (JSON, gzip, brotli)', test: (u, f) => u.includes('libs/leaderboard/src/document') || u === 'node:zlib' || f === 'stringify' || f === 'zlibBufferSync' },
  { name: 'memo (v8 serialise, fingerprints)', test: (u) => u.includes('libs/leaderboard/src/memo') || u === 'node:v8' || u === 'node:crypto' },
  { name: 'ranking kernels', test: (u) => u.includes('libs/ranking/') },
  { name: 'metrics (corpus scores from statistics)', test: (u) => u.includes('libs/metrics/') },
  { name: 'database client (Prisma, pg, column decoding)', test: (u) => u.includes('libs/db/') || u.includes('@prisma') || u.includes('/pg/') || u.includes('pg-protocol') },
  { name: 'leaderboard orchestration', test: (u) => u.includes('libs/leaderboard/') },
];

/** Self time per category; a frame without a place of its own counts where its caller does. */
function profileShares(profile: Profiler.Profile): Record<string, number> {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const self = new Map<number, number>();
  const samples = profile.samples ?? [];
  const deltas = profile.timeDeltas ?? [];
  samples.forEach((id, i) => self.set(id, (self.get(id) ?? 0) + (deltas[i] ?? 0)));
  const categoryOf = (id: number): string => {
    for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
      const node = byId.get(cur);
      if (!node) break;
      const { url, functionName } = node.callFrame;
      if (functionName === '(idle)') return 'idle (waiting on PostgreSQL)';
      if (functionName === '(garbage collector)') return 'garbage collector';
      const c = CATEGORIES.find((k) => k.test(url, functionName));
      if (c) return c.name;
      if (url && !url.startsWith('node:')) return 'other';
    }
    return 'other';
  };
  const totals: Record<string, number> = {};
  let all = 0;
  for (const [id, us] of self) {
    const c = categoryOf(id);
    totals[c] = (totals[c] ?? 0) + us;
    all += us;
  }
  return Object.fromEntries(Object.entries(totals).sort((a, b) => b[1] - a[1]).map(([k, v]) => [k, all > 0 ? v / all : 0]));
}

const RUN_ID = new Date().toISOString().replace(/[:.]/g, '-');
let profileCount = 0;

async function profiled<T>(run: () => Promise<T>): Promise<{ value: T; shares: Record<string, number> | null }> {
  if (!PROFILE) return { value: await run(), shares: null };
  const session = new Session();
  session.connect();
  const post = <R>(method: string, params?: object) => new Promise<R>((resolve, reject) => session.post(method, params ?? {}, (e, r) => (e ? reject(e) : resolve(r as R))));
  await post('Profiler.enable');
  await post('Profiler.setSamplingInterval', { interval: 500 });
  await post('Profiler.start');
  try {
    const value = await run();
    const { profile } = await post<{ profile: Profiler.Profile }>('Profiler.stop');
    // The whole profile too, for a function-level look (Chrome DevTools, or any .cpuprofile reader).
    const dir = path.join(repoRoot, 'bench-results');
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, `incremental-board-${RUN_ID}-${++profileCount}.cpuprofile`), JSON.stringify(profile));
    return { value, shares: profileShares(profile) };
  } finally {
    session.disconnect();
  }
}

interface Run {
  /** With --fill: from the start until the fills were done (the first board's analysis began). */
  fillMs: number;
  defaultMs: number;
  /** CPU time of this process (the computation; PostgreSQL runs apart) for every view: steadier than wall time on a shared machine. */
  cpuMs: number;
  everyViewMs: number;
  summary: PhaseBoardsSummary;
  bodies: Map<string, string>;
  bytes: { view: string; body: number; gzip: number; brotli: number }[];
  shares: Record<string, number> | null;
}

/**
 * What a run records as its boards arrive: the time to the default board (the first board of
 * thread 0) and to the first analysis after the fills, each board's body (but its computedAt)
 * and sizes; `done` adds the wall and CPU time (process.cpuUsage counts every thread).
 */
function recorder() {
  const started = performance.now();
  const cpuStart = process.cpuUsage();
  let defaultMs = NaN;
  let fillMs = NaN;
  const bodies = new Map<string, string>();
  const bytes: Run['bytes'] = [];
  return {
    board(b: ComputedBoard, firstThread = true): void {
      if (firstThread && Number.isNaN(defaultMs)) defaultMs = performance.now() - started;
      const { computedAt: _c, ...rest } = JSON.parse(b.body) as Record<string, unknown>;
      bodies.set(b.viewKey, JSON.stringify(rest));
      bytes.push({ view: b.viewKey, body: Buffer.byteLength(b.body), gzip: b.gzip.byteLength, brotli: b.brotli.byteLength });
    },
    stage(stage: AnalysisStage): void {
      if (stage !== 'fill' && Number.isNaN(fillMs)) fillMs = performance.now() - started;
    },
    done(summary: PhaseBoardsSummary, shares: Run['shares']): Run {
      const cpu = process.cpuUsage(cpuStart);
      return { fillMs, defaultMs, everyViewMs: performance.now() - started, cpuMs: (cpu.user + cpu.system) / 1000, summary, bodies, bytes, shares };
    },
  };
}

async function computeAll(db: Db, phaseId: string, databaseUrl: string, columns: BoardColumnCache | null): Promise<Run> {
  if (THREADS > 0) return computeInThreads(phaseId, databaseUrl, columns);
  const run = recorder();
  const { value: summary, shares } = await profiled(() =>
    computePhaseBoards(db, phaseId, null, (b) => run.board(b), FILL ? { fillMemos: true, onAnalysis: (stage) => run.stage(stage) } : {}),
  );
  return run.done(summary, shares);
}

/** The worker's way (--threads): T threads, the analyses shared out, boards handed back to this thread. */
async function computeInThreads(phaseId: string, databaseUrl: string, columns: BoardColumnCache | null): Promise<Run> {
  const run = recorder();
  const summaries = await Promise.all(
    Array.from({ length: THREADS }, (_, index) =>
      computeInThread(
        { databaseUrl, phaseId, views: null, ...(THREADS > 1 ? { share: { index, of: THREADS } } : {}) },
        async (b) => {
          run.board(b, index === 0);
        },
        { onAnalysis: (stage) => run.stage(stage), ...(columns ? { columns } : {}) },
      ),
    ),
  );
  return run.done(
    {
      stamp: summaries[0]?.stamp ?? '',
      views: Math.max(...summaries.map((t) => t.views)),
      computed: summaries.reduce((a, t) => a + t.computed, 0),
      abandoned: summaries.some((t) => t.abandoned),
      memoUses: summaries.flatMap((t) => t.memoUses ?? []),
      fills: summaries.flatMap((t) => t.fills ?? []),
      ...(columns ? { columnReads: { cached: summaries.reduce((a, t) => a + (t.columnReads?.cached ?? 0), 0), read: summaries.reduce((a, t) => a + (t.columnReads?.read ?? 0), 0) } } : {}),
    },
    null,
  );
}

async function main(): Promise<void> {
  const pg = await startOwnPostgres(`bench-incremental-${process.pid}`, await freePort(), false);
  const cleanup: (() => Promise<void>)[] = [() => pg.stop()];
  try {
    const { db } = await openBenchStore(pg.url, cleanup);
    const tasks = new TaskRepository(db);
    const submissions = new SubmissionRepository(db);
    const identity = new IdentityRepository(db);
    const organiser = await identity.createUser('bench-organiser', Role.ORGANISER);
    const task = await tasks.createTask({
      slug: 'incremental', title: 'incremental board', kind: TaskKind.MT, sourceLang: 'de', targetLang: 'en',
      metrics: METRICS.map((name) => ({ key: name, name, options: {} })), createdById: organiser.id,
    });
    const phase = await tasks.createPhase({
      taskId: task.id, name: 'test', opensAt: new Date('2020-01-01'), closesAt: new Date('2099-01-01'), dailyLimit: SYSTEMS + 1, totalLimit: SYSTEMS + 1, leaderboardBeforeClose: true,
    });
    const testSet = await tasks.uploadTestSet(phase.id, 'ts', Array.from({ length: INSTANCES }, (_, i) => ({ externalId: `seg${String(i).padStart(7, '0')}`, source: `s${i}`, references: [`r${i}`] })));
    // One output per submission is enough: the boards read score columns and stored statistics, never texts.
    const [firstInstance] = await tasks.instanceIdsOf(testSet.id);
    if (!firstInstance) throw new Error('the test set has no instances');
    const pool = sentencePool();
    const metrics = METRICS.map((name) => {
      const m = getMetric(name, parseMetricOptions(name, {}), 1);
      const rows = pool.map((p) => m.stats(p.hyp, [p.ref]));
      const sentence = rows.map((r) => m.corpusFromStats([r]));
      return { name, m, rows, sentence };
    });
    const strength = Array.from({ length: SYSTEMS }, (_, s) => s / SYSTEMS);
    const store = async (s: number) => {
      const team = await identity.createTeam(`team-${s}`, []);
      const sub = await submissions.create(
        { phaseId: phase.id, teamId: team.id, submittedById: organiser.id, systemName: `system-${String(s).padStart(4, '0')}`, description: '', checksum: `c${s}`, outputs: [{ instanceId: firstInstance.id, text: 'x' }] },
        async () => undefined,
      );
      const rng = mulberry32(1000 + s);
      const pick = Int32Array.from({ length: INSTANCES }, () => Math.min(POOL - 1, Math.max(0, Math.round(POOL * (0.25 + 0.5 * (strength[s] ?? 0) + 0.2 * rng.nextNormal())))));
      const columns = metrics.map(({ name, m, rows, sentence }) => {
        const stats = Array.from(pick, (p) => rows[p] ?? []);
        const values = Float64Array.from(pick, (p) => sentence[p] ?? 0);
        const sum = new Array<number>(stats[0]?.length ?? 0).fill(0);
        for (const r of stats) r.forEach((v, c) => (sum[c] = (sum[c] ?? 0) + v));
        return { column: { metric: name, signature: m.sentenceSignature, values, stats: m.additiveStats ? stats : null }, corpus: { metric: name, signature: m.signature, value: m.corpusFromStats([sum]) } };
      });
      await submissions.saveScores(sub.id, columns.map((c) => c.column), columns.map((c) => c.corpus));
    };
    // --fill: a submission still queued, as during a burst (the computations then fill their memos first)
    if (FILL) {
      const team = await identity.createTeam('team-queued', []);
      await submissions.create(
        { phaseId: phase.id, teamId: team.id, submittedById: organiser.id, systemName: 'queued', description: '', checksum: 'cq', outputs: [{ instanceId: firstInstance.id, text: 'x' }] },
        async () => undefined,
      );
    }
    const storeStarted = performance.now();
    for (let s = 0; s < SYSTEMS - LAG; s++) await store(s);
    say(`${SYSTEMS - LAG} submissions × ${INSTANCES} instances × ${METRICS.join(', ')} stored in ${((performance.now() - storeStarted) / 1000).toFixed(1)} s`);
    // the worker's column cache (threads only), shared by the warm and incremental computations
    const columns = THREADS > 0 && COLUMN_CACHE ? new BoardColumnCache(1024 * 1024 * 1024) : null;
    const warm = await computeAll(db, phase.id, pg.url, columns);
    say(`boards of ${SYSTEMS - LAG} systems (memos kept): ${(warm.everyViewMs / 1000).toFixed(1)} s`);
    for (let s = SYSTEMS - LAG; s < SYSTEMS; s++) await store(s);
    say(`last ${LAG === 1 ? 'submission' : `${LAG} submissions`} stored; every view with the kept memos${THREADS > 0 ? ` (${THREADS} threads)` : ''} …`);
    const incremental = await computeAll(db, phase.id, pg.url, columns);
    const reads = incremental.summary.columnReads;
    const columnNote = reads ? `; score columns ${reads.cached} kept, ${reads.read} read` : THREADS > 0 ? '; no column cache' : '';
    if (NO_SCRATCH) {
      const u = incremental.summary.memoUses?.[0]?.use ?? null;
      console.log(`incremental-board (--no-scratch): ${SYSTEMS} systems × ${INSTANCES} instances, metrics ${METRICS.join(', ')}, memos lacking ${LAG}, ${THREADS > 0 ? `${THREADS} worker threads` : 'in this thread'}; last score → default board ${(incremental.defaultMs / 1000).toFixed(2)} s, every view ${(incremental.everyViewMs / 1000).toFixed(2)} s, CPU of this process ${(incremental.cpuMs / 1000).toFixed(2)} s; memo ${JSON.stringify(u)}${columnNote}; nothing compared (no run from scratch)`);
      if (incremental.shares) console.log(`  profile (incremental): ${Object.entries(incremental.shares).map(([k, v]) => `${k} ${(100 * v).toFixed(1)}%`).join(', ')}`);
      return;
    }
    const memoBytes = (await db.leaderboardMemo.findMany({ where: { phaseId: phase.id }, select: { body: true } })).reduce((a, r) => a + r.body.byteLength, 0);
    await db.leaderboardMemo.deleteMany({ where: { phaseId: phase.id } });
    await db.storedLeaderboard.deleteMany({ where: { phaseId: phase.id } });
    say('from scratch (no memos) …');
    const scratch = await computeAll(db, phase.id, pg.url, null);
    const identical = incremental.bodies.size === scratch.bodies.size && [...scratch.bodies].every(([k, v]) => incremental.bodies.get(k) === v);
    const pairs = (SYSTEMS * (SYSTEMS - 1)) / 2;
    const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
    console.log(`incremental-board: ${SYSTEMS} systems × ${INSTANCES} instances, metrics ${METRICS.join(', ')}, memos lacking ${LAG}, ${THREADS > 0 ? `${THREADS} worker threads` : 'in this thread'}; ${cpus().length} cores, load ${loadavg()[0]?.toFixed(1)}`);
    if (FILL) console.log(`  of which filling the memos   incremental ${s(incremental.fillMs)}   from scratch ${s(scratch.fillMs)}`);
    console.log(`  last score → default board   incremental ${s(incremental.defaultMs)}   from scratch ${s(scratch.defaultMs)}   ratio ${(scratch.defaultMs / incremental.defaultMs).toFixed(2)}×`);
    console.log(`  last score → every view      incremental ${s(incremental.everyViewMs)}   from scratch ${s(scratch.everyViewMs)}   ratio ${(scratch.everyViewMs / incremental.everyViewMs).toFixed(2)}×   (${incremental.summary.computed} computed of ${incremental.summary.views} views)`);
    console.log(`  CPU of this process, every view  incremental ${s(incremental.cpuMs)}   from scratch ${s(scratch.cpuMs)}   ratio ${(scratch.cpuMs / incremental.cpuMs).toFixed(2)}×`);
    console.log(`  boards identical to the ones from scratch (but computedAt): ${identical ? 'yes' : 'NO'}`);
    console.log(`  memo: ${JSON.stringify(incremental.summary.memoUses?.[0]?.use ?? null)}; ${(memoBytes / 1048576).toFixed(2)} MiB stored for ${incremental.summary.memoUses?.length ?? 0} views${columnNote}`);
    const first = scratch.bytes[0];
    if (first) {
      console.log(
        `  default board document: ${(first.body / 1024).toFixed(0)} KiB (gzip ${(first.gzip / 1024).toFixed(0)}, brotli ${(first.brotli / 1024).toFixed(0)}); ≈ ${((first.body / SYSTEMS) / 1024).toFixed(2)} KiB per system-and-its-pairs, ${(first.body / Math.max(1, pairs)).toFixed(0)} B per pair (${pairs} pairs)`,
      );
    }
    for (const [name, run] of [['incremental', incremental], ['from scratch', scratch]] as const) {
      if (!run.shares) continue;
      console.log(`  profile (${name}): ${Object.entries(run.shares).map(([k, v]) => `${k} ${(100 * v).toFixed(1)}%`).join(', ')}`);
    }
    const dir = path.join(repoRoot, 'bench-results');
    mkdirSync(dir, { recursive: true });
    const file = path.join(dir, `incremental-board-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
    const strip = (r: Run) => ({ fillMs: r.fillMs, defaultMs: r.defaultMs, everyViewMs: r.everyViewMs, cpuMs: r.cpuMs, computed: r.summary.computed, views: r.summary.views, memoUses: r.summary.memoUses, bytes: r.bytes, shares: r.shares });
    writeFileSync(file, JSON.stringify({ systems: SYSTEMS, instances: INSTANCES, metrics: METRICS, threads: THREADS, lag: LAG, cores: cpus().length, load: loadavg(), identical, memoBytes, incremental: strip(incremental), scratch: strip(scratch) }, null, 2));
    say(`results: ${path.relative(repoRoot, file)}`);
    if (!identical) process.exitCode = 1;
  } finally {
    for (const c of cleanup) await c().catch(() => undefined);
  }
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
