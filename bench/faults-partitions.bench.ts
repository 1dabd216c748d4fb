/**
 * Partition benchmark: `npm run bench:faults -- --partitions` (issue #25, ADR 0019). PostgreSQL,
 * the api and the workers each run in a Linux network namespace of their own (test/support/netns.ts),
 * from dist/, so that links can be cut, healed and degraded. Three parts:
 *  1. busy-worker partitions (≥ 20): a worker's link is cut while it holds a lease, and healed
 *     after a seeded random delay (3–40 s, either side of the lease ttl); measured: partition →
 *     the lease taken back (reaper or hand-back) and → re-run start (detection, which includes the
 *     wait behind the queue's backlog), stuck submissions, duplicated score rows,
 *     lost submissions, late writes refused (`"event":"fencing.refused"`, or the lease-owner check's
 *     "skipped … lease" answer) and accepted (a cut worker's job-done for an attempt that was re-run);
 *  2. api↔database partitions (the api keeps a front link to this process): answers by status
 *     during each partition (health, anonymous GraphQL, authenticated GraphQL, one of each per
 *     second; a GraphQL error counts as "<status>:<code>"; no answer in 20 s counts as "hung"),
 *     the slowest answer, and the time from heal to every probe answering 200 again;
 *  3. workers behind a 200 ms (each way) / 5 % loss link to everything else: time to score a
 *     submission against the same workers on a clean link, measured in the same run.
 * Needs root and iproute2; prints a table and writes bench-results/faults-partitions-<time>.json.
 * Options (env): BENCH_PARTITIONS (20), BENCH_WORKERS (4), BENCH_API_PARTITIONS (10,30,60 s),
 * BENCH_DEGRADED (6 submissions per link), BENCH_SEED (20261126).
 */
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import path from 'node:path';
import { LEASE, sendScoreJob } from '@podium/contracts';
import type { Db } from '@podium/db';
import type PgBoss from 'pg-boss';
import { createFaultTask, openBenchStore, queueSubmissions, sleep, workerPool, type FaultTask, type WorkerPool } from '../test/e2e/support/faults';
import { startOwnPostgres } from '../test/e2e/support/postgres';
import { repoRoot, startApp, waitFor, type RunningApp } from '../test/e2e/support/processes';
import { NetLab, netnsSupport } from '../test/support/netns';

const PARTITIONS = Number(process.env['BENCH_PARTITIONS'] ?? 20);
const WORKERS = Math.max(2, Number(process.env['BENCH_WORKERS'] ?? 4));
const API_PARTITIONS = (process.env['BENCH_API_PARTITIONS'] ?? '10,30,60').split(',').map(Number).filter((s) => s > 0);
const DEGRADED = Number(process.env['BENCH_DEGRADED'] ?? 6);
const SEED = Number(process.env['BENCH_SEED'] ?? 20261126);
const INSTANCES = 40;
/** Of WORKERS, at most this many are cut at once (the others keep the queue moving). */
const MAX_CUT = Math.max(1, Math.floor(WORKERS / 2));
const HEAL_MIN_S = 3;
const HEAL_MAX_S = 40;
const PROBE_TIMEOUT_MS = 20_000;
const API_PORT = 3000;
const RUN_ID = new Date().toISOString().replace(/[:.]/g, '-');

const say = (m: string) => process.stderr.write(`[bench:faults --partitions] ${new Date().toISOString().slice(11, 19)} ${m}\n`);

/** A small seeded generator (mulberry32): the same heal delays in every run with one seed. */
function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? (s[Math.floor(s.length / 2)] ?? 0) : 0;
};

interface Partition {
  worker: string;
  submissionId: string;
  attempt: number;
  cutAt: number;
  healAfterS: number;
  healedAt?: number;
  /** Seconds from the cut to the lease being taken back (the reaper requeued it, or the worker handed it back). */
  releasedS?: number;
  /** Seconds from the cut to another attempt starting (or the submission settling otherwise). */
  detectedS?: number;
  outcome?: 're-run' | 'finished-by-owner' | 'failed' | 'undetected';
}

