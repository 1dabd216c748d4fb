/**
 * Serving of stored boards at S systems, apart from computing them (issue #28):
 * `npm run bench:serving -- [--systems 100] [--duration 10] [--rate 500] [--clients 50] [--profile] [--only <regex>] [--rounds 1] [--warmup 3] [--baseline <dist dir>] [--node-env production] [--recompute 100x10000] [--board-threads built,0,idle]`
 * (`--help` prints the usage).
 * An api process from dist/ on an embedded PostgreSQL of its own serves one phase whose default
 * board is a synthetic document of S systems (bench/platform/synthetic-board.ts: every field of
 * the schema, S(S − 1)/2 pairs, random values) stored as a worker stores it. Measured, each for
 * `--duration` s twice (bench/platform/load.ts): an open loop at `--rate` req/s (latency from each
 * request's scheduled time, up to 256 sockets; judged: p95 < 50 ms, achieved ≥ 98 % of 500 req/s),
 * then a closed loop of `--clients` keep-alive clients (the saturation rate, not judged, and the CPU
 * per answer): leaderboard.json
 * (brotli, as load.ts asks for compression), its identity form (no compression accepted), the same with If-None-Match, the web page's own request (apps/web/src/lib/leaderboard-request.ts)
 * and GraphQL's systems query (the query bench:platform sends), each with the api's CPU time per
 * answer (/proc: independent of the load generator and of other work on the machine) and the load
 * generator's (this process, on the same cores, run with load.ts's LOAD_GENERATOR_FLAGS, which the
 * npm script passes). `--only`:
 * the measurements whose name matches (e.g. `graphql`; `burst` is the new-board burst).
 * `--rounds N`: the measurements N times over, in turn (a fresh api's first ones include its warm-up);
 * `--warmup s` (default 3): each measurement after s seconds of the same load, not counted.
 * `--baseline <dir>`: a second api from another build (a copy of main's dist/ inside the
 * repository, e.g. tmp/dist-main) is measured just before this one for each measurement, so that
 * both see the same machine. `--node-env`: the api's NODE_ENV, default `production` as the image
 * runs it (graphql-js checks every `instanceof` at length in development). `--profile`: the api
 * runs with --cpu-prof and its CPU shares are printed. `GCTRACE=1`: the api runs with --trace-gc
 * and its garbage collections (scavenges, mark-compacts, with their pauses) are printed at the end.
 * `--recompute SxN`: a worker process from dist/ on the same database keeps recomputing another
 * phase of S systems × N instances (bench/platform/recompute.ts; each round asks leaderboard.json
 * for the new board, then polls GraphQL for it every 100 ms as bench:platform's driver does) while
 * each measurement runs twice,
 * its board threads as this build sets them (nice 10), then forced back to nice 0 (as before ADR
 * 0035; needs root): the open loop only, with the cores the worker's threads (by nice value),
 * PostgreSQL, the api and the load generator used meanwhile. `--board-threads` picks the
 * conditions: `built`, `idle` (the board threads put under SCHED_IDLE with chrt(1)) and nice values
 * (`10`: SCHED_OTHER at nice 10, the build before ADR 0046).
 * Scoring and the board's computation are bench:platform's.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import type { Profiler } from 'node:inspector';
import { parseArgs } from 'node:util';
import { LeaderboardRepository } from '@podium/db';
import { asServed, DEFAULT_VIEW_KEY, encodeLeaderboard } from '@podium/leaderboard';
import { startApi } from '../test/e2e/support/faults';
import { repoRoot, waitFor, type RunningApp } from '../test/e2e/support/processes';
import { LEADERBOARD_JSON_HEADERS, leaderboardJsonUrl } from '../apps/web/src/lib/leaderboard-request';
import { DEFAULT_STATE } from '../apps/web/src/lib/url-state';
import { formatShares, profileShares, treeCpuSeconds, type ShareRule } from './platform/cpu-profile';
import { boardPhase } from './platform/board-phase';
import { assertLoadGeneratorFlags, runLoad, runOpenLoad, send, type LoadRequest } from './platform/load';
import { reachedRate } from './platform/open-loop';
import { formatCpuSplit, keepRecomputing, scoredPhase, type Recomputing } from './platform/recompute';
import { syntheticBoard } from './platform/synthetic-board';

const TARGET = { p95Ms: 50, perSecond: 500, graphqlP95Ms: 50 };
/** Sockets of an open-loop round; an achieved rate within this share of the target's counts as reaching it. */
const OPEN_LOOP_MAX_SOCKETS = 256;
const RATE_TOLERANCE = 0.02;
const USAGE = `usage: npm run bench:serving -- [--systems 100] [--duration 10] [--rate 500] [--clients 50] [--profile] [--only <regex>] [--rounds 1] [--warmup 3] [--baseline <dist dir>] [--node-env production] [--recompute SxN] [--board-threads L]
  --systems S     systems of the synthetic board, 2..2000 (default 100)
  --duration SEC  seconds of each round, (0, 600] (default 10)
  --rate R        requests/s of the open-loop rounds (judged: p95 < ${TARGET.p95Ms} ms, achieved ≥ ${(1 - RATE_TOLERANCE) * TARGET.perSecond}/s), 1..100000 (default 500)
  --clients C     keep-alive clients of the closed-loop rounds (saturation and CPU per answer, not judged), 1..1000 (default 50)
  --profile       the api under --cpu-prof; its CPU shares printed
  --only REGEX    the measurements whose name matches (\`burst\`: the new-board burst)
  --rounds N      every measurement N times, in turn, 1..10 (default 1)
  --warmup SEC    each measurement after SEC s of the same load (closed loop), not counted, 0..60 (default 3: a fresh
                  api's first answers are slow while V8 compiles, and an open loop piles up requests behind them)
  --baseline DIR  a second api from another build's dist/ (inside the repository), measured just before this one
  --node-env ENV  the api's NODE_ENV: production (default) or development
  --recompute SxN a worker from dist/ keeps recomputing another phase of S systems × N instances (e.g. 100x10000);
                  each measurement (open loop only) with its board threads niced as built, then at nice 0, and the
                  cores used meanwhile by the worker's threads, PostgreSQL, the api and the load generator
  --board-threads L with --recompute: the conditions measured, a comma-separated list of built (as this build sets
                  them), idle (SCHED_IDLE through chrt(1)) and nice values (e.g. 10: SCHED_OTHER at nice 10, as
                  before ADR 0046; 0: as before ADR 0035; needs root); default built,0
  GCTRACE=1       (environment) the api's garbage collections (--trace-gc) printed at the end`;
