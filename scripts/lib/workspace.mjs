// Shared steps of `npm run up` and `npm test`: dependencies, Prisma client, migrations, the build.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, lstatSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

export function say(msg) {
  process.stderr.write(`[podium] ${msg}\n`);
}

function newer(a, b) {
  return !existsSync(b) || statSync(a).mtimeMs > statSync(b).mtimeMs;
}

/** Runs a command in the repo root; throws with its output when it fails. */
export function run(cmd, args, { env = process.env, quiet = false } = {}) {
  const r = spawnSync(cmd, args, { cwd: root, env, stdio: quiet ? 'pipe' : 'inherit', encoding: 'utf8' });
  if (r.status !== 0) {
    const out = quiet ? `\n${r.stdout ?? ''}${r.stderr ?? ''}` : '';
    throw new Error(`${cmd} ${args.join(' ')} failed (exit ${r.status ?? r.signal})${out}`);
  }
  return r;
}

/**
 * Runs a command in the repo root without blocking, its output collected (so that commands run
 * side by side print one after the other). Resolves with its exit status and output; never rejects.
 */
export function runCollected(cmd, args, { env = process.env } = {}) {
  return new Promise((resolve) => {
    const started = Date.now();
    const child = spawn(cmd, args, { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    child.on('error', (e) => resolve({ status: 1, output: `${output}${e.message}\n`, seconds: (Date.now() - started) / 1000 }));
    child.on('close', (code, signal) => resolve({ status: code ?? (signal ? 1 : 0), output, seconds: (Date.now() - started) / 1000 }));
  });
}

/** Installs dependencies when node_modules is missing or older than package-lock.json. */
export function ensureDependencies() {
  const modules = path.join(root, 'node_modules');
  // A linked node_modules (a worktree sharing another checkout's) belongs to that checkout:
  // `npm ci` would empty it under everyone using it.
  if (existsSync(modules) && lstatSync(modules).isSymbolicLink()) return;
  const marker = path.join(root, 'node_modules', '.package-lock.json');
  if (existsSync(marker) && !newer(path.join(root, 'package-lock.json'), marker)) return;
  say('installing dependencies (npm ci)…');
  // `npm ci`: exactly the lock file's versions (it lists every platform's optional binaries; npm
  // installs this platform's), and a clear error when package.json and the lock disagree.
  run('npm', ['ci', '--no-audit', '--no-fund']);
}

/**
 * Writes the plugin registries' generated indexes (scripts/generate-plugin-index.mjs, ADR 0036)
 * where they are missing or stale; a few directory listings, writing only what changed.
 */
export async function ensurePluginIndexes() {
  const { describeStale, generatePluginIndexes } = await import('../generate-plugin-index.mjs');
  for (const line of describeStale(generatePluginIndexes({ root }))) say(`regenerated: ${line}`);
}

/** Generates the Prisma client when it is missing or older than the schema. */
export function ensurePrismaClient(env) {
  const generated = path.join(root, 'libs', 'db', 'src', 'generated', 'client.ts');
  if (!newer(path.join(root, 'prisma', 'schema.prisma'), generated)) return;
  say('generating the Prisma client…');
  run(path.join(root, 'node_modules', '.bin', 'prisma'), ['generate'], { env, quiet: true });
}

/** Applies committed migrations (prisma migrate deploy through the JS engine). */
export function migrate(databaseUrl) {
  const env = { ...process.env, DATABASE_URL: databaseUrl };
  ensurePrismaClient(env);
  say('applying migrations…');
  run(path.join(root, 'node_modules', '.bin', 'prisma'), ['migrate', 'deploy'], { env, quiet: true });
}

/** {@link migrate} without blocking: `npm test` applies the migrations while it type-checks and lints. */
export async function migrateInBackground(databaseUrl) {
  const env = { ...process.env, DATABASE_URL: databaseUrl };
  ensurePrismaClient(env);
  say('applying migrations…');
  const r = await runCollected(path.join(root, 'node_modules', '.bin', 'prisma'), ['migrate', 'deploy'], { env });
  if (r.status !== 0) throw new Error(`prisma migrate deploy failed (exit ${r.status})\n${r.output}`);
}

/** Compiles the apps to dist/ (`npm run build`) when a source is newer than its output. */
export async function ensureBuild() {
  const { build, buildIsStale } = await import('../build.mjs');
  if (buildIsStale()) {
    say('building the apps (npm run build)…');
    await build({ log: say });
  }
  // The standalone `podium` the API serves (GET /api/cli/podium.cjs).
  const { bundleCli, cliBundleIsStale } = await import('../bundle-cli.mjs');
  if (cliBundleIsStale()) await bundleCli({ log: say });
}

/** True when apps/web/dist is missing or older than a source file of the web app (as the browser specs check). */
function webBuildIsStale() {
  const web = path.join(root, 'apps', 'web');
  const built = path.join(web, 'dist', 'index.html');
  if (!existsSync(path.join(web, 'vite.config.ts'))) return false;
  if (!existsSync(built)) return true;
  const builtAt = statSync(built).mtimeMs;
  const newer = (p) => {
    const st = statSync(p);
    if (st.isDirectory()) return readdirSync(p).some((f) => newer(path.join(p, f)));
    return st.mtimeMs > builtAt;
  };
  return newer(path.join(web, 'src')) || newer(path.join(web, 'index.html')) || newer(path.join(web, 'vite.config.ts'));
}

/**
 * Builds the web app once before Jest when it is stale. Otherwise the first browser spec builds
 * it while other suites' apis serve apps/web/dist, and a suite reading a half-written dist fails.
 */
export async function ensureWebBuild() {
  if (!webBuildIsStale()) return;
  say('building the web app (vite build)…');
  // Not blocking: `npm test` builds it while it type-checks and lints.
  const r = await runCollected(process.execPath, [path.join(root, 'node_modules', 'vite', 'bin', 'vite.js'), 'build', '--config', 'apps/web/vite.config.ts', '--logLevel', 'warn']);
  if (r.output.trim()) process.stderr.write(r.output.endsWith('\n') ? r.output : `${r.output}\n`);
  if (r.status !== 0) throw new Error(`vite build failed (exit ${r.status})`);
  say(`built the web app in ${r.seconds.toFixed(1)} s`);
}

/** Starts a compiled app (`dist/apps/<app>/main.js`, see ensureBuild) as a child process. */
export function startApp(entry, env, name) {
  const child = spawn(process.execPath, ['--enable-source-maps', entry], {
    cwd: root,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const prefix = (chunk) =>
    chunk
      .toString()
      .split('\n')
      .filter((l) => l.length > 0)
      .map((l) => `${name.padEnd(8)}| ${l}\n`)
      .join('');
  child.stdout.on('data', (c) => process.stdout.write(prefix(c)));
  child.stderr.on('data', (c) => process.stderr.write(prefix(c)));
  return child;
}

export async function waitForHttp(url, timeoutMs, child) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child && child.exitCode !== null) throw new Error(`process exited with code ${child.exitCode} before ${url} answered`);
    try {
      const r = await fetch(url);
      if (r.ok) return;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`${url} did not answer within ${timeoutMs / 1000} s`);
}

export function stopChild(child, timeoutMs = 15000) {
  return new Promise((resolve) => {
    if (!child || child.exitCode !== null || child.signalCode !== null) return resolve();
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill('SIGTERM');
  });
}