/** Score values stored beyond one per (scored submission, instance, metric), and those missing. */
async function scoreRowCheck(db: Db, ids: string[]): Promise<{ duplicated: number; missing: number; scored: number; stuck: number; failed: number; lost: number }> {
  const rows = await db.submission.findMany({ where: { id: { in: ids } }, select: { status: true } });
  const scored = rows.filter((r) => r.status === 'SCORED').length;
  const [stored] = await db.$queryRaw<{ values: number }[]>`
    SELECT coalesce(sum(scored), 0)::int AS values FROM score_column WHERE submission_id = ANY(${ids}::uuid[])`;
  const expected = scored * INSTANCES;
  const values = stored?.values ?? 0;
  return {
    duplicated: Math.max(0, values - expected),
    missing: Math.max(0, expected - values),
    scored,
    stuck: rows.filter((r) => r.status === 'QUEUED' || r.status === 'SCORING').length,
    failed: rows.filter((r) => r.status === 'FAILED').length,
    lost: ids.length - rows.length,
  };
}

async function settle(db: Db, ids: string[], ms: number): Promise<void> {
  const by = Date.now() + ms;
  while (Date.now() < by) {
    if ((await db.submission.count({ where: { id: { in: ids }, status: { in: ['QUEUED', 'SCORING'] } } })) === 0) return;
    await sleep(500);
  }
}

/** Part 1: cut busy workers' links mid-job; heal each after a seeded delay. */
async function workerPartitions(lab: NetLab, db: Db, pool: WorkerPool, ids: string[], names: string[], topUp: () => Promise<string[]>) {
  const rnd = seeded(SEED);
  const parts: Partition[] = [];
  const open = () => parts.filter((p) => p.healedAt === undefined);
  const deadline = Date.now() + 25 * 60_000;
  const watch = async () => {
    for (const p of parts.filter((q) => q.outcome === undefined)) {
      const row = await db.submission.findUnique({ where: { id: p.submissionId }, select: { attempt: true, status: true, leaseOwner: true } });
      if (!row) continue;
      if (p.releasedS === undefined && (row.status !== 'SCORING' || row.leaseOwner !== p.worker || row.attempt > p.attempt)) p.releasedS = (Date.now() - p.cutAt) / 1000;
      if (row.attempt > p.attempt) p.outcome = 're-run';
      else if (row.status === 'SCORED') p.outcome = 'finished-by-owner';
      else if (row.status === 'FAILED') p.outcome = 'failed';
      if (p.outcome) {
        p.detectedS = (Date.now() - p.cutAt) / 1000;
        say(`partition of ${p.worker}: ${p.outcome} after ${p.detectedS.toFixed(1)} s (healed ${p.healedAt ? `after ${((p.healedAt - p.cutAt) / 1000).toFixed(1)} s` : 'not yet'})`);
      }
    }
    for (const p of open()) {
      if (Date.now() - p.cutAt >= p.healAfterS * 1000) {
        lab.heal(p.worker);
        p.healedAt = Date.now();
      }
    }
  };
  while (parts.length < PARTITIONS && Date.now() < deadline) {
    await watch();
    // Keep the workers busy until every partition was tried.
    if ((await db.submission.count({ where: { id: { in: ids }, status: 'QUEUED' } })) < WORKERS) ids.push(...(await topUp()));
    const cut = new Set(open().map((p) => p.worker));
    if (cut.size < MAX_CUT) {
      const candidates = names.filter((n) => !cut.has(n) && !parts.some((p) => p.worker === n && p.outcome === undefined));
      // A submission not cut before: each partition costs its submission an attempt, and four
      // cuts of one submission would fail it (its attempts are spent), which measures the bench.
      const tried = parts.map((p) => p.submissionId);
      const busy = await db.submission.findFirst({
        where: { id: { in: ids, notIn: tried }, status: 'SCORING', leaseOwner: { in: candidates }, leaseExpiresAt: { gt: new Date() } },
        select: { id: true, attempt: true, leaseOwner: true },
      });
      if (busy?.leaseOwner && !parts.some((p) => p.submissionId === busy.id && p.outcome === undefined)) {
        lab.cut(busy.leaseOwner);
        const healAfterS = HEAL_MIN_S + rnd() * (HEAL_MAX_S - HEAL_MIN_S);
        parts.push({ worker: busy.leaseOwner, submissionId: busy.id, attempt: busy.attempt, cutAt: Date.now(), healAfterS });
        say(`partition ${parts.length}: cut ${busy.leaseOwner} during attempt ${busy.attempt} of ${busy.id.slice(0, 8)}; heal after ${healAfterS.toFixed(1)} s`);
      }
    }
    await sleep(250);
  }
  // Heal the rest on schedule, then wait for every partition's outcome and every submission.
  const settleBy = Date.now() + 6 * 60_000;
  while (Date.now() < settleBy) {
    await watch();
    const openSubs = await db.submission.count({ where: { id: { in: ids }, status: { in: ['QUEUED', 'SCORING'] } } });
    if (open().length === 0 && parts.every((p) => p.outcome) && openSubs === 0) break;
    await sleep(500);
  }
  for (const p of open()) {
    lab.heal(p.worker);
    p.healedAt = Date.now();
  }
  for (const p of parts) if (!p.outcome) p.outcome = 'undetected';
  // Workers' JSON logs: late writes refused (fencing, or the lease-owner check) and accepted.
  const lines = pool.logs().split('\n').filter((l) => l.startsWith('{'));
  const events = lines.map((l) => {
    try {
      return JSON.parse(l) as Record<string, unknown>;
    } catch {
      return {};
    }
  });
  const fencingRefused = events.filter((e) => e['event'] === 'fencing.refused').length;
  const ownerRefused = events.filter((e) => typeof e['msg'] === 'string' && /^skipped job .*lease/i.test(e['msg'])).length;
  // A cut worker that reported its attempt done although another attempt had started: a late write let through.
  const lateAccepted = parts.filter((p) => p.outcome === 're-run' && events.some((e) => e['event'] === 'job-done' && e['submissionId'] === p.submissionId && e['attempt'] === p.attempt)).length;
  return { parts, fencingRefused, ownerRefused, lateAccepted };
}

