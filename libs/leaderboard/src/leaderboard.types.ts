// The leaderboard as plain, serialisable data: what the worker computes and stores, and what
// the API's GraphQL types (apps/api/src/leaderboard/leaderboard.types.ts) map 1:1 from.

export enum PairedTest {
  TTEST = 'ttest',
  WILCOXON = 'wilcoxon',
  SIGN = 'sign',
  MOOD = 'mood',
  BOOTSTRAP = 'bootstrap',
  AR = 'ar',
}

export enum PValueCorrection {
  HOLM = 'holm',
  BH = 'bh',
  NONE = 'none',
}

export interface Interval {
  low: number | null;
  high: number | null;
}
export interface RankInterval {
  best: number;
  worst: number;
}
export interface SystemRanks {
  mean: number;
  median: number;
  bt: number;
  elo: number;
  trueskill: number;
  corpus: number | null;
}
export interface SystemRankIntervals {
  mean: RankInterval;
  median: RankInterval;
  bt: RankInterval;
  elo: RankInterval | null;
  trueskill: RankInterval | null;
  corpus: RankInterval | null;
}
export interface SystemClusters {
  mean: number;
  median: number;
  bt: number;
  corpus: number | null;
}
export interface CorpusInterval {
  mean: number | null;
  ci: number | null;
  low: number | null;
  high: number | null;
}
export interface ClusterTest {
  aggregation: string;
  test: string;
  label: string;
}
export interface PairSignificance {
  mean: boolean;
  median: boolean;
  bt: boolean;
  corpus: boolean | null;
}
export interface BtComponent {
  tier: number;
  systems: string[];
}
export interface TrueSkillRating {
  mu: number | null;
  sigma: number | null;
}

export interface LeaderboardSystem {
  submissionId: string;
  system: string;
  team: string;
  isBaseline: boolean;
  n: number;
  corpusScore: number | null;
  corpusCi: CorpusInterval | null;
  corpusSignature: string;
  signature: string;
  mean: number;
  meanCi: Interval;
  median: number;
  medianCi: Interval;
  bt: number | null;
  btTier: number;
  btCi: Interval;
  elo: number | null;
  trueskill: TrueSkillRating;
  rank: SystemRanks;
  rankInterval: SystemRankIntervals;
  cluster: SystemClusters;
  clusterDisagreement: boolean;
}

export interface PairTests {
  ttest: number | null;
  wilcoxon: number | null;
  sign: number | null;
  mood: number | null;
  bootstrap: number | null;
  ar: number | null;
  bootstrapCorpus: number | null;
  arCorpus: number | null;
}

export interface SystemPair {
  aSubmissionId: string;
  bSubmissionId: string;
  a: string;
  b: string;
  wins: number;
  losses: number;
  ties: number;
  pBt: number | null;
  medianDiff: number | null;
  meanDiff: number | null;
  p: number | null;
  pAdjusted: number | null;
  tests: PairTests;
  pTest: string;
  significant: PairSignificance;
}

/** Which instances of a split phase a board ranks on. */
export interface ScoredOn {
  /** 'public' before publishing; 'private' (or 'all', as configured) after. */
  part: string;
  /** Instances ranked on. */
  instances: number;
  /** Instances in the test set. */
  total: number;
  /** "ranked on the private part: 700 of 1000 instances". */
  note: string;
}

/** One computed leaderboard (what is stored as JSON). */
export interface ComputedLeaderboard {
  phaseId: string;
  metric: string;
  higherIsBetter: boolean;
  metricSignature: string;
  availableMetrics: string[];
  test: PairedTest;
  correction: PValueCorrection;
  seed: number;
  resamples: number;
  resamplesChosen: boolean;
  smallestReachableP: number;
  alpha: number;
  significanceWarnings: string[];
  mainAggregation: string;
  corpusSignature: string;
  clusterDefinition: string;
  clusterTests: ClusterTest[];
  btFiniteMle: boolean;
  btNote: string | null;
  btComponents: BtComponent[];
  instanceCount: number;
  /** The part of a split phase the board ranks on (docs/adr/0014); null without a split. */
  scoredOn: ScoredOn | null;
  systems: LeaderboardSystem[];
  pairs: SystemPair[];
  disagreement: string | null;
  notes: string[];
}

/** A stored leaderboard as served: the computed board and where it stands against the phase's current data. */
export interface Leaderboard extends ComputedLeaderboard {
  /** True while the phase's current scoring stamp is still being computed (this is an older version, or empty). */
  updating: boolean;
  /** The scoring stamp this board was computed for ('' when none was computed yet). */
  stamp: string;
  /** When it was computed (null when none was computed yet). */
  computedAt: Date | null;
}
