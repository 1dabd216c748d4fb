// `npm run build:cli`: bundles the `podium` command (apps/cli and the libs it imports) into one
// file, dist/podium.cjs, that runs with plain `node podium.cjs …` where nothing is installed: the
// API serves it at GET /api/cli/podium.cjs for participants (the Submit page shows the commands).
// onnxruntime-node (a native module) stays outside: NLI commands say they are not available in
// this build; the classical metrics, ranking, test-input and submit work. Rebuilt only when a
// source of apps/cli or libs/ is newer than the bundle (build.mjs calls it after compiling).
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { generatePluginIndexes } from './generate-plugin-index.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const cliBundle = path.join(root, 'dist', 'podium.cjs');

function newestSource(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestSource(full));
    else if (/\.(ts|json)$/.test(entry.name) && !/\.spec\.tsx?$/.test(entry.name)) newest = Math.max(newest, statSync(full).mtimeMs);
  }
  return newest;
}

export function cliBundleIsStale() {
  // The registries' generated indexes (ADR 0036): a new plugin rewrites one, which makes the bundle stale.
  generatePluginIndexes({ root });
  if (!existsSync(cliBundle)) return true;
  const sources = [path.join(root, 'apps', 'cli', 'src'), path.join(root, 'libs')].filter(existsSync);
  return Math.max(...sources.map(newestSource)) > statSync(cliBundle).mtimeMs;
}

export async function bundleCli({ log = () => {} } = {}) {
  const started = Date.now();
  generatePluginIndexes({ root });
  const { rolldown } = await import('rolldown');
  const { compilerOptions } = JSON.parse(readFileSync(path.join(root, 'tsconfig.base.json'), 'utf8'));
  const alias = Object.fromEntries(Object.entries(compilerOptions.paths).map(([name, [target]]) => [name, path.join(root, target)]));
  const bundle = await rolldown({ input: path.join(root, 'apps', 'cli', 'src', 'main.ts'), platform: 'node', external: ['onnxruntime-node', /^node:/], resolve: { alias }, logLevel: 'silent' });
  await bundle.write({ file: cliBundle, format: 'cjs', codeSplitting: false, minify: true });
  await bundle.close();
  log(`bundled the podium command into dist/podium.cjs (${(statSync(cliBundle).size / 1e6).toFixed(1)} MB) in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  if (process.argv.includes('--force') || cliBundleIsStale()) await bundleCli({ log: (m) => process.stderr.write(`[podium] ${m}\n`) });
}
