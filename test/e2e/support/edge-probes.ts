/**
 * Probes of the network edge as an attacker would send them (issue #21), shared by
 * test/e2e/security-edge.e2e.spec.ts and bench/security.bench.ts: raw HTTP over a socket (so a
 * body can be huge, chunked, slow, or cut off mid-way without the client buffering it) and the
 * api's memory from /proc.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';

export interface RawAnswer {
  /** HTTP status, or 0 when the connection closed without an answer. */
  status: number;
  headers: Record<string, string>;
  body: string;
  /** Milliseconds from the first byte sent to the connection's close. */
  ms: number;
  /** Milliseconds from the first byte sent to the first byte of the answer (null: none came). */
  answerMs: number | null;
  /** Date.now() when the request started. */
  startedAt: number;
  /** Body bytes the kernel accepted from us before the server stopped taking them. */
  sentBytes: number;
  /** The connection ended before the whole body was sent. */
  cutOff: boolean;
}

export interface RawRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  /** Body bytes to send (generated on the fly, never held); 0 for none. Ignored when `body` is given. */
  bodyBytes: number;
  /** A whole body to send as it is. */
  body?: Buffer;
  /** Declare the length (Content-Length) or send chunked (Transfer-Encoding: chunked). */
  declareLength: boolean;
  /** The body's first bytes (multipart head, JSON prefix); the rest is filler. */
  prefix?: string;
  /** Pause this long between 64 KiB chunks (or `slowChunkBytes` chunks): a slow client. */
  delayMs?: number;
  slowChunkBytes?: number;
  /** Send only part of the headers and stall (slow-loris on the headers). */
  stallInHeaders?: boolean;
  /** Give up after this many ms (a probe must never hang). */
  timeoutMs?: number;
}

const CHUNK = 64 * 1024;

function parseAnswer(raw: Buffer): Pick<RawAnswer, 'status' | 'headers' | 'body'> {
  const text = raw.toString('latin1');
  const end = text.indexOf('\r\n\r\n');
  if (!text.startsWith('HTTP/1.1 ') || end < 0) return { status: 0, headers: {}, body: '' };
  const lines = text.slice(0, end).split('\r\n');
  const status = Number(lines[0]?.split(' ')[1] ?? 0);
  const headers: Record<string, string> = {};
  for (const line of lines.slice(1)) {
    const i = line.indexOf(':');
    if (i > 0) headers[line.slice(0, i).trim().toLowerCase()] = line.slice(i + 1).trim();
  }
  let body = Buffer.from(text.slice(end + 4), 'latin1');
  if (headers['transfer-encoding'] === 'chunked') {
    const parts: Buffer[] = [];
    let at = 0;
    for (;;) {
      const nl = body.indexOf('\r\n', at);
      if (nl < 0) break;
      const size = parseInt(body.subarray(at, nl).toString(), 16);
      if (!size) break;
      parts.push(body.subarray(nl + 2, nl + 2 + size));
      at = nl + 2 + size + 2;
    }
    body = Buffer.concat(parts);
  }
  return { status, headers, body: body.toString('utf8') };
}

