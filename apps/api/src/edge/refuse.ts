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
  res.setHeader('Connection', 'close');
  req.unpipe();
  req.pause();
  lingerOnClose(req);
  res.status(status).json({ error: message, code, ...extra });
}

/** How long, and how many bytes of a body, a refused connection is drained after its answer. */
export const LINGER = { ms: 1000, bytes: 4 * 1024 * 1024 };

/**
 * Node closes a `Connection: close` socket as soon as the answer is flushed; a client still
 * sending then gets a reset, which on Linux can discard the answer it has not read yet (it sees
 * "connection reset" instead of the 401 or 413). So the socket is half-closed instead, and what
 * still arrives is discarded for at most LINGER.ms or LINGER.bytes before it is destroyed (what
 * nginx calls a lingering close): bounded, never buffered, never the whole body.
 */
export function lingerOnClose(req: Request): void {
  const socket = req.socket;
  socket.destroySoon = () => {
    let discarded = 0;
    const stop = () => socket.destroy();
    const timer = setTimeout(stop, LINGER.ms);
    timer.unref();
    socket.on('data', (chunk: Buffer) => {
      discarded += chunk.length;
      if (discarded > LINGER.bytes) stop();
    });
    socket.once('close', () => clearTimeout(timer));
    socket.end();
    socket.resume();
  };
}

/** Lets a client that sent `Expect: 100-continue` start sending its body (the checks passed). */
export function continueIfExpected(req: Request, res: Response): void {
  if (/100-continue/i.test(req.headers.expect ?? '') && !res.headersSent) res.writeContinue();
}
