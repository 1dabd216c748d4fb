/**
 * Podium scoring worker: a Nest application context (no HTTP) that takes scoring jobs from the
 * Postgres-backed queue. Run several, on one machine or many: they share the queue.
 */
import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { JsonLogger, useJsonLogs } from '@podium/config';
import { NestFactory } from '@nestjs/core';
import { WorkerModule } from './worker.module';

const STOP_SIGNALS = ['SIGTERM', 'SIGINT', 'SIGHUP'] as const;

export async function startWorker() {
  // Nest runs the processors' bootstrap (which already takes jobs) before createApplicationContext
  // returns, and its shutdown hooks only exist after it: a supervisor's SIGTERM in between would
  // end the process holding a job without handing it back. Keep such a signal and deliver it
  // again once the hooks listen.
  const early: NodeJS.Signals[] = [];
  const keep = (signal: NodeJS.Signals) => early.push(signal);
  for (const s of STOP_SIGNALS) process.on(s, keep);
  try {
    const app = await NestFactory.createApplicationContext(WorkerModule, { logger: useJsonLogs() ? new JsonLogger('worker') : ['log', 'warn', 'error'] });
    app.enableShutdownHooks();
    const [first] = early;
    if (first) process.kill(process.pid, first);
    return app;
  } finally {
    for (const s of STOP_SIGNALS) process.off(s, keep);
  }
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
