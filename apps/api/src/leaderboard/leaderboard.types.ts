import { Field, Float, ID, Int, ObjectType, registerEnumType } from '@nestjs/graphql';

export enum PairedTest {
  TTEST = 'ttest',
  WILCOXON = 'wilcoxon',
  SIGN = 'sign',
  MOOD = 'mood',
  BOOTSTRAP = 'bootstrap',
  AR = 'ar',
}
registerEnumType(PairedTest, {
  name: 'PairedTest',
  description: "Paired t-test, Wilcoxon signed-rank, sign test, Mood's median test, paired bootstrap, approximate randomisation",
});

export enum PValueCorrection {
  HOLM = 'holm',
  BH = 'bh',
  NONE = 'none',
}
registerEnumType(PValueCorrection, { name: 'PValueCorrection', description: 'Holm (family-wise), Benjamini–Hochberg (FDR), or none' });

@ObjectType({ description: '95% interval; null bounds are unbounded or undefined' })
export class Interval {
  @Field(() => Float, { nullable: true }) low!: number | null;
  @Field(() => Float, { nullable: true }) high!: number | null;
}

@ObjectType({ description: 'Bootstrap 95% interval of a rank (best, worst)' })
export class RankInterval {
  @Field(() => Int) best!: number;
  @Field(() => Int) worst!: number;
}

@ObjectType()
export class SystemRanks {
  @Field(() => Int) mean!: number;
  @Field(() => Int) median!: number;
  @Field(() => Int, { description: 'Bradley–Terry' }) bt!: number;
  @Field(() => Int) elo!: number;
  @Field(() => Int) trueskill!: number;
}

@ObjectType()
export class SystemRankIntervals {
  @Field(() => RankInterval) mean!: RankInterval;
  @Field(() => RankInterval) median!: RankInterval;
  @Field(() => RankInterval) bt!: RankInterval;
}

@ObjectType({ description: 'Significance cluster (1 = top) under each aggregation' })
export class SystemClusters {
  @Field(() => Int) mean!: number;
  @Field(() => Int) median!: number;
  @Field(() => Int) bt!: number;
}

@ObjectType()
export class TrueSkillRating {
  @Field(() => Float, { nullable: true }) mu!: number | null;
  @Field(() => Float, { nullable: true }) sigma!: number | null;
}

@ObjectType()
export class LeaderboardSystem {
  @Field(() => ID) submissionId!: string;
  @Field() system!: string;
  @Field() team!: string;
  @Field() isBaseline!: boolean;
  @Field(() => Int, { description: 'Instances scored' }) n!: number;
  @Field(() => Float, { nullable: true, description: 'Corpus-level score (e.g. corpus BLEU)' }) corpusScore!: number | null;
  @Field({ description: 'Signature of the corpus score' }) corpusSignature!: string;
  @Field({ description: 'Signature of the instance scores' }) signature!: string;
  @Field(() => Float) mean!: number;
  @Field(() => Interval) meanCi!: Interval;
  @Field(() => Float) median!: number;
  @Field(() => Interval) medianCi!: Interval;
  @Field(() => Float, { nullable: true, description: 'Bradley–Terry strength (sums to 1 over systems)' }) bt!: number | null;
  @Field(() => Interval) btCi!: Interval;
  @Field(() => Float, { nullable: true }) elo!: number | null;
  @Field(() => TrueSkillRating) trueskill!: TrueSkillRating;
  @Field(() => SystemRanks) rank!: SystemRanks;
  @Field(() => SystemRankIntervals) rankInterval!: SystemRankIntervals;
  @Field(() => SystemClusters) cluster!: SystemClusters;
  @Field({ description: 'In a pair whose cluster relation differs between mean, median and BT' }) clusterDisagreement!: boolean;
}

@ObjectType()
export class PairTests {
  @Field(() => Float, { nullable: true }) ttest!: number | null;
  @Field(() => Float, { nullable: true }) wilcoxon!: number | null;
  @Field(() => Float, { nullable: true }) sign!: number | null;
  @Field(() => Float, { nullable: true }) mood!: number | null;
  @Field(() => Float, { nullable: true }) bootstrap!: number | null;
  @Field(() => Float, { nullable: true }) ar!: number | null;
}

@ObjectType({ description: 'Head-to-head comparison of systems a and b; differences are a − b' })
export class SystemPair {
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
  @Field(() => PairTests, { description: 'Unadjusted p-values of every test' }) tests!: PairTests;
}

@ObjectType()
export class Leaderboard {
  @Field(() => ID) phaseId!: string;
  @Field({ description: 'Metric key' }) metric!: string;
  @Field() higherIsBetter!: boolean;
  @Field({ description: 'Signature shared by the instance scores (the most common one if they differ)' }) metricSignature!: string;
  @Field(() => [String], { description: 'Metric keys with scores in this phase, then the combined metrics (`combined:<nli>+<other>`) computable from them' })
  availableMetrics!: string[];
  @Field(() => PairedTest, { description: 'Test behind `p` and `pAdjusted` of the pairs' }) test!: PairedTest;
  @Field(() => PValueCorrection) correction!: PValueCorrection;
  @Field(() => Int) seed!: number;
  @Field(() => Int) resamples!: number;
  @Field(() => Int) instanceCount!: number;
  @Field(() => [LeaderboardSystem], { description: 'Ordered by mean rank' }) systems!: LeaderboardSystem[];
  @Field(() => [SystemPair]) pairs!: SystemPair[];
  @Field(() => String, { nullable: true, description: 'Set when mean, median and Bradley–Terry disagree about the top system' })
  disagreement!: string | null;
  @Field(() => [String], { description: 'Caveats: systems left out, differing signatures, too few systems' }) notes!: string[];
}