const API_NODE_OPTIONS = '--max-old-space-size=640';
/** What bench:platform's recompute driver asks every 100 ms while the other phase recomputes. */
const RECOMPUTE_PROBE_QUERY = `query($phaseId: ID!) { leaderboard(phaseId: $phaseId) { instanceCount seed systems { submissionId } updating stamp } }`;

/**
 * The api's 10 s windows in which its event loop was held ≥ 200 ms (EventLoopWatch's log lines),
 * as bench:platform prints them; '' when none.
 */
function eventLoopHeld(log: string): string {
  const held: { time: string; maxMs: number }[] = [];
  for (const line of log.split('\n')) {
    if (!line.includes('"event-loop-delay"')) continue;
    try {
      const e = JSON.parse(line) as { time?: unknown; maxMs?: unknown };
      if (typeof e.maxMs === 'number') held.push({ time: typeof e.time === 'string' ? e.time : '', maxMs: e.maxMs });
    } catch {
      // a line cut by the chunking of the api's output: not counted
    }
  }
  if (held.length === 0) return '';
  return `the api's event loop was held ≥ 200 ms in ${held.length} of its 10 s windows (longest ${Math.max(...held.map((h) => h.maxMs))} ms; at ${held.map((h) => h.time.slice(11, 19)).join(', ')})`;
}

