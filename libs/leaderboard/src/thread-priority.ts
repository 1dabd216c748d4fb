import { readFileSync, writeFileSync } from 'node:fs';
import { getPriority, setPriority } from 'node:os';

/**
 * Nice value of the thread that computes a phase's boards (compute.thread.ts). A computation is
 * seconds to minutes of CPU; on cores shared with the api (the bench's 2-core machine, a small
 * deployment) it took the CPU that serving needed: leaderboard.json's p95 went from 94.6 ms
 * cached to 74.7–161 ms while another phase recomputed, GraphQL's from 366 ms to 720 ms
 * (issue #28). At nice 10 the kernel gives it about a tenth of the share of a nice-0 thread
 * while both want CPU, and all of an idle core otherwise, so a board is as quick as before on
 * an idle machine and yields to serving and scoring on a busy one.
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
