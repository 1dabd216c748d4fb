/**
 * The load generators of bench:platform: closed loop ({@link runLoad}: `clients` keep-alive HTTP
 * clients each sending one request after another for a fixed time, i.e. the saturation rate and
 * its latencies, ≈ clients ÷ rate by Little's law) and open loop ({@link runOpenLoad}: a fixed
 * arrival rate, latency from each request's scheduled time). Bodies are drained, not decoded; the
 * clients ask for compression as a browser does.
 */
import http from 'node:http';
import { dueCount, scheduledAtMs, scheduledCount, summariseOpenLoop, type OpenLoopSample, type OpenLoopSummary } from './open-loop';
import { summariseLatencies, type LatencySummary } from './stats';

export interface LoadRequest {
  method: 'GET' | 'POST';
  url: string;
  headers?: Record<string, string>;
  body?: string;
}

export interface LoadResult extends LatencySummary {
  seconds: number;
  statuses: Record<string, number>;
  /** Answers other than 200/304 and network errors. */
  errors: number;
  meanBytes: number;
}

export interface HttpAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  bytes: number;
  ms: number;
}

/**
 * Node flags of a process that runs a measured load generator (issue #28). `--single-threaded-gc`:
 * the generator's collections run on its own thread instead of V8's helper threads. Its socket
 * reads are external buffers (some 150 MB a second at 500 answers of 300 KiB), which bring on
 * collections several times a second; by default their marking and sweeping woke four helper
 * threads at once on the same two cores as the api under test. In bench:serving's recomputing
 * rounds (2026-11-28, same machine, same build, three rounds each) the generator took 0.62–0.77
 * cores and the api's p95 was 48.8–74.1 ms; with the flag 0.41–0.46 cores and 17.7–36.8 ms. A
 * client elsewhere, as real ones are, takes none of the server's cores.
 */
export const LOAD_GENERATOR_FLAGS: readonly string[] = ['--single-threaded-gc'];

/** Throws unless `execArgv` (this process's by default) has every {@link LOAD_GENERATOR_FLAGS}: a generator without them measures its own collector as the api's latency. */
export function assertLoadGeneratorFlags(execArgv: readonly string[] = process.execArgv): void {
  const missing = LOAD_GENERATOR_FLAGS.filter((f) => !execArgv.includes(f));
  if (missing.length > 0) throw new Error(`the load generator's process must run with ${missing.join(' ')} (node ${LOAD_GENERATOR_FLAGS.join(' ')} -r @swc-node/register …; the npm scripts pass it): see LOAD_GENERATOR_FLAGS in bench/platform/load.ts`);
}

/** An answer that did not end within the time given to {@link send}. */
export class AnswerTimeoutError extends Error {}

/** One request on `agent`, body drained and counted; `timeoutMs` (default none) bounds the whole answer. */
export function send(agent: http.Agent, req: LoadRequest, onChunk?: (chunk: Buffer) => void, timeoutMs?: number): Promise<HttpAnswer> {
  return new Promise((resolve, reject) => {
    const t0 = process.hrtime.bigint();
    const body = req.body === undefined ? undefined : Buffer.from(req.body);
    const r = http.request(
      req.url,
      {
        method: req.method,
        agent,
        headers: { 'accept-encoding': 'gzip, deflate, br', ...(body ? { 'content-length': String(body.length) } : {}), ...req.headers },
      },
      (res) => {
        let bytes = 0;
        res.on('data', (c: Buffer) => {
          bytes += c.length;
          onChunk?.(c);
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, bytes, ms: Number(process.hrtime.bigint() - t0) / 1e6 }));
        res.on('error', reject);
      },
    );
    r.on('error', reject);
    if (timeoutMs !== undefined) {
      const timer = setTimeout(() => {
        reject(new AnswerTimeoutError(`no complete answer within ${timeoutMs / 1000} s`));
        r.destroy();
      }, timeoutMs);
      r.on('close', () => clearTimeout(timer));
    }
    r.end(body);
  });
}

