import { closeSync, existsSync, openSync, statSync, writeSync } from 'node:fs';

/** Options of {@link downloadResumable}. */
export interface DownloadOptions {
  headers?: Record<string, string>;
  /** Abort when no byte arrives for this long (also while waiting for the response). Default 30 s. */
  idleTimeoutMs?: number;
  log?: (message: string) => void;
  /**
   * `follow` (default) lets fetch follow redirects; `manual` follows up to 5 by hand, calling
   * `onResponse` on each hop (a hub may name its commit only on the redirect) and dropping the
   * `authorization` header when the host changes, so a token never travels to a CDN.
   */
  redirect?: 'follow' | 'manual';
  /** Sees every response's headers, redirects included (with `redirect: 'manual'`). */
  onResponse?: (res: Response) => void;
}

/** The reason inside undici's "fetch failed", e.g. `fetch failed (ENOTFOUND)`. */
export function describeFetchError(err: unknown): string {
  const e = err as Error & { cause?: { code?: string; message?: string } };
  const cause = e.cause?.code ?? e.cause?.message;
  return cause ? `${e.message} (${cause})` : e.message;
}

/** An HTTP status that retrying will not change (404, 403, …). */
export class HttpStatusError extends Error {
  constructor(readonly status: number, message: string) {
    super(message);
    this.name = 'HttpStatusError';
  }
}

/**
 * GETs `url` into `part`, appending to what an earlier, interrupted attempt left there (HTTP
 * Range `bytes=<size>-`). A server that ignores the range (200) restarts the file; 416 on a
 * non-empty part means it is already whole. Every chunk is written synchronously before the
 * next read, so an interruption leaves a part file the next call resumes from. The caller
 * verifies and renames the part file.
 */
export async function downloadResumable(url: string, part: string, options: DownloadOptions = {}): Promise<void> {
  const log = options.log ?? (() => undefined);
  const idleMs = options.idleTimeoutMs ?? 30_000;
  const have = existsSync(part) ? statSync(part).size : 0;
  const controller = new AbortController();
  let timer = setTimeout(() => controller.abort(new Error(`no data for ${idleMs} ms`)), idleMs);
  const touch = () => {
    clearTimeout(timer);
    timer = setTimeout(() => controller.abort(new Error(`no data for ${idleMs} ms`)), idleMs);
  };
  try {
    const base: Record<string, string> = { 'user-agent': 'podium-data-fetch/1', ...options.headers };
    if (have > 0) base['range'] = `bytes=${have}-`;
    let target = new URL(url);
    let res: Response;
    for (let hop = 0; ; hop++) {
      // Credentials go to the first host only, not to where it redirects.
      const headers = target.host === new URL(url).host ? { ...base } : Object.fromEntries(Object.entries(base).filter(([k]) => k.toLowerCase() !== 'authorization'));
      res = await fetch(target, { headers, signal: controller.signal, redirect: options.redirect ?? 'follow' });
      touch();
      options.onResponse?.(res);
      const location = res.headers.get('location');
      if (options.redirect !== 'manual' || res.status < 300 || res.status >= 400 || !location) break;
      await res.body?.cancel();
      if (hop >= 5) throw new Error('too many redirects');
      target = new URL(location, target);
    }
    if (res.status === 416 && have > 0) {
      await res.body?.cancel();
      return;
    }
    if (res.status !== 200 && res.status !== 206) {
      await res.body?.cancel();
      throw new HttpStatusError(res.status, `HTTP ${res.status}${res.statusText ? ` ${res.statusText}` : ''}`);
    }
    let append = false;
    if (res.status === 206) {
      const start = /^bytes (\d+)-/.exec(res.headers.get('content-range') ?? '');
      if (!start || Number(start[1]) !== have) {
        await res.body?.cancel();
        throw new Error(`the server answered the range request from byte ${have} with '${res.headers.get('content-range')}'`);
      }
      append = have > 0;
      if (append) log(`resuming ${url} at byte ${have}`);
    }
    if (!res.body) throw new Error('empty body');
    const fd = openSync(part, append ? 'a' : 'w');
    try {
      const reader = (res.body as ReadableStream<Uint8Array>).getReader(); // @types/node types the body as ReadableStream<any>
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        touch();
        writeSync(fd, value);
      }
    } finally {
      closeSync(fd);
    }
  } finally {
    clearTimeout(timer);
  }
}
