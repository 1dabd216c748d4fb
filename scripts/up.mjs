// `npm run up`: installs what is missing, starts PostgreSQL (embedded on 127.0.0.1 unless
// DATABASE_URL names a server), applies migrations, builds the apps when their sources changed
// (`npm run build`), seeds the demo task, starts the api and a scoring worker from dist/, and
// prints the URL. Ctrl-C stops everything. Safe to run again.
// Stopping: SIGINT, SIGTERM or SIGHUP (to this process, or to the npm that runs it: npm forwards
// the first two, and a parent that goes away counts as a hang-up) stops the api, the workers and
// the embedded PostgreSQL, then exits; nothing is left behind.
// The api's port: PORT (3000) or the next free one; if another process takes it between the check
// and the api's listen, the api moves to a following port, and the URL printed is the real one.
// The demo's data (WMT17 de-en and the MENLI WMT20 suite, MIT) is fetched on first run from its
// public upstream, or from PODIUM_DATA_MIRROR, into the user cache (PODIUM_CACHE); without
// either, Podium starts with no tasks and says how to get the demo.
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { ensureBuild, ensureDependencies, ensurePluginIndexes, migrate, root, run, say, startApp, stopChild, waitForHttp } from './lib/workspace.mjs';

const started = Date.now();
ensureDependencies();
await ensurePluginIndexes();
const { startPostgresDetached, freePort } = await import('./lib/postgres.mjs');

const children = [];
let db;
let stopping = false;

async function shutdown(code) {
  if (stopping) return;
  stopping = true;
  say('stopping…');
  await Promise.all(children.map((c) => stopChild(c)));
  await db?.stop();
  say('stopped');
  process.exit(code);
}
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => void shutdown(0));

// npm forwards SIGINT and SIGTERM to this script, not SIGHUP: a hang-up (or SIGKILL) ends npm
// alone, and this process (or the `sh -c` between npm and it) lives on. So it watches npm (its
// parent, or its grandparent through a shell) and stops when npm is gone.
function statOf(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const after = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { comm: stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')), state: after[0], ppid: Number(after[1]) };
  } catch {
    return null;
  }
}
const parent = process.ppid;
const parentStat = statOf(parent);
const launcher = process.env.npm_lifecycle_event && parentStat && ['sh', 'dash', 'bash'].includes(parentStat.comm) ? parentStat.ppid : parent;
const launcherGone = () => {
  if (process.ppid !== parent) return true;
  if (!existsSync('/proc')) return false;
  const s = statOf(launcher);
  return s === null || s.state === 'Z';
};
setInterval(() => {
  if (!stopping && launcherGone()) {
    say(`the process that started this one (pid ${launcher}) is gone`);
    void shutdown(0);
  }
}, 500).unref();

/** The api's real URL once it listens (it writes it to `file`), or null if it exits first. */
async function listenedUrl(file, child, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (existsSync(file)) {
      const url = readFileSync(file, 'utf8').trim();
      if (url) return url;
    }
    if (child.exitCode !== null || child.signalCode !== null) return null;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`the api did not listen within ${timeoutMs / 1000} s`);
}

try {
  db = await startPostgresDetached({ root, name: 'dev', persistent: true, port: 54329, log: say });
  migrate(db.url);
  await ensureBuild();
  const scripts = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')).scripts ?? {};
  // PODIUM_WEB_DIST set: the caller serves a web build of its own (or none), so none is built.
  const webDist = process.env.PODIUM_WEB_DIST ?? path.join(root, 'apps', 'web', 'dist');
  if (!process.env.PODIUM_WEB_DIST && scripts['build:web'] && existsSync(path.join(root, 'apps', 'web', 'vite.config.ts'))) {
    say('building the web app…');
    run('npm', ['run', '-s', 'build:web'], { quiet: true });
  }
  const tokenFile = path.join(root, '.data', 'organiser-token');
  const statusFile = path.join(root, '.data', 'seed-status.json');
  // The apps log JSON when their output is not a terminal (it is a pipe here): a person at a
  // terminal gets Nest's readable lines instead, unless PODIUM_LOG_FORMAT says otherwise.
  const logFormat = process.env.PODIUM_LOG_FORMAT ?? (process.stdout.isTTY ? 'text' : 'json');
  const env = { ...process.env, DATABASE_URL: db.url, PODIUM_WEB_DIST: webDist, PODIUM_LOG_FORMAT: logFormat };
  const mirror = process.env.PODIUM_DATA_MIRROR?.trim();
  say(
    `seeding the demo task; its data (WMT17 de-en from github.com/cyr19/MENLI, MIT licence) comes from ` +
      `${mirror ? `PODIUM_DATA_MIRROR=${mirror}` : 'https://raw.githubusercontent.com/ (set PODIUM_DATA_MIRROR for an offline copy)'}…`,
  );
  rmSync(statusFile, { force: true });
  run(process.execPath, ['-r', '@swc-node/register', 'prisma/seed.ts'], { env: { ...env, PODIUM_ORGANISER_TOKEN_FILE: tokenFile, PODIUM_SEED_STATUS_FILE: statusFile } });
  const seeded = existsSync(statusFile) ? JSON.parse(readFileSync(statusFile, 'utf8')) : { demo: 'seeded' };
  const port = await freePort(Number(process.env.PORT ?? 3000));
  mkdirSync(path.join(root, '.data'), { recursive: true });
  const listenFile = path.join(root, '.data', `api-url-${process.pid}`);
  rmSync(listenFile, { force: true });
  // Another process may take the port before the api listens: the api then tries the next ones.
  const api = startApp('dist/apps/api/main.js', { ...env, PORT: String(port), HOST: '127.0.0.1', PODIUM_PORT_FALLBACK: '20', PODIUM_LISTEN_FILE: listenFile }, 'api');
  children.push(api);
  const workers = Number(process.env.PODIUM_WORKERS ?? 1);
  for (let i = 1; i <= workers; i++) {
    children.push(startApp('dist/apps/worker/main.js', { ...env, PODIUM_WORKER_NAME: `worker-${i}` }, `worker-${i}`));
  }
  for (const c of children) c.on('exit', (code) => !stopping && (say(`a process exited (code ${code}); stopping`), void shutdown(1)));
  const url = await listenedUrl(listenFile, api, 60000);
  rmSync(listenFile, { force: true });
  if (!url) throw new Error(`the api exited (code ${api.exitCode ?? api.signalCode}) before it listened`);
  if (!url.endsWith(`:${port}`)) say(`port ${port} was taken by another process meanwhile; the api listens on ${url}`);
  await waitForHttp(`${url}/api/health`, 60000, api);
  const token = existsSync(tokenFile) ? readFileSync(tokenFile, 'utf8').trim() : null;
  process.stdout.write(
    [
      '',
      `  Podium is up (${((Date.now() - started) / 1000).toFixed(1)} s)`,
      `  web:      ${url}/`,
      `  GraphQL:  ${url}/graphql`,
      seeded.demo === 'unavailable'
        ? `  demo:     not loaded (its data could not be fetched; see above). To get it, set PODIUM_DATA_MIRROR to a folder or URL laid out like cyr19/MENLI/<commit>/<path>, or connect to the network, then run npm run up again.`
        : `  demo:     ${url}/tasks/wmt17-de-en  (11 WMT17 systems; the worker scores them now)`,
      token ? `  organiser token: ${path.relative(root, tokenFile)}` : '',
      '  Ctrl-C stops everything.',
      '',
    ].join('\n') + '\n',
  );
} catch (e) {
  say(e instanceof Error ? e.message : String(e));
  await shutdown(1);
}