const GRAPHQL_SYSTEMS_QUERY = `query LeaderboardSystems($phaseId: ID!) {
  leaderboard(phaseId: $phaseId) {
    phaseId metric updating stamp pairCount
    systems { submissionId system team n corpusScore mean median bt elo rank { corpus mean median bt elo trueskill } cluster { corpus mean median bt } }
  }
}`;
/** Where the api's CPU went while serving, first match wins (see cpu-profile.ts). */
const SERVING_RULES: ShareRule[] = [
  { category: 'graphql execution', test: /node_modules\/(graphql|@apollo|@nestjs\/graphql|@nestjs\/apollo|@escape\.tech)\// },
  { category: 'express and nest', test: /node_modules\/(express|router|@nestjs|body-parser|finalhandler|send|qs|path-to-regexp)\// },
  { category: 'serialising', test: /JSON\.stringify| stringify$/ },
  { category: 'parsing', test: /JSON\.parse| parse$/ },
  { category: 'database', test: /node_modules\/(pg|pg-protocol|pg-pool|@prisma)\/|prisma|libs\/db\// },
  { category: 'podium api', test: /apps\/api\/|libs\// },
  { category: 'sockets and http', test: /node:(_http|net|stream|internal\/streams|internal\/http|http)|writev|writeBuffer|writeUtf8String|writeLatin1String/ },
  { category: 'garbage collection', test: /\(garbage collector\)/ },
  { category: 'idle', test: /\(idle\)|\(program\)/ },
];

const say = (m: string) => process.stderr.write(`[bench:serving] ${new Date().toISOString().slice(11, 19)} ${m}\n`);
const fmt = (x: number, d = 0) => x.toLocaleString('en-US', { minimumFractionDigits: d, maximumFractionDigits: d });

interface Api {
  label: string;
  api: RunningApp;
  baseUrl: string;
  profileDir: string | null;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      systems: { type: 'string' },
      duration: { type: 'string' },
      clients: { type: 'string' },
      profile: { type: 'boolean' },
      only: { type: 'string' },
      baseline: { type: 'string' },
      'node-env': { type: 'string' },
      rounds: { type: 'string' },
      warmup: { type: 'string' },
      rate: { type: 'string' },
      recompute: { type: 'string' },
      'board-threads': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
    strict: true,
  });
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  // This process is the load generator: without its flags it measures its own collector.
  assertLoadGeneratorFlags();
  const rate = Number(values.rate ?? 500);
  if (!(rate >= 1 && rate <= 100_000)) throw new Error(`--rate must be a number from 1 to 100,000, got '${values.rate}'`);
  const systems = Number(values.systems ?? 100);
  const duration = Number(values.duration ?? 10);
  const clients = Number(values.clients ?? 50);
  const only = new RegExp(values.only ?? '', 'i');
  const nodeEnv = values['node-env'] ?? 'production';
  const rounds = Number(values.rounds ?? 1);
  const warmup = Number(values.warmup ?? 3);
  if (!(warmup >= 0 && warmup <= 60)) throw new Error(`--warmup must be in [0, 60] seconds, got '${values.warmup}'`);
  if (!Number.isInteger(rounds) || rounds < 1 || rounds > 10) throw new Error(`--rounds must be an integer from 1 to 10, got '${values.rounds}'`);
  if (!Number.isInteger(systems) || systems < 2 || systems > 2000) throw new Error(`--systems must be an integer from 2 to 2,000, got '${values.systems}'`);
  if (!(duration > 0 && duration <= 600)) throw new Error(`--duration must be in (0, 600] seconds, got '${values.duration}'`);
  if (!Number.isInteger(clients) || clients < 1 || clients > 1000) throw new Error(`--clients must be an integer from 1 to 1,000, got '${values.clients}'`);
  if (nodeEnv !== 'production' && nodeEnv !== 'development') throw new Error(`--node-env must be production or development, got '${nodeEnv}'`);
  const recomputeSize = values.recompute === undefined ? null : /^(\d+)x(\d+)$/.exec(values.recompute);
  if (values.recompute !== undefined && !recomputeSize) throw new Error(`--recompute must be SYSTEMSxINSTANCES, e.g. 100x10000, got '${values.recompute}'`);
  const recomputeSystems = Number(recomputeSize?.[1] ?? 0);
  const recomputeInstances = Number(recomputeSize?.[2] ?? 0);
  if (recomputeSize && !(recomputeSystems >= 2 && recomputeSystems <= 1000 && recomputeInstances >= 10 && recomputeInstances <= 1_000_000)) throw new Error(`--recompute: 2..1,000 systems × 10..1,000,000 instances, got '${values.recompute}'`);
  if (recomputeSize && values.baseline !== undefined) throw new Error('--recompute and --baseline do not go together (one api is measured with and without the niced board threads)');
  const boardThreads = (values['board-threads'] ?? 'built,0').split(',');
  if (boardThreads.some((b) => b !== 'built' && b !== 'idle' && !/^(1?\d)$/.test(b))) throw new Error(`--board-threads: a comma-separated list of built, idle and nice values 0..19, got '${values['board-threads']}'`);
  if (values['board-threads'] !== undefined && !recomputeSize) throw new Error('--board-threads goes with --recompute');
  const baselineScript = values.baseline === undefined ? null : path.resolve(values.baseline, 'apps/api/main.js');
  if (baselineScript && !existsSync(baselineScript)) throw new Error(`--baseline: no ${baselineScript} (give a copy of a dist/ folder inside the repository, e.g. tmp/dist-main, so that it finds node_modules)`);
  execFileSync(process.execPath, [path.join(repoRoot, 'scripts/build.mjs'), '--if-stale'], { cwd: repoRoot, stdio: ['ignore', 'ignore', 'inherit'] });
  const cleanup: (() => Promise<void>)[] = [];
  try {
    const load = loadavg()[0]?.toFixed(1) ?? '?';
    const { pgUrl, db, phaseId, pgPid } = await boardPhase('serving', 'served', cleanup);
    const t0 = process.hrtime.bigint();
    let recomputePhaseId: string | null = null;
    if (recomputeSize) {
      const t = performance.now();
      recomputePhaseId = await scoredPhase(db, recomputeSystems, recomputeInstances);
      say(`recomputed phase: ${recomputeSystems} systems × ${fmt(recomputeInstances)} instances of BLEU stored in ${fmt((performance.now() - t) / 1000, 1)} s`);
    }
    const board = syntheticBoard(systems, 20261128);
    const boards = new LeaderboardRepository(db);
    const stamp = await boards.stamp(phaseId);
    const doc = encodeLeaderboard(asServed({ ...board, phaseId: phaseId }, stamp, new Date()));
    const encodeSeconds = Number(process.hrtime.bigint() - t0) / 1e9;
    // One row, no transaction (LeaderboardRepository.store's 5 s bound is a worker's, not a loaded bench machine's).
    await db.storedLeaderboard.create({ data: { phaseId: phaseId, viewKey: DEFAULT_VIEW_KEY, stamp, body: doc.body, gzip: new Uint8Array(doc.gzip), brotli: new Uint8Array(doc.brotli), etag: doc.etag, computedAt: new Date(), durationMs: 0 } });
    const pairs = board.pairs.length;
    const KiB = 1024;
    const bytes = Buffer.byteLength(doc.body);
    say(`${systems} systems, ${fmt(pairs)} pairs: JSON ${fmt(bytes / KiB)} KiB, gzip ${fmt(doc.gzip.length / KiB)} KiB, brotli ${fmt(doc.brotli.length / KiB)} KiB (made and compressed in ${fmt(encodeSeconds, 1)} s); load ${load}; api NODE_ENV=${nodeEnv}`);
    const start = async (label: string, script?: string): Promise<Api> => {
      const profileDir = values.profile ? mkdtempSync(path.join(tmpdir(), 'bench-serving-')) : null;
      const { api, baseUrl } = await startApi(
        { DATABASE_URL: pgUrl, PODIUM_RATE_LIMIT: '0', PODIUM_RATE_LIMIT_UPLOADS: '0', NODE_OPTIONS: API_NODE_OPTIONS, NODE_ENV: nodeEnv },
        [...(profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`, '-r', path.join(repoRoot, 'bench/platform/exit-on-signal.cjs')] : []), ...(process.env['GCTRACE'] ? ['--trace-gc'] : [])],
        script,
      );
      cleanup.unshift(() => api.stop());
      return { label, api, baseUrl, profileDir };
    };
    const apis = [...(baselineScript ? [await start('baseline', baselineScript)] : []), await start(baselineScript ? 'this build' : '')];
    const variantsOf = async (baseUrl: string): Promise<Record<string, LoadRequest>> => {
      const json: LoadRequest = { method: 'GET', url: `${baseUrl}/api/phases/${phaseId}/leaderboard.json` };
      const agent = new (await import('node:http')).Agent({ keepAlive: true });
      const warm = await send(agent, json);
      agent.destroy();
      const etag = String(warm.headers['etag']);
      return {
        // load.ts asks for compression as a browser does: this is the brotli form.
        'leaderboard.json': json,
        'leaderboard.json identity': { ...json, headers: { 'accept-encoding': 'identity' } },
        'leaderboard.json If-None-Match': { ...json, headers: { 'if-none-match': etag } },
        'web page board': { method: 'GET', url: `${baseUrl}${leaderboardJsonUrl(phaseId, { metric: DEFAULT_STATE.metric, test: DEFAULT_STATE.test, correction: DEFAULT_STATE.correction })}`, headers: { ...LEADERBOARD_JSON_HEADERS } },
        'GraphQL leaderboard systems': { method: 'POST', url: `${baseUrl}/graphql`, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: GRAPHQL_SYSTEMS_QUERY, operationName: 'LeaderboardSystems', variables: { phaseId: phaseId } }) },
      };
    };
    const variants = await Promise.all(apis.map((a) => variantsOf(a.baseUrl)));
    // Every variant answers properly before it is measured (a GraphQL error is a 200 too).
    for (const set of variants) {
      for (const [name, req] of Object.entries(set)) {
        const chunks: Buffer[] = [];
        const a = await send(new (await import('node:http')).Agent(), { ...req, headers: { ...req.headers, 'accept-encoding': 'identity' } }, (c) => chunks.push(c));
        const text = Buffer.concat(chunks).toString('utf8');
        if ((a.status !== 200 && a.status !== 304) || text.startsWith('{"errors"') || text.includes('"errors":[')) throw new Error(`${name} answered ${a.status}: ${text.slice(0, 500)}`);
      }
    }
    const names = Object.keys(variants[0] ?? {}).filter((n) => only.test(n));
    const lines: string[] = [];
    let ok = true;
    // --recompute: another phase's boards computed by a worker all along; each measurement with the
    // worker's board threads as this build sets them, then put back at nice 0 (before ADR 0035).
    let recomputing: Recomputing | null = null;
    if (recomputePhaseId) {
      const api = apis[0];
      if (!api) throw new Error('no api');
      const agent = new (await import('node:http')).Agent({ keepAlive: true });
      // Asked as a reader asks (leaderboard.json queues the computation), then polled as
      // bench:platform's driver polls it: GraphQL every 100 ms until the new boards are stored.
      const probe = { method: 'POST', url: `${api.baseUrl}/graphql`, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: RECOMPUTE_PROBE_QUERY, variables: { phaseId: recomputePhaseId } }) } as const;
      recomputing = keepRecomputing(
        db, pgUrl, pgPid, recomputePhaseId,
        async () => {
          await send(agent, { method: 'GET', url: `${api.baseUrl}/api/phases/${recomputePhaseId}/leaderboard.json` });
        },
        async () => {
          await send(agent, probe);
        },
      );
      const r = recomputing;
      cleanup.unshift(() => r.stop());
      const t = performance.now();
      await waitFor('the worker to store the recomputed phase\'s first boards', async () => r.rounds() >= 1, 900_000);
      say(`worker: first boards of the ${recomputeSystems} × ${fmt(recomputeInstances)} phase in ${fmt((performance.now() - t) / 1000, 1)} s; it keeps recomputing them`);
    }
    const conditions: { label: string; nice: number | 'idle' | null }[] = recomputing
      ? boardThreads.map((b) => (b === 'built' ? { label: 'recomputing, board threads as built', nice: null } : b === 'idle' ? { label: 'recomputing, board threads SCHED_IDLE', nice: 'idle' } : { label: `recomputing, board threads at nice ${b}`, nice: Number(b) }))
      : [{ label: '', nice: null }];
    for (const [round, name, condition] of Array.from({ length: rounds }, (_, r) => names.flatMap((n) => conditions.map((c) => [r, n, c] as const))).flat()) {
      for (const [i, a] of apis.entries()) {
        const req = variants[i]?.[name];
        const pid = a.api.child.pid;
        if (!req || pid === undefined) continue;
        recomputing?.boardThreadsAt(condition.nice);
        if (warmup > 0) await runLoad(req, clients, warmup);
        const rounds0 = recomputing?.rounds() ?? 0;
        const window = recomputing?.cpuWindow(pid);
        const logFrom = a.api.logs.length;
        const open = await runOpenLoad(req, rate, duration, OPEN_LOOP_MAX_SOCKETS);
        const split = window?.();
        const held = eventLoopHeld(a.api.logs.slice(logFrom).join(''));
        if (held) say(`  ${held}`);
        if (recomputing && split) {
          // While recomputing only the open loop (the judged figure) and where the CPU went.
          const ms = (x: number) => (x === Infinity ? '∞' : fmt(x, 1));
          const line = `${`${name}${rounds > 1 ? ` #${round + 1}` : ''}`.padEnd(32)} ${condition.label}: at ${fmt(rate)} req/s offered: p50/p95/p99 ${ms(open.p50)}/${ms(open.p95)}/${ms(open.p99)} ms, achieved ${fmt(open.achievedPerSecond)} req/s, ${open.lateSends} sent > 10 ms late (${open.waitedForSocket} waited for a socket), ${open.unanswered} unanswered, ${open.badAnswers} bad, longest gap without an answer ${ms(open.longestGapMs)} ms from ${ms(open.longestGapAtMs)} ms (started ${open.startedAt.slice(11, 23)}); load ${loadavg()[0]?.toFixed(1)}; worker rounds done meanwhile ${recomputing.rounds() - rounds0}\n${' '.repeat(34)}${formatCpuSplit(split)}`;
          say(line);
          lines.push(line);
          continue;
        }
        const cpu0 = treeCpuSeconds(pid);
        const client0 = process.cpuUsage();
        const r = await runLoad(req, clients, duration);
        const client = process.cpuUsage(client0);
        const answers = Object.values(r.statuses).reduce((x, y) => x + y, 0);
        const cpuMs = ((treeCpuSeconds(pid) - cpu0) * 1000) / Math.max(1, answers);
        // The load generator (this process) runs on the same cores: its CPU per answer beside the api's.
        const clientMs = (client.user + client.system) / 1000 / Math.max(1, answers);
        // Judged on the open loop (latency at a rate); the closed loop's latency is ≈ clients ÷ rate (Little's law).
        const pass = open.p95 < TARGET.p95Ms && rate >= TARGET.perSecond && reachedRate(open.achievedPerSecond, TARGET.perSecond, RATE_TOLERANCE) && open.badAnswers === 0;
        // The baseline is measured for comparison only; this build's figures decide the exit status.
        if (a.label !== 'baseline') ok &&= pass;
        const label = `${name}${a.label ? ` (${a.label})` : ''}${rounds > 1 ? ` #${round + 1}` : ''}`;
        const ms = (x: number) => (x === Infinity ? '∞' : fmt(x, 1));
        const line = `${label.padEnd(32)} at ${fmt(rate)} req/s offered: p50/p95/p99 ${ms(open.p50)}/${ms(open.p95)}/${ms(open.p99)} ms, achieved ${fmt(open.achievedPerSecond)} req/s, ${open.lateSends} sent > 10 ms late (${open.waitedForSocket} waited for a socket), ${open.unanswered} unanswered, ${open.peakSockets} sockets  p95 < ${TARGET.p95Ms} ms at ≥ ${TARGET.perSecond} req/s ${pass ? 'PASS' : 'FAIL'}\n${' '.repeat(34)}saturation (${clients} clients, not judged): ${fmt(r.perSecond)} req/s p50/p95/p99 ${fmt(r.p50, 1)}/${fmt(r.p95, 1)}/${fmt(r.p99, 1)} ms  api ${fmt(cpuMs, 2)} CPU-ms/answer (load generator ${fmt(clientMs, 2)})  ${fmt(r.meanBytes / KiB, 1)} KiB/answer  ${JSON.stringify(r.statuses)}`;
        say(line);
        lines.push(line);
      }
    }
    // A board replaced (a new stamp) while `clients` requests arrive at once: the slowest answer
    // (before issue #28 each request read the new board's bytes for itself).
    if (only.test('new board burst')) {
      for (const a of apis) {
        const json: LoadRequest = { method: 'GET', url: `${a.baseUrl}/api/phases/${phaseId}/leaderboard.json` };
        const slowest: number[] = [];
        for (let round = 0; round < 3; round++) {
          await db.$executeRaw`UPDATE phase SET significance_seed = significance_seed + 1 WHERE id = ${phaseId}::uuid`;
          const next = await boards.stamp(phaseId);
          await db.storedLeaderboard.create({ data: { phaseId: phaseId, viewKey: DEFAULT_VIEW_KEY, stamp: next, body: doc.body, gzip: new Uint8Array(doc.gzip), brotli: new Uint8Array(doc.brotli), etag: doc.etag, computedAt: new Date(), durationMs: 0 } });
          const burst = new (await import('node:http')).Agent({ keepAlive: true, maxSockets: clients });
          const answers = await Promise.all(Array.from({ length: clients }, () => send(burst, json)));
          burst.destroy();
          if (answers.some((x) => x.status !== 200)) throw new Error(`a burst request answered ${answers.map((x) => x.status).join(',')}`);
          slowest.push(Math.max(...answers.map((x) => x.ms)));
        }
        const burstLine = `new board, ${clients} requests at once${a.label ? ` (${a.label})` : ''}: slowest answer ${slowest.map((x) => fmt(x)).join(' / ')} ms (3 rounds)`;
        say(burstLine);
        lines.push(burstLine);
      }
    }
    // The recompute loop asks the api: stopped before the api is.
    await recomputing?.stop();
    for (const a of apis) {
      if (a.profileDir) {
        const exited = new Promise((resolve) => a.api.child.once('exit', resolve));
        a.api.child.kill('SIGUSR2');
        await exited;
      }
      await a.api.stop();
      if (process.env['GCTRACE']) process.stderr.write(a.api.logs.join('').split('\n').filter((l) => /\d ms: (Scavenge|Mark)/.test(l)).join('\n') + '\n');
      if (process.env['BENCH_SERVING_API_LOG']) process.stderr.write(a.api.logs.join('').split('\n').filter((l) => l.startsWith('MISS')).join('\n') + '\n');
    }
    process.stdout.write(
      [
        `bench:serving — ${systems} systems (${fmt(pairs)} pairs), synthetic board, cached, ${duration} s at ${fmt(rate)} req/s (open loop)${recomputePhaseId ? ` while a worker recomputes a ${recomputeSystems} × ${fmt(recomputeInstances)} phase, its board threads as built then at nice 0,` : ` then ${clients} clients × ${duration} s (closed loop)`} each${warmup > 0 ? ` after ${warmup} s of warm-up` : ''}; api NODE_ENV=${nodeEnv}; ${cpus().length} cores, load ${load} at start; ${new Date().toISOString()}`,
        `document: JSON ${fmt(bytes / KiB)} KiB (${fmt(bytes / systems)} B per system, ${fmt(bytes / Math.max(1, pairs))} B per pair with the systems' share), gzip ${fmt(doc.gzip.length / KiB)} KiB, brotli ${fmt(doc.brotli.length / KiB)} KiB; random values compress worse than a real board's`,
        ...lines,
      ].join('\n') + '\n',
    );
    for (const a of apis) {
      const file = a.profileDir ? readdirSync(a.profileDir).find((f) => f.endsWith('.cpuprofile')) : undefined;
      if (a.profileDir && file) {
        const shares = profileShares(JSON.parse(readFileSync(path.join(a.profileDir, file), 'utf8')) as Profiler.Profile, SERVING_RULES);
        process.stdout.write(`api${a.label ? ` (${a.label})` : ''} CPU while serving (${fmt(shares.cpuMs / 1000, 1)} CPU-s sampled, start-up included): ${formatShares(shares)}\nheaviest frames: ${shares.top.map((t) => `${t.frame} ${fmt(t.ms)} ms`).join('; ')}\n`);
      }
    }
    process.exitCode = ok ? 0 : 1;
  } finally {
    for (const c of cleanup) await c().catch(() => undefined);
  }
}

main().catch((e: unknown) => {
  process.stderr.write(`${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
  process.exit(1);
});
