// The paired tests' room (docs/architecture.md, "Add a ranking method or test"): one file per test,
// each with its spec, each imported by the generated modules.generated.ts (ADR 0036); nothing else
// in the folder. Adding a test is its file and its spec.
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { SENTENCE_TESTS, SIGNIFICANCE_TESTS, significanceTestsOf, TEST_NAMES } from './registry';
import type { SignificanceTest } from './test';

const dir = __dirname;
const files = readdirSync(dir).filter((f) => f.endsWith('.ts') && !f.endsWith('.generated.ts'));
const GENERATOR = path.join(dir, '..', '..', '..', '..', 'scripts', 'generate-plugin-index.mjs');
const INFRASTRUCTURE = new Set(['test.ts', 'registry.ts']);
const pluginFiles = files.filter((f) => !f.endsWith('.spec.ts') && !INFRASTRUCTURE.has(f));

const isTest = (v: unknown): v is SignificanceTest =>
  typeof v === 'object' && v !== null && typeof (v as SignificanceTest).key === 'string' && typeof (v as SignificanceTest).prepare === 'function';

describe('significance test registry', () => {
  it('imports every test file of the folder through the generated index, and nothing else', () => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- the generated index, read as the registry reads it
    const listed = Object.keys((require('./modules.generated') as { GENERATED_TEST_MODULES: object }).GENERATED_TEST_MODULES);
    const names = pluginFiles.map((f) => f.replace(/\.ts$/, ''));
    const problems = [
      ...names.filter((f) => !listed.includes(f)).map((f) => `test file '${f}.ts' is not in it`),
      ...listed.filter((f) => !names.includes(f)).map((f) => `it lists '${f}', which is no test file of tests/`),
    ];
    if (problems.length > 0) throw new Error(`tests/modules.generated.ts is stale: ${problems.join('; ')}. Run \`npm run generate\` (node scripts/generate-plugin-index.mjs).`);
  });

  it.each(pluginFiles)('%s exports exactly one registered test and has its own spec', (file) => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- each plugin file of the folder, found at run time
    const mod = require(path.join(dir, file)) as Record<string, unknown>;
    const tests = Object.values(mod).filter(isTest);
    expect(tests).toHaveLength(1);
    expect(SIGNIFICANCE_TESTS).toContain(tests[0]);
    expect(files).toContain(file.replace(/\.ts$/, '.spec.ts'));
  });

  it('lists every test once, each from its own file, with a key usable in JSON, CSV and a GraphQL enum', () => {
    expect(SIGNIFICANCE_TESTS).toHaveLength(pluginFiles.length);
    expect(new Set(TEST_NAMES).size).toBe(TEST_NAMES.length);
    for (const t of SIGNIFICANCE_TESTS) {
      expect(t.key).toMatch(/^[a-z][a-z0-9_]*$/);
      expect(t.label.length).toBeGreaterThan(0);
    }
  });

  it('lists the tests on instance scores before the corpus-score tests (table order)', () => {
    const firstCorpus = SIGNIFICANCE_TESTS.findIndex((t) => t.corpus);
    expect(SIGNIFICANCE_TESTS.slice(0, firstCorpus).map((t) => t.key)).toEqual([...SENTENCE_TESTS]);
    expect(SIGNIFICANCE_TESTS.slice(firstCorpus).every((t) => t.corpus)).toBe(true);
  });

  it('keeps the table order of the list written by hand before ADR 0036 (the tests\' `order`)', () => {
    expect(TEST_NAMES).toEqual(['ttest', 'wilcoxon', 'sign', 'mood', 'bootstrap', 'ar', 'bootstrap_corpus', 'ar_corpus']);
  });

  it('refuses a key given twice', () => {
    const [first] = SIGNIFICANCE_TESTS;
    expect(() => significanceTestsOf([{ a: first }, { b: first }])).toThrow(`significance test '${String(first?.key)}' is registered twice`);
  });

  it('registers a test added as one file: the generator writes its import, nothing else is edited', () => {
    const root = mkdtempSync(path.join(os.tmpdir(), 'podium-tests-'));
    try {
      const copy = path.join(root, 'libs', 'ranking', 'src');
      mkdirSync(copy, { recursive: true });
      cpSync(path.join(dir, '..'), copy, { recursive: true, filter: (src) => !src.endsWith('.spec.ts') });
      const index = path.join(copy, 'tests', 'modules.generated.ts');
      const before = readFileSync(index, 'utf8');
      writeFileSync(
        path.join(copy, 'tests', 'always-one.ts'),
        `import type { SignificanceTest } from './test';
export const alwaysOneTest = { key: 'always_one', label: 'p = 1 (throw-away test of registry.spec.ts)', order: 90, corpus: false, statistic: false, prepare: () => () => ({ p: 1, direction: 0 }) } as const satisfies SignificanceTest<'always_one'>;
`,
      );
      const r = spawnSync(process.execPath, [GENERATOR, '--root', root], { encoding: 'utf8' });
      expect(r.status).toBe(0);
      expect(readFileSync(index, 'utf8')).not.toBe(before);
      let keys: string[] = [];
      jest.isolateModules(() => {
        // eslint-disable-next-line @typescript-eslint/no-require-imports -- the copy's registry, loaded fresh
        keys = (require(path.join(copy, 'tests', 'registry')) as { TEST_NAMES: string[] }).TEST_NAMES;
      });
      expect(keys).toEqual([...TEST_NAMES, 'always_one']);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
