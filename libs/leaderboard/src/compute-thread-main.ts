// The body of the worker thread that computes phases' leaderboards (entry: compute.thread.ts, see
// thread-runner.ts): for each computation its creator sends it opens its own database pools,
// posts each board as it is done, closes them and says it is done; a thread of a pool then waits
// for the next computation, a thread of one computation ends.
import { threadId, parentPort } from 'node:worker_threads';
import { createDb, LeaderboardRepository } from '@podium/db';
import { Pool, type PoolClient } from 'pg';
import { ThreadColumnCache } from './column-cache';
import { computePhaseBoards } from './phase-boards';
import { staleWork } from './staleness';
import type { ThreadInput, ThreadMessage, ThreadRequest } from './thread-runner';
import { lowerBackendPriority, lowerThreadPriority, threadPriority } from './thread-priority';

/** Serves the creator's computations one at a time, until one marked `last` is done. */
export function serve(): void {
  const port = parentPort;
  if (!port) throw new Error('compute.thread.ts runs as a worker thread (no parentPort)');
  port.on('message', (m: ThreadRequest) => {
    void main(m.input, (message) => port.postMessage(message)).then(() => {
      if (m.last) port.close();
    });
  });
}

/**
 * Runs one computation, posting what it does. With nothing of the phase being scored the thread
 * lowers its priority first (a fresh thread did so before loading its modules, compute.thread.ts);
 * `niceAtLoad` in the summary is the thread's nice value as the computation began.
 */
async function main(input: ThreadInput, post: (m: ThreadMessage) => void): Promise<void> {
  const niceAtLoad = input.yieldFromStart === true ? lowerThreadPriority() : threadPriority();
  const db = createDb(input.databaseUrl, { maxConnections: 2 });
  // The score columns through binary COPY (one connection: the thread reads one matrix at a time).
  const bulkReads = new Pool({ connectionString: input.databaseUrl, max: 1, application_name: 'podium-leaderboard-thread' });
  // Once the thread yields, so do the PostgreSQL backends of its bulk reads (when local): each is
  // a session of its own, weighed by the kernel as much as the whole api (lowerBackendPriority).
  let yielded = false;
  const backends: PoolClient[] = [];
  const lowerBackend = (client: PoolClient) => void lowerBackendPriority(client, input.databaseUrl);
  bulkReads.on('connect', (client) => {
    backends.push(client);
    if (yielded) lowerBackend(client);
  });
  const boards = new LeaderboardRepository(db);
  // Columns the creator kept (given) and each one read here, posted to be kept (column-cache.ts).
  const columns = input.columns ? new ThreadColumnCache(input.phaseId, input.columns, (column) => post({ kind: 'column', column })) : null;
  const staleBoundMs = input.staleBoundMs;
  let result: ThreadMessage;
  try {
    const summary = await computePhaseBoards(db, input.phaseId, input.views, (board) => post({ kind: 'board', board }), {
      onStamp: (stamp) => post({ kind: 'stamp', stamp }),
      onAnalysis: (stage) => post({ kind: 'analysis', stage }),
      // The memos are filled while the phase's submissions are scored at the scoring workers'
      // priority; then serving and scoring come first on shared cores (issue #28), this thread only.
      fillMemos: true,
      bulkReads,
      ...(columns ? { columns } : {}),
      yieldCpu: () => {
        lowerThreadPriority();
        yielded = true;
        backends.forEach(lowerBackend);
      },
      ...(input.pairsApartAbove === undefined ? {} : { pairsApartAbove: input.pairsApartAbove }),
      ...(input.share === undefined ? {} : { share: input.share }),
      ...(input.memoMinCells === undefined ? {} : { memoMinCells: input.memoMinCells }),
      // Between views: the same rule as the caller's polling (isStaleWork).
      ...(staleBoundMs === undefined ? {} : { staleness: (stamp: string) => staleWork(boards, input.phaseId, stamp, staleBoundMs) }),
    });
    result = { kind: 'done', ...summary, threadId, niceAtLoad, niceAtEnd: threadPriority() };
  } catch (e) {
    result = { kind: 'error', message: e instanceof Error ? (e.stack ?? e.message) : String(e) };
  }
  // Closed before the creator hears the end: a pool's thread then holds no connection while idle.
  await Promise.allSettled([db.$disconnect(), bulkReads.end()]);
  post(result);
}
