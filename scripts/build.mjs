// `npm run build`: compiles the api, the worker, the CLI and every lib to JavaScript under dist/
// with SWC (Nest's legacy decorators and decorator metadata, CommonJS, source maps), so that the
// apps run with plain `node dist/apps/<app>/main.js`. Incremental: a file is compiled again only
// when its source is newer than its output (or the build settings changed); outputs whose source
// is gone are removed. Type checking stays with `npm run typecheck`.
//
// Layout: apps/<app>/src/<f>.ts → dist/apps/<app>/<f>.js, libs/<lib>/src/<f>.ts →
// dist/libs/<lib>/<f>.js. Dropping `src` keeps every file at the same depth below the repository
// root as its source, so `__dirname`-relative paths (models/, apps/api/schema.graphql) still work.
// `@podium/<lib>` imports are rewritten to relative paths at build time: no resolver at run time.
import { createHash } from 'node:crypto';
import { chmodSync, copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describeStale, generatePluginIndexes } from './generate-plugin-index.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const distDir = path.join(root, 'dist');
const APPS = ['api', 'worker', 'cli'];

/** Same settings as Jest's (jest.preset.js) and @swc-node/register's reading of tsconfig.base.json. */
const swcOptions = {
  jsc: {
    parser: { syntax: 'typescript', decorators: true },
    transform: { legacyDecorator: true, decoratorMetadata: true, useDefineForClassFields: true },
    target: 'es2022',
    keepClassNames: true,
  },
  module: { type: 'commonjs', strictMode: true },
  sourceMaps: true,
};

function projects() {
  const libs = readdirSync(path.join(root, 'libs')).filter((d) => existsSync(path.join(root, 'libs', d, 'src')));
  return [...APPS.map((a) => path.join('apps', a)), ...libs.map((l) => path.join('libs', l))];
}

/** Library aliases from tsconfig.base.json: `@podium/db` → `libs/db/src/index.ts`. */
function aliases() {
  const { compilerOptions } = JSON.parse(readFileSync(path.join(root, 'tsconfig.base.json'), 'utf8'));
  return new Map(Object.entries(compilerOptions.paths).map(([alias, [target]]) => [alias, target]));
}

function* walk(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* walk(full);
    else yield full;
  }
}

const isSource = (f) => f.endsWith('.ts') && !f.endsWith('.d.ts') && !/\.spec\.tsx?$/.test(f);
const isAsset = (f) => f.endsWith('.json');

