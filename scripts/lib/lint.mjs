// Shared by `npm run lint` and `npm test` (which lints before running Jest).
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { ensurePluginIndexes, ensurePrismaClient, root, runCollected, say } from './workspace.mjs';

/** Where the linted sources live; `npm run lint -- <paths>` narrows it. */
export const LINT_TARGETS = ['apps', 'libs', 'test', 'bench', 'scripts', 'models', 'prisma', 'jest.config.ts', 'jest.preset.js', 'prisma.config.ts', 'eslint.config.mjs'];

/** Refreshes Nx's cached project graph (tags, dependencies) that @nx/enforce-module-boundaries reads. */
export function refreshProjectGraph() {
  const env = { ...process.env, NX_DAEMON: 'false', NX_NO_CLOUD: 'true' };
  const r = spawnSync(path.join(root, 'node_modules', '.bin', 'nx'), ['show', 'projects'], { cwd: root, env, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`nx show projects failed (exit ${r.status ?? r.signal}):\n${r.stdout}${r.stderr}`);
}

/** ESLint's command line: with its cache, no warnings allowed; `args` narrows the paths. */
function eslintArgs(args) {
  const targets = args.some((a) => !a.startsWith('-')) ? [] : LINT_TARGETS;
  return ['--cache', '--cache-location', 'node_modules/.cache/eslint/', '--cache-strategy', 'content', '--max-warnings', '0', ...targets, ...args];
}

async function prepare() {
  await ensurePluginIndexes(); // the registries import their generated indexes (ADR 0036)
  ensurePrismaClient(process.env); // type-aware rules need libs/db's generated client
  refreshProjectGraph();
}

/** Runs ESLint with its cache; prints its report; returns true when it found no problem. */
export async function lint(args = []) {
  await prepare();
  const started = Date.now();
  const r = spawnSync(path.join(root, 'node_modules', '.bin', 'eslint'), eslintArgs(args), { cwd: root, stdio: 'inherit' });
  say(`lint ${r.status === 0 ? 'clean' : 'failed'} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return r.status === 0;
}

/**
 * `npm test`'s static checks: the type-check of the workspace and of the web app, and ESLint,
 * side by side (each is one process on one core). Prints each one's output when it is done, then
 * returns the names of those that failed.
 */
export async function staticChecks() {
  await prepare();
  const bin = (name) => path.join(root, 'node_modules', '.bin', name);
  const checks = [
    ['type-check', bin('tsc'), ['-p', 'tsconfig.json', '--noEmit']],
    ['type-check of the web app', bin('tsc'), ['-p', 'apps/web/tsconfig.json', '--noEmit']],
    ['lint', bin('eslint'), eslintArgs([])],
  ];
  const results = await Promise.all(checks.map(([, cmd, args]) => runCollected(cmd, args)));
  const failed = [];
  results.forEach((r, i) => {
    const name = checks[i][0];
    if (r.output.trim()) process.stdout.write(r.output.endsWith('\n') ? r.output : `${r.output}\n`);
    say(`${name} ${r.status === 0 ? 'clean' : 'failed'} in ${r.seconds.toFixed(1)} s`);
    if (r.status !== 0) failed.push(name);
  });
  return failed;
}
