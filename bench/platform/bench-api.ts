/**
 * An api process of the benches that compare two builds (`--against DIR`): started from a given
 * `main.js` in its own folder on a free port, JSON logs, no web bundle; `GCTRACE=1` prints its
 * garbage collections. Resolves once `/api/health` answers 200.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { freePort, waitFor } from '../../test/e2e/support/processes';

export interface BenchApi {
  name: string;
  child: ChildProcess;
  baseUrl: string;
}

export async function startApiFrom(name: string, main: string, cwd: string, env: Record<string, string>, nodeArgs: string[] = []): Promise<BenchApi> {
  const port = await freePort();
  const gcTrace = Boolean(process.env['GCTRACE']);
  const child = spawn(process.execPath, [...nodeArgs, ...(gcTrace ? ['--trace-gc'] : []), main], {
    cwd,
    env: { ...process.env, ...env, PORT: String(port), HOST: '127.0.0.1', PODIUM_LOG_FORMAT: 'json', PODIUM_WEB_DIST: '/nonexistent' },
    stdio: ['ignore', gcTrace ? 'inherit' : 'ignore', 'inherit'],
  });
  const baseUrl = `http://127.0.0.1:${port}`;
  await waitFor(`the ${name} api`, async () => (await fetch(`${baseUrl}/api/health`).catch(() => null))?.status === 200 || null, 120_000);
  return { name, child, baseUrl };
}
