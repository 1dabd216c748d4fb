import { Field, Float, ID, InputType, Int } from '@nestjs/graphql';
import { GraphQLJSONObject } from '../common/json.scalar';

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
}
