import { Field, Float, ID, Int, ObjectType, registerEnumType } from '@nestjs/graphql';
import { Interval } from '../leaderboard/leaderboard.types';

export enum RobustnessMode {
  REF = 'ref',
  SRC = 'src',
}
registerEnumType(RobustnessMode, {
  name: 'RobustnessMode',
  description: 'ref: m(ref, paraphrase) > m(ref, adversarial); src: m(source, ref) > m(source, adversarial) (MENLI Eq. 1)',
});

export enum RobustnessReportStatus {
  QUEUED = 'QUEUED',
  RUNNING = 'RUNNING',
  DONE = 'DONE',
  FAILED = 'FAILED',
}
registerEnumType(RobustnessReportStatus, { name: 'RobustnessReportStatus' });

@ObjectType({ description: 'Pass rate of a set of preference rows with its 95% percentile-bootstrap interval' })
export class RobustnessAccuracy {
  @Field(() => Float) accuracy!: number;
  @Field(() => Interval) ci!: Interval;
  @Field(() => Int, { description: 'Rows' }) n!: number;
  @Field(() => Int, { description: 'Rows where the metric preferred the correct candidate' }) passed!: number;
}

@ObjectType()
export class PhenomenonAccuracy extends RobustnessAccuracy {
  @Field({ description: 'MENLI phenomenon code: add, drop, name, neg, num, pron, word_JJ, word_NN, word_VB, typo, jumble, subject_verb_dis' })
  phenomenon!: string;
}

@ObjectType()
export class BootstrapSettings {
  @Field(() => Int) seed!: number;
  @Field(() => Int) resamples!: number;
  @Field(() => Float) confidence!: number;
}

@ObjectType({
  description:
    "One point of MENLI's trade-off curve on an NLI metric's report: accuracy of C = w·NLI + (1−w)·M on the same suite rows, " +
    'N and M min–max scaled per phenomenon over the pooled good and bad scores (upstream combine_1.py), M flipped when lower is better',
})
export class TradeoffPoint {
  @Field({ description: "Key of the task's metric M combined with NLI" }) with!: string;
  @Field(() => Float, { description: 'NLI weight w in [0, 1]; 0 = M alone, 1 = NLI alone' }) w!: number;
  @Field(() => Float) accuracy!: number;
  @Field(() => Interval, { description: "95% percentile bootstrap, the report's own seed and replicates" }) ci!: Interval;
  @Field({ description: 'Pins both component signatures, w, the scaling and the bootstrap seed' }) signature!: string;
}

@ObjectType('RobustnessReport', { description: "A metric's accuracy on an adversarial preference suite (MENLI); one per task, metric, suite and mode" })
export class RobustnessReportType {
  @Field(() => ID) id!: string;
  @Field({ description: "The task's metric key" }) metric!: string;
  @Field({ description: 'Sentence-level signature of the metric as scored; empty until done' }) signature!: string;
  @Field({ description: "'builtin:wmt20-de' or 'generated:<seed>'" }) suite!: string;
  @Field(() => RobustnessMode) mode!: RobustnessMode;
  @Field(() => RobustnessReportStatus) status!: RobustnessReportStatus;
  @Field(() => String, { nullable: true }) error!: string | null;
  @Field(() => Boolean, { nullable: true }) higherIsBetter!: boolean | null;
  @Field(() => RobustnessAccuracy, { nullable: true, description: 'Mean over phenomena (MENLI); n counts all rows. Same as macroAccuracy' })
  overall!: RobustnessAccuracy | null;
  @Field(() => RobustnessAccuracy, { nullable: true, description: "Macro accuracy: the mean of the per-phenomenon accuracies (the MENLI paper's number), with its bootstrap interval" })
  macroAccuracy!: RobustnessAccuracy | null;
  @Field(() => RobustnessAccuracy, {
    nullable: true,
    description: 'Pooled accuracy: passes / rows over all phenomena, with its bootstrap interval (interval null for reports stored before it existed)',
  })
  pooledAccuracy!: RobustnessAccuracy | null;
  @Field(() => [PhenomenonAccuracy]) phenomena!: PhenomenonAccuracy[];
  @Field(() => Int, { nullable: true }) failingCount!: number | null;
  @Field(() => BootstrapSettings, { nullable: true }) bootstrap!: BootstrapSettings | null;
  @Field(() => [TradeoffPoint], {
    nullable: true,
    description: "NLI metrics only: the trade-off curve with each of the task's other metrics, w = 0, .1, …, 1 (null for other metrics or before it is computed)",
  })
  tradeoff!: TradeoffPoint[] | null;
  @Field() createdAt!: Date;
  @Field(() => Date, { nullable: true }) finishedAt!: Date | null;
}

@ObjectType({ description: 'Correlation with human judgements; positive = agrees (lower-is-better metrics are negated)' })
export class HumanCorrelation {
  @Field(() => Float, { nullable: true, description: 'Segment-level Pearson r' }) segmentPearson!: number | null;
  @Field(() => Float, { nullable: true, description: 'Segment-level Kendall τ-b' }) segmentKendallTauB!: number | null;
  @Field(() => Int, { description: 'Judged segments' }) segmentN!: number;
  @Field(() => Float, { nullable: true, description: 'System-level Pearson r of corpus score vs mean human score' }) systemPearson!: number | null;
  @Field(() => Int) systemN!: number;
}

@ObjectType({
  description:
    'Correlation with human scores of the combined metric C = w·NLI + (1−w)·M, combined over all stored instance scores of the phase ' +
    "(min–max over the phase, as the leaderboard's combined metric)",
})
export class CorrelationTradeoffPoint {
  @Field({ description: "Key of the task's metric M combined with NLI" }) with!: string;
  @Field(() => Float) w!: number;
  @Field(() => Float, { nullable: true }) segmentPearson!: number | null;
  @Field(() => Float, { nullable: true, description: 'Corpus score = mean of C over the instances' }) systemPearson!: number | null;
  @Field(() => Int) segmentN!: number;
}

@ObjectType()
export class MetricReportCard {
  @Field() metric!: string;
  @Field({ description: 'Signature of the stored instance scores' }) signature!: string;
  @Field() higherIsBetter!: boolean;
  @Field(() => HumanCorrelation) humanCorrelation!: HumanCorrelation;
  @Field(() => RobustnessReportType, { nullable: true, description: "The metric's robustness report on the chosen suite and mode, if any" })
  robustness!: RobustnessReportType | null;
  @Field(() => [CorrelationTradeoffPoint], {
    nullable: true,
    description: "NLI metrics with human scores only: the combined metric's correlation for each other stored metric and w = 0, .1, …, 1",
  })
  tradeoff!: CorrelationTradeoffPoint[] | null;
}

@ObjectType({ description: "Each stored metric's correlation with the phase's human scores next to its robustness" })
export class ReportCard {
  @Field(() => ID) phaseId!: string;
  @Field(() => Int, { description: 'Human scores on the test set (0: no report card possible)' }) humanScores!: number;
  @Field(() => [String], { description: 'Scored systems with human scores (latest scored submission per system name)' }) systems!: string[];
  @Field() suite!: string;
  @Field(() => RobustnessMode) mode!: RobustnessMode;
  @Field(() => [MetricReportCard]) metrics!: MetricReportCard[];
}
