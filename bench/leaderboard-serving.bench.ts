// Stored leaderboards (issue #11), measured small: the time from the last submission scored to
// its leaderboards stored (computed in a worker thread, as the worker does), then cached
// leaderboard.json and GraphQL `leaderboard` latency at 50 concurrent clients.
//   DATABASE_URL=… node -r @swc-node/register bench/leaderboard-serving.bench.ts [--systems 20] [--instances 5000] [--seconds 10]
// DATABASE_URL: a migrated database (e.g. the one `npm test` or `npm run up` starts). The full
// platform benchmark is `npm run bench:platform`.
import 'reflect-metadata';
import { loadApiConfig, type WorkerConfig } from '@podium/config';
import { createDb, IdentityRepository, LeaderboardRepository, Role, SubmissionRepository, TaskKind, TaskRepository } from '@podium/db';
import { mulberry32 } from '@podium/ranking';
import { randomUUID } from 'node:crypto';
import { spawn } from 'node:child_process';
import http from 'node:http';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { createApp } from '../apps/api/src/app';
import { LeaderboardProcessor } from '../apps/worker/src/leaderboard/leaderboard.processor';

const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
};
const SYSTEMS = arg('systems', 20);
const INSTANCES = arg('instances', 5000);
const SECONDS = arg('seconds', 10);
const CLIENTS = 50;

/** The p-th percentile of sorted latencies (nearest rank); NaN when no request completed. */
const pct = (xs: number[], p: number) => xs[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))] ?? Number.NaN;

/** CLIENTS concurrent keep-alive clients for SECONDS: requests/s and latency percentiles. */
async function load(port: number, request: () => { method: string; path: string; body?: string; headers: Record<string, string> }) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: CLIENTS });
  const latencies: number[] = [];
  let errors = 0;
  const end = Date.now() + SECONDS * 1000;
  const one = () =>
    new Promise<void>((resolve) => {
      const r = request();
      const started = performance.now();
      const req = http.request({ host: '127.0.0.1', port, agent, method: r.method, path: r.path, headers: r.headers }, (res) => {
        res.resume();
        res.on('end', () => {
          if (res.statusCode !== 200) errors++;
          latencies.push(performance.now() - started);
          resolve();
        });
      });
      req.on('error', () => {
        errors++;
        resolve();
      });
      req.end(r.body);
    });
  await Promise.all(
    Array.from({ length: CLIENTS }, async () => {
      while (Date.now() < end) await one();
    }),
  );
  agent.destroy();
  latencies.sort((a, b) => a - b);
  return { rps: latencies.length / SECONDS, p50: pct(latencies, 50), p95: pct(latencies, 95), p99: pct(latencies, 99), errors };
}

async function main(): Promise<void> {
  const url = process.env['DATABASE_URL'];
  if (!url) throw new Error('set DATABASE_URL to a migrated database');
  const db = createDb(url, { maxConnections: 4 });
  const reuse = process.argv.indexOf('--phase');
  if (reuse >= 0) {
    const phaseId = process.argv[reuse + 1];
    if (!phaseId) throw new Error('--phase needs the id of a stored phase');
    return serve(url, db, phaseId);
  }
  const tasks = new TaskRepository(db);
  const submissions = new SubmissionRepository(db);
  const boards = new LeaderboardRepository(db);
  const identity = new IdentityRepository(db);
  const suffix = randomUUID().slice(0, 8);
  const organiserId = (await identity.createUser(`bench-${suffix}`, Role.ORGANISER)).id;
  const task = await tasks.createTask({
    slug: `bench-lb-${suffix}`, title: 'bench', kind: TaskKind.MT, sourceLang: 'de', targetLang: 'en', metrics: [{ key: 'nli', name: 'nli', options: {} }] as never, createdById: organiserId,
  });
  const phase = await tasks.createPhase({
    taskId: task.id, name: 'test', opensAt: new Date('2020-01-01'), closesAt: new Date('2099-01-01'), dailyLimit: 1000, totalLimit: 1000, leaderboardBeforeClose: true,
  });
  await tasks.uploadTestSet(phase.id, 'ts', Array.from({ length: INSTANCES }, (_, i) => ({ externalId: `s${i}`, source: `quelle ${i}`, references: [`ref ${i}`] })));
  const testSetId = (await tasks.phaseById(phase.id))?.testSetId;
  if (!testSetId) throw new Error(`phase ${phase.id} has no test set after the upload`);
  const ids = await tasks.instanceIdsOf(testSetId);
  process.stdout.write(`phase ${phase.id}: storing ${SYSTEMS} × ${INSTANCES} scores…\n`);
  for (let s = 0; s < SYSTEMS; s++) {
    // A team per system: the default board ranks one row per team (docs/adr/0013-phase-state-machine.md).
    const teamId = (await identity.createTeam(`bench-${suffix}-${s}`, [])).id;
    const sub = await submissions.create(
      { phaseId: phase.id, teamId, submittedById: organiserId, systemName: `sys${s}`, description: '', checksum: `c${s}`, outputs: ids.map((i, k) => ({ instanceId: i.id, text: `o${s}-${k}` })) },
      async () => undefined,
    );
    const r = mulberry32(s + 1);
    const rows = ids.map((i) => ({ instanceId: i.id, metric: 'nli', signature: 'nli|bench', value: Math.min(0.999, r.next() * 0.8 + s * 0.005) }));
    await submissions.saveScores(sub.id, rows, [{ metric: 'nli', signature: 'nli|bench', value: rows.reduce((a, b) => a + b.value, 0) / rows.length }]);
  }
  // The last submission is scored: the worker's job computes the defaults in a thread and stores them.
  const config = { DATABASE_URL: url, PODIUM_WORKER_POLL_SECONDS: 0.5, PODIUM_WORKER_NAME: 'bench' } as WorkerConfig;
  const processor = new LeaderboardProcessor({} as never, config, boards);
  const started = performance.now();
  const summary = await processor.compute(phase.id, null);
  if (!summary) throw new Error('the phase was being computed by another worker');
  const storedMs = performance.now() - started;
  process.stdout.write(`last scored → ${summary.views} default views stored (${summary.computed} computed): ${(storedMs / 1000).toFixed(2)} s\n`);
  await serve(url, db, phase.id);
}

