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
import { threadPriority } from './thread-priority';
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
  /** Score columns of the phase read before (ThreadOptions.columns gives them): read again only when rewritten since. */
  columns?: SharedScoreColumn[];
}

export type ThreadMessage =
  | { kind: 'stamp'; stamp: string }
  | { kind: 'analysis'; stage: AnalysisStage }
  | { kind: 'board'; board: ComputedBoard }
  | { kind: 'column'; column: SharedScoreColumn }
  | { kind: 'done'; stamp: string; views: number; computed: number; abandoned: boolean; threadId: number; niceAtLoad: number | null; niceAtEnd: number | null; memoUses?: { memoKey: string; use: MemoUse }[]; fills?: { memoKey: string; use: MemoUse }[]; columnReads?: ColumnReads }
  | { kind: 'error'; message: string };

/** What a thread is asked: one computation; `last`, the thread ends after it (no pool). */
export interface ThreadRequest {
  kind: 'compute';
  input: ThreadInput;
  last: boolean;
}

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
  /** The thread's nice value as the computation began (a fresh thread's: while it loaded its modules; null: not read); unset when it was stopped before it finished. Of several, the first's. */
  niceAtLoad?: number | null;
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
  /** Threads kept between computations: one is taken from it and given back when done. Unset: a fresh thread that ends with the computation. */
  pool?: BoardThreadPool;
}

/** The part of a `node:worker_threads` Worker a pool handles (tests give stand-ins). */
export interface PooledThread {
  readonly threadId: number;
  ref(): void;
  unref(): void;
  terminate(): Promise<number>;
}

/**
 * Board threads kept between computations (issue #28): a thread loads its modules once (0.4–1 s
 * of CPU a thread, each computation, on the bench's 2-core machine) and serves the computations
 * of a burst one after the other. An idle thread is unreferenced (it keeps no process alive) and
 * ended after `idleMs`, which gives its heap back. The default outlasts a computation during a
 * burst at 100 × 100,000 (30–70 s), so the final computation, which follows a terminated one (the
 * last score overtook it), finds the threads of the computation before it. A thread that lowered its priority cannot raise
 * it again: it serves only computations that yield from the start (nothing of the phase being
 * scored); one that must keep pace with scoring gets a thread at its creator's priority, or a new
 * one. A thread stopped mid-computation (abort, error) is terminated, never given back.
 */
export class BoardThreadPool<T extends PooledThread = Worker> {
  private readonly idle: { thread: T; lowered: boolean; timer: NodeJS.Timeout }[] = [];
  private closed = false;

  constructor(
    readonly idleMs = 120_000,
    readonly maxIdle = 4,
  ) {}

  /** Idle threads now. */
  get size(): number {
    return this.idle.length;
  }

  /** An idle thread that may compute at the priority asked for (null: start a new one). Lowered ones first for work that yields. */
  take(yieldFromStart: boolean): T | null {
    const at = yieldFromStart ? Math.max(this.idle.findIndex((t) => t.lowered), this.idle.length > 0 ? 0 : -1) : this.idle.findIndex((t) => !t.lowered);
    if (at < 0) return null;
    const [found] = this.idle.splice(at, 1);
    if (!found) return null;
    clearTimeout(found.timer);
    found.thread.ref();
    return found.thread;
  }

  /** A thread whose computation ended; `lowered`: its priority is below its creator's now. */
  give(thread: T, lowered: boolean): void {
    if (this.closed) {
      void thread.terminate();
      return;
    }
    thread.unref();
    const timer = setTimeout(() => this.end(thread), this.idleMs);
    timer.unref();
    this.idle.push({ thread, lowered, timer });
    while (this.idle.length > this.maxIdle) {
      const oldest = this.idle.shift();
      if (oldest) this.end(oldest.thread);
    }
  }

  /** Ends every idle thread; threads given back later are ended at once. */
  async close(): Promise<void> {
    this.closed = true;
    const all = this.idle.splice(0);
    all.forEach((t) => clearTimeout(t.timer));
    await Promise.all(all.map((t) => t.thread.terminate()));
  }

