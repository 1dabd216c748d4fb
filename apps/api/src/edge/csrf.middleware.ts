import type { NextFunction, Request, Response } from 'express';
import { credentialOf } from './identify.middleware';
import { refuseAndClose } from './refuse';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** A header a page on another origin cannot send with credentials (CORS here never allows credentials). */
export const CSRF_HEADER = 'x-podium-request';

/** The origin this request was addressed to, as the browser saw it (trust proxy decides the scheme). */
function ownOrigin(req: Request): string {
  return `${req.protocol}://${req.headers.host ?? ''}`;
}

/**
 * Why a state-changing request must be refused as cross-site request forgery, or null when it may
 * go on. Only requests that a browser authenticates by itself (the session cookie) are checked:
 * a Bearer token is something a foreign page cannot attach. A cookie request goes on when the
 * browser says it comes from this origin (`Sec-Fetch-Site: same-origin`, or `none` for the user's
 * own navigation), else when its `Origin` is this origin, else when it carries the custom
 * `X-Podium-Request` header. SameSite=Strict does not separate two origins of one site
 * (127.0.0.1:3918 and :3917), so the origin is what is checked.
 */
export function csrfRefusal(req: Request): string | null {
  if (SAFE_METHODS.has(req.method)) return null;
  if (credentialOf(req) !== 'cookie') return null;
  const site = req.headers['sec-fetch-site'];
  if (site === 'same-origin' || site === 'none') return null;
  const origin = req.headers.origin;
  if (site === undefined && origin !== undefined && origin !== 'null' && origin === ownOrigin(req)) return null;
  if (site === undefined && origin === undefined && req.headers[CSRF_HEADER] !== undefined) return null;
  if (site !== undefined) return `a request from a ${site} page may not use the session cookie here; send it from this origin or with an API token`;
  return `a request with the session cookie must come from this origin (Origin ${origin ?? 'absent'}) or carry the ${CSRF_HEADER} header; or use an API token`;
}

/**
 * Refuses cross-site request forgery on every state-changing REST route (403 CSRF_REFUSED), before
 * any body is read. GraphQL has Apollo's own CSRF prevention (a JSON content type or a custom header).
 */
export function csrfMiddleware() {
  return (req: Request, res: Response, next: NextFunction): void => {
    if (req.path === '/graphql') { next(); return; }
    const refusal = csrfRefusal(req);
    if (!refusal) { next(); return; }
    refuseAndClose(req, res, 403, 'CSRF_REFUSED', refusal);
  };
}
