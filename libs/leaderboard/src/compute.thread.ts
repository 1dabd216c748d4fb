// Entry of the worker thread that computes a phase's leaderboards (see thread-runner.ts): it
// opens its own database pool, posts each board as it is done, then ends.
import { threadId, parentPort, workerData } from 'node:worker_threads';
import { createDb } from '@podium/db';
import { computePhaseBoards } from './phase-boards';
import type { ThreadInput, ThreadMessage } from './thread-runner';

async function main(): Promise<void> {
  const input = workerData as ThreadInput;
  const port = parentPort;
  if (!port) throw new Error('compute.thread.ts runs as a worker thread (no parentPort)');
  const post = (m: ThreadMessage, transfer: ArrayBuffer[] = []) => port.postMessage(m, transfer);
  const db = createDb(input.databaseUrl, { maxConnections: 2 });
  try {
    const summary = await computePhaseBoards(db, input.phaseId, input.views, (board) => post({ kind: 'board', board }));
    post({ kind: 'done', ...summary, threadId });
  } catch (e) {
    post({ kind: 'error', message: e instanceof Error ? (e.stack ?? e.message) : String(e) });
  } finally {
    await db.$disconnect();
  }
}

void main();