  private end(thread: T): void {
    const at = this.idle.findIndex((t) => t.thread === thread);
    if (at >= 0) {
      const [gone] = this.idle.splice(at, 1);
      if (gone) clearTimeout(gone.timer);
    }
    void thread.terminate();
  }
}

/** A new board thread; it lowers its priority before loading its modules when `yieldFromStart`. */
function startThread(yieldFromStart: boolean, maxHeapMb: number | undefined): Worker {
  const fromSource = __filename.endsWith('.ts');
  const entry = path.join(__dirname, fromSource ? 'compute.thread.ts' : 'compute.thread.js');
  return new Worker(entry, {
    workerData: { yieldFromStart },
    // From sources the thread compiles TypeScript as the dev tools do; from dist/ it runs plain JS.
    // A process run under `--cpu-prof` (bench:platform) profiles its board threads too.
    execArgv: [...(fromSource ? ['-r', '@swc-node/register'] : []), ...process.execArgv.filter((a) => a.startsWith('--cpu-prof'))],
    resourceLimits: { maxOldGenerationSizeMb: maxHeapMb ?? DEFAULT_HEAP_MB },
  });
}

/**
 * Computes in a board thread: one of `options.pool` (given back when done), or a fresh one that
 * ends with the computation. `onBoard` runs on the calling thread for each board (in order,
 * awaited before the next). Rejects with the thread's error.
 */
export function computeInThread(input: ThreadInput, onBoard: (board: ComputedBoard) => Promise<void>, options: ThreadOptions = {}): Promise<ThreadSummary> {
  const pool = options.pool ?? null;
  const yieldFromStart = input.yieldFromStart === true;
  const worker = pool?.take(yieldFromStart) ?? startThread(yieldFromStart, options.maxHeapMb);
  const creatorNice = threadPriority();
  const request: ThreadRequest = { kind: 'compute', input: options.columns ? { ...input, columns: options.columns.forPhase(input.phaseId) } : input, last: pool === null };
  return new Promise<ThreadSummary>((resolve, reject) => {
    let chain = Promise.resolve();
    let settled = false;
    let stamp = '';
    let stored = 0;
    const detach = () => {
      worker.off('message', onMessage);
      worker.off('error', fail);
      worker.off('exit', onExit);
      options.signal?.removeEventListener('abort', abort);
    };
    function fail(e: unknown): void {
      if (settled) return;
      settled = true;
      detach();
      void worker.terminate();
      reject(e instanceof Error ? e : new Error(String(e)));
    }
    function abort(): void {
      if (settled) return;
      settled = true;
      detach();
      const threadId = worker.threadId;
      void worker.terminate();
      // A board already handed over is still stored.
      void chain.then(() => resolve({ stamp, views: 0, computed: stored, stored, abandoned: true, threadId }));
    }
    function onExit(code: number): void {
      if (!settled) void chain.then(() => fail(new Error(`leaderboard thread exited with code ${code} before it finished`)));
    }
    function onMessage(m: ThreadMessage): void {
      if (m.kind === 'stamp') {
        stamp = m.stamp;
        options.onStamp?.(m.stamp);
      } else if (m.kind === 'analysis') options.onAnalysis?.(m.stage);
      else if (m.kind === 'column') options.columns?.add(m.column);
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
          detach();
          // Its boards stored: the thread serves the pool's next computation (one that lowered its priority, only work that yields).
          pool?.give(worker, m.niceAtEnd !== null && creatorNice !== null && m.niceAtEnd > creatorNice);
          resolve({ stamp: m.stamp, views: m.views, computed: m.computed, stored, abandoned: m.abandoned, threadId: m.threadId, niceAtLoad: m.niceAtLoad, ...(m.memoUses ? { memoUses: m.memoUses } : {}), ...(m.fills ? { fills: m.fills } : {}), ...(m.columnReads ? { columnReads: m.columnReads } : {}) });
        });
    }
    if (options.signal?.aborted) {
      abort();
      return;
    }
    options.signal?.addEventListener('abort', abort, { once: true });
    worker.on('message', onMessage);
    worker.on('error', fail);
    worker.on('exit', onExit);
    worker.postMessage(request);
  });
}
