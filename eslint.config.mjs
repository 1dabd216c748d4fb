// ESLint (flat config): typescript-eslint strict + type-checked everywhere, react-hooks for the web
// app, and Nx's module-boundary rule enforcing docs/architecture.md "What goes where" and "Boundaries".
// Run it with `npm run lint` (scripts/lint.mjs refreshes Nx's project graph first: without a cached
// graph @nx/enforce-module-boundaries skips itself with a warning).
import js from '@eslint/js';
import nx from '@nx/eslint-plugin';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

// Node built-ins: a `type:pure` lib (metrics, ranking) does no I/O and runs in a browser too.
const nodeBuiltins = ['node:*', 'fs', 'fs/*', 'path', 'os', 'child_process', 'worker_threads', 'net', 'http', 'https', 'crypto', 'stream', 'zlib', 'url', 'util'];

const PURE_PACKAGES = ['zod', 'wink-nlp', 'wink-eng-lite-web-model', 'ml-matrix'];

/** The architecture, as Nx tags (every apps/*\/project.json and libs/*\/project.json carries them). */
const depConstraints = [
  // Apps use libs, never another app.
  { sourceTag: 'scope:app', onlyDependOnLibsWithTags: ['scope:lib'] },
  // Libs never import apps.
  { sourceTag: 'scope:lib', onlyDependOnLibsWithTags: ['scope:lib'] },
  // Pure libs depend only on pure libs and, of npm packages, only on plain-JavaScript ones that do
  // no I/O and run in a browser: zod (metric option schemas), wink-nlp with its web model
  // (DiscoScore's noun foci) and ml-matrix (the SVD of XMoverScore's mapping fit).
  { sourceTag: 'type:pure', onlyDependOnLibsWithTags: ['type:pure'], allowedExternalImports: PURE_PACKAGES },
  // The domain (errors, identities, state machines, credentials) sits below every other lib: it
  // imports none of ours and no npm package, so the rules hold wherever they are used.
  { sourceTag: 'scope:domain', onlyDependOnLibsWithTags: ['scope:domain'], allowedExternalImports: [] },
];