interface ProbeResult {
  kind: string;
  status: number | string;
  ms: number;
}

/** Part 2: cut the api's link to the database; probe it over its front link. */
async function apiPartitions(lab: NetLab, baseUrl: string, task: FaultTask) {
  const probes: { kind: string; run: () => Promise<Response> }[] = [
    { kind: 'health', run: () => fetch(`${baseUrl}/api/health`, { signal: AbortSignal.timeout(PROBE_TIMEOUT_MS) }) },
    {
      kind: 'graphql-anonymous',
      run: () => fetch(`${baseUrl}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: '{ tasks { slug } }' }), signal: AbortSignal.timeout(PROBE_TIMEOUT_MS) }),
    },
    {
      kind: 'graphql-token',
      run: () =>
        fetch(`${baseUrl}/graphql`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${task.participantToken}` },
          body: JSON.stringify({ query: '{ me { id name } }' }),
          signal: AbortSignal.timeout(PROBE_TIMEOUT_MS),
        }),
    },
  ];
  const probe = async (p: (typeof probes)[number]): Promise<ProbeResult> => {
    const t = Date.now();
    try {
      const res = await p.run();
      const text = await res.text();
      // A GraphQL error travels in the body: "<status>:<code>" (a hidden failure is 200:INTERNAL_SERVER_ERROR).
      let code = '';
      if (p.kind.startsWith('graphql')) {
        try {
          code = ((JSON.parse(text) as { errors?: { extensions?: { code?: string } }[] }).errors ?? []).map((e) => e.extensions?.code ?? 'ERROR')[0] ?? '';
        } catch {
          code = 'NOT_JSON';
        }
      }
      return { kind: p.kind, status: code ? `${res.status}:${code}` : res.status, ms: Date.now() - t };
    } catch (e) {
      return { kind: p.kind, status: e instanceof Error && e.name === 'TimeoutError' ? 'hung' : 'error', ms: Date.now() - t };
    }
  };
  const rounds: { seconds: number; during: Record<string, Record<string, number>>; slowestMs: number; recoveryS: number }[] = [];
  for (const seconds of API_PARTITIONS) {
    // Before: everything answers 200.
    for (const p of probes) {
      const r = await probe(p);
      if (r.status !== 200) throw new Error(`before the partition, ${p.kind} answered ${String(r.status)}`);
    }
    lab.cut('api');
    const cutAt = Date.now();
    say(`api partition of ${seconds} s`);
    const inflight: Promise<ProbeResult>[] = [];
    while (Date.now() - cutAt < seconds * 1000) {
      for (const p of probes) inflight.push(probe(p));
      await sleep(1000);
    }
    lab.heal('api');
    const healedAt = Date.now();
    // Recovery: from the heal until every probe answers 200 (probed back to back).
    let recoveryS = Number.POSITIVE_INFINITY;
    while (Date.now() - healedAt < 120_000) {
      const rs = await Promise.all(probes.map(probe));
      if (rs.every((r) => r.status === 200)) {
        recoveryS = (Date.now() - healedAt) / 1000;
        break;
      }
      await sleep(100);
    }
    const results = await Promise.all(inflight);
    const during: Record<string, Record<string, number>> = {};
    for (const r of results) {
      const k = (during[r.kind] ??= {});
      k[String(r.status)] = (k[String(r.status)] ?? 0) + 1;
    }
    rounds.push({ seconds, during, slowestMs: Math.max(0, ...results.map((r) => r.ms)), recoveryS });
    say(`api partition of ${seconds} s: ${JSON.stringify(during)}; slowest answer ${Math.max(0, ...results.map((r) => r.ms))} ms; recovered ${recoveryS.toFixed(1)} s after heal`);
  }
  return rounds;
}

