// `npm run lint`: ESLint (eslint.config.mjs) over apps, libs, test, bench, scripts, models, prisma
// and the root configs, cached in node_modules/.cache/eslint/. Nx's module-boundary rule reads the
// cached project graph and silently skips itself without one, so the graph is refreshed first.
// Extra arguments go to ESLint, e.g. `npm run lint -- --fix` or `npm run lint -- libs/metrics`.
// The cache is keyed on each file's content: after changing a type another file relies on, run
// `npm run lint -- --no-cache` (CI starts without a cache).
import { lint } from './lib/lint.mjs';

process.exit((await lint(process.argv.slice(2))) ? 0 : 1);
