// Runs computePhaseBoards in a `node:worker_threads` thread, so a worker's event loop (its
// lease renewals, its other jobs) keeps running while a large phase is analysed. Works from
// TypeScript sources (tests and dev, through @swc-node/register) and from the compiled dist/.
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import type { ComputedBoard } from './phase-boards';
import type { LeaderboardView } from './view';

export interface ThreadInput {
  databaseUrl: string;
  phaseId: string;
  /** null: the phase's default views. */
  views: LeaderboardView[] | null;
}

export type ThreadMessage =
  | { kind: 'board'; board: ComputedBoard }
  | { kind: 'done'; stamp: string; views: number; computed: number; threadId: number }
  | { kind: 'error'; message: string };

export interface ThreadSummary {
  stamp: string;
  views: number;
  computed: number;
  /** The thread that computed (never 0, the main thread's id). */
  threadId: number;
}

/** Heap limit of a computing thread (MB); 100 × 100k needs a few GB. */
const DEFAULT_HEAP_MB = 4096;

/**
 * Computes in a fresh thread; `onBoard` runs on the calling thread for each board (in order,
 * awaited before the next). Rejects with the thread's error.
 */
export function computeInThread(input: ThreadInput, onBoard: (board: ComputedBoard) => Promise<void>, options: { maxHeapMb?: number } = {}): Promise<ThreadSummary> {
  const fromSource = __filename.endsWith('.ts');
  const entry = path.join(__dirname, fromSource ? 'compute.thread.ts' : 'compute.thread.js');
  const worker = new Worker(entry, {
    workerData: input,
    // From sources the thread compiles TypeScript as the dev tools do; from dist/ it runs plain JS.
    execArgv: fromSource ? ['-r', '@swc-node/register'] : [],
    resourceLimits: { maxOldGenerationSizeMb: options.maxHeapMb ?? DEFAULT_HEAP_MB },
  });
  return new Promise<ThreadSummary>((resolve, reject) => {
    let chain = Promise.resolve();
    let settled = false;
    const fail = (e: unknown) => {
      if (settled) return;
      settled = true;
      void worker.terminate();
      reject(e instanceof Error ? e : new Error(String(e)));
    };
    worker.on('message', (m: ThreadMessage) => {
      if (m.kind === 'board') chain = chain.then(() => onBoard({ ...m.board, computedAt: new Date(m.board.computedAt) })).catch((e: unknown) => fail(e));
      else if (m.kind === 'error') fail(new Error(`leaderboard thread: ${m.message}`));
      else
        void chain.then(() => {
          if (settled) return;
          settled = true;
          resolve({ stamp: m.stamp, views: m.views, computed: m.computed, threadId: m.threadId });
        });
    });
    worker.on('error', fail);
    worker.on('exit', (code) => {
      if (!settled) void chain.then(() => fail(new Error(`leaderboard thread exited with code ${code} before it finished`)));
    });
  });
}
