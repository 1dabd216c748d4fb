/**
 * The paired significance tests, one plugin per file in this folder, each listed once here: its
 * key (JSON, CSV, CLI `--test`, GraphQL `PairedTest` value), its label, whether it needs
 * per-instance sufficient statistics, and its computation (see ./test.ts). `analyseSystems` loops
 * over this list; `registry.spec.ts` holds every file of the folder to it.
 */
import { arTest } from './ar';
import { arCorpusTest } from './ar-corpus';
import { bootstrapTest } from './bootstrap';
import { bootstrapCorpusTest } from './bootstrap-corpus';
import { moodTest } from './mood';
import { signTest } from './sign';
import type { SignificanceTest } from './test';
import { tTest } from './ttest';
import { wilcoxonTest } from './wilcoxon';

/** Every paired test, in the order tables list them (tests on instance scores first, then the corpus-score ones). */
export const SIGNIFICANCE_TESTS = [tTest, wilcoxonTest, signTest, moodTest, bootstrapTest, arTest, bootstrapCorpusTest, arCorpusTest] as const satisfies readonly SignificanceTest[];

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
export type TestName = (typeof SIGNIFICANCE_TESTS)[number]['key'];

/** Every test's descriptor, in table order. */
export const PAIRED_TESTS: readonly PairedTestDescriptor<TestName>[] = SIGNIFICANCE_TESTS.map(({ key, label, corpus, statistic }) => ({ key, label, corpus, statistic }));

/** Every test key. */
export const TEST_NAMES: readonly TestName[] = PAIRED_TESTS.map((t) => t.key);

/** A test on instance scores (not needing sufficient statistics): what a leaderboard view or `--test` may choose. */
export type SentenceTestName = Extract<(typeof SIGNIFICANCE_TESTS)[number], { corpus: false }>['key'];

/** A test on the corpus score (needs per-instance sufficient statistics). */
export type CorpusTestName = Exclude<TestName, SentenceTestName>;

/** Tests on instance scores (computed for every pair unless skipped), in table order. */
export const SENTENCE_TESTS = SIGNIFICANCE_TESTS.filter((t): t is Extract<(typeof SIGNIFICANCE_TESTS)[number], { corpus: false }> => !t.corpus).map(
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
