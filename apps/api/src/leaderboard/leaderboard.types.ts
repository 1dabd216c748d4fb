// GraphQL types of the leaderboard: each class implements the plain type of @podium/leaderboard
// that workers compute and store, field for field.
import { Field, Float, ID, Int, ObjectType, registerEnumType } from '@nestjs/graphql';
import * as lb from '@podium/leaderboard';
import { PairedTest, PValueCorrection } from '@podium/leaderboard';

export { PairedTest, PValueCorrection };
registerEnumType(PairedTest, {
  name: 'PairedTest',
  description: 'A paired test on instance scores that a board may choose, from the ranking library’s registry (see the `significanceTests` query)',
});

registerEnumType(PValueCorrection, { name: 'PValueCorrection', description: 'Holm (family-wise), Benjamini–Hochberg (FDR), or none' });

@ObjectType({ description: '95% interval; null bounds are unbounded or undefined' })
export class Interval implements lb.Interval {
  @Field(() => Float, { nullable: true }) low!: number | null;
  @Field(() => Float, { nullable: true }) high!: number | null;
}

@ObjectType({ description: 'Bootstrap 95% interval of a rank (best, worst)' })
export class RankInterval implements lb.RankInterval {
  @Field(() => Int) best!: number;
  @Field(() => Int) worst!: number;
}

@ObjectType()
export class SystemRanks implements lb.SystemRanks {
  @Field(() => Int) mean!: number;
  @Field(() => Int) median!: number;
  @Field(() => Int, { description: 'Bradley–Terry' }) bt!: number;
  @Field(() => Int) elo!: number;
  @Field(() => Int) trueskill!: number;
  @Field(() => Int, { nullable: true, description: 'By the corpus score (corpus-level metrics only)' }) corpus!: number | null;
}

@ObjectType({ description: 'Rank intervals per aggregation: bootstrap over instances for mean, median, BT and corpus; the spread over random game orders for Elo and TrueSkill' })
export class SystemRankIntervals implements lb.SystemRankIntervals {
  @Field(() => RankInterval) mean!: RankInterval;
  @Field(() => RankInterval) median!: RankInterval;
  @Field(() => RankInterval) bt!: RankInterval;
  @Field(() => RankInterval, { nullable: true, description: '2.5–97.5 percentile of ranks over random game orders (order sensitivity, not sampling)' }) elo!: RankInterval | null;
  @Field(() => RankInterval, { nullable: true, description: '2.5–97.5 percentile of ranks over random game orders (order sensitivity, not sampling)' }) trueskill!: RankInterval | null;
  @Field(() => RankInterval, { nullable: true, description: 'Bootstrap (paired-bs resamples) rank interval of the corpus score' }) corpus!: RankInterval | null;
}

@ObjectType({ description: 'Significance cluster (1 = top) under each aggregation; see Leaderboard.clusterDefinition' })
export class SystemClusters implements lb.SystemClusters {
  @Field(() => Int) mean!: number;
  @Field(() => Int) median!: number;
  @Field(() => Int) bt!: number;
  @Field(() => Int, { nullable: true }) corpus!: number | null;
}

@ObjectType({ description: "sacreBLEU's paired-bs \"mean ± CI\": the mean of the bootstrap corpus scores, the half-width (upper − lower)/2 and the order statistics ⌊R/40⌋ and R − ⌊R/40⌋ − 1" })
export class CorpusInterval implements lb.CorpusInterval {
  @Field(() => Float, { nullable: true }) mean!: number | null;
  @Field(() => Float, { nullable: true }) ci!: number | null;
  @Field(() => Float, { nullable: true }) low!: number | null;
  @Field(() => Float, { nullable: true }) high!: number | null;
}

@ObjectType({ description: 'The test behind one aggregation’s clusters' })
export class ClusterTest implements lb.ClusterTest {
  @Field({ description: 'mean | median | bt | corpus' }) aggregation!: string;
  @Field({ description: 'Test key, as in SystemPair.testResults' }) test!: string;
  @Field({ description: 'The test in words' }) label!: string;
}

@ObjectType({ description: 'A ranking method of the board (from the ranking library’s registry): how to read its values in `LeaderboardSystem.values`' })
export class MethodDescriptor implements lb.MethodDescriptor {
  @Field({ description: 'Key, as in MethodValue.method (e.g. mean, bt, mean_win_rate)' }) key!: string;
  @Field() label!: string;
  @Field({ description: 'What the value is, in one sentence' }) description!: string;
  @Field({ description: "How rank intervals are made: 'bootstrap' (over instances) or 'game order' (spread over random game orders)" }) intervalKind!: string;
  @Field({ description: "'metric' (values in the metric's direction) or 'higher is better'" }) direction!: string;
  @Field({ description: 'Whether the method has significance clusters on this board' }) clusters!: boolean;
  @Field(() => String, { nullable: true, description: 'Key of the test behind its clusters (as in SystemPair.testResults); null without clusters' }) test!: string | null;
  @Field(() => String, { nullable: true, description: 'That test in words' }) testLabel!: string | null;
}

