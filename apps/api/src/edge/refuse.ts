import type { Request, Response } from 'express';

/**
 * Answers a request whose body is not (or no longer) read, and closes the connection after the
 * answer: the rest of the body is never read into the process (no drain, no buffering).
 * The REST error shape everywhere, as body-parser's refusals had (nothing of GraphQL ran yet).
 */
export function refuseAndClose(req: Request, res: Response, status: number, code: string, message: string, extra: Record<string, unknown> = {}): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  // Node ends the socket once a `Connection: close` answer is written; a client still sending
  // then sees the connection closed, having received the answer first.
  res.setHeader('Connection', 'close');
  req.unpipe();
  req.pause();
  res.status(status).json({ error: message, code, ...extra });
}

/** Lets a client that sent `Expect: 100-continue` start sending its body (the checks passed). */
export function continueIfExpected(req: Request, res: Response): void {
  if (/100-continue/i.test(req.headers.expect ?? '') && !res.headersSent) res.writeContinue();
}
