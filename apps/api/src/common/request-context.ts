import { Logger } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import { randomUUID } from 'node:crypto';

const SAFE_ID = /^[\w.:-]{1,64}$/;
const log = new Logger('Http');

/** The request id of a request (set by {@link requestContextMiddleware}). */
export function requestIdOf(req: unknown): string | undefined {
  const id = (req as { requestId?: unknown } | undefined)?.requestId;
  return typeof id === 'string' ? id : undefined;
}

/**
 * Gives each request an id (the caller's `X-Request-Id` when it is sane, else a new UUID),
 * returns it in `X-Request-Id`, and logs one structured line per request when it ends.
 */
export function requestContextMiddleware(options: { accessLog: boolean }) {
  return (req: Request, res: Response, next: NextFunction): void => {
    const given = req.headers['x-request-id'];
    const requestId = typeof given === 'string' && SAFE_ID.test(given) ? given : randomUUID();
    (req as Request & { requestId: string }).requestId = requestId;
    res.setHeader('X-Request-Id', requestId);
    if (options.accessLog) {
      const started = process.hrtime.bigint();
      res.once('finish', () => {
        const ms = Number(process.hrtime.bigint() - started) / 1e6;
        const entry = { msg: `${req.method} ${req.path} ${res.statusCode}`, requestId, method: req.method, path: req.path, status: res.statusCode, ms: Math.round(ms * 10) / 10 };
        if (res.statusCode >= 500) log.error(entry);
        else log.log(entry);
      });
    }
    next();
  };
}
