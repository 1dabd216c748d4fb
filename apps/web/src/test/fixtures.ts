import type { PValueCorrection, PairedTest } from '../graphql/generated';
import type { LeaderboardData, LeaderboardRow, PairRow } from '../lib/leaderboard';

/** Ranks under the six built-in methods; missing ones follow the mean (corpus: none unless given). */
interface Ranks {
  mean: number;
  median: number;
  bt: number;
  elo: number;
  trueskill: number;
  corpus: number | null;
}
type Clusters = Partial<Record<'mean' | 'median' | 'bt' | 'corpus', number | null>>;

/** A leaderboard row with the given ranks; values follow the ranks unless given. */
export function row(system: string, rank: Partial<Ranks> & { mean: number }, extra: Partial<LeaderboardRow> & { cluster?: Clusters } = {}): LeaderboardRow {
  const r: Ranks = {
    mean: rank.mean,
    median: rank.median ?? rank.mean,
    bt: rank.bt ?? rank.mean,
    elo: rank.elo ?? rank.mean,
    trueskill: rank.trueskill ?? rank.mean,
    corpus: rank.corpus ?? null,
  };
  const { cluster, ...rest } = extra;
  const clusters = { mean: 1, median: 1, bt: 1, corpus: r.corpus === null ? null : 1, ...cluster };
  const value = (method: string, v: number, rank: number, worst: number, c: number | null, interval: { low: number; high: number } | null) => ({
    method,
    value: v,
    interval,
    rank,
    rankInterval: { best: rank, worst },
    cluster: c,
  });
  const values = [
    ...(r.corpus === null ? [] : [value('corpus', 30 - r.corpus, r.corpus, r.corpus, clusters.corpus ?? null, { low: 29.5 - r.corpus, high: 30.5 - r.corpus })]),
    value('mean', 30 - r.mean, r.mean, r.mean + 1, clusters.mean ?? null, { low: 29 - r.mean, high: 31 - r.mean }),
    value('median', 30 - r.median, r.median, r.median, clusters.median ?? null, { low: 29 - r.median, high: 31 - r.median }),
    value('bt', 0.5 / r.bt, r.bt, r.bt, clusters.bt ?? null, { low: 0.4 / r.bt, high: 0.6 / r.bt }),
    value('elo', 1600 - 10 * r.elo, r.elo, r.elo + 2, null, null),
    value('trueskill', 30 - r.trueskill, r.trueskill, r.trueskill + 2, null, null),
  ];
  return {
    submissionId: `id-${system}`,
    system,
    team: `team-${system}`,
    isBaseline: false,
    n: 100,
    btTier: 0,
    clusterDisagreement: false,
    values,
    ...rest,
  };
}

/** The method descriptors of a board with the six built-in methods (as the API describes them). */
export const METHODS: LeaderboardData['methods'] = [
  { key: 'corpus', label: 'Corpus score', description: 'Corpus score', intervalKind: 'bootstrap', direction: 'metric', clusters: true, test: 'bootstrap_corpus', testLabel: 'paired bootstrap resampling of the corpus score (sacreBLEU paired-bs)' },
  { key: 'mean', label: 'Mean', description: 'Mean', intervalKind: 'bootstrap', direction: 'metric', clusters: true, test: 'ttest', testLabel: 'paired t-test' },
  { key: 'median', label: 'Median', description: 'Median', intervalKind: 'bootstrap', direction: 'metric', clusters: true, test: 'mood', testLabel: "Mood's median test" },
  { key: 'bt', label: 'Bradley–Terry', description: 'BT', intervalKind: 'bootstrap', direction: 'higher is better', clusters: true, test: 'sign', testLabel: 'sign test' },
  { key: 'elo', label: 'Elo', description: 'Elo', intervalKind: 'game order', direction: 'higher is better', clusters: false, test: null, testLabel: null },
  { key: 'trueskill', label: 'TrueSkill', description: 'TrueSkill', intervalKind: 'game order', direction: 'higher is better', clusters: false, test: null, testLabel: null },
];

export function pair(a: string, b: string, p: Partial<PairRow> = {}): PairRow {
  return {
    aSubmissionId: `id-${a}`,
    bSubmissionId: `id-${b}`,
    a,
    b,
    wins: 6,
    losses: 3,
    ties: 1,
    pBt: 0.6,
    medianDiff: 1,
    meanDiff: 1.5,
    p: 0.01,
    pAdjusted: 0.02,
    pTest: 'ttest',
    testResults: [
      { test: 'ttest', p: 0.01 },
      { test: 'wilcoxon', p: 0.02 },
      { test: 'sign', p: 0.03 },
      { test: 'mood', p: 0.04 },
      { test: 'bootstrap', p: 0.05 },
      { test: 'ar', p: 0.06 },
    ],
    significant: { mean: true, median: false, bt: false, corpus: null },
    ...p,
  };
}

/** The API's `significanceTests` answer (the libs/ranking registry, tests/registry.ts), plus `future`: a test the web has never heard of. */
export const SIGNIFICANCE_TESTS = [
  { key: 'ttest', value: 'TTEST', label: 'paired t-test', corpus: false, statistic: true },
  { key: 'wilcoxon', value: 'WILCOXON', label: 'Wilcoxon signed-rank test (exact for n ≤ 50)', corpus: false, statistic: true },
  { key: 'sign', value: 'SIGN', label: 'sign test (exact binomial, ties dropped)', corpus: false, statistic: false },
  { key: 'mood', value: 'MOOD', label: "Mood's median test", corpus: false, statistic: true },
  { key: 'bootstrap', value: 'BOOTSTRAP', label: 'paired bootstrap of the mean', corpus: false, statistic: false },
  { key: 'ar', value: 'AR', label: 'paired approximate randomisation of the mean', corpus: false, statistic: false },
  { key: 'bootstrap_corpus', value: null, label: 'paired bootstrap resampling of the corpus score (sacreBLEU paired-bs)', corpus: true, statistic: false },
  { key: 'ar_corpus', value: null, label: 'paired approximate randomisation of the corpus score (sacreBLEU paired-ar)', corpus: true, statistic: false },
] as const satisfies readonly { key: string; value: PairedTest | null; label: string; corpus: boolean; statistic: boolean }[];

/** The API's `pValueCorrections` answer (libs/ranking/src/correction.ts `CORRECTIONS`). */
export const P_VALUE_CORRECTIONS = [
  { key: 'holm', value: 'HOLM', label: 'Holm (family-wise)' },
  { key: 'bh', value: 'BH', label: 'Benjamini–Hochberg (FDR)' },
  { key: 'none', value: 'NONE', label: 'None' },
] as const satisfies readonly { key: string; value: PValueCorrection; label: string }[];

/** Part of the API's `metrics` answer (the libs/metrics registry, with NLI from libs/nli). */
export const METRIC_FACTS = [
  { name: 'bleu', displayName: 'BLEU', higherIsBetter: true },
  { name: 'chrf', displayName: 'chrF', higherIsBetter: true },
  { name: 'chrf++', displayName: 'chrF++', higherIsBetter: true },
  { name: 'ter', displayName: 'TER', higherIsBetter: false },
  { name: 'nli', displayName: 'NLI (MENLI)', higherIsBetter: true },
];