/** dist path of a source path (both relative to the root): drops the project's `src/`. */
function outputOf(rel) {
  return path.join('dist', rel.replace(/^((?:apps|libs)\/[^/]+)\/src\//, '$1/').replace(/\.ts$/, '.js'));
}

/**
 * Every source and asset that goes into dist/, with its output path. The plugin registries'
 * generated indexes (git-ignored, ADR 0036) are brought up to date first, so they are compiled
 * with the rest: every build, the Docker build stage's included, ships them.
 */
function plan({ log = () => {} } = {}) {
  for (const line of describeStale(generatePluginIndexes({ root }))) log(`regenerated: ${line}`);
  const files = [];
  for (const project of projects()) {
    for (const full of walk(path.join(root, project, 'src'))) {
      const rel = path.relative(root, full);
      if (isSource(rel)) files.push({ rel, out: outputOf(rel), kind: 'ts' });
      else if (isAsset(rel)) files.push({ rel, out: outputOf(rel), kind: 'asset' });
    }
  }
  return files;
}

function newer(a, b) {
  return !existsSync(b) || statSync(a).mtimeMs > statSync(b).mtimeMs;
}

const settingsHash = () =>
  createHash('sha256')
    .update(JSON.stringify({ swcOptions, aliases: [...aliases()] }))
    .update(readFileSync(fileURLToPath(import.meta.url)))
    .digest('hex')
    .slice(0, 16);
const stampFile = path.join(distDir, '.build-stamp');

/** True when dist/ is missing a file or holds one older than its source (cheap: stats only). */
export function buildIsStale() {
  if (!existsSync(stampFile) || readFileSync(stampFile, 'utf8').trim() !== settingsHash()) return true;
  return plan().some((f) => newer(path.join(root, f.rel), path.join(root, f.out)));
}

/** Another process (a second test worker, the api starting) never reads a half-written file. */
function writeAtomically(file, text) {
  writeFileSync(`${file}.${process.pid}.tmp`, text);
  renameSync(`${file}.${process.pid}.tmp`, file);
}

/** Rewrites `require("@podium/x")` in one compiled file to the relative path of x's dist index. */
function rewriteAliases(code, out, table) {
  return code.replace(/require\((["'])(@podium\/[\w-]+)\1\)/g, (whole, q, spec) => {
    const target = table.get(spec);
    if (!target) return whole;
    let rel = path.relative(path.dirname(out), outputOf(target).replace(/\.js$/, ''));
    if (!rel.startsWith('.')) rel = `./${rel}`;
    return `require(${q}${rel.split(path.sep).join('/')}${q})`;
  });
}

/** Builds what is out of date; returns the number of files written. */
export async function build({ log = () => {}, force = false } = {}) {
  const started = Date.now();
  const { transformFile } = await import('@swc/core');
  const table = aliases();
  const hash = settingsHash();
  const all = force || !existsSync(stampFile) || readFileSync(stampFile, 'utf8').trim() !== hash;
  const files = plan({ log });
  const todo = files.filter((f) => all || newer(path.join(root, f.rel), path.join(root, f.out)));
  let i = 0;
  const worker = async () => {
    while (i < todo.length) {
      const f = todo[i++];
      const src = path.join(root, f.rel);
      const out = path.join(root, f.out);
      mkdirSync(path.dirname(out), { recursive: true });
      if (f.kind === 'asset') {
        copyFileSync(src, `${out}.${process.pid}.tmp`);
        renameSync(`${out}.${process.pid}.tmp`, out);
        continue;
      }
      const r = await transformFile(src, { ...swcOptions, filename: src, sourceFileName: path.relative(path.dirname(out), src), configFile: false, swcrc: false });
      const code = rewriteAliases(r.code, f.out, table);
      writeAtomically(`${out}.map`, r.map ?? '');
      writeAtomically(out, `${code}\n//# sourceMappingURL=${path.basename(out)}.map\n`);
    }
  };
  await Promise.all(Array.from({ length: 8 }, worker));
  // Outputs whose source is gone (a renamed or deleted file) would otherwise still be required.
  const wanted = new Set(files.flatMap((f) => (f.kind === 'ts' ? [f.out, `${f.out}.map`] : [f.out])));
  let removed = 0;
  for (const top of ['apps', 'libs']) {
    const dir = path.join(distDir, top);
    if (!existsSync(dir)) continue;
    for (const full of walk(dir)) {
      if (!wanted.has(path.relative(root, full)) && !full.endsWith('.tmp')) {
        rmSync(full);
        removed++;
      }
    }
  }
  // The `podium` bin (package.json) runs this file directly.
  const bin = path.join(distDir, 'apps', 'cli', 'main.js');
  if (existsSync(bin)) chmodSync(bin, 0o755);
  writeFileSync(stampFile, hash + '\n');
  log(`built ${todo.length} of ${files.length} files${removed ? `, removed ${removed} stale` : ''} into dist/ in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return todo.length;
}

// `node scripts/build.mjs [--force] [--if-stale]`: --if-stale returns at once, silently, when
// dist/ is up to date (what `npm run podium` and the test helpers call before starting a build).
if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const force = process.argv.includes('--force');
  const log = (m) => process.stderr.write(`[podium] ${m}\n`);
  if (force || !process.argv.includes('--if-stale') || buildIsStale()) {
    await build({ force, log });
  }
  // The standalone `podium` participants download (GET /api/cli/podium.cjs).
  const { bundleCli, cliBundleIsStale } = await import('./bundle-cli.mjs');
  if (force || cliBundleIsStale()) await bundleCli({ log });
}
