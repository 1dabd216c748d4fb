/**
 * The paired significance tests, each named once: its key (JSON, CSV, CLI `--test`, GraphQL
 * enum value), its label, and whether it needs per-instance sufficient statistics. The
 * computations run in `analyseSystems`' pair loop (they share sorted differences, pairwise win
 * counts and the bootstrap draws).
 */
export interface PairedTestDescriptor<K extends string = string> {
  key: K;
  label: string;
  /** Only with per-instance sufficient statistics of a corpus-level metric (sacreBLEU paired-bs / paired-ar). */
  corpus: boolean;
}

/** Every paired test, in the order tables list them. */
export const PAIRED_TESTS = [
  { key: 'ttest', label: 'paired t-test', corpus: false },
  { key: 'wilcoxon', label: 'Wilcoxon signed-rank test (exact for n ≤ 50)', corpus: false },
  { key: 'sign', label: 'sign test (exact binomial, ties dropped)', corpus: false },
  { key: 'mood', label: "Mood's median test", corpus: false },
  { key: 'bootstrap', label: 'paired bootstrap of the mean', corpus: false },
  { key: 'ar', label: 'paired approximate randomisation of the mean', corpus: false },
  { key: 'bootstrap_corpus', label: 'paired bootstrap resampling of the corpus score (sacreBLEU paired-bs)', corpus: true },
  { key: 'ar_corpus', label: 'paired approximate randomisation of the corpus score (sacreBLEU paired-ar)', corpus: true },
] as const satisfies readonly PairedTestDescriptor[];

/**
 * A paired significance test available for every pair of systems. `bootstrap_corpus` and
 * `ar_corpus` (sacreBLEU's paired-bs and paired-ar on the corpus score) exist only when
 * per-instance sufficient statistics are given.
 */
export type TestName = (typeof PAIRED_TESTS)[number]['key'];

/** Every test key. */
export const TEST_NAMES: readonly TestName[] = PAIRED_TESTS.map((t) => t.key);

/** A test on instance scores (not needing sufficient statistics): what a leaderboard view or `--test` may choose. */
export type SentenceTestName = Extract<(typeof PAIRED_TESTS)[number], { corpus: false }>['key'];

/** Tests on instance scores (computed for every pair unless skipped), in table order. */
export const SENTENCE_TESTS = PAIRED_TESTS.filter((t): t is Extract<(typeof PAIRED_TESTS)[number], { corpus: false }> => !t.corpus).map((t) => t.key) as readonly SentenceTestName[] as readonly [SentenceTestName, ...SentenceTestName[]];

/** Human names of the tests, for tables and tooltips. */
export const TEST_LABELS: Readonly<Record<TestName, string>> = Object.fromEntries(PAIRED_TESTS.map((t) => [t.key, t.label])) as Record<TestName, string>;

/** Whether a string names a paired test. */
export function isTestName(name: string): name is TestName {
  return (TEST_NAMES as readonly string[]).includes(name);
}
