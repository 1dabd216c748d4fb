/**
 * An arena-sized board (issue #28 item 5): `npm run bench:arena -- [--systems 1000] [--duration 5]
 * [--clients 10]`. What a board of S systems (S(S − 1)/2 pairs) costs to store and serve once its
 * pairs are kept apart from the document (ADR 0038), on an api process from dist/ and an embedded
 * PostgreSQL of its own.
 *
 * The board is synthetic (bench/platform/synthetic-board.ts: every field of the schema, random
 * values, which compress worse than a real board's): computing one is `bench:ranking-scale
 * --systems 1000 --instances 2000` (its figures in docs/adr/0038-arena-boards-pairs-in-tiles.md),
 * and at 1,000 systems it takes minutes of CPU that would say nothing about serving.
 *
 * Prints: encoding time (the document, the tiles and their gzip and brotli, as the board thread
 * does), bytes stored (document and tiles, each compression; beside them the JSON one document with
 * every pair would be), the store's transaction time (LeaderboardRepository.store, as the worker
 * stores), then with the api running: time to first byte and total of the first (uncached) request
 * of the board and of one tile, p50/p95/p99 of each under `--clients` keep-alive clients for
 * `--duration` s (brotli, as a browser asks), and the web page's payload for its first view of the
 * pairwise matrix (the board and the tiles of its first 30 × 30 block).
 */
import { execFileSync } from 'node:child_process';
import http from 'node:http';
import { cpus, loadavg } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { gunzipSync } from 'node:zlib';
import { LeaderboardRepository } from '@podium/db';
import { asServed, DEFAULT_VIEW_KEY, encodeLeaderboard, PAIR_TILE } from '@podium/leaderboard';
import { startApi } from '../test/e2e/support/faults';
import { repoRoot } from '../test/e2e/support/processes';
import { LEADERBOARD_JSON_HEADERS, leaderboardJsonUrl, pairTileUrl } from '../apps/web/src/lib/leaderboard-request';
import { HEATMAP_BLOCK, tilesCovering } from '../apps/web/src/lib/leaderboard';
import { DEFAULT_STATE } from '../apps/web/src/lib/url-state';
import { boardPhase } from './platform/board-phase';
import { assertLoadGeneratorFlags, runLoad, type LoadRequest } from './platform/load';
import { syntheticBoard } from './platform/synthetic-board';

/** Boards above this many systems keep their pairs apart (the worker's default). */
const PAIRS_APART_ABOVE = 100;

const say = (m: string) => process.stderr.write(`[bench:arena] ${new Date().toISOString().slice(11, 19)} ${m}\n`);
const fmt = (x: number, d = 0) => x.toLocaleString('en-US', { minimumFractionDigits: d, maximumFractionDigits: d });
const MiB = 1024 * 1024;
const KiB = 1024;
const mib = (b: number) => `${fmt(b / MiB, 1)} MiB`;
const kib = (b: number) => `${fmt(b / KiB, 1)} KiB`;

