import { Logger } from '@nestjs/common';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startHealthServer, WorkerHealth } from './health';

async function get(server: Server, path: string): Promise<{ status: number; body: unknown }> {
  const { port } = server.address() as AddressInfo;
  const res = await fetch(`http://127.0.0.1:${port}${path}`);
  return { status: res.status, body: await res.json() };
}

describe('worker health endpoint', () => {
  let server: Server | undefined;
  afterEach(async () => {
    jest.restoreAllMocks();
    const s = server;
    server = undefined;
    if (s) {
      s.closeAllConnections();
      await new Promise<void>((resolve) => s.close(() => resolve()));
    }
  });

  it('is alive at once and ready once the worker takes jobs', async () => {
    const health = new WorkerHealth('w1', 'cpu');
    server = await startHealthServer(health, 0, '127.0.0.1');
    expect(await get(server, '/healthz')).toEqual({ status: 200, body: { status: 'alive' } });
    expect(await get(server, '/readyz')).toMatchObject({ status: 503, body: { status: 'starting', problems: ['not taking jobs yet'] } });
    health.markReady();
    health.recordNliProvider('test-nli-tiny', 'cpu');
    expect(await get(server, '/readyz')).toEqual({
      status: 200,
      body: { status: 'ok', worker: 'w1', nli: { requested: 'cpu', used: 'cpu', model: 'test-nli-tiny' }, problems: [] },
    });
    expect((await get(server, '/nothing')).status).toBe(404);
  });

  it('reports a worker asked for CUDA that runs on CPU as degraded, at error level', async () => {
    const errors = jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined);
    const health = new WorkerHealth('gpu-0', 'cuda');
    health.markReady();
    server = await startHealthServer(health, 0, '127.0.0.1');
    health.recordNliProvider('nli-deberta-v3-xsmall', 'cpu', 'libcudnn.so.9: cannot open shared object file');
    expect(await get(server, '/readyz')).toEqual({
      status: 503,
      body: { status: 'degraded', worker: 'gpu-0', nli: { requested: 'cuda', used: 'cpu', model: 'nli-deberta-v3-xsmall' }, problems: ['PODIUM_NLI_PROVIDER=cuda but NLI runs on cpu'] },
    });
    expect(errors).toHaveBeenCalledTimes(1);
    expect(JSON.stringify(errors.mock.calls[0])).toContain('libcudnn.so.9');
  });

  it('is ok for a worker asked for CUDA that got it', async () => {
    const errors = jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined);
    const health = new WorkerHealth('gpu-1', 'cuda');
    health.markReady();
    health.recordNliProvider('nli-deberta-v3-xsmall', 'cuda');
    expect(health.report()).toMatchObject({ status: 'ok', problems: [] });
    expect(errors).not.toHaveBeenCalled();
  });
});
