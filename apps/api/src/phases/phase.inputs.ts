import { Field, Float, ID, InputType, Int } from '@nestjs/graphql';
import { GraphQLJSONObject } from '../common/json.scalar';

@InputType({ description: 'A public/private split of the instances: exactly one of publicIds and publicFraction (ADR 0014)' })
export class PhaseSplitInput {
  @Field(() => [String], { nullable: true, description: 'Instance ids of the public part' }) publicIds?: string[];
  @Field(() => Float, { nullable: true, description: 'Fraction in (0, 1) of instances drawn for the public part (by sha256 of seed:id)' }) publicFraction?: number;
  @Field(() => Int, { nullable: true, description: 'Seed of the draw (default 0); revealed on publishing' }) seed?: number;
  @Field({ nullable: true, description: "What the final ranking uses once published: 'private' (default) or 'all'" }) finalOn?: string;
}

@InputType()
export class CreatePhaseInput {
  @Field({ description: 'Slug of the task the phase belongs to' }) taskSlug!: string;
  @Field() name!: string;
  @Field() opensAt!: Date;
  @Field() closesAt!: Date;
  @Field(() => Int, { description: 'Submissions per team in any 24 hours (≥ 1)' }) dailyLimit!: number;
  @Field(() => Int, { description: 'Submissions per team in the whole phase (≥ 1)' }) totalLimit!: number;
  @Field({ defaultValue: true, description: 'Show the leaderboard to everyone while the phase is open' })
  leaderboardBeforeClose!: boolean;
  @Field({ defaultValue: false, description: 'Before publishing, teams see per-instance scores of their own submissions (default: corpus scores only)' })
  teamInstanceScores!: boolean;
  @Field(() => PhaseSplitInput, { nullable: true, description: 'A public/private split of the instances (none by default)' }) split?: PhaseSplitInput | null;
}

@InputType()
export class TestInstanceInput {
  @Field({ description: 'Instance id, unique within the test set' }) id!: string;
  @Field() source!: string;
  @Field(() => [String], { description: 'At least one reference' }) references!: string[];
  @Field(() => GraphQLJSONObject, { nullable: true, description: 'Optional context shown to participants with the source (test input); never references' })
  context?: Record<string, unknown> | null;
}

@InputType()
export class HumanScoreInput {
  @Field(() => ID, { description: 'Instance id' }) instanceId!: string;
  @Field() systemName!: string;
  @Field(() => Float) score!: number;
}

@InputType({ description: 'Fields left out stay as they are' })
export class UpdatePhaseInput {
  @Field({ nullable: true }) name?: string;
  @Field({ nullable: true }) opensAt?: Date;
  @Field({ nullable: true, description: 'Extend or shorten the phase' }) closesAt?: Date;
  @Field(() => Int, { nullable: true }) dailyLimit?: number;
  @Field(() => Int, { nullable: true }) totalLimit?: number;
  @Field({ nullable: true, description: 'The public flag: everyone sees the board while the phase runs' }) leaderboardBeforeClose?: boolean;
  @Field({ nullable: true, description: 'Before publishing, teams see per-instance scores of their own submissions' }) teamInstanceScores?: boolean;
  @Field(() => PhaseSplitInput, { nullable: true, description: 'Sets the public/private split (not once published)' }) split?: PhaseSplitInput;
  @Field({ nullable: true, description: 'true removes the split (not once published)' }) removeSplit?: boolean;
}
