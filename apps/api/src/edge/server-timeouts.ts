import type { Server } from 'node:http';

export interface ServerTimeouts {
  requestTimeoutSeconds: number;
  headersTimeoutSeconds: number;
}

/**
 * Deadlines for slow clients: the headers within `headersTimeoutSeconds`, the whole request
 * within `requestTimeoutSeconds` (Node answers 408 and closes the connection), checked every
 * second rather than Node's default 30 s so that a slow-loris upload is closed near its deadline.
 * `Expect: 100-continue` is left to the routes: the upload gate and the JSON reader say
 * "continue" only once the headers passed their checks, so a refused client sends no body at all.
 * Call before `listen` (the checking interval is read then).
 */
export function applyServerTimeouts(server: Server, t: ServerTimeouts): void {
  server.requestTimeout = t.requestTimeoutSeconds * 1000;
  server.headersTimeout = Math.min(t.headersTimeoutSeconds, t.requestTimeoutSeconds) * 1000;
  (server as Server & { connectionsCheckingInterval: number }).connectionsCheckingInterval = 1000;
  server.on('checkContinue', (req, res) => server.emit('request', req, res));
}
