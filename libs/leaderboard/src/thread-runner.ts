// Runs computePhaseBoards in a `node:worker_threads` thread, so a worker's event loop (its
// lease renewals, its other jobs) keeps running while a large phase is analysed. Works from
// TypeScript sources (tests and dev, through @swc-node/register) and from the compiled dist/.
import path from 'node:path';
import type { ColumnReads } from '@podium/db';
import type { MemoUse } from '@podium/ranking';
import { Worker } from 'node:worker_threads';
import type { BoardColumnCache, SharedScoreColumn } from './column-cache';
import type { AnalysisStage } from './compute';
import type { ComputedBoard } from './phase-boards';
import type { BoardYield, Yielded } from './thread-priority';
import type { LeaderboardView } from './view';

export interface ThreadInput {
  databaseUrl: string;
  phaseId: string;
  /** null: the phase's default views. */
  views: LeaderboardView[] | null;
  /**
   * Set: between views the thread drops stale work (isStaleWork with this bound); unset: it
   * computes every view asked for.
   */
  staleBoundMs?: number;
  /** Boards of more systems keep their pairs apart, in tiles (PODIUM_LEADERBOARD_PAIRS_APART_ABOVE); unset: never. */
  pairsApartAbove?: number;
  /** Smallest systems × instances that keeps an analysis memo (PhaseBoardsOptions.memoMinCells); unset: the default. */
  memoMinCells?: number;
  /** This thread's share of the analyses (PhaseBoardsOptions.share); unset: all. */
  share?: { index: number; of: number };
  /**
   * Nothing of the phase is being scored: the thread lowers its priority (BOARD_THREAD_NICENESS)
   * before it loads its modules, not after (compute.thread.ts). Unset: it starts at its creator's.
   */
  yieldFromStart?: boolean;
  /** How the thread yields (BoardYield); unset: `nice`. */
  yieldTo?: BoardYield;
  /** Score columns of the phase read before (ThreadOptions.columns gives them): read again only when rewritten since. */
  columns?: SharedScoreColumn[];
}

export type ThreadMessage =
  | { kind: 'stamp'; stamp: string }
  | { kind: 'analysis'; stage: AnalysisStage }
  | { kind: 'fill'; memoKey: string; use: MemoUse }
  | { kind: 'board'; board: ComputedBoard }
  | { kind: 'column'; column: SharedScoreColumn }
  | ({ kind: 'yielded' } & Yielded)
  | { kind: 'done'; stamp: string; views: number; computed: number; abandoned: boolean; threadId: number; niceAtLoad: number | null; memoUses?: { memoKey: string; use: MemoUse }[]; columnReads?: ColumnReads }
  | { kind: 'error'; message: string };

export interface ThreadSummary {
  stamp: string;
  views: number;
  computed: number;
  /** Boards stored (handed to onBoard). */
  stored: number;
  /** Stopped before every view was done: between views by the thread, or by `signal`. */
  abandoned: boolean;
  /** The thread that computed (never 0, the main thread's id); of several, the first. */
  threadId: number;
  /** Threads whose summaries this one sums (PODIUM_LEADERBOARD_THREADS); unset: one. */
  threads?: number;
  /** The thread's nice value while it loaded its modules (null: not read); unset when it was stopped before it finished. Of several, the first's. */
  niceAtLoad?: number | null;
  /** Whether the thread yielded under SCHED_IDLE (ThreadInput.yieldTo); unset when it did not yield. Of several, the first's. */
  idle?: boolean;
  /** What each computed analysis' memo saved (systems and pairs reused and computed), for the log. */
  memoUses?: { memoKey: string; use: MemoUse }[];
  /** What each memo filled ahead of its analysis computed (PhaseBoardsOptions.fillMemos), for the log. */
  fills?: { memoKey: string; use: MemoUse }[];
  /** Score columns the thread took from ThreadOptions.columns and read from the database; unset without a cache. */
  columnReads?: ColumnReads;
}

/** Heap limit of a computing thread (MB); 100 × 100k needs a few GB. */
const DEFAULT_HEAP_MB = 4096;