@ObjectType({ description: 'One system under one ranking method' })
export class MethodValue implements lb.MethodValue {
  @Field({ description: 'MethodDescriptor.key' }) method!: string;
  @Field(() => Float, { nullable: true }) value!: number | null;
  @Field(() => Interval, { nullable: true, description: '95% interval of the value; null when the method has none' }) interval!: Interval | null;
  @Field(() => Int) rank!: number;
  @Field(() => RankInterval, { description: '95% rank interval (see MethodDescriptor.intervalKind)' }) rankInterval!: RankInterval;
  @Field(() => Int, { nullable: true, description: 'Significance cluster (1 = top); null when the method has no clusters' }) cluster!: number | null;
}

@ObjectType({ description: 'Whether a pair differs significantly under each aggregation’s cluster test (corrected p < α, direction agreeing)' })
export class PairSignificance implements lb.PairSignificance {
  @Field() mean!: boolean;
  @Field() median!: boolean;
  @Field() bt!: boolean;
  @Field(() => Boolean, { nullable: true }) corpus!: boolean | null;
}

@ObjectType({ description: 'A strongly connected component of the Bradley–Terry win graph' })
export class BtComponent implements lb.BtComponent {
  @Field(() => Int, { description: 'Dominance tier, 0 = no other group beats it' }) tier!: number;
  @Field(() => [String]) systems!: string[];
}

@ObjectType()
export class TrueSkillRating implements lb.TrueSkillRating {
  @Field(() => Float, { nullable: true }) mu!: number | null;
  @Field(() => Float, { nullable: true }) sigma!: number | null;
}

@ObjectType()
export class LeaderboardSystem implements lb.LeaderboardSystem {
  @Field(() => ID) submissionId!: string;
  @Field() system!: string;
  @Field() team!: string;
  @Field() isBaseline!: boolean;
  @Field(() => Int, { description: 'Instances scored' }) n!: number;
  @Field(() => Float, { nullable: true, description: 'Corpus-level score (e.g. corpus BLEU): the main column for corpus-level metrics' }) corpusScore!: number | null;
  @Field(() => CorpusInterval, { nullable: true, description: "Bootstrap of the corpus score (sacreBLEU's mean ± CI); corpus-level metrics only" }) corpusCi!: CorpusInterval | null;
  @Field({ description: 'Signature of the corpus score' }) corpusSignature!: string;
  @Field({ description: 'Signature of the instance scores' }) signature!: string;
  @Field(() => Float) mean!: number;
  @Field(() => Interval) meanCi!: Interval;
  @Field(() => Float) median!: number;
  @Field(() => Interval) medianCi!: Interval;
  @Field(() => Float, { nullable: true, description: 'Bradley–Terry strength within its win-graph component (sums to 1 per component; over all systems when btFiniteMle)' }) bt!: number | null;
  @Field(() => Int, { description: 'Dominance tier of the Bradley–Terry component (0 = top)' }) btTier!: number;
  @Field(() => Interval) btCi!: Interval;
  @Field(() => Float, { nullable: true }) elo!: number | null;
  @Field(() => TrueSkillRating) trueskill!: TrueSkillRating;
  @Field(() => SystemRanks) rank!: SystemRanks;
  @Field(() => SystemRankIntervals) rankInterval!: SystemRankIntervals;
  @Field(() => SystemClusters) cluster!: SystemClusters;
  @Field({ description: 'In a pair whose cluster relation differs between mean, median and BT' }) clusterDisagreement!: boolean;
  @Field(() => [MethodValue], { description: 'Every ranking method of Leaderboard.methods, in that order' }) values!: MethodValue[];
}

/**
 * The deprecated fixed-field form of a pair's tests: one nullable Float per registered test, named
 * by `pairTestField` (bootstrap_corpus → bootstrapCorpus), built from the ranking library's
 * registry here and filled from `testResults` by SystemPairResolver, so no test is listed by hand.
 */
@ObjectType({ description: 'Unadjusted p-values of every registered test by field (deprecated: read SystemPair.testResults)' })
export class PairTests {
  [field: string]: number | null;
}
for (const t of lb.PAIRED_TESTS) Field(() => Float, { nullable: true, description: t.label })(PairTests.prototype, lb.pairTestField(t.key));


@ObjectType({ description: "One registered test's unadjusted p-value for a pair" })
export class PairTestResult implements lb.PairTestResult {
  @Field({ description: 'The test’s registry key, as in SignificanceTest.key' }) test!: string;
  @Field(() => Float, { nullable: true, description: 'Unadjusted p; null where the test was not computed' }) p!: number | null;
}

