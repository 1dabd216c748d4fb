import { execFileSync } from 'node:child_process';
import { readFileSync, readlinkSync, writeFileSync } from 'node:fs';
import { getPriority, setPriority } from 'node:os';

/**
 * Nice value of the thread that computes a phase's boards (compute.thread.ts). A computation is
 * seconds to minutes of CPU; on cores shared with the api (the bench's 2-core machine, a small
 * deployment) it took the CPU that serving needed: leaderboard.json's p95 went from 94.6 ms
 * cached to 74.7–161 ms while another phase recomputed, GraphQL's from 366 ms to 720 ms
 * (issue #28). At nice 10 the kernel gives it about a tenth of the share of a nice-0 thread
 * while both want CPU, and all of an idle core otherwise, so a board is as quick as before on
 * an idle machine and yields to serving and scoring on a busy one. Under
 * PODIUM_LEADERBOARD_YIELD=idle (BoardYield) the thread then goes under SCHED_IDLE too.
 */
export const BOARD_THREAD_NICENESS = 10;

/**
 * Lowers the calling thread's priority to `niceness` (never raises it). Linux keeps the nice
 * value per thread (setpriority(2), "BUGS": `who = 0` is the calling thread under NPTL), so the
 * worker's event loop (scoring, lease renewals) keeps its own; elsewhere the whole worker
 * process is lowered. Returns the thread's nice value after, or null where it may not be read
 * or changed (the computation then runs as it is).
 */
export function lowerThreadPriority(niceness = BOARD_THREAD_NICENESS): number | null {
  try {
    if (getPriority(0) < niceness) setPriority(0, niceness);
    return getPriority(0);
  } catch {
    return null;
  }
}

/**
 * How a board thread yields once it has nothing to keep pace with (PODIUM_LEADERBOARD_YIELD):
 * - `idle`: nice 10, then SCHED_IDLE (sched(7)) through chrt(1). A thread of that policy runs only
 *   when no other thread of its scheduling group wants the core, and a waking one preempts it at
 *   once; at nice 10 it kept its slice (1.4 ms on the bench machine) against every wakeup of the
 *   api, PostgreSQL and the load generator, and serving's p95 while another phase recomputed was
 *   about twice as long (ADR 0046). It may starve while other work fills every core, and a thread
 *   may not leave SCHED_IDLE without privilege: the worker watches it (StarvationWatch) and
 *   computes again at nice 10.
 * - `nice`: nice 10 only (BOARD_THREAD_NICENESS).
 */
export type BoardYield = 'idle' | 'nice';

/** sched(7)'s SCHED_IDLE, as /proc/…/stat gives the policy. */
export const SCHED_IDLE_POLICY = 5;

/** The calling thread's Linux thread id, or null where it may not be read (no /proc). */
export function currentThreadId(): number | null {
  try {
    const m = /\/task\/(\d+)$/.exec(readlinkSync('/proc/thread-self'));
    return m ? Number(m[1]) : null;
  } catch {
    return null;
  }
}

/** This process's thread `tid`'s file `name` under /proc/self/task/TID, or null where it may not be read (the thread ended, no /proc). */
function taskFile(tid: number, name: 'stat' | 'schedstat'): string | null {
  try {
    return readFileSync(`/proc/self/task/${tid}/${name}`, 'utf8');
  } catch {
    return null;
  }
}

/**
 * The fields of thread `tid`'s stat after the command name (which is in parentheses and may hold
 * any character): [0] is field 3, the state. Null where it may not be read.
 */
function taskStatFields(tid: number): string[] | null {
  const stat = taskFile(tid, 'stat');
  return stat === null ? null : stat.slice(stat.lastIndexOf(')') + 2).split(' ');
}

/** This process's thread `tid`'s policy (field 41 of /proc/self/task/TID/stat), or null. */
export function threadPolicy(tid: number): number | null {
  const policy = Number(taskStatFields(tid)?.[38]);
  return Number.isInteger(policy) ? policy : null;
}

/** What yieldThread did: the thread's id (null: unknown), its nice value, and whether it runs under SCHED_IDLE. */
export interface Yielded {
  tid: number | null;
  nice: number | null;
  idle: boolean;
}

/**
 * Lowers the calling thread as `mode` says (BoardYield). Under `idle` it falls back to nice 10
 * alone where chrt is missing or refused (another system, no /proc); `idle` in the answer says
 * which it got.
 */
export function yieldThread(mode: BoardYield): Yielded {
  const nice = lowerThreadPriority();
  const tid = currentThreadId();
  if (mode !== 'idle' || tid === null) return { tid, nice, idle: false };
  if (threadPolicy(tid) !== SCHED_IDLE_POLICY) {
    try {
      execFileSync('chrt', ['--idle', '--pid', '0', String(tid)], { stdio: 'ignore', timeout: 5_000 });
    } catch {
      // no chrt (util-linux), or not permitted: nice 10 alone
    }
  }
  return { tid, nice, idle: threadPolicy(tid) === SCHED_IDLE_POLICY };
}

