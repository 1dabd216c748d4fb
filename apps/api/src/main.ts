import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { ConfigError, JsonLogger, loadApiConfig, TextLogger, useJsonLogs } from '@podium/config';
import { existsSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import path from 'node:path';
import { createApp } from './app';
import { listenWithFallback } from './edge/listen';
import { applyServerTimeouts } from './edge/server-timeouts';

async function bootstrap(): Promise<void> {
  const config = loadApiConfig();
  // Run from source (apps/api/src/main.ts), the repository root is three levels up; only then is
  // the committed schema file refreshed (never in production).
  const root = path.resolve(__dirname, '../../..');
  const fromSource = existsSync(path.join(root, 'apps/api/src/main.ts'));
  const app = await createApp(config, {
    root: fromSource ? root : process.cwd(),
    emitSchema: fromSource && process.env['NODE_ENV'] !== 'production',
    logger: useJsonLogs() ? new JsonLogger('api') : new TextLogger(),
  });
  app.enableShutdownHooks();
  // Idle keep-alive connections outlive the pools of clients and proxies (Node's 5 s default
  // closes sockets a client is about to reuse, which it sees as "other side closed").
  const server: Server = app.getHttpServer();
  server.keepAliveTimeout = 65_000;
  // Slow clients (a slow-loris upload) are closed at the configured deadlines.
  applyServerTimeouts(server, { requestTimeoutSeconds: config.PODIUM_REQUEST_TIMEOUT_SECONDS, headersTimeoutSeconds: config.PODIUM_HEADERS_TIMEOUT_SECONDS });
  // init, then listen on the server itself: a port taken since `npm run up` checked it is a
  // warning and the next port, not an error (PODIUM_PORT_FALLBACK).
  await app.init();
  const log = new Logger('Podium');
  const port = await listenWithFallback(server, config.PORT, config.HOST, config.PODIUM_PORT_FALLBACK, (taken) =>
    log.warn({ msg: `port ${taken} on ${config.HOST} is taken by another process; trying another`, event: 'port-taken', port: taken }),
  );
  const host = config.HOST.includes(':') ? `[${config.HOST}]` : config.HOST === '0.0.0.0' || config.HOST === '::' ? '127.0.0.1' : config.HOST;
  const url = `http://${host}:${port}`;
  if (config.PODIUM_LISTEN_FILE) writeFileSync(config.PODIUM_LISTEN_FILE, `${url}\n`);
  log.log({ msg: `API listening on ${url} (GraphQL at ${url}/graphql)`, event: 'listening', url });
}

// A library promise rejected unhandled (pg-boss settles jobs without awaiting; a database
// restart makes them fail): log it and keep serving rather than let Node end the process.
process.on('unhandledRejection', (reason: unknown) => {
  new Logger('Podium').warn({ msg: `unhandled rejection, kept running: ${reason instanceof Error ? reason.message : String(reason)}`, event: 'unhandled-rejection' });
});

bootstrap().catch((e: unknown) => {
  process.stderr.write(e instanceof ConfigError ? `${e.message}\n` : `${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
  process.exit(1);
});