/** Sends one request over its own connection and reads the answer until the server closes it. */
export function rawRequest(baseUrl: string, request: RawRequest): Promise<RawAnswer> {
  const r = request.body ? { ...request, bodyBytes: request.body.length, prefix: undefined } : request;
  const url = new URL(baseUrl);
  return new Promise((resolve) => {
    const started = Date.now();
    const socket = connect(Number(url.port), url.hostname);
    const received: Buffer[] = [];
    let sentBytes = 0;
    let bodyDone = r.bodyBytes === 0;
    let closed = false;
    const timer = setTimeout(() => socket.destroy(), r.timeoutMs ?? 60_000);
    let answerMs: number | null = null;
    socket.on('data', (c: Buffer) => {
      answerMs ??= Date.now() - started;
      received.push(c);
    });
    socket.on('error', () => undefined);
    socket.on('close', () => {
      closed = true;
      clearTimeout(timer);
      resolve({ ...parseAnswer(Buffer.concat(received)), ms: Date.now() - started, answerMs, startedAt: started, sentBytes, cutOff: !bodyDone });
    });
    const headers: Record<string, string> = { host: url.host, connection: 'close', ...r.headers };
    if (r.bodyBytes > 0) {
      if (r.declareLength) headers['content-length'] = String(r.bodyBytes);
      else headers['transfer-encoding'] = 'chunked';
    }
    const head = `${r.method} ${r.path} HTTP/1.1\r\n${Object.entries(headers).map(([k, v]) => `${k}: ${v}\r\n`).join('')}\r\n`;
    const write = (data: Buffer | string): Promise<boolean> =>
      new Promise((ok) => {
        if (closed || socket.destroyed) { ok(false); return; }
        // Back to the event loop after every write, as a client that reads its answer while it
        // sends does (a loop of resolved promises would starve the socket's reads).
        if (socket.write(data)) { setImmediate(() => ok(!closed)); return; }
        const done = () => { socket.off('drain', done); socket.off('close', done); ok(!closed); };
        socket.once('drain', done);
        socket.once('close', done);
      });
    const sleep = (ms: number) => new Promise((s) => setTimeout(s, ms));
    socket.once('connect', () => {
      void (async () => {
        if (r.stallInHeaders) {
          await write(head.slice(0, Math.floor(head.length / 2)));
          for (let i = 0; !closed && i < 600; i++) {
            await sleep(1000);
            if (!(await write('X'))) return; // one byte a second: never finishing the header line
          }
          return;
        }
        if (!(await write(head))) return;
        if (request.body) {
          const framed = r.declareLength ? request.body : Buffer.concat([Buffer.from(`${request.body.length.toString(16)}\r\n`), request.body, Buffer.from('\r\n0\r\n\r\n')]);
          if (await write(framed)) { sentBytes = request.body.length; bodyDone = true; }
          return;
        }
        const prefix = Buffer.from(r.prefix ?? '');
        const step = r.slowChunkBytes ?? CHUNK;
        const filler = Buffer.alloc(Math.max(step, CHUNK), 0x61);
        let left = r.bodyBytes;
        let first = true;
        while (left > 0 && !closed) {
          let piece = first && prefix.length ? prefix.subarray(0, Math.min(prefix.length, left)) : filler.subarray(0, Math.min(step, left));
          if (first && prefix.length && piece.length < prefix.length) piece = prefix.subarray(0, left);
          first = false;
          const framed = r.declareLength ? piece : Buffer.concat([Buffer.from(`${piece.length.toString(16)}\r\n`), piece, Buffer.from('\r\n')]);
          if (!(await write(framed))) return;
          sentBytes += piece.length;
          left -= piece.length;
          if (r.delayMs) await sleep(r.delayMs);
        }
        if (!r.declareLength && r.bodyBytes > 0) await write('0\r\n\r\n');
        bodyDone = true;
      })();
    });
  });
}

/** A multipart body head that passes the form checks (team and system fields first), then `file`. */
export function multipartPrefix(boundary: string, teamId: string, systemName: string): string {
  return (
    `--${boundary}\r\nContent-Disposition: form-data; name="teamId"\r\n\r\n${teamId}\r\n` +
    `--${boundary}\r\nContent-Disposition: form-data; name="systemName"\r\n\r\n${systemName}\r\n` +
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="o.txt"\r\nContent-Type: text/plain\r\n\r\n`
  );
}

/** Resident and peak memory of a process (Linux), in MiB. */
export function memoryOf(pid: number): { rssMiB: number; peakMiB: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kib = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
  return { rssMiB: kib('VmRSS') / 1024, peakMiB: kib('VmHWM') / 1024 };
}

/** Resets the peak (VmHWM) to the current RSS, so the next reading is the peak of what follows. */
export function resetPeak(pid: number): void {
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, '5');
  } catch {
    /* not Linux, or not allowed: the peak then counts from the start */
  }
}

export interface ProbeRow {
  probe: string;
  answer: string;
  /** Slowest answer's first byte, and the last connection's close, from the probe's start. */
  answerMs: number;
  ms: number;
  /** Most body bytes one connection got to send. */
  sentMiB: number;
  idleMiB: number;
  peakMiB: number;
  finding: string | null;
}

/** One line per probe: what the api answered, how fast, and its peak memory over idle. */
export function formatProbeTable(rows: readonly ProbeRow[]): string {
  const w = Math.max(...rows.map((r) => r.probe.length), 5);
  const a = Math.max(...rows.map((r) => r.answer.length), 6);
  const line = (p: string, ans: string, answerMs: string, ms: string, sent: string, idle: string, peak: string, f: string) =>
    `${p.padEnd(w)}  ${ans.padEnd(a)}  ${answerMs.padStart(9)}  ${ms.padStart(8)}  ${sent.padStart(8)}  ${idle.padStart(8)}  ${peak.padStart(8)}  ${f}`;
  return [
    line('probe', 'answer', 'answer ms', 'close ms', 'sent MiB', 'idle MiB', 'peak MiB', 'finding'),
    ...rows.map((r) =>
      line(r.probe, r.answer, String(Math.round(r.answerMs)), String(Math.round(r.ms)), r.sentMiB.toFixed(1), r.idleMiB.toFixed(0), r.peakMiB.toFixed(0), r.finding ?? '-'),
    ),
  ].join('\n');
}