/**
 * CPU time a thread ran and waited to run (ns), cumulative, from /proc/self/task/TID/schedstat, and
 * whether it was runnable (state R in …/stat: running, or queued for a core) when read.
 */
export interface SchedTimes {
  runNs: number;
  waitNs: number;
  runnable: boolean;
}

/** Thread `tid`'s SchedTimes, or null where they may not be read (the thread ended, no schedstat). */
export function schedTimes(tid: number): SchedTimes | null {
  const [run, wait] = taskFile(tid, 'schedstat')?.trim().split(/\s+/).map(Number) ?? [];
  const state = taskStatFields(tid)?.[0];
  return run !== undefined && wait !== undefined && Number.isFinite(run) && Number.isFinite(wait) && state !== undefined ? { runNs: run, waitNs: wait, runnable: state === 'R' } : null;
}

/**
 * Whether a SCHED_IDLE thread starves: over the last `windowMs` it ran less than `maxRunShare` of
 * the time while it waited to run at least `minWaitShare` of it (a thread waiting on the database
 * neither runs nor waits, and is not starving). Fed a sample at a time (schedTimes, at `atMs`).
 *
 * The kernel adds a queued thread's wait to schedstat only when the thread next gets a core, so a
 * thread that is never picked shows no wait at all (CI, on another kernel: a SCHED_IDLE thread
 * behind busy loops ran 3 ms in 1.6 s and its schedstat wait stood still). Its wait is therefore
 * also judged from the samples: the share of them, within the window, that found it runnable.
 */
export class StarvationWatch {
  private readonly samples: { atMs: number; times: SchedTimes }[] = [];

  constructor(
    readonly windowMs = 10_000,
    readonly maxRunShare = 0.05,
    readonly minWaitShare = 0.5,
  ) {}

  /** Adds a sample; true once the samples span `windowMs` and the last `windowMs` of them starve. */
  add(atMs: number, times: SchedTimes): boolean {
    this.samples.push({ atMs, times });
    // Keeps the newest sample at least windowMs old (the window's start) and those after it.
    while (this.samples.length > 2 && (this.samples[1]?.atMs ?? atMs) <= atMs - this.windowMs) this.samples.shift();
    const first = this.samples[0];
    if (!first || atMs - first.atMs < this.windowMs) return false;
    const wallNs = (atMs - first.atMs) * 1e6;
    const ran = (times.runNs - first.times.runNs) / wallNs;
    const waited = (times.waitNs - first.times.waitNs) / wallNs;
    const within = this.samples.slice(1);
    const foundRunnable = within.filter((s) => s.times.runnable).length / within.length;
    return ran < this.maxRunShare && Math.max(waited, foundRunnable) >= this.minWaitShare;
  }
}

/** The calling thread's nice value, or null where it may not be read. */
export function threadPriority(): number | null {
  try {
    return getPriority(0);
  } catch {
    return null;
  }
}

/** A connection that can say which PostgreSQL backend serves it (a pg client). */
export interface BackendConnection {
  query(sql: string): Promise<{ rows: unknown[] }>;
}

/**
 * Whether `databaseUrl` names a server on this machine (loopback or a Unix socket): only then is
 * a backend's process id one of this machine's processes.
 */
export function isLocalDatabase(databaseUrl: string): boolean {
  let url: URL;
  try {
    url = new URL(databaseUrl);
  } catch {
    return false;
  }
  const socket = url.searchParams.get('host');
  if (socket?.startsWith('/')) return true;
  const host = url.hostname.replace(/^\[|\]$/g, '');
  return host === 'localhost' || host === '::1' || /^127\.\d+\.\d+\.\d+$/.test(host) || (host === '' && url.protocol.startsWith('postgres'));
}

/**
 * Lowers the priority of the PostgreSQL backend that serves `connection` to `niceness`, as the
 * board thread lowers its own (issue #28), when the server runs on this machine (the embedded
 * default, a small deployment): its nice value and, where the kernel groups processes by session
 * (autogroup), its group's, for PostgreSQL starts every backend in a session of its own, so that
 * a backend's reads for a board otherwise weighed as much as the whole api. Checks that the
 * process is a PostgreSQL one (`/proc/PID/comm`) before it changes anything. Returns the nice
 * value set, or null where nothing was changed (another machine, no /proc, not permitted).
 */
export async function lowerBackendPriority(connection: BackendConnection, databaseUrl: string, niceness = BOARD_THREAD_NICENESS): Promise<number | null> {
  if (!isLocalDatabase(databaseUrl)) return null;
  try {
    const row = (await connection.query('SELECT pg_backend_pid() AS pid')).rows[0] as { pid?: unknown } | undefined;
    const pid = Number(row?.pid);
    if (!Number.isInteger(pid) || pid <= 0) return null;
    if (!readFileSync(`/proc/${pid}/comm`, 'utf8').startsWith('postgres')) return null;
    if (getPriority(pid) < niceness) setPriority(pid, niceness);
    try {
      writeFileSync(`/proc/${pid}/autogroup`, String(niceness));
    } catch {
      // no autogroups (or not permitted): the nice value alone
    }
    return getPriority(pid);
  } catch {
    return null;
  }
}