/** Part 3: two workers on a clean link, then behind delay and loss; seconds per submission. */
async function degradedRun(lab: NetLab, db: Db, boss: PgBoss, pgUrl: string, task: FaultTask, slow: string[]) {
  const pool = workerPool({ DATABASE_URL: pgUrl, PODIUM_WORKER_BATCH: '1' }, (name) => lab.names().namespaces.find((ns) => ns.endsWith(`-${name}`)) ?? '');
  try {
    for (const n of slow) pool.start(n);
    const timed = async (label: string) => {
      const t0 = Date.now();
      const ids = await queueSubmissions(db, task, DEGRADED, (sql, id) => sendScoreJob(boss, id, 'submitted', sql));
      await settle(db, ids, 10 * 60_000);
      const seconds = (Date.now() - t0) / 1000;
      const check = await scoreRowCheck(db, ids);
      say(`${label}: ${ids.length} submissions in ${seconds.toFixed(1)} s; ${JSON.stringify(check)}`);
      return { seconds, ...check, submissions: ids.length };
    };
    // The workers' first job warms them up (metric code, connections): not timed.
    await timed('warm-up (clean link)');
    const clean = await timed('clean link');
    for (const n of slow) lab.impair(n, { delayMs: 200, lossPercent: 5 });
    const degraded = await timed('200 ms each way, 5 % loss');
    for (const n of slow) lab.impair(n, null);
    return { clean, degraded, ratio: degraded.seconds / clean.seconds };
  } finally {
    await pool.stopAll();
  }
}

