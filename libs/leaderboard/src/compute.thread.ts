// Entry of the worker thread that computes a phase's leaderboards (see thread-runner.ts). When
// nothing of the phase is being scored the computation yields to serving from the start
// (ThreadInput.yieldFromStart): the thread lowers its priority before it loads its modules, which
// took 0.4–1 s of CPU a thread at nice 0, two threads at once, as the api served (issue #28: a
// stall of 0.3–0.6 s at the start of each recomputation of another phase), and says so at once:
// under SCHED_IDLE it may starve while it loads (ThreadOptions.onYield). Then compute-thread-main.
import { parentPort, workerData } from 'node:worker_threads';
import { threadPriority, yieldThread } from './thread-priority';
import type { ThreadInput, ThreadMessage } from './thread-runner';

const input = workerData as Pick<ThreadInput, 'yieldFromStart' | 'yieldTo'> | null;
const yieldedAtLoad = input?.yieldFromStart === true ? yieldThread(input.yieldTo ?? 'nice') : null;
if (yieldedAtLoad) parentPort?.postMessage({ kind: 'yielded', ...yieldedAtLoad } satisfies ThreadMessage);
const niceAtLoad = yieldedAtLoad ? yieldedAtLoad.nice : threadPriority();
void import('./compute-thread-main').then((m) => m.main(niceAtLoad, yieldedAtLoad !== null));
