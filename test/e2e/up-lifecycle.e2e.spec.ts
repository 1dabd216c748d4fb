/**
 * Start and stop of the stack (issue #25), with real processes on the PostgreSQL `npm test`
 * started:
 *  - the api, told to listen on a port another process holds (as when one binds it between the
 *    free-port check of `npm run up` and the api's listen), listens on a following port, says so
 *    at warn, writes its real URL, and logs Nest's route mapping at debug, not info;
 *  - `npm run up`, sent SIGTERM or SIGHUP at the npm process, leaves no process behind.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { databaseUrl, freePort, repoRoot, startApp, waitFor } from './support/processes';

jest.setTimeout(240_000);

/** Binds 127.0.0.1:port, as another program would. */
function occupy(port: number): Promise<Server> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(port, '127.0.0.1', () => resolve(srv));
  });
}

/** Every descendant of `pid` (Linux /proc): pid → parent pid, walked down from `pid`. */
function descendants(pid: number): number[] {
  const parentOf = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      // Fields after the command name (in parentheses, which may hold spaces): state, ppid, …
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      parentOf.set(Number(entry), ppid);
    } catch {
      // gone meanwhile
    }
  }
  const out: number[] = [];
  const walk = (p: number) => {
    for (const [child, parent] of parentOf) {
      if (parent === p) {
        out.push(child);
        walk(child);
      }
    }
  };
  walk(pid);
  return out;
}

/** Alive and not a zombie (a zombie has exited; only its parent's wait is missing). */
function alive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
}

describe('start and stop of the stack (real processes)', () => {
  it('moves the api to a following port when its port is taken at listen time, tells the real URL, and logs route mapping at debug', async () => {
    const port = await freePort();
    const holder = await occupy(port);
    const listenFile = path.join(mkdtempSync(path.join(tmpdir(), 'podium-listen-')), 'url');
    const api = startApp('apps/api/src/main.ts', {
      DATABASE_URL: databaseUrl(), PORT: String(port), HOST: '127.0.0.1', PODIUM_PORT_FALLBACK: '5', PODIUM_LISTEN_FILE: listenFile, PODIUM_LOG_FORMAT: 'json', PODIUM_WEB_DIST: '/nonexistent',
    });
    try {
      const url = await waitFor('the listen file', async () => (existsSync(listenFile) ? readFileSync(listenFile, 'utf8').trim() : null), 120_000);
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(url).not.toBe(`http://127.0.0.1:${port}`);
      expect((await fetch(`${url}/api/health`)).status).toBe(200);
      const lines = api.logs.join('').split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l) as Record<string, unknown>);
      expect(lines).toContainEqual(expect.objectContaining({ level: 'warn', event: 'port-taken', port }));
      expect(lines).toContainEqual(expect.objectContaining({ level: 'info', event: 'listening', url }));
      expect(lines.filter((l) => l['level'] === 'error')).toEqual([]);
      // Route mapping is debug, and debug lines are off unless PODIUM_LOG_LEVEL=debug.
      expect(lines.filter((l) => l['context'] === 'RouterExplorer' || l['context'] === 'RoutesResolver')).toEqual([]);
    } finally {
      await api.stop();
      holder.close();
    }
  });

  it('fails with the reason when the port is taken and no fallback is allowed', async () => {
    const port = await freePort();
    const holder = await occupy(port);
    const api = startApp('apps/api/src/main.ts', { DATABASE_URL: databaseUrl(), PORT: String(port), HOST: '127.0.0.1', PODIUM_LOG_FORMAT: 'json', PODIUM_WEB_DIST: '/nonexistent' });
    try {
      const code = await new Promise<number | null>((resolve) => api.child.once('exit', resolve));
      expect(code).toBe(1);
      expect(api.logs.join('')).toContain('EADDRINUSE');
    } finally {
      await api.stop();
      holder.close();
    }
  });

  /** Runs `npm run up` (its own process group) until it is up; returns it, its output and the URL it printed. */
  async function up(): Promise<{ npm: ChildProcess; output: () => string; url: string }> {
    const npm = spawn('npm', ['run', 'up'], {
      cwd: repoRoot,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: {
        ...process.env,
        DATABASE_URL: databaseUrl(),
        PORT: String(await freePort()),
        PODIUM_WORKERS: '1',
        // No web build, and no demo data to fetch (an empty mirror): the test is about processes.
        PODIUM_WEB_DIST: '/nonexistent',
        PODIUM_DATA_MIRROR: mkdtempSync(path.join(tmpdir(), 'podium-empty-mirror-')),
        PODIUM_LOG_FORMAT: 'json',
      },
    });
    let out = '';
    npm.stdout?.on('data', (c: Buffer) => (out += c.toString()));
    npm.stderr?.on('data', (c: Buffer) => (out += c.toString()));
    try {
      const url = await waitFor('npm run up', async () => /Podium is up/.test(out) && /web: +(http:\/\/\S+)\//.exec(out)?.[1], 200_000);
      return { npm, output: () => out, url };
    } catch (e) {
      if (npm.pid) process.kill(-npm.pid, 'SIGKILL');
      throw new Error(`${String(e)}\n${out}`);
    }
  }

  it.each(['SIGTERM', 'SIGHUP'] as const)('stops every process of `npm run up` when the npm process gets %s', async (signal) => {
    const { npm, output, url } = await up();
    const pid = npm.pid as number;
    expect((await fetch(`${url}/api/health`)).status).toBe(200);
    // npm → (sh) → node scripts/up.mjs → api, worker.
    const before = descendants(pid);
    expect(before.length).toBeGreaterThanOrEqual(3);
    const exited = new Promise<void>((resolve) => npm.once('exit', () => resolve()));
    process.kill(pid, signal);
    await exited;
    try {
      await waitFor(`every process of npm run up to exit after ${signal}`, async () => before.every((p) => !alive(p)), 40_000);
    } catch (e) {
      const left = before.filter(alive);
      for (const p of left) process.kill(p, 'SIGKILL');
      throw new Error(`${String(e)}: ${left.join(', ')} still running\n${output()}`);
    }
  });
});
