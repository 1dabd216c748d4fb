// The body of the worker thread that computes a phase's leaderboards (entry: compute.thread.ts,
// see thread-runner.ts): it opens its own database pool, posts each board as it is done, then ends.
import { threadId, parentPort, workerData } from 'node:worker_threads';
import { createDb, LeaderboardRepository } from '@podium/db';
import { Pool, type PoolClient } from 'pg';
import { ThreadColumnCache } from './column-cache';
import { computePhaseBoards } from './phase-boards';
import { staleWork } from './staleness';
import type { ThreadInput, ThreadMessage } from './thread-runner';
import { lowerBackendPriority, yieldThread } from './thread-priority';

/**
 * Runs the computation; `niceAtLoad`: the thread's nice value while its modules loaded;
 * `yieldedAtLoad`: whether it yielded before it loaded them (compute.thread.ts).
 */
export async function main(niceAtLoad: number | null, yieldedAtLoad = false): Promise<void> {
  const input = workerData as ThreadInput;
  const port = parentPort;
  if (!port) throw new Error('compute.thread.ts runs as a worker thread (no parentPort)');
  const post = (m: ThreadMessage, transfer: ArrayBuffer[] = []) => port.postMessage(m, transfer);
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
  try {
    const summary = await computePhaseBoards(db, input.phaseId, input.views, (board) => post({ kind: 'board', board }), {
      onStamp: (stamp) => post({ kind: 'stamp', stamp }),
      onAnalysis: (stage) => post({ kind: 'analysis', stage }),
      onFill: (fill) => post({ kind: 'fill', ...fill }),
      // The memos are filled while the phase's submissions are scored at the scoring workers'
      // priority; then serving and scoring come first on shared cores (issue #28), this thread only.
      fillMemos: true,
      bulkReads,
      ...(columns ? { columns } : {}),
      yieldCpu: () => {
        // The runner watches a thread under SCHED_IDLE for starvation (ThreadOptions.onYield).
        if (!yieldedAtLoad) post({ kind: 'yielded', ...yieldThread(input.yieldTo ?? 'nice') });
        yielded = true;
        backends.forEach(lowerBackend);
      },
      ...(input.pairsApartAbove === undefined ? {} : { pairsApartAbove: input.pairsApartAbove }),
      ...(input.share === undefined ? {} : { share: input.share }),
      ...(input.memoMinCells === undefined ? {} : { memoMinCells: input.memoMinCells }),
      // Between views: the same rule as the caller's polling (isStaleWork).
      ...(staleBoundMs === undefined ? {} : { staleness: (stamp: string) => staleWork(boards, input.phaseId, stamp, staleBoundMs) }),
    });
    // The fills went out one by one ('fill'), and the runner keeps them.
    const { fills: _fills, ...done } = summary;
    post({ kind: 'done', ...done, threadId, niceAtLoad });
  } catch (e) {
    post({ kind: 'error', message: e instanceof Error ? (e.stack ?? e.message) : String(e) });
  } finally {
    await Promise.all([db.$disconnect(), bulkReads.end()]);
  }
}
