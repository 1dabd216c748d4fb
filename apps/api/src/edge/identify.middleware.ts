import type { IdentityRepository } from '@podium/db';
import type { AuthUser } from '@podium/domain';
import type { NextFunction, Request, Response } from 'express';
import { SESSION_COOKIE, bearerToken, cookieValue } from '../auth/auth.guard';
import { isDatabaseUnavailable } from '../common/domain-error.filter';

const API_PATHS = /^\/(api|graphql)(\/|$)/;

/** How a request proves who it is: an API token, the web session cookie, or nothing. */
export type Credential = 'bearer' | 'cookie' | 'none';

export interface IdentifiedRequest extends Request {
  /** The caller (null: anonymous); left undefined when the token is malformed or unknown, for the guard to refuse. */
  podiumUser?: AuthUser | null;
  podiumCredential?: Credential;
  /** The look-up failed (a malformed header: the AuthGuard repeats it and refuses). */
  podiumIdentityFailed?: boolean;
  /**
   * The look-up failed because the database is unreachable: the AuthGuard rethrows this (503)
   * rather than wait a second time for a database that just timed out (ADR 0019).
   */
  podiumIdentityError?: Error;
}

/** The credential a request carries, from its headers alone. */
export function credentialOf(req: Request): Credential {
  if (req.headers.authorization !== undefined) return 'bearer';
  return cookieValue(req.headers.cookie, SESSION_COOKIE) ? 'cookie' : 'none';
}

/**
 * Resolves the caller from the headers before anything reads a body, so that body limits and
 * upload gates can depend on who is asking. The AuthGuard reuses the answer (`req.podiumUser`);
 * a bad token, or a database error, leaves it unresolved for the guard to report as it does.
 */
export function identifyMiddleware(identity: IdentityRepository) {
  return (req: IdentifiedRequest, _res: Response, next: NextFunction): void => {
    const credential = credentialOf(req);
    req.podiumCredential = credential;
    // The web app's files need no identity (a page load would cost a session lookup per asset).
    if (!API_PATHS.test(req.path)) { next(); return; }
    // The rate limiter resolved it already (same parsing, same look-ups): no second query.
    if (req.podiumUser !== undefined) { next(); return; }
    const resolve = async (): Promise<AuthUser | null | undefined> => {
      if (credential === 'none') return null;
      if (credential === 'cookie') {
        const session = cookieValue(req.headers.cookie, SESSION_COOKIE);
        return session ? identity.userBySession(session) : null;
      }
      const token = bearerToken(req.headers.authorization);
      return token === undefined ? null : ((await identity.userByToken(token)) ?? undefined);
    };
    resolve().then(
      (user) => {
        if (user !== undefined) req.podiumUser = user;
        next();
      },
      (e: unknown) => {
        req.podiumIdentityFailed = true;
        if (e instanceof Error && isDatabaseUnavailable(e)) req.podiumIdentityError = e;
        next();
      },
    );
  };
}