export async function runPartitionBench(): Promise<number> {
  const support = netnsSupport();
  if (!support.ok) {
    process.stderr.write(`bench:faults --partitions cannot run here: ${support.reason}\n`);
    return 2;
  }
  say(`${cpus().length} cores, load ${(loadavg()[0] ?? 0).toFixed(1)}; lease ttl ${LEASE.ttlSeconds} s, renew ${LEASE.renewSeconds} s, reaper every ${LEASE.reapSeconds} s; seed ${SEED}`);
  const lab = NetLab.create();
  const cleanup: (() => Promise<void>)[] = [];
  try {
    const dbNode = lab.addNode('db');
    const apiNode = lab.addNode('api', { front: true });
    const names = Array.from({ length: WORKERS }, (_, i) => `w${i}`);
    for (const n of names) lab.addNode(n);
    // Without netem in the kernel, the degraded workers' links are emulated (netns-link.py).
    const slow = ['s0', 's1'];
    for (const n of slow) lab.addNode(n, { emulated: !lab.netem });
    say(`namespaces ${lab.names().namespaces.join(', ')}; back network ${lab.subnet}.0/24; netem ${lab.netem ? 'yes' : 'no (emulated links for the degraded run)'}`);

    // PostgreSQL in its namespace, listening on its address, accepting the lab's subnet.
    const dataDir = path.join(repoRoot, '.data');
    mkdirSync(dataDir, { recursive: true });
    chmodSync(dataDir, 0o777);
    const hba = path.join(dataDir, `netns-${lab.tag}-pg_hba.conf`);
    writeFileSync(hba, `host all all 127.0.0.1/32 password\nhost all all ${lab.subnet}.0/24 password\n`, { mode: 0o644 });
    lab.removeOnDestroy(hba);
    // Stopped normally the server removes its data; killed (SIGINT mid-run), the lab does.
    lab.removeOnDestroy(path.join(dataDir, `postgres-netns-${lab.tag}`));
    const pg = await startOwnPostgres(
      `netns-${lab.tag}`,
      5432,
      false,
      { listen_addresses: `127.0.0.1,${dbNode.address}`, hba_file: hba, max_connections: '300' },
      { netns: dbNode.ns, host: dbNode.address },
    );
    cleanup.unshift(() => pg.stop());
    say(`PostgreSQL at ${dbNode.address} (namespace ${dbNode.ns})`);
    const { db, boss } = await openBenchStore(pg.url, cleanup);

    // The api in its namespace: the database over its back link, this process over its front one.
    const api: RunningApp = startApp(
      'apps/api/src/main.ts',
      { DATABASE_URL: pg.url, PORT: String(API_PORT), HOST: '0.0.0.0', PODIUM_LOG_FORMAT: 'json', PODIUM_WEB_DIST: '/nonexistent', PODIUM_RATE_LIMIT: '0', PODIUM_RATE_LIMIT_UPLOADS: '0' },
      { netns: apiNode.ns },
    );
    cleanup.unshift(() => api.stop());
    const baseUrl = `http://${apiNode.frontAddress ?? ''}:${API_PORT}`;
    await waitFor('the api', async () => (await fetch(`${baseUrl}/api/health`)).status === 200, 120_000).catch((e: unknown) => {
      throw new Error(`${String(e)}\napi logs:\n${api.logs.join('')}`);
    });

    // 1. Busy-worker partitions.
    const task = await createFaultTask(db, { instances: INSTANCES, totalLimit: 100_000 });
    const topUp = () => queueSubmissions(db, task, 2 * WORKERS, (sql, id) => sendScoreJob(boss, id, 'submitted', sql));
    const ids = await queueSubmissions(db, task, PARTITIONS * 2, (sql, id) => sendScoreJob(boss, id, 'submitted', sql));
    const nsOf = (name: string) => lab.names().namespaces.find((ns) => ns.endsWith(`-${name}`)) ?? '';
    const pool = workerPool({ DATABASE_URL: pg.url, PODIUM_WORKER_BATCH: '1', PODIUM_FAULT_SCORING_DELAY_MS: '8000' }, nsOf);
    cleanup.unshift(() => pool.stopAll());
    for (const n of names) pool.start(n);
    const t1 = Date.now();
    const workers = await workerPartitions(lab, db, pool, ids, names, topUp);
    await pool.stopAll();
    const check1 = await scoreRowCheck(db, ids);
    mkdirSync(path.join(repoRoot, 'bench-results'), { recursive: true });
    writeFileSync(path.join(repoRoot, 'bench-results', `faults-partitions-${RUN_ID}-workers.log`), pool.logs());
    say(`worker partitions done in ${((Date.now() - t1) / 1000).toFixed(0)} s; ${JSON.stringify(check1)}`);

    // 2. api ↔ database partitions.
    const apiRounds = await apiPartitions(lab, baseUrl, task);
    writeFileSync(path.join(repoRoot, 'bench-results', `faults-partitions-${RUN_ID}-api.log`), api.logs.join(''));

    // 3. Delay and loss between two workers and the database.
    const degraded = await degradedRun(lab, db, boss, pg.url, task, slow);

    const reRuns = workers.parts.filter((p) => p.outcome === 're-run').map((p) => p.detectedS ?? 0);
    const released = workers.parts.filter((p) => p.outcome === 're-run').map((p) => p.releasedS ?? p.detectedS ?? 0);
    const byOwner = workers.parts.filter((p) => p.outcome === 'finished-by-owner').length;
    const undetected = workers.parts.filter((p) => p.outcome === 'undetected').length;
    const during: Record<string, number> = {};
    for (const r of apiRounds) for (const k of Object.values(r.during)) for (const [s, c] of Object.entries(k)) during[s] = (during[s] ?? 0) + c;
    const recoveries = apiRounds.map((r) => r.recoveryS);
    const worstRecovery = Math.max(...recoveries);
    const fiveHundreds = Object.entries(during).filter(([s]) => s.startsWith('500') || s.includes('INTERNAL_SERVER_ERROR')).reduce((a, [, c]) => a + c, 0);
    const hung = during['hung'] ?? 0;
    const lines = [
      `bench:faults --partitions — PostgreSQL, api, ${WORKERS} workers in separate network namespaces (${lab.netem ? 'netem' : 'link down; delay/loss emulated'}), seed ${SEED}`,
      `worker partitions (busy, cut mid-job)  ${workers.parts.length} tried, heal after ${HEAL_MIN_S}–${HEAL_MAX_S} s; ${reRuns.length} re-run elsewhere, ${byOwner} finished by their own worker after heal, ${undetected} undetected`,
      `partition → lease taken back           worst ${Math.max(0, ...released).toFixed(1)} s, median ${median(released).toFixed(1)} s   (lease ttl ${LEASE.ttlSeconds} s, reaper ${LEASE.reapSeconds} s)`,
      `partition → re-run start               worst ${Math.max(0, ...reRuns).toFixed(1)} s, median ${median(reRuns).toFixed(1)} s   (after the take-back, the job waits its turn in the queue)`,
      `stuck submissions                      ${check1.stuck + degraded.clean.stuck + degraded.degraded.stuck}   (${check1.scored} scored, ${check1.failed} failed in part 1)`,
      `duplicated score rows                  ${check1.duplicated + degraded.clean.duplicated + degraded.degraded.duplicated}   (missing ${check1.missing})`,
      `lost submissions                       ${check1.lost + degraded.clean.lost + degraded.degraded.lost}`,
      `late writes refused                    ${workers.fencingRefused} fencing.refused, ${workers.ownerRefused} by the lease-owner check; ${workers.lateAccepted} accepted`,
      `api answers during DB partitions       ${JSON.stringify(during)} over ${apiRounds.map((r) => `${r.seconds} s`).join(', ')}; slowest ${(Math.max(...apiRounds.map((r) => r.slowestMs)) / 1000).toFixed(1)} s`,
      `api recovery after heal                ${recoveries.map((r) => `${r.toFixed(1)} s`).join(', ')} (worst ${worstRecovery.toFixed(1)} s)`,
      `200 ms / 5 % loss workers↔database     ${degraded.degraded.seconds.toFixed(1)} s for ${DEGRADED} submissions vs ${degraded.clean.seconds.toFixed(1)} s clean (×${degraded.ratio.toFixed(2)}); stuck ${degraded.degraded.stuck}, duplicated ${degraded.degraded.duplicated}`,
    ];
    process.stdout.write(lines.join('\n') + '\n');
    const result = {
      runId: RUN_ID,
      seed: SEED,
      workers: WORKERS,
      netem: lab.netem,
      lease: LEASE,
      partitions: workers.parts.map((p) => ({
        worker: p.worker, submissionId: p.submissionId, attempt: p.attempt, cutAt: new Date(p.cutAt).toISOString(), healAfterS: p.healAfterS, releasedS: p.releasedS, detectedS: p.detectedS, outcome: p.outcome,
      })),
      detection: { worstS: Math.max(0, ...reRuns), medianS: median(reRuns), reRuns: reRuns.length, finishedByOwner: byOwner, undetected },
      takenBack: { worstS: Math.max(0, ...released), medianS: median(released) },
      part1: check1,
      lateWrites: { fencingRefused: workers.fencingRefused, ownerRefused: workers.ownerRefused, accepted: workers.lateAccepted },
      api: apiRounds.map((r) => ({ ...r, recoveryS: Number.isFinite(r.recoveryS) ? r.recoveryS : null })),
      degraded,
    };
    const out = path.join(repoRoot, 'bench-results', `faults-partitions-${RUN_ID}.json`);
    writeFileSync(out, JSON.stringify(result, null, 2));
    const ok =
      workers.parts.length >= 20 &&
      undetected === 0 &&
      check1.stuck + degraded.degraded.stuck === 0 &&
      check1.duplicated + degraded.degraded.duplicated === 0 &&
      check1.lost === 0 &&
      workers.lateAccepted === 0 &&
      fiveHundreds === 0 &&
      hung === 0 &&
      Number.isFinite(worstRecovery);
    process.stdout.write(`${ok ? 'all targets met' : 'TARGETS MISSED'} (results: ${path.relative(repoRoot, out)})\n`);
    return ok ? 0 : 1;
  } finally {
    for (const c of cleanup) await c().catch(() => undefined);
    lab.destroy();
  }
}

if (require.main === module) {
  runPartitionBench().then(
    (code) => process.exit(code),
    (e: unknown) => {
      process.stderr.write(`${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
      process.exit(1);
    },
  );
}
