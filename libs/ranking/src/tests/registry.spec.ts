// The paired tests' room (docs/architecture.md, "Add a ranking method or test"): one file per test,
// each with its spec, each listed once in the registry; nothing else in the folder.
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { SENTENCE_TESTS, SIGNIFICANCE_TESTS, TEST_NAMES } from './registry';
import type { SignificanceTest } from './test';

const dir = __dirname;
const files = readdirSync(dir).filter((f) => f.endsWith('.ts'));
const INFRASTRUCTURE = new Set(['test.ts', 'registry.ts']);
const pluginFiles = files.filter((f) => !f.endsWith('.spec.ts') && !INFRASTRUCTURE.has(f));

const isTest = (v: unknown): v is SignificanceTest =>
  typeof v === 'object' && v !== null && typeof (v as SignificanceTest).key === 'string' && typeof (v as SignificanceTest).prepare === 'function';

describe('significance test registry', () => {
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
});
