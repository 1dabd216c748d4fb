import { fork } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { assertLoadGeneratorFlags, LOAD_GENERATOR_FLAGS } from './load';
import { startLoadProcess } from './load-process';

describe('the load generator runs with its own collector on its own thread', () => {
  it('asks for --single-threaded-gc and refuses a process without it', () => {
    expect(LOAD_GENERATOR_FLAGS).toContain('--single-threaded-gc');
    expect(() => assertLoadGeneratorFlags(['-r', '@swc-node/register'])).toThrow(/must run with --single-threaded-gc/);
    expect(() => assertLoadGeneratorFlags(['--single-threaded-gc', '-r', '@swc-node/register'])).not.toThrow();
  });

  it('a generator forked without the flag says why and exits', async () => {
    const child = fork(path.join(__dirname, 'load-process.ts'), [], { execArgv: ['-r', '@swc-node/register'], stdio: ['ignore', 'ignore', 'ignore', 'ipc'] });
    const said = new Promise<unknown>((resolve) => child.once('message', resolve));
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    expect(code).toBe(2);
    expect(await said).toEqual({ kind: 'error', message: expect.stringContaining('--single-threaded-gc') });
  }, 30_000);

  it('startLoadProcess forks it with the flag, and its rounds answer', async () => {
    const body = Buffer.alloc(300 * 1024, 'x');
    const server = http.createServer((_req, res) => res.writeHead(200, { 'content-length': body.length }).end(body));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const generator = await startLoadProcess();
      try {
        const { port } = server.address() as AddressInfo;
        const open = await generator.open({ method: 'GET', url: `http://127.0.0.1:${port}/board` }, 50, 1, 16);
        expect(open).toMatchObject({ scheduled: 50, requests: 50, unanswered: 0, badAnswers: 0, statuses: { 200: 50 }, meanBytes: body.length });
      } finally {
        await generator.stop();
      }
    } finally {
      server.closeAllConnections();
      server.close();
    }
  }, 30_000);
});
