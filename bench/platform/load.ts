/**
 * The load generator of bench:platform: `clients` keep-alive HTTP clients (node:http) each
 * sending one request after another for a fixed time. Bodies are drained, not decoded; the
 * clients ask for compression as a browser does.
 */
import http from 'node:http';
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