/** Runs `clients` loops of `request` for `seconds`; latency of each answer from send to last byte. */
export async function runLoad(request: LoadRequest, clients: number, seconds: number): Promise<LoadResult> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: clients });
  const latencies: number[] = [];
  const statuses: Record<string, number> = {};
  let errors = 0;
  let bytes = 0;
  const t0 = Date.now();
  const end = t0 + seconds * 1000;
  const client = async () => {
    while (Date.now() < end) {
      try {
        const a = await send(agent, request);
        latencies.push(a.ms);
        bytes += a.bytes;
        statuses[a.status] = (statuses[a.status] ?? 0) + 1;
        if (a.status !== 200 && a.status !== 304) errors++;
      } catch {
        errors++;
        statuses['error'] = (statuses['error'] ?? 0) + 1;
        await new Promise((r) => setTimeout(r, 50));
      }
    }
  };
  await Promise.all(Array.from({ length: clients }, client));
  const elapsed = (Date.now() - t0) / 1000;
  agent.destroy();
  return { ...summariseLatencies(latencies, elapsed), seconds: elapsed, statuses, errors, meanBytes: latencies.length ? bytes / latencies.length : 0 };
}

export interface OpenLoadResult extends OpenLoopSummary {
  seconds: number;
  statuses: Record<string, number>;
  /** Most requests in flight at once (each on its own socket). */
  peakSockets: number;
  /** Requests that were due while all `maxSockets` were busy and waited for one (the rest of the late sends: the sender itself was late). */
  waitedForSocket: number;
  maxSockets: number;
  meanBytes: number;
  /** When the schedule began (wall clock, ISO): to set the longest gap against other logs. */
  startedAt: string;
}

/** A request later than this after its scheduled time counts as not sent on time. */
export const LATE_SEND_MS = 10;

/**
 * Open loop (see open-loop.ts): `rate` requests per second for `seconds`, each from its
 * scheduled time, on up to `maxSockets` keep-alive sockets (a request due while all are busy
 * waits for one, its wait counted in its latency). After the schedule, answers still missing get
 * `drainMs`; then they count as unanswered.
 */
export async function runOpenLoad(request: LoadRequest, rate: number, seconds: number, maxSockets: number, drainMs = 5000): Promise<OpenLoadResult> {
  const agent = new http.Agent({ keepAlive: true, maxSockets });
  const total = scheduledCount(rate, seconds);
  const samples: OpenLoopSample[] = Array.from({ length: total }, (_, i) => ({ scheduledMs: scheduledAtMs(i, rate), ok: false }));
  const statuses: Record<string, number> = {};
  const waiting: number[] = [];
  let inFlight = 0;
  let peakSockets = 0;
  let waitedForSocket = 0;
  let bytes = 0;
  let done = 0;
  let closed = false;
  let next = 0;
  let wake: (() => void) | null = null;
  const startedAt = new Date().toISOString();
  const t0 = performance.now();
  const now = () => performance.now() - t0;
  const fire = (i: number) => {
    const s = samples[i];
    if (!s) return;
    inFlight++;
    peakSockets = Math.max(peakSockets, inFlight);
    s.sentMs = now();
    send(agent, request).then(
      (a) => {
        if (closed) return;
        s.answeredMs = now();
        s.ok = a.status === 200 || a.status === 304;
        statuses[a.status] = (statuses[a.status] ?? 0) + 1;
        bytes += a.bytes;
      },
      () => {
        if (!closed) statuses['error'] = (statuses['error'] ?? 0) + 1;
      },
    ).finally(() => {
      inFlight--;
      done++;
      const w = waiting.shift();
      if (w !== undefined && !closed) fire(w);
      wake?.();
    });
  };
  // The sender: wakes at the next request's time (timers are ms-grained; a late wake sends all that are due).
  while (next < total) {
    const due = dueCount(now(), rate, total);
    for (; next < due; next++) {
      if (inFlight < maxSockets) fire(next);
      else {
        waiting.push(next);
        waitedForSocket++;
      }
    }
    if (next < total) await new Promise((r) => setTimeout(r, Math.max(0, scheduledAtMs(next, rate) - now())));
  }
  const scheduleEnd = now();
  const deadline = scheduleEnd + drainMs;
  while (done < total && now() < deadline) {
    let timer: NodeJS.Timeout | undefined;
    await new Promise<void>((r) => {
      wake = r;
      timer = setTimeout(r, Math.max(1, deadline - now()));
    });
    clearTimeout(timer);
    wake = null;
  }
  closed = true;
  agent.destroy();
  const summary = summariseOpenLoop(samples, rate, LATE_SEND_MS);
  const answered = summary.requests;
  return { ...summary, seconds: scheduleEnd / 1000, statuses, peakSockets, waitedForSocket, maxSockets, meanBytes: answered ? bytes / answered : 0, startedAt };
}
