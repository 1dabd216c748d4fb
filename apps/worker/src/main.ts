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
  startWorker().catch((e: unknown) => {
    new Logger('worker').error(e instanceof Error ? e.message : String(e));
    process.exit(1);
  });
}
