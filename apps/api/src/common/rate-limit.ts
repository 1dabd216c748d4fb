import { createHash } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';

/**
 * Fixed-window request counting per client, in process (one API process; several behind a
 * balancer each count their own). A client is its Bearer token when it sends one, else its IP.
 */
export class RateLimiter {
  private windows = new Map<string, { start: number; count: number }>();

  constructor(
    readonly limit: number,
    readonly windowMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Counts one request; returns seconds to wait when over the limit, else 0. */
  hit(key: string): number {
    if (this.limit <= 0) return 0;
    const t = this.now();
    let w = this.windows.get(key);
    if (!w || t - w.start >= this.windowMs) {
      if (this.windows.size > 50_000) this.prune(t);
      w = { start: t, count: 0 };
      this.windows.set(key, w);
    }
    w.count++;
    return w.count > this.limit ? Math.max(1, Math.ceil((w.start + this.windowMs - t) / 1000)) : 0;
  }

  private prune(t: number): void {
    for (const [k, w] of this.windows) if (t - w.start >= this.windowMs) this.windows.delete(k);
  }
}

/** The client a request counts against: a hash of its token, or its address. */
export function clientKey(req: Request): string {
  const auth = req.headers.authorization;
  if (typeof auth === 'string' && /^Bearer\s+\S/i.test(auth)) return `token:${createHash('sha256').update(auth.trim()).digest('hex').slice(0, 24)}`;
  return `ip:${req.ip ?? req.socket.remoteAddress ?? 'unknown'}`;
}

/** An upload through REST (multipart); GraphQL uploads count against the general limit. */
function isUpload(req: Request): boolean {
  if (req.method !== 'POST') return false;
  if (/^\/api\/phases\/[^/]+\/submissions\/?$/.test(req.path)) return true;
  return false;
}

/** 429 with `Retry-After` and a message saying the limit; GraphQL-shaped on /graphql. */
export function rateLimitMiddleware(all: RateLimiter, uploads: RateLimiter) {
  return (req: Request, res: Response, next: NextFunction): void => {
    const key = clientKey(req);
    let wait = all.hit(key);
    let which = `${all.limit} requests per ${all.windowMs / 1000} s`;
    if (!wait && isUpload(req)) {
      wait = uploads.hit(key);
      which = `${uploads.limit} uploads per ${uploads.windowMs / 1000} s`;
    }
    if (!wait) { next(); return; }
    const message = `rate limit reached: at most ${which} per ${key.startsWith('token:') ? 'API token' : 'address'}; retry in ${wait} s`;
    res.setHeader('Retry-After', String(wait));
    if (req.path === '/graphql') {
      res.status(429).json({ errors: [{ message, extensions: { code: 'RATE_LIMITED', retryAfterSeconds: wait } }] });
    } else {
      res.status(429).json({ error: message, code: 'RATE_LIMITED', retryAfterSeconds: wait });
    }
  };
}
