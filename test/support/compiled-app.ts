import { execFileSync } from 'node:child_process';
import path from 'node:path';

const repoRoot = path.resolve(__dirname, '..', '..');
let built = false;

/**
 * The compiled output (`npm run build`) of an app's TypeScript entry point:
 * `apps/api/src/main.ts` → `<root>/dist/apps/api/main.js`. Tests start apps from dist/, as
 * `npm run up` and the Docker images do. `npm test` builds before Jest; this builds (once per
 * Jest worker, a no-op when dist/ is up to date) for runs that start Jest some other way.
 */
export function compiledApp(entry: string): string {
  const m = /^(apps\/[^/]+)\/src\/(.+)\.ts$/.exec(entry.split(path.sep).join('/'));
  if (!m) throw new Error(`compiledApp: '${entry}' is not an app's source file (apps/<app>/src/….ts)`);
  if (!built) {
    execFileSync(process.execPath, [path.join(repoRoot, 'scripts', 'build.mjs'), '--if-stale'], { cwd: repoRoot, stdio: 'inherit' });
    built = true;
  }
  const [, app = '', file = ''] = m; // both groups always match
  return path.join(repoRoot, 'dist', app, `${file}.js`);
}
