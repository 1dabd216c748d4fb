/**
 * A GPU worker without a working CUDA provider (issue #27): the compiled worker, started with
 * PODIUM_NLI_PROVIDER=cuda on this machine (onnxruntime-node's CPU build, no CUDA provider
 * installed), loads its NLI model at start, logs the fallback at error level and answers 503
 * "degraded" on /readyz, while /healthz (liveness) stays 200. With cpu asked for, /readyz is 200.
 */
import { databaseUrl, freePort, startApp, waitFor, type RunningApp } from './support/processes';

const QUEUE_SCHEMA = 'pgboss_worker_health';

describe('worker health endpoint (real worker process)', () => {
  const running: RunningApp[] = [];
  afterAll(async () => {
    await Promise.all(running.map((w) => w.stop()));
  });

  async function start(provider: 'cpu' | 'cuda'): Promise<{ worker: RunningApp; url: string }> {
    const port = await freePort();
    const worker = startApp('apps/worker/src/main.ts', {
      DATABASE_URL: databaseUrl(),
      PODIUM_QUEUE_SCHEMA: QUEUE_SCHEMA,
      PODIUM_WORKER_NAME: `health-${provider}`,
      PODIUM_NLI_PROVIDER: provider,
      PODIUM_WORKER_HEALTH_PORT: String(port),
      PODIUM_WORKER_HEALTH_HOST: '127.0.0.1',
      PODIUM_LOG_FORMAT: 'json',
    });
    running.push(worker);
    return { worker, url: `http://127.0.0.1:${port}` };
  }

  it('says so when CUDA was asked for and NLI runs on CPU', async () => {
    const { worker, url } = await start('cuda');
    const ready = await waitFor('a readiness answer after start', async () => {
      const res = await fetch(`${url}/readyz`).catch(() => null);
      if (!res) return null;
      const body = (await res.json()) as { status: string };
      return body.status === 'starting' ? null : { code: res.status, body };
    }, 60_000);
    expect(ready).toEqual({
      code: 503,
      body: { status: 'degraded', worker: 'health-cuda', nli: { requested: 'cuda', used: 'cpu', model: 'test-nli-tiny' }, problems: ['PODIUM_NLI_PROVIDER=cuda but NLI runs on cpu'] },
    });
    expect((await fetch(`${url}/healthz`)).status).toBe(200);
    const errorLines = worker.logs.join('').split('\n').filter((l) => l.includes('nli-provider-fallback'));
    expect(errorLines.length).toBeGreaterThan(0);
    expect(JSON.parse(errorLines[0] ?? '{}')).toMatchObject({ level: 'error' });
  });

  it('is ready on CPU when CPU was asked for', async () => {
    const { url } = await start('cpu');
    const code = await waitFor('readiness', async () => {
      const res = await fetch(`${url}/readyz`).catch(() => null);
      return res?.status === 200 ? res.status : null;
    }, 60_000);
    expect(code).toBe(200);
  });
});
