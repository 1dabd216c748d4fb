/**
 * Podium scoring worker: a Nest application context (no HTTP) that takes scoring jobs from the
 * Postgres-backed queue. Run several, on one machine or many: they share the queue.
 */
import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { JsonLogger, useJsonLogs } from '@podium/config';
import { NestFactory } from '@nestjs/core';
import { WorkerModule } from './worker.module';

export async function startWorker() {
  const app = await NestFactory.createApplicationContext(WorkerModule, { logger: useJsonLogs() ? new JsonLogger('worker') : ['log', 'warn', 'error'] });
  app.enableShutdownHooks();
  return app;
}

if (require.main === module) {
  // pg-boss 10 completes and fails jobs without awaiting (manager.js, onFetch): while the
  // database is down those promises reject unhandled, and Node would end the process. The
  // worker stays up instead; leases and pg-boss's expiry settle those jobs once it is back.
  process.on('unhandledRejection', (reason: unknown) => {
    const message = reason instanceof Error ? reason.message : String(reason);
    new Logger('worker').warn({ msg: `unhandled rejection, kept running: ${message}`, event: 'unhandled-rejection' });
  });
  startWorker().catch((e: unknown) => {
    new Logger('worker').error(e instanceof Error ? e.message : String(e));
    process.exit(1);
  });
}
