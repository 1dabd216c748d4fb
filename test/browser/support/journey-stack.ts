import { execFile, spawnSync } from 'node:child_process';
import { promisify } from 'node:util';
import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { createDb, type Db } from '@podium/db';
import { chromium, type Browser } from 'playwright-core';
import { createDatabase, databaseUrl, freePort, repoRoot, startApp, waitFor, WEB_DIST, webBuildIsStale, type RunningApp } from '../../e2e/support/processes';

export const CHROMIUM = '/usr/bin/chromium';
export const SHOTS = path.join(repoRoot, 'test-artifacts', 'screenshots');

/** What a browser journey runs against: a database of its own, the api, a worker and Chromium. */
export interface JourneyStack {
  db: Db;
  base: string;
  api: RunningApp;
  worker: RunningApp;
  browser: Browser;
  /** The api's and the worker's last log lines, for failure messages. */
  logs(): string;
  stop(): Promise<void>;
}

/** One Podium without a browser: its own database, the api serving the web app, and a worker. */
export type Podium = Omit<JourneyStack, 'browser'>;

/**
 * Starts a journey's stack: a fresh database with the migrations applied, the web app built when
 * stale, the api (waited for), then a worker, then headless Chromium. What started is stopped again
 * when a later step fails.
 */
export async function startJourneyStack(database: string, workerName: string): Promise<JourneyStack> {
  if (!existsSync(CHROMIUM)) throw new Error(`Chromium is not installed at ${CHROMIUM}: apt-get install -y --no-install-recommends chromium`);
  mkdirSync(SHOTS, { recursive: true });
  const podium = await startPodium(database, workerName);
  try {
    const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'] });
    return {
      ...podium,
      browser,
      stop: async () => {
        await browser.close();
        await podium.stop();
      },
    };
  } catch (e) {
    await podium.stop();
    throw e;
  }
}

/**
 * Starts one Podium (e.g. a second, empty one beside a journey's, for a task bundle's round trip):
 * a fresh database with the migrations applied, the web app built when stale, the api (waited
 * for), then a worker. What started is stopped again when a later step fails.
 */
export async function startPodium(database: string, workerName: string): Promise<Podium> {
  const created = await createDatabase(databaseUrl(), database);
  let db: Db | undefined;
  let api: RunningApp | undefined;
  let worker: RunningApp | undefined;
  const logs = () => `api:\n${api?.logs.join('').slice(-4000) ?? ''}\nworker:\n${worker?.logs.join('').slice(-4000) ?? ''}`;
  const stop = async () => {
    await Promise.all([api?.stop(), worker?.stop()]);
    await db?.$disconnect();
    await created.drop();
  };
  try {
    // Not spawnSync: a Podium started while a browser step runs must not stall the test's event
    // loop (Playwright's timers and messages run on it) for the length of a migration.
    await promisify(execFile)(path.join(repoRoot, 'node_modules', '.bin', 'prisma'), ['migrate', 'deploy'], { cwd: repoRoot, env: { ...process.env, DATABASE_URL: created.url }, encoding: 'utf8' }).catch((e: unknown) => {
      throw new Error(`migrate failed: ${e instanceof Error && 'stderr' in e ? String(e.stderr) : String(e)}`);
    });
    if (webBuildIsStale()) {
      const b = spawnSync(process.execPath, [path.join(repoRoot, 'node_modules', 'vite', 'bin', 'vite.js'), 'build', '--config', 'apps/web/vite.config.ts'], { cwd: repoRoot, encoding: 'utf8' });
      if (b.status !== 0) throw new Error(`web build failed: ${b.stderr}`);
    }
    db = createDb(created.url, { maxConnections: 2 });
    const base = `http://127.0.0.1:${await freePort()}`;
    const started = startApp('apps/api/src/main.ts', { DATABASE_URL: created.url, PORT: new URL(base).port, HOST: '127.0.0.1', PODIUM_WEB_DIST: WEB_DIST });
    api = started;
    await waitFor('the api', async () => (await fetch(`${base}/api/health`)).ok, 90_000).catch((e: unknown) => {
      throw new Error(`${String(e)}\n${logs()}`);
    });
    // Started once the api has created pg-boss's schema: two processes creating it at once on a
    // fresh database can deadlock.
    const scoring = startApp('apps/worker/src/main.ts', { DATABASE_URL: created.url, PODIUM_WORKER_NAME: workerName, PODIUM_WORKER_POLL_SECONDS: '0.5' });
    worker = scoring;
    return { db, base, api: started, worker: scoring, logs, stop };
  } catch (e) {
    await stop();
    throw e;
  }
}
