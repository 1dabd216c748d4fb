// Shared Jest settings: SWC transpiles TypeScript (with Nest's decorator metadata);
// type checking is `npm run typecheck`, kept out of the test loop for speed.
const path = require('node:path');

// The plugin registries import indexes generated from their folders (ADR 0036; git-ignored):
// brought up to date before any spec loads them, so a plain `npx jest` in a fresh clone works.
// Writes only what changed (a few directory listings; require of an ES module, Node ≥ 20.19).
require('./scripts/generate-plugin-index.mjs').generatePluginIndexes();
const { compilerOptions } = require('./tsconfig.base.json');

const moduleNameMapper = {};
for (const [alias, [target]] of Object.entries(compilerOptions.paths)) {
  moduleNameMapper[`^${alias}$`] = path.join(__dirname, target);
}

module.exports = {
  testEnvironment: 'node',
  transform: {
    '^.+\\.(t|j)sx?$': [
      '@swc/jest',
      {
        jsc: {
          parser: { syntax: 'typescript', decorators: true, tsx: true },
          transform: { legacyDecorator: true, decoratorMetadata: true, react: { runtime: 'automatic' } },
          target: 'es2022',
        },
        module: { type: 'commonjs' },
      },
    ],
  },
  moduleFileExtensions: ['ts', 'tsx', 'js', 'json'],
  moduleNameMapper,
  testMatch: ['**/*.spec.ts', '**/*.spec.tsx'],
};
