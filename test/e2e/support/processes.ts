import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import { Client } from 'pg';
import { compiledApp } from '../../support/compiled-app';

export const repoRoot = path.resolve(__dirname, '..', '..', '..');

/** Where `vite build` puts the web app the api serves (PODIUM_WEB_DIST) in browser tests. */
export const WEB_DIST = path.join(repoRoot, 'apps', 'web', 'dist');

/** True when apps/web/dist is missing or older than any source file of the web app. */
export function webBuildIsStale(): boolean {
  const built = path.join(WEB_DIST, 'index.html');
  if (!existsSync(built)) return true;
  const builtAt = statSync(built).mtimeMs;
  const newer = (p: string): boolean => {
    const st = statSync(p);
    if (st.isDirectory()) return readdirSync(p).some((f) => newer(path.join(p, f)));
    return st.mtimeMs > builtAt;
  };
  const web = path.join(repoRoot, 'apps', 'web');
  return newer(path.join(web, 'src')) || newer(path.join(web, 'index.html')) || newer(path.join(web, 'vite.config.ts'));
}

/** The Postgres URL `npm test` started; end-to-end tests need a real server. */
export function databaseUrl(): string {
  const url = process.env['DATABASE_URL'];
  if (!url) throw new Error('DATABASE_URL is not set: run the end-to-end tests through `npm test`');
  return url;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      const port = typeof addr === 'object' && addr ? addr.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

export interface RunningApp {
  child: ChildProcess;
  logs: string[];
  stop(): Promise<void>;
}

/**
 * Starts an app as a real process from its build (`apps/api/src/main.ts` runs as
 * `node dist/apps/api/main.js`, see compiledApp), collecting its output. `netns`: inside that
 * network namespace (`ip netns exec`, which runs node in place: the child is node itself).
 * `script`: another build's compiled entry instead (benches comparing two builds).
 */
export function startApp(entry: string, env: Record<string, string>, options: { netns?: string; nodeArgs?: string[]; script?: string } = {}): RunningApp {
  const argv = [process.execPath, '--enable-source-maps', ...(options.nodeArgs ?? []), options.script ?? compiledApp(entry)];
  const [command = '', ...args] = options.netns ? ['ip', 'netns', 'exec', options.netns, ...argv] : argv;
  const child = spawn(command, args, {
    cwd: repoRoot,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const logs: string[] = [];
  child.stdout?.on('data', (c: Buffer) => logs.push(c.toString()));
  child.stderr?.on('data', (c: Buffer) => logs.push(c.toString()));
  return {
    child,
    logs,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) { resolve(); return; }
        const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
        child.once('exit', () => {
          clearTimeout(timer);
          resolve();
        });
        child.kill('SIGTERM');
      }),
  };
}

export async function waitFor<T>(what: string, probe: () => Promise<T | undefined | null | false>, timeoutMs = 90_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  while (Date.now() < deadline) {
    try {
      const v = await probe();
      if (v) return v;
    } catch (e) {
      lastError = e;
    }
    await new Promise((r) => setTimeout(r, 300));
  }
  throw new Error(`timed out waiting for ${what}${lastError instanceof Error ? `: ${String(lastError)}` : lastError ? `: ${JSON.stringify(lastError)}` : ''}`);
}

/**
 * Starts the api against `url` on a free port of 127.0.0.1 and waits for its health check; when it
 * does not come up it is stopped and the error carries its logs.
 */
export async function startApiProcess(url: string, timeoutMs = 60_000, env: Record<string, string> = {}): Promise<{ api: RunningApp; baseUrl: string }> {
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const api = startApp('apps/api/src/main.ts', { ...env, DATABASE_URL: url, PORT: String(port), HOST: '127.0.0.1' });
  try {
    await waitFor('the api', async () => (await fetch(`${baseUrl}/api/health`)).ok, timeoutMs);
  } catch (e) {
    await api.stop();
    throw new Error(`${String(e)}\napi logs:\n${api.logs.join('')}`);
  }
  return { api, baseUrl };
}

/** A minimal GraphQL client that fails loudly on errors unless asked to return them. */
export function graphqlClient(baseUrl: string, token?: string) {
  async function raw<T>(query: string, variables: Record<string, unknown> = {}): Promise<{ data?: T; errors?: { message: string; extensions?: Record<string, unknown> }[] }> {
    const res = await fetch(`${baseUrl}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify({ query, variables }),
    });
    return (await res.json()) as { data?: T; errors?: { message: string; extensions?: Record<string, unknown> }[] };
  }
  return {
    raw,
    async request<T>(query: string, variables: Record<string, unknown> = {}): Promise<T> {
      const r = await raw<T>(query, variables);
      if (r.errors?.length) throw new Error(`GraphQL error: ${r.errors.map((e) => e.message).join('; ')}`);
      return r.data as T;
    },
  };
}

/** A throw-away database `<prefix>_<random>` on the server of `baseUrl`; `drop` removes it. */
export async function createDatabase(baseUrl: string, prefix: string): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `${prefix}_${randomBytes(4).toString('hex')}`;
  const admin = new Client({ connectionString: baseUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const c = new Client({ connectionString: baseUrl });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}
