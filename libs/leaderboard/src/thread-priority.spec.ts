import { getPriority } from 'node:os';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { BOARD_THREAD_NICENESS } from './thread-priority';

/** Runs `code` (CommonJS, may require TypeScript through @swc-node/register) in a worker thread; resolves with its first message. */
function inThread<T>(code: string): Promise<T> {
  return new Promise((resolve, reject) => {
    const w = new Worker(code, { eval: true });
    w.once('message', (m: T) => {
      resolve(m);
      void w.terminate();
    });
    w.once('error', reject);
  });
}

// Each thread loads @swc-node/register to read the TypeScript module (as thread-runner.ts does from sources): seconds on a busy machine.
jest.setTimeout(60_000);

const linux = process.platform === 'linux' ? describe : describe.skip;

linux('the board thread\'s priority (issue #28)', () => {
  const module = JSON.stringify(path.join(__dirname, 'thread-priority.ts'));

  it('lowers the calling thread to nice 10 and leaves the thread that started it as it was', async () => {
    const before = getPriority(0);
    const after = await inThread<number | null>(`require('@swc-node/register'); const { lowerThreadPriority } = require(${module}); require('node:worker_threads').parentPort.postMessage(lowerThreadPriority());`);
    expect(after).toBe(Math.max(before, BOARD_THREAD_NICENESS));
    // Linux keeps the nice value per thread: this (the worker's event loop in production) keeps its own.
    expect(getPriority(0)).toBe(before);
  });

  it('never raises a thread that is already lower', async () => {
    const after = await inThread<number | null>(`require('@swc-node/register'); const os = require('node:os'); os.setPriority(0, 15); const { lowerThreadPriority } = require(${module}); require('node:worker_threads').parentPort.postMessage(lowerThreadPriority());`);
    expect(after).toBe(15);
  });
});
