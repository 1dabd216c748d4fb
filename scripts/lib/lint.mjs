// Shared by `npm run lint` and `npm test` (which lints before running Jest).
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { ensurePrismaClient, root, say } from './workspace.mjs';

/** Where the linted sources live; `npm run lint -- <paths>` narrows it. */
export const LINT_TARGETS = ['apps', 'libs', 'test', 'bench', 'scripts', 'models', 'prisma', 'jest.config.ts', 'jest.preset.js', 'prisma.config.ts', 'eslint.config.mjs'];

/** Refreshes Nx's cached project graph (tags, dependencies) that @nx/enforce-module-boundaries reads. */
export function refreshProjectGraph() {
  const env = { ...process.env, NX_DAEMON: 'false', NX_NO_CLOUD: 'true' };
  const r = spawnSync(path.join(root, 'node_modules', '.bin', 'nx'), ['show', 'projects'], { cwd: root, env, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`nx show projects failed (exit ${r.status ?? r.signal}):\n${r.stdout}${r.stderr}`);
}

/** Runs ESLint with its cache; prints its report; returns true when it found no problem. */
export function lint(args = []) {
  ensurePrismaClient(process.env); // type-aware rules need libs/db's generated client
  refreshProjectGraph();
  const started = Date.now();
  const targets = args.some((a) => !a.startsWith('-')) ? [] : LINT_TARGETS;
  const r = spawnSync(
    path.join(root, 'node_modules', '.bin', 'eslint'),
    ['--cache', '--cache-location', 'node_modules/.cache/eslint/', '--cache-strategy', 'content', '--max-warnings', '0', ...targets, ...args],
    { cwd: root, stdio: 'inherit' },
  );
  say(`lint ${r.status === 0 ? 'clean' : 'failed'} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return r.status === 0;
}
