import type { NextFunction, Response } from 'express';
import getRawBody from 'raw-body';
import { continueIfExpected, refuseAndClose } from './refuse';
import type { IdentifiedRequest } from './identify.middleware';
import type { UploadSlots } from './upload-slots';

export interface BodyLimits {
  /** Largest body of a signed-in caller (uploads, test sets as GraphQL variables). */
  maxUploadBytes: number;
  /** Largest JSON body without a valid identity. */
  anonymousBodyBytes: number;
  uploadsPerIdentity: number;
  uploadsPerAddress: number;
}

const UPLOAD_ROUTE = /^\/api\/phases\/[^/]+\/submissions\/?$/;

/** A REST upload (multipart submission); GraphQL bodies go through {@link jsonBodyMiddleware}. */
export function isUploadRoute(req: { method: string; path: string }): boolean {
  return req.method === 'POST' && UPLOAD_ROUTE.test(req.path);
}

function declaredLength(req: IdentifiedRequest): number | null {
  const header = req.headers['content-length'];
  if (header === undefined || !/^\d+$/.test(header)) return null;
  return Number(header);
}

function mib(bytes: number): string {
  return `${Math.round((bytes / (1024 * 1024)) * 10) / 10} MiB`;
}

/**
 * Takes an upload slot for the caller's identity and address, given back when the connection
 * ends; refuses (429, closed) when either has its limit of uploads in flight.
 */
function takeSlot(req: IdentifiedRequest, res: Response, slots: UploadSlots, limits: BodyLimits): boolean {
  const address = req.ip ?? req.socket.remoteAddress ?? 'unknown';
  const keys = [{ key: `address:${address}`, limit: limits.uploadsPerAddress }];
  if (req.podiumUser) keys.push({ key: `user:${req.podiumUser.id}`, limit: limits.uploadsPerIdentity });
  const release = slots.acquire(keys);
  if (!release) {
    refuseAndClose(req, res, 429, 'TOO_MANY_UPLOADS', `too many uploads at once: at most ${limits.uploadsPerIdentity} per identity and ${limits.uploadsPerAddress} per address; retry when one has finished`, {
      retryAfterSeconds: 5,
    });
    res.setHeader('Retry-After', '5');
    return false;
  }
  res.once('close', release);
  return true;
}

/**
 * The gate in front of REST uploads, on the headers alone: anonymous callers get 401, a declared
 * length over the limit 413, a caller with too many uploads in flight 429; each closes the
 * connection without reading the body. The controller checks the phase and team, then streams.
 */
export function uploadGate(limits: BodyLimits, slots: UploadSlots) {
  return (req: IdentifiedRequest, res: Response, next: NextFunction): void => {
    if (!isUploadRoute(req)) { next(); return; }
    // A failed look-up (database away) is not anonymity: the AuthGuard repeats it and answers 503,
    // still before the body is read.
    if (!req.podiumUser && !req.podiumIdentityFailed) {
      const message = req.podiumCredential === 'bearer' ? 'the API token is unknown or revoked' : 'sign in (an API token or a web session) to upload';
      refuseAndClose(req, res, 401, 'UNAUTHENTICATED', message);
      return;
    }
    const length = declaredLength(req);
    if (length !== null && length > limits.maxUploadBytes) {
      refuseAndClose(req, res, 413, 'PAYLOAD_TOO_LARGE', `the upload has ${mib(length)}; at most ${mib(limits.maxUploadBytes)} are accepted`);
      return;
    }
    if (!takeSlot(req, res, slots, limits)) return;
    next();
  };
}

function isJson(req: IdentifiedRequest): boolean {
  const type = req.headers['content-type'];
  return typeof type === 'string' && /^application\/([\w.+-]+\+)?json\s*(;|$)/i.test(type);
}

/**
 * Reads JSON bodies (GraphQL) up to a limit chosen by who is asking: anonymous callers get
 * `anonymousBodyBytes`, signed-in ones `maxUploadBytes` (test sets and submissions travel as
 * variables), taking an upload slot when the body may be larger than the anonymous limit. A body
 * past its limit is cut off there (413, connection closed), never read to its end.
 */
export function jsonBodyMiddleware(limits: BodyLimits, slots: UploadSlots) {
  return (req: IdentifiedRequest, res: Response, next: NextFunction): void => {
    if (req.method === 'GET' || req.method === 'HEAD' || req.method === 'OPTIONS' || !isJson(req)) { next(); return; }
    const signedIn = !!req.podiumUser;
    const limit = signedIn ? limits.maxUploadBytes : Math.min(limits.anonymousBodyBytes, limits.maxUploadBytes);
    const tooLarge = (size: string) =>
      refuseAndClose(req, res, 413, 'PAYLOAD_TOO_LARGE', `the body has ${size}; at most ${limit} bytes are accepted${signedIn ? '' : ' without signing in'}`);
    const length = declaredLength(req);
    if (length !== null && length > limit) { tooLarge(`${length} bytes`); return; }
    if (signedIn && (length === null || length > limits.anonymousBodyBytes) && !takeSlot(req, res, slots, limits)) return;
    continueIfExpected(req, res);
    getRawBody(req, { limit, ...(length !== null ? { length } : {}), encoding: 'utf-8' }).then(
      (text) => {
        try {
          req.body = text === '' ? {} : (JSON.parse(text) as unknown);
        } catch (e) {
          res.status(400).json({ error: `the body is not valid JSON: ${e instanceof Error ? e.message : String(e)}`, code: 'INVALID_INPUT' });
          return;
        }
        next();
      },
      (e: unknown) => {
        const type = (e as { type?: unknown }).type;
        if (type === 'entity.too.large') tooLarge(`more than ${limit} bytes`);
        else if (type === 'request.aborted') res.destroy();
        else refuseAndClose(req, res, 400, 'INVALID_INPUT', e instanceof Error ? e.message : String(e));
      },
    );
  };
}
