import type { AuthUser } from '@podium/domain';
import type { NextFunction, Request, Response } from 'express';
import { SESSION_COOKIE, bearerToken, cookieValue } from '../auth/auth.guard';

/**
 * Fixed-window request counting per client, in process (one API process; several behind a
 * balancer each count their own). A client is a user (any of their tokens or sessions), else an address.
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

/** Who a request counts against, and the user it resolved to (handed on to the AuthGuard). */
export interface RequestIdentity {
  /** `user:<id>` for a valid API token or web session, else `ip:<address>`. */
  key: string;
  /** The signed-in user; null for anonymous; undefined when a token was sent but is not valid (the guard refuses it). */
  user: AuthUser | null | undefined;
}

/** Token and session look-ups the limiter needs (IdentityRepository in the app). */
export interface IdentityLookup {
  userByToken(token: string): Promise<AuthUser | null>;
  userBySession(session: string): Promise<AuthUser | null>;
}

function addressKey(req: Request): string {
  return `ip:${req.ip ?? req.socket.remoteAddress ?? 'unknown'}`;
}

/**
 * The identity a request counts against, parsed exactly as the AuthGuard parses it: the same
 * `bearerToken` (so `bearer X`, `BEARER X` and `Bearer   X ` are one client) resolved to its
 * user, so every token and session of one person share one window (a second token buys no
 * second window). A malformed, unknown or revoked token counts against the address: inventing
 * tokens buys no fresh windows either.
 */
export async function identifyRequest(req: Request, lookup: IdentityLookup): Promise<RequestIdentity> {
  const address = addressKey(req);
  let token: string | undefined;
  try {
    token = bearerToken(req.headers.authorization);
  } catch {
    return { key: address, user: undefined };
  }
  if (token !== undefined) {
    const user = await lookup.userByToken(token);
    return user ? { key: `user:${user.id}`, user } : { key: address, user: undefined };
  }
  const session = cookieValue(req.headers.cookie, SESSION_COOKIE);
  const user = session ? await lookup.userBySession(session) : null;
  return user ? { key: `user:${user.id}`, user } : { key: address, user: null };
}

/** An upload through REST (multipart); GraphQL uploads count against the general limit. */
function isUpload(req: Request): boolean {
  if (req.method !== 'POST') return false;
  if (/^\/api\/phases\/[^/]+\/submissions\/?$/.test(req.path)) return true;
  return false;
}

/**
 * 429 with `Retry-After` and a message saying the limit; GraphQL-shaped on /graphql. Runs before
 * any body is read; resolves the caller once and leaves it on the request for the AuthGuard.
 */
export function rateLimitMiddleware(all: RateLimiter, uploads: RateLimiter, lookup: IdentityLookup) {
  return (req: Request & { podiumUser?: AuthUser | null }, res: Response, next: NextFunction): void => {
    // The database unreachable: count the address and leave the look-up to the AuthGuard, whose
    // error goes through the error filter (503 SERVICE_UNAVAILABLE, as without the limiter).
    identifyRequest(req, lookup)
      .catch((): RequestIdentity => ({ key: addressKey(req), user: undefined }))
      .then(
        ({ key, user }) => {
          if (user !== undefined) req.podiumUser = user;
          let wait = all.hit(key);
          let which = `${all.limit} requests per ${all.windowMs / 1000} s`;
          if (!wait && isUpload(req)) {
            wait = uploads.hit(key);
            which = `${uploads.limit} uploads per ${uploads.windowMs / 1000} s`;
          }
          if (!wait) {
            next();
            return;
          }
          const message = `rate limit reached: at most ${which} per ${key.startsWith('user:') ? 'user' : 'address'}; retry in ${wait} s`;
          res.setHeader('Retry-After', String(wait));
          if (req.path === '/graphql') {
            res.status(429).json({ errors: [{ message, extensions: { code: 'RATE_LIMITED', retryAfterSeconds: wait } }] });
          } else {
            res.status(429).json({ error: message, code: 'RATE_LIMITED', retryAfterSeconds: wait });
          }
        },
        (err: unknown) => {
          next(err);
        },
      );
  };
}