/** Cached leaderboard.json and GraphQL latency for a phase whose boards are stored. */
async function serve(url: string, db: ReturnType<typeof createDb>, phaseId: string): Promise<void> {
  const phase = { id: phaseId };

  // The API in its own process (the built dist/, as `npm run up` runs it), so the load generator
  // does not share its event loop; `--in-process` runs it in this process instead.
  let port: number;
  let stop: () => Promise<void>;
  if (process.argv.includes('--in-process')) {
    const app = await createApp(loadApiConfig({ DATABASE_URL: url, PODIUM_WEB_DIST: '/nonexistent', PODIUM_RATE_LIMIT: '100000000' }), { logger: false, queueSchema: 'pgboss_bench' });
    await app.listen(0, '127.0.0.1');
    port = (app.getHttpServer().address() as AddressInfo).port;
    stop = () => app.close();
  } else {
    port = 39000 + Math.floor(Math.random() * 1000);
    const child = spawn(process.execPath, [path.join(__dirname, '..', 'dist', 'apps', 'api', 'main.js')], {
      env: { ...process.env, DATABASE_URL: url, PORT: String(port), HOST: '127.0.0.1', PODIUM_WEB_DIST: '/nonexistent', PODIUM_RATE_LIMIT: '100000000', PODIUM_QUEUE_SCHEMA: 'pgboss_bench' },
      stdio: 'ignore',
    });
    for (let i = 0; ; i++) {
      if (await fetch(`http://127.0.0.1:${port}/api/health`).then((r) => r.status < 500, () => false)) break;
      if (i > 300) throw new Error('the API did not start (run npm run build first)');
      await new Promise((r) => setTimeout(r, 200));
    }
    stop = async () => {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
    };
  }
  const json = await load(port, () => ({ method: 'GET', path: `/api/phases/${phase.id}/leaderboard.json`, headers: { 'accept-encoding': 'gzip, br' } }));
  process.stdout.write(`leaderboard.json (cached, br), ${CLIENTS} clients, ${SECONDS} s: ${json.rps.toFixed(0)} req/s, p50 ${json.p50.toFixed(1)} ms, p95 ${json.p95.toFixed(1)} ms, p99 ${json.p99.toFixed(1)} ms, ${json.errors} errors\n`);
  const query = JSON.stringify({
    query: `query($p: ID!) { leaderboard(phaseId: $p) { updating stamp metric systems { system team mean median bt rank { mean median bt } cluster { mean } meanCi { low high } } pairs { a b wins losses ties p pAdjusted } } }`,
    variables: { p: phase.id },
  });
  const gql = await load(port, () => ({ method: 'POST', path: '/graphql', body: query, headers: { 'content-type': 'application/json' } }));
  process.stdout.write(`GraphQL leaderboard (cached, systems + pairs), ${CLIENTS} clients, ${SECONDS} s: ${gql.rps.toFixed(0)} req/s, p50 ${gql.p50.toFixed(1)} ms, p95 ${gql.p95.toFixed(1)} ms, p99 ${gql.p99.toFixed(1)} ms, ${gql.errors} errors\n`);
  await stop();
  await db.$disconnect();
}

main().catch((e: unknown) => {
  process.stderr.write(`${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
  process.exit(1);
});