@ObjectType({ description: 'Head-to-head comparison of systems a and b; differences are a − b' })
export class SystemPair implements lb.SystemPair {
  @Field(() => ID) aSubmissionId!: string;
  @Field(() => ID) bSubmissionId!: string;
  @Field() a!: string;
  @Field() b!: string;
  @Field(() => Int, { description: 'Instances where a is strictly better' }) wins!: number;
  @Field(() => Int) losses!: number;
  @Field(() => Int) ties!: number;
  @Field(() => Float, { nullable: true, description: 'Bradley–Terry P(a beats b)' }) pBt!: number | null;
  @Field(() => Float, { nullable: true, description: 'Median of paired differences' }) medianDiff!: number | null;
  @Field(() => Float, { nullable: true }) meanDiff!: number | null;
  @Field(() => Float, { nullable: true, description: "p-value of the leaderboard's test" }) p!: number | null;
  @Field(() => Float, { nullable: true, description: 'p after the multiple-comparison correction' }) pAdjusted!: number | null;
  @Field(() => [PairTestResult], { description: 'Every registered test computed for the pair, in the registry’s order (corpus tests only for corpus-level metrics)' })
  testResults!: PairTestResult[];
  @Field({ description: 'Key of the test behind p and pAdjusted (the corpus analogue for corpus-level metrics when bootstrap or ar is chosen)' }) pTest!: string;
  @Field(() => PairSignificance) significant!: PairSignificance;
}

@ObjectType({ description: 'Which instances of a split phase the board ranks on (the public part before publishing, the private part or all after)' })
export class ScoredOn implements lb.ScoredOn {
  @Field({ description: 'public, private or all' }) part!: string;
  @Field(() => Int) instances!: number;
  @Field(() => Int) total!: number;
  @Field({ description: 'e.g. "ranked on the private part: 700 of 1000 instances"' }) note!: string;
}

@ObjectType()
export class Leaderboard implements lb.Leaderboard {
  @Field(() => ID) phaseId!: string;
  @Field({ description: 'Metric key' }) metric!: string;
  @Field() higherIsBetter!: boolean;
  @Field({ description: 'Signature shared by the instance scores (the most common one if they differ)' }) metricSignature!: string;
  @Field(() => [String], { description: 'Metric keys with scores in this phase, then the combined metrics (`combined:<nli>+<other>`) computable from them' })
  availableMetrics!: string[];
  @Field(() => PairedTest, { description: 'Test behind `p` and `pAdjusted` of the pairs' }) test!: PairedTest;
  @Field(() => PValueCorrection) correction!: PValueCorrection;
  @Field(() => Int, { description: "The phase's seed (organiser setting)" }) seed!: number;
  @Field(() => Int, { description: 'Bootstrap resamples and randomisation trials used' }) resamples!: number;
  @Field({ description: 'True when resamples were chosen from the number of pairs, α and correction (the phase sets none)' }) resamplesChosen!: boolean;
  @Field(() => Float, { description: 'Smallest corrected p a resampling test can reach: min(1, pairs/(resamples + 1)) with Holm/BH, 1/(resamples + 1) without' }) smallestReachableP!: number;
  @Field(() => Float) alpha!: number;
  @Field(() => [String], { description: 'Plain-language warnings, e.g. that resampling tests cannot reach significance at this size' }) significanceWarnings!: string[];
  @Field({ description: "'corpus' for corpus-level metrics (BLEU, chrF, TER: ranked by the corpus score), else 'mean'" }) mainAggregation!: string;
  @Field({ description: 'Signature of the corpus score (the most common one)' }) corpusSignature!: string;
  @Field({ description: 'The cluster rule in words' }) clusterDefinition!: string;
  @Field(() => [ClusterTest], { description: 'The test behind each aggregation’s clusters' }) clusterTests!: ClusterTest[];
  @Field(() => [MethodDescriptor], { description: 'The ranking methods of LeaderboardSystem.values, in table order' }) methods!: MethodDescriptor[];
  @Field({ description: 'True when the Bradley–Terry win graph is strongly connected, so a finite maximum-likelihood estimate exists' }) btFiniteMle!: boolean;
  @Field(() => String, { nullable: true, description: 'Why Bradley–Terry has no finite MLE, in words' }) btNote!: string | null;
  @Field(() => [BtComponent]) btComponents!: BtComponent[];
  @Field(() => Int) instanceCount!: number;
  @Field(() => ScoredOn, { nullable: true, description: 'The part of a split phase ranked on; null without a split' }) scoredOn!: ScoredOn | null;
  @Field(() => [LeaderboardSystem], { description: 'Ordered by the main aggregation’s rank (corpus or mean)' }) systems!: LeaderboardSystem[];
  /** Every pair; GraphQL's `pairs(system:, first:, offset:)` and `pairCount` are field resolvers (LeaderboardResolver). */
  pairs!: SystemPair[];
  @Field(() => String, { nullable: true, description: 'Set when mean, median and Bradley–Terry disagree about the top system' })
  disagreement!: string | null;
  @Field(() => [String], { description: 'Caveats: systems left out, differing signatures, too few systems' }) notes!: string[];
  @Field({ description: "True while the phase's current data is still being ranked: this is the previous version (or, before the first, an empty board)" })
  updating!: boolean;
  @Field({ description: 'Hash of everything this board was computed from (scores, moderation, primary and baseline flags, significance settings, publication); empty before the first' })
  stamp!: string;
  @Field(() => Date, { nullable: true, description: 'When a worker computed this board' }) computedAt!: Date | null;
}
