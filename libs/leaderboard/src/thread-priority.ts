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
