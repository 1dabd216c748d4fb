import 'reflect-metadata';
import { Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { ScoringService } from './scoring/scoring.service';
import { WorkerModule } from './worker.module';

/**
 * Nest's preview mode builds the worker's module graph and resolves every provider's
 * dependencies without constructing anything (no configuration, database or queue), so a
 * module that forgets an import fails here instead of at the first start of the process.
 */
describe('WorkerModule', () => {
  const preview = (module: Parameters<typeof NestFactory.createApplicationContext>[0]) => NestFactory.createApplicationContext(module, { preview: true, logger: false, abortOnError: false });

  it('resolves the providers of its scoring, robustness, leaderboard, leases and NLI modules', async () => {
    const app = await preview(WorkerModule);
    await app.close();
  });

  it('refuses a module whose provider needs what no imported module provides (the check has teeth)', async () => {
    @Module({ providers: [ScoringService] })
    class ScoringWithoutImports {}
    await expect(preview(ScoringWithoutImports)).rejects.toThrow(/ScoringService|dependencies/);
  });
});