export interface ThreadOptions {
  maxHeapMb?: number;
  /** Told the stamp the thread computes, before it computes anything. */
  onStamp?: (stamp: string) => void;
  /** Told what each analysis or fill is before it runs (AnalysisStage). */
  onAnalysis?: (stage: AnalysisStage) => void;
  /** Told how the thread yielded (ThreadInput.yieldTo), when it does: its id, nice value and policy. */
  onYield?: (yielded: Yielded) => void;
  /**
   * Aborted: the thread is terminated at once (boards already handed to onBoard stay) and the
   * promise resolves with `abandoned: true`.
   */
  signal?: AbortSignal;
  /**
   * The creator's kept score columns: the thread is given the phase's, and each column it reads is
   * added (also from a thread terminated later). Unset: the thread reads every column.
   */
  columns?: BoardColumnCache;
}

/**
 * Computes in a fresh thread; `onBoard` runs on the calling thread for each board (in order,
 * awaited before the next). Rejects with the thread's error.
 */
export function computeInThread(input: ThreadInput, onBoard: (board: ComputedBoard) => Promise<void>, options: ThreadOptions = {}): Promise<ThreadSummary> {
  const fromSource = __filename.endsWith('.ts');
  const entry = path.join(__dirname, fromSource ? 'compute.thread.ts' : 'compute.thread.js');
  const worker = new Worker(entry, {
    workerData: options.columns ? { ...input, columns: options.columns.forPhase(input.phaseId) } : input,
    // From sources the thread compiles TypeScript as the dev tools do; from dist/ it runs plain JS.
    // A process run under `--cpu-prof` (bench:platform) profiles its board threads too.
    execArgv: [...(fromSource ? ['-r', '@swc-node/register'] : []), ...process.execArgv.filter((a) => a.startsWith('--cpu-prof'))],
    resourceLimits: { maxOldGenerationSizeMb: options.maxHeapMb ?? DEFAULT_HEAP_MB },
  });
  return new Promise<ThreadSummary>((resolve, reject) => {
    let chain = Promise.resolve();
    let settled = false;
    let stamp = '';
    let stored = 0;
    let idle: boolean | undefined;
    // The memo fills, as the thread posts each ('fill'): also what a thread terminated mid-computation did.
    const fills: { memoKey: string; use: MemoUse }[] = [];
    const fail = (e: unknown) => {
      if (settled) return;
      settled = true;
      void worker.terminate();
      reject(e instanceof Error ? e : new Error(String(e)));
    };
    const abort = () => {
      if (settled) return;
      settled = true;
      const threadId = worker.threadId;
      void worker.terminate();
      // A board already handed over is still stored.
      void chain.then(() => resolve({ stamp, views: 0, computed: stored, stored, abandoned: true, threadId, ...(fills.length > 0 ? { fills } : {}), ...(idle === undefined ? {} : { idle }) }));
    };
    if (options.signal) {
      if (options.signal.aborted) abort();
      else options.signal.addEventListener('abort', abort, { once: true });
    }
    worker.on('message', (m: ThreadMessage) => {
      if (m.kind === 'stamp') {
        stamp = m.stamp;
        options.onStamp?.(m.stamp);
      } else if (m.kind === 'analysis') options.onAnalysis?.(m.stage);
      else if (m.kind === 'fill') fills.push({ memoKey: m.memoKey, use: m.use });
      else if (m.kind === 'column') options.columns?.add(m.column);
      else if (m.kind === 'yielded') {
        const { kind: _kind, ...yielded } = m;
        idle = yielded.idle;
        options.onYield?.(yielded);
      }
      else if (m.kind === 'board')
        chain = chain
          .then(async () => {
            await onBoard({ ...m.board, computedAt: new Date(m.board.computedAt) });
            stored++;
          })
          .catch((e: unknown) => fail(e));
      else if (m.kind === 'error') fail(new Error(`leaderboard thread: ${m.message}`));
      else
        void chain.then(() => {
          if (settled) return;
          settled = true;
          resolve({ stamp: m.stamp, views: m.views, computed: m.computed, stored, abandoned: m.abandoned, threadId: m.threadId, niceAtLoad: m.niceAtLoad, ...(idle === undefined ? {} : { idle }), ...(m.memoUses ? { memoUses: m.memoUses } : {}), fills, ...(m.columnReads ? { columnReads: m.columnReads } : {}) });
        });
    });
    worker.on('error', fail);
    worker.on('exit', (code) => {
      if (!settled) void chain.then(() => fail(new Error(`leaderboard thread exited with code ${code} before it finished`)));
    });
  });
}
