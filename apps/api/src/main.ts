import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { ConfigError, JsonLogger, loadApiConfig, useJsonLogs } from '@podium/config';
import { existsSync } from 'node:fs';
import type { Server } from 'node:http';
import path from 'node:path';
import { createApp } from './app';
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
    ...(useJsonLogs() ? { logger: new JsonLogger('api') } : {}),
  });
  app.enableShutdownHooks();
  // Idle keep-alive connections outlive the pools of clients and proxies (Node's 5 s default
  // closes sockets a client is about to reuse, which it sees as "other side closed").
  const server: Server = app.getHttpServer();
  server.keepAliveTimeout = 65_000;
  // Slow clients (a slow-loris upload) are closed at the configured deadlines.
  applyServerTimeouts(server, { requestTimeoutSeconds: config.PODIUM_REQUEST_TIMEOUT_SECONDS, headersTimeoutSeconds: config.PODIUM_HEADERS_TIMEOUT_SECONDS });
  await app.listen(config.PORT, config.HOST);
  const url = await app.getUrl();
  new Logger('Podium').log(`API listening on ${url} (GraphQL at ${url}/graphql)`);
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