const boundaries = (constraints, allow = []) => ({
  '@nx/enforce-module-boundaries': [
    'error',
    {
      enforceBuildableLibDependency: false,
      allow,
      depConstraints: constraints,
    },
  ],
});

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      'tmp/**',
      'coverage/**',
      '.nx/**',
      'test-artifacts/**',
      'libs/db/src/generated/**',
      'apps/web/src/graphql/generated.ts',
      // The plugin registries' indexes (scripts/generate-plugin-index.mjs, ADR 0036).
      '**/*.generated.ts',
      'models/*/**',
    ],
  },
  {
    linterOptions: { reportUnusedDisableDirectives: 'error' },
  },
  js.configs.recommended,
  ...tseslint.configs.strictTypeChecked,
  {
    languageOptions: {
      parserOptions: {
        // tsconfig.eslint.json = tsconfig.json with noUncheckedIndexedAccess (see there).
        project: ['./tsconfig.eslint.json', './apps/web/tsconfig.json'],
        tsconfigRootDir: import.meta.dirname,
      },
      globals: { ...globals.node },
    },
    plugins: { '@nx': nx },
    rules: {
      ...boundaries(depConstraints),
      // Only libs/db talks to the database driver (docs/architecture.md "Boundaries"): nobody else imports Prisma.
      'no-restricted-imports': ['error', { patterns: [{ group: ['@prisma/*'], message: 'Only libs/db imports Prisma; use @podium/db.' }] }],
      // Kept as errors (issue #14): no-non-null-assertion, no-explicit-any, no-floating-promises,
      // no-misused-promises. Turned down or tuned, one reason each:
      // Numbers and booleans print predictably in messages and signatures; objects still may not.
      '@typescript-eslint/restrict-template-expressions': ['error', { allowNumber: true, allowBoolean: true }],
      // Nest modules and resolvers are classes with only decorators/static members by design.
      '@typescript-eslint/no-extraneous-class': ['error', { allowWithDecorator: true }],
      // `_`-prefixed parameters are deliberately unused (interfaces, callbacks).
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      // Arrow shorthand `() => void setX(v)` style callbacks are idiomatic (React handlers, forEach).
      '@typescript-eslint/no-confusing-void-expression': ['error', { ignoreArrowShorthand: true }],
      // `async` without `await` implements promise-returning interfaces (Apollo plugins, pg-boss and
      // fetch fakes, CLI commands); dropping `async` would turn rejections into synchronous throws.
      '@typescript-eslint/require-await': 'off',
      // Heavy packages are require()d lazily, on first use, so that `podium` starts fast (bench:startup).
      '@typescript-eslint/no-require-imports': ['error', { allow: ['^onnxruntime-node$', '^@huggingface/tokenizers$', '^wink-', '^\\./score-nli$', '^\\./score-embedding$'] }],
      // Nest GraphQL object types are classes used as shapes: resolvers return plain objects by design.
      '@typescript-eslint/no-unsafe-class-instance-assignment': 'off',
    },
  },
  {
    // Pure libs: no Node I/O, no Nest, no database (their specs may read golden files).
    files: ['libs/metrics/src/**/*.ts', 'libs/ranking/src/**/*.ts'],
    ignores: ['**/*.spec.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [],
          patterns: [
            { group: ['@prisma/*'], message: 'Only libs/db imports Prisma; use @podium/db.' },
            { group: [...nodeBuiltins, '@nestjs/*', 'pg', 'pg-boss'], message: 'type:pure libs do no I/O: no Node built-ins, Nest or database.' },
          ],
        },
      ],
    },
  },
  {
    // libs/domain: the rules without the machinery: no database, no Nest, no I/O. node:crypto (and
    // node:util's promisify) only, for credentials (scrypt, token hashes).
    files: ['libs/domain/src/**/*.ts'],
    ignores: ['**/*.spec.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [],
          patterns: [
            { group: ['@prisma/*'], message: 'Only libs/db imports Prisma; use @podium/db.' },
            { group: [...nodeBuiltins, '!node:crypto', '!node:util', '@nestjs/*', 'pg', 'pg-boss'], message: 'libs/domain does no I/O: node:crypto and node:util only; no Nest or database.' },
          ],
        },
      ],
    },
  },
  {
    // Specs: pure libs' specs compare against golden data fetched by libs/datasets; app specs share
    // the test-data helpers in test/support (outside every project).
    files: ['**/*.spec.{ts,tsx}'],
    rules: boundaries(
      [
        { sourceTag: 'type:pure', onlyDependOnLibsWithTags: ['type:pure', 'scope:datasets'], allowedExternalImports: PURE_PACKAGES },
        ...depConstraints.filter((c) => c.sourceTag !== 'type:pure'),
      ],
      ['^(\\.\\./)+test/support/'],
    ),
  },
  {
    // The test-only LP reference of the transport solver (HiGHS, a devDependency): read by specs and
    // bench:transport, never exported from @podium/metrics.
    files: ['libs/metrics/src/transport/lp-reference.ts'],
    rules: boundaries([
      { sourceTag: 'type:pure', onlyDependOnLibsWithTags: ['type:pure'], allowedExternalImports: [...PURE_PACKAGES, 'highs'] },
      ...depConstraints.filter((c) => c.sourceTag !== 'type:pure'),
    ]),
  },
  {
    // Specs and end-to-end tests read untyped JSON (HTTP bodies, files, child-process output) and
    // assert its shape with expect(), which is the check these rules ask for.
    files: ['**/*.spec.{ts,tsx}', 'test/**/*.ts'],
    rules: {
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      // afterAll cleans up with `x?.close()` values that a failed beforeAll left unassigned; their
      // declared types (`let app: App`) cannot say so.
      '@typescript-eslint/no-unnecessary-condition': 'off',
      // Test helpers type an untyped JSON response by a caller-chosen T (`gql<T>(query)`).
      '@typescript-eslint/no-unnecessary-type-parameters': 'off',
    },
  },
  {
    // libs/db is the one place that imports Prisma; prisma.config.ts configures the Prisma CLI.
    files: ['libs/db/**/*.ts', 'prisma.config.ts'],
    rules: { 'no-restricted-imports': 'off' },
  },
  {
    files: ['apps/web/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    languageOptions: { globals: { ...globals.browser } },
    rules: { ...reactHooks.configs.recommended.rules },
  },
  {
    // Plain JavaScript (scripts/*.mjs, Jest helpers) and the per-project jest.config.ts files that
    // belong to no tsconfig: syntax-level rules only.
    files: ['**/*.{js,mjs,cjs}', '**/jest.config.ts', 'jest.preset.js', 'prisma.config.ts'],
    extends: [tseslint.configs.disableTypeChecked],
    rules: {
      // Jest loads these configs as CommonJS.
      '@typescript-eslint/no-require-imports': 'off',
      // Each project's jest.config.ts requires the shared jest.preset.js at the root, outside every project.
      '@nx/enforce-module-boundaries': 'off',
    },
  },
);