/** One request on a fresh connection: time to the response's headers (first byte) and to its end. */
function firstByte(url: string, headers: Record<string, string>): Promise<{ status: number; ttfbMs: number; totalMs: number; bytes: number }> {
  return new Promise((resolve, reject) => {
    const t0 = process.hrtime.bigint();
    const ms = () => Number(process.hrtime.bigint() - t0) / 1e6;
    http
      .get(url, { headers: { 'accept-encoding': 'gzip, deflate, br', ...headers }, agent: false }, (res) => {
        const ttfbMs = ms();
        let bytes = 0;
        res.on('data', (c: Buffer) => (bytes += c.length));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, ttfbMs, totalMs: ms(), bytes }));
        res.on('error', reject);
      })
      .on('error', reject);
  });
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { systems: { type: 'string' }, duration: { type: 'string' }, clients: { type: 'string' } }, strict: true });
  // This process sends the measured requests (see LOAD_GENERATOR_FLAGS).
  assertLoadGeneratorFlags();
  const systems = Number(values.systems ?? 1000);
  const duration = Number(values.duration ?? 5);
  const clients = Number(values.clients ?? 10);
  if (!Number.isInteger(systems) || systems <= PAIRS_APART_ABOVE || systems > 2000) throw new Error(`--systems must be an integer from ${PAIRS_APART_ABOVE + 1} to 2,000, got '${values.systems}'`);
  if (!(duration > 0 && duration <= 600)) throw new Error(`--duration must be in (0, 600] seconds, got '${values.duration}'`);
  if (!Number.isInteger(clients) || clients < 1 || clients > 1000) throw new Error(`--clients must be an integer from 1 to 1,000, got '${values.clients}'`);
  execFileSync(process.execPath, [path.join(repoRoot, 'scripts/build.mjs'), '--if-stale'], { cwd: repoRoot, stdio: ['ignore', 'ignore', 'inherit'] });
  const cleanup: (() => Promise<void>)[] = [];
  const lines: string[] = [];
  const out = (line: string) => {
    say(line);
    lines.push(line);
  };
  try {
    const loadAtStart = loadavg()[0]?.toFixed(1) ?? '?';
    const { pgUrl, db, phaseId } = await boardPhase('arena', 'arena', cleanup);

    let t0 = performance.now();
    const board = syntheticBoard(systems, 20261128, { validate: false });
    const synthSeconds = (performance.now() - t0) / 1000;
    const boards = new LeaderboardRepository(db);
    const stamp = await boards.stamp(phaseId);
    t0 = performance.now();
    const cpu0 = process.cpuUsage();
    const doc = encodeLeaderboard(asServed({ ...board, phaseId: phaseId }, stamp, new Date()), { pairsApartAbove: PAIRS_APART_ABOVE });
    const encodeCpu = process.cpuUsage(cpu0);
    const encodeSeconds = (performance.now() - t0) / 1000;
    const tiles = doc.pairTiles ?? [];
    const pairs = board.pairs.length;
    const docJson = Buffer.byteLength(doc.body);
    const tileJson = tiles.reduce((s, t) => s + gunzipSync(t.gzip).length, 0);
    const tileGzip = tiles.reduce((s, t) => s + t.gzip.length, 0);
    const tileBrotli = tiles.reduce((s, t) => s + t.brotli.length, 0);
    out(`board: ${fmt(systems)} systems, ${fmt(pairs)} pairs (synthetic, made in ${fmt(synthSeconds, 1)} s; computing one: bench:ranking-scale)`);
    out(`encode (document gzip 9 and brotli 9, ${fmt(tiles.length)} tiles of ${PAIR_TILE} × ${PAIR_TILE} gzip 6 and brotli 5): ${fmt(encodeSeconds, 1)} s wall, ${fmt((encodeCpu.user + encodeCpu.system) / 1e6, 1)} s CPU`);
    out(`document without pairs: JSON ${kib(docJson)}, gzip ${kib(doc.gzip.length)}, brotli ${kib(doc.brotli.length)} (${fmt(docJson / systems)} B per system)`);
    out(`pair tiles: JSON ${mib(tileJson)}, gzip ${mib(tileGzip)}, brotli ${mib(tileBrotli)} (${fmt(tileJson / pairs)} B of JSON, ${fmt(tileBrotli / pairs, 1)} B of brotli per pair); one tile of ${fmt(PAIR_TILE * PAIR_TILE)} pairs ≈ ${kib((tileBrotli / pairs) * PAIR_TILE * PAIR_TILE)} brotli`);
    out(`one document with every pair would be ≈ ${mib(docJson + tileJson)} of JSON`);
    t0 = performance.now();
    await boards.store(phaseId, stamp, [{ viewKey: DEFAULT_VIEW_KEY, computedAt: new Date(), durationMs: 0, ...doc }]);
    const storeSeconds = (performance.now() - t0) / 1000;
    const stored = await db.$queryRaw<{ board: bigint; tiles: bigint }[]>`
      SELECT (SELECT pg_total_relation_size('stored_leaderboard')) AS board, (SELECT pg_total_relation_size('leaderboard_pair_tile')) AS tiles`;
    out(`stored in one transaction (LeaderboardRepository.store) in ${fmt(storeSeconds, 1)} s; PostgreSQL: stored_leaderboard ${mib(Number(stored[0]?.board ?? 0))}, leaderboard_pair_tile ${mib(Number(stored[0]?.tiles ?? 0))} (with TOAST and indexes)`);

    const { api, baseUrl } = await startApi({ DATABASE_URL: pgUrl, PODIUM_RATE_LIMIT: '0', PODIUM_RATE_LIMIT_UPLOADS: '0' }, []);
    cleanup.unshift(() => api.stop());
    const args = { metric: DEFAULT_STATE.metric, test: DEFAULT_STATE.test, correction: DEFAULT_STATE.correction };
    const boardUrl = `${baseUrl}${leaderboardJsonUrl(phaseId, args)}`;
    // The page's first view: rows and columns 1–30 of the board order, the tiles that cover them.
    const ids = board.systems.map((s) => s.submissionId);
    const first = ids.slice(0, HEATMAP_BLOCK);
    const firstTiles = tilesCovering(ids, first, first, PAIR_TILE);
    const tileUrl = (row: number, col: number) => `${baseUrl}${pairTileUrl(phaseId, args, row, col)}`;
    const coldBoard = await firstByte(boardUrl, { ...LEADERBOARD_JSON_HEADERS });
    const coldTile = await firstByte(tileUrl(0, 1), { ...LEADERBOARD_JSON_HEADERS });
    if (coldBoard.status !== 200 || coldTile.status !== 200) throw new Error(`the board answered ${coldBoard.status}, a tile ${coldTile.status}`);
    out(`first request (read from PostgreSQL): board TTFB ${fmt(coldBoard.ttfbMs, 1)} ms, total ${fmt(coldBoard.totalMs, 1)} ms, ${kib(coldBoard.bytes)}; tile (0, 1) TTFB ${fmt(coldTile.ttfbMs, 1)} ms, total ${fmt(coldTile.totalMs, 1)} ms, ${kib(coldTile.bytes)}`);
    let payload = coldBoard.bytes;
    for (const t of firstTiles) payload += (await firstByte(tileUrl(t.row, t.col), { ...LEADERBOARD_JSON_HEADERS })).bytes;
    out(`web page, first view of the matrix (board + ${firstTiles.length} tile(s) of rows and columns 1–${HEATMAP_BLOCK}): ${kib(payload)} brotli`);
    const variants: Record<string, LoadRequest> = {
      'leaderboard.json (web request)': { method: 'GET', url: boardUrl, headers: { ...LEADERBOARD_JSON_HEADERS } },
      'one pair tile (web request)': { method: 'GET', url: tileUrl(0, 1), headers: { ...LEADERBOARD_JSON_HEADERS } },
    };
    for (const [name, req] of Object.entries(variants)) {
      const r = await runLoad(req, clients, duration);
      out(`${name.padEnd(32)} cached: p50/p95/p99 ${fmt(r.p50, 1)}/${fmt(r.p95, 1)}/${fmt(r.p99, 1)} ms, ${fmt(r.perSecond)} req/s, ${kib(r.meanBytes)}/answer, ${JSON.stringify(r.statuses)}`);
    }
    await api.stop();
    process.stdout.write(
      [`bench:arena — ${fmt(systems)} systems, ${clients} clients × ${duration} s; ${cpus().length} cores, load ${loadAtStart} at start, ${loadavg()[0]?.toFixed(1) ?? '?'} at end; ${new Date().toISOString()}`, ...lines].join('\n') + '\n',
    );
  } finally {
    for (const c of cleanup) await c().catch(() => undefined);
  }
}

main().catch((e: unknown) => {
  process.stderr.write(`${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
  process.exit(1);
});
