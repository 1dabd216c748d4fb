/**
 * The paired significance tests, one plugin per file in this folder: its key (JSON, CSV, CLI
 * `--test`, GraphQL `PairedTest` value), its label, its place in table order, whether it needs
 * per-instance sufficient statistics, and its computation (see ./test.ts). The files are imported
 * by `modules.generated.ts`, which scripts/generate-plugin-index.mjs writes from the folder
 * (ADR 0036): adding a test is its file and its spec. `analyseSystems` loops over this list;
 * `registry.spec.ts` holds every file of the folder to one test and one spec.
 */
// Git-ignored, written from this folder by scripts/generate-plugin-index.mjs (`npm run generate`).
import { GENERATED_TEST_MODULES } from './modules.generated';
import type { SignificanceTest } from './test';

type TestModules = typeof GENERATED_TEST_MODULES;
/** Each export of each test file (distributed over the files). */
type ExportOf<M> = M extends unknown ? M[keyof M] : never;
/** A registered test, with its literal key and `corpus` flag (the files declare them `as const`). */
type RegisteredTest = Extract<ExportOf<TestModules[keyof TestModules]>, SignificanceTest>;

function isSignificanceTest(value: unknown): value is SignificanceTest {
  if (typeof value !== 'object' || value === null) return false;
  const t = value as Partial<Record<keyof SignificanceTest, unknown>>;
  return typeof t.key === 'string' && typeof t.label === 'string' && typeof t.order === 'number' && typeof t.corpus === 'boolean' && typeof t.prepare === 'function';
}

/** The tests these modules export, sorted by `order` then key. Throws on a key given twice. */
export function significanceTestsOf(modules: readonly Readonly<Record<string, unknown>>[]): SignificanceTest[] {
  const tests = modules.flatMap((m) => Object.values(m).filter(isSignificanceTest));
  const seen = new Set<string>();
  for (const t of tests) {
    if (seen.has(t.key)) throw new Error(`significance test '${t.key}' is registered twice`);
    seen.add(t.key);
  }
  return tests.sort((a, b) => a.order - b.order || (a.key < b.key ? -1 : 1));
}

/** Every paired test, in the order tables list them (tests on instance scores first, then the corpus-score ones: their `order`). */
export const SIGNIFICANCE_TESTS = significanceTestsOf(Object.values(GENERATED_TEST_MODULES)) as readonly RegisteredTest[];

/** What consumers need to know about a test (serialisable). */
export interface PairedTestDescriptor<K extends string = string> {
  key: K;
  label: string;
  /** Only with per-instance sufficient statistics of a corpus-level metric (sacreBLEU paired-bs / paired-ar). */
  corpus: boolean;
  /** Whether its result carries a statistic besides p. */
  statistic: boolean;
}

/**
 * A paired significance test available for every pair of systems. `bootstrap_corpus` and
 * `ar_corpus` (sacreBLEU's paired-bs and paired-ar on the corpus score) exist only when
 * per-instance sufficient statistics are given.
 */
export type TestName = RegisteredTest['key'];

/** Every test's descriptor, in table order. */
export const PAIRED_TESTS: readonly PairedTestDescriptor<TestName>[] = SIGNIFICANCE_TESTS.map(({ key, label, corpus, statistic }) => ({ key, label, corpus, statistic }));

/** Every test key. */
export const TEST_NAMES: readonly TestName[] = PAIRED_TESTS.map((t) => t.key);

/** A test on instance scores (not needing sufficient statistics): what a leaderboard view or `--test` may choose. */
export type SentenceTestName = Extract<RegisteredTest, { corpus: false }>['key'];

/** A test on the corpus score (needs per-instance sufficient statistics). */
export type CorpusTestName = Exclude<TestName, SentenceTestName>;

/** Tests on instance scores (computed for every pair unless skipped), in table order. */
export const SENTENCE_TESTS = SIGNIFICANCE_TESTS.filter((t): t is Extract<RegisteredTest, { corpus: false }> => !t.corpus).map(
  (t) => t.key,
) as readonly SentenceTestName[] as readonly [SentenceTestName, ...SentenceTestName[]];

/** Tests on the corpus score, in table order. */
export const CORPUS_TESTS = SIGNIFICANCE_TESTS.filter((t) => t.corpus).map((t) => t.key) as readonly TestName[] as readonly CorpusTestName[];

/** Human names of the tests, for tables and tooltips. */
export const TEST_LABELS: Readonly<Record<TestName, string>> = Object.fromEntries(PAIRED_TESTS.map((t) => [t.key, t.label])) as Record<TestName, string>;

/** Whether a string names a paired test. */
export function isTestName(name: string): name is TestName {
  return (TEST_NAMES as readonly string[]).includes(name);
}

/** The test with this key, or undefined. */
export function significanceTest(key: string): SignificanceTest | undefined {
  return SIGNIFICANCE_TESTS.find((t) => t.key === key);
}
