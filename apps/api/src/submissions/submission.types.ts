import { Field, Float, ID, Int, ObjectType, registerEnumType } from '@nestjs/graphql';
import { Moderation, SubmissionStatus } from '@podium/db';
import '../lifecycle/lifecycle.types';
import { TeamType } from '../auth/identity.types';

registerEnumType(SubmissionStatus, { name: 'SubmissionStatus' });

export enum UploadFormatEnum {
  JSONL = 'jsonl',
  TEXT = 'text',
}
registerEnumType(UploadFormatEnum, {
  name: 'UploadFormat',
  description: 'JSONL: one {"id", "output"} object per line; TEXT: one output per line in test-set order',
});

export enum InstanceOrder {
  POSITION = 'position',
  ASC = 'asc',
  DESC = 'desc',
}
registerEnumType(InstanceOrder, { name: 'InstanceOrder', description: 'Test-set order, or by score' });

@ObjectType('CorpusScore')
export class CorpusScoreType {
  @Field() metric!: string;
  @Field(() => Float) value!: number;
  @Field({ description: 'Pins every option, the implementation version and, for NLI, the model checksum' }) signature!: string;
  @Field({ description: "The instances it is computed on: 'all', or in a split phase 'public' (before publishing) or 'private' (after, unless the final ranking uses all)" })
  part!: string;
  @Field({ description: "The metric's direction from the metric registry (by the task's configured name for this key)" })
  higherIsBetter!: boolean;
}

@ObjectType('Submission')
export class SubmissionType {
  @Field(() => ID) id!: string;
  @Field(() => ID) phaseId!: string;
  @Field(() => ID) teamId!: string;
  @Field(() => TeamType) team!: TeamType;
  @Field() systemName!: string;
  @Field() description!: string;
  @Field(() => String, { nullable: true, description: 'A link to the paper describing the system (http or https)' }) paperUrl!: string | null;
  @Field(() => String, { nullable: true, description: "A link to the system's code (http or https)" }) codeUrl!: string | null;
  @Field() isBaseline!: boolean;
  @Field({ description: "The team's primary submission of the phase: the one the default leaderboard ranks" }) isPrimary!: boolean;
  @Field(() => Moderation, { description: 'NONE, HIDDEN or DISQUALIFIED by an organiser' }) moderation!: Moderation;
  /** Resolved by LifecycleResolver.moderationReason: the team and organisers see it, others only when public. */
  moderationReason!: string | null;
  @Field({ description: 'Whether the organisers chose to show the moderation reason to everyone (default: the team and organisers only)' })
  moderationReasonPublic!: boolean;
  @Field(() => SubmissionStatus) status!: SubmissionStatus;
  @Field(() => String, { nullable: true, description: 'Why scoring failed' }) error!: string | null;
  @Field(() => Int) progressDone!: number;
  @Field(() => Int) progressTotal!: number;
  @Field() createdAt!: Date;
  @Field(() => Date, { nullable: true }) scoredAt!: Date | null;
  @Field(() => Int, { description: 'Scoring attempts started (a rescore starts again at 0)' }) attempt!: number;
  @Field(() => Int, { description: 'Attempts a submission gets before it fails' }) maxAttempts!: number;
  @Field(() => String, { nullable: true, description: "While queued again: e.g. 'retrying after a worker stopped (attempt 2 of 4)'" })
  retryNote!: string | null;
}

@ObjectType('Quota')
export class QuotaType {
  @Field(() => Int) usedToday!: number;
  @Field(() => Int) usedTotal!: number;
  @Field(() => Int) dailyLimit!: number;
  @Field(() => Int) totalLimit!: number;
  @Field(() => Int, { description: 'Submissions left in the next 24 hours' }) remaining!: number;
  @Field(() => Date, { nullable: true, description: 'While the daily limit is used up (and the total is not): when the next submission slot opens' })
  nextSlotAt!: Date | null;
}

@ObjectType('InstanceScore')
export class InstanceScoreType {
  @Field({ description: 'Instance id in the test set' }) instanceId!: string;
  @Field(() => Int) position!: number;
  @Field() source!: string;
  @Field(() => [String], { nullable: true, description: 'null until the organisers publish the results (organisers always see them)' })
  references!: string[] | null;
  @Field() output!: string;
  @Field(() => Float, { nullable: true, description: "null where the phase shows teams corpus scores only (before publishing, unless the organisers chose per-instance scores): per-instance scores are an oracle of the hidden references" })
  score!: number | null;
  @Field() signature!: string;
}

@ObjectType('InstanceScorePage')
export class InstanceScorePageType {
  @Field(() => Int) total!: number;
  @Field(() => Int) offset!: number;
  @Field(() => Int) limit!: number;
  @Field(() => [InstanceScoreType]) rows!: InstanceScoreType[];
}
