// Entry of the worker thread that computes a phase's leaderboards (see thread-runner.ts). When
// nothing of the phase is being scored the computation yields to serving from the start
// (ThreadInput.yieldFromStart): the thread lowers its priority before it loads its modules, which
// took 0.4–1 s of CPU a thread at nice 0, two threads at once, as the api served (issue #28: a
// stall of 0.3–0.6 s at the start of each recomputation of another phase). Then compute-thread-main.
import { workerData } from 'node:worker_threads';
import { lowerThreadPriority, threadPriority } from './thread-priority';

const niceAtLoad = (workerData as { yieldFromStart?: boolean } | null)?.yieldFromStart === true ? lowerThreadPriority() : threadPriority();
void import('./compute-thread-main').then((m) => m.main(niceAtLoad));
