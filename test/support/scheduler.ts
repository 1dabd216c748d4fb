/**
 * The kernel's scheduler in tests of the board threads' priority (ADR 0046): whether chrt(1) is
 * there to put a thread under SCHED_IDLE, and busy loops that keep every core busy.
 */
import { execFileSync, spawn } from 'node:child_process';
import { availableParallelism } from 'node:os';

/** Whether chrt(1) (util-linux) is on the PATH: without it yieldThread('idle') falls back to nice 10. */
export function hasChrt(): boolean {
  try {
    execFileSync('sh', ['-c', 'command -v chrt'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/**
 * Starts `count` shell busy loops (by default one more than there are cores), at the caller's
 * priority and in its scheduling group; the result's `stop()` kills them.
 */
export function busyLoops(count = availableParallelism() + 1): { count: number; stop(): void } {
  const loops = Array.from({ length: count }, () => spawn('sh', ['-c', 'while :; do :; done'], { stdio: 'ignore' }));
  return { count: loops.length, stop: () => loops.forEach((l) => l.kill('SIGKILL')) };
}
