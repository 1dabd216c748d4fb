import { Field, Float, ID, InputType, Int, ObjectType, registerEnumType } from '@nestjs/graphql';
import { Registration } from '@podium/db';
import { GraphQLJSONObject } from '../common/json.scalar';
import { configurableMetricNames } from '@podium/metrics';

registerEnumType(Registration, { name: 'Registration' });

/** The states of the phase state machine (libs/domain/src/phase-state.ts, docs/adr/0013-phase-state-machine.md). */
export enum PhaseLifecycleStateEnum {
  SCHEDULED = 'SCHEDULED',
  OPEN = 'OPEN',
  CLOSED = 'CLOSED',
  PUBLISHED = 'PUBLISHED',
}
registerEnumType(PhaseLifecycleStateEnum, {
  name: 'PhaseLifecycleState',
  description: 'SCHEDULED (before opensAt), OPEN (teams submit and switch primaries), CLOSED (early or at closesAt: primaries frozen), PUBLISHED (results public; final)',
});

@ObjectType({ description: 'A metric configured on a task; `key` names its stored scores' })
export class MetricConfigType {
  @Field() key!: string;
  @Field({ description: `Implementation: ${configurableMetricNames().join(', ')}` }) name!: string;
  @Field(() => GraphQLJSONObject) options!: Record<string, string | number | boolean>;
}

@ObjectType('TestSet')
export class TestSetType {
  @Field(() => ID) id!: string;
  @Field() name!: string;
  @Field(() => String, { nullable: true, description: 'SHA-256 of the instances in order: organisers, everyone once published (null otherwise: it would confirm a guess of the references)' })
  checksum!: string | null;
  @Field(() => Int) instanceCount!: number;
  @Field() createdAt!: Date;
}

@ObjectType('Phase')
export class PhaseType {
  @Field(() => ID) id!: string;
  @Field(() => ID) taskId!: string;
  @Field() name!: string;
  @Field() opensAt!: Date;
  @Field() closesAt!: Date;
  @Field(() => Int) dailyLimit!: number;
  @Field(() => Int) totalLimit!: number;
  @Field({ description: 'Whether everyone sees the leaderboard while the phase is open' }) leaderboardBeforeClose!: boolean;
  @Field(() => ID, { nullable: true }) testSetId!: string | null;
  @Field(() => Date, { nullable: true, description: 'When an organiser closed the phase before closesAt' }) closedEarlyAt!: Date | null;
  @Field(() => Date, { nullable: true, description: 'When an organiser published the results (references and all outputs became public)' })
  publishedAt!: Date | null;
  /** Who closed it early and who published it (names through stateDescription). */
  closedById!: string | null;
  publishedById!: string | null;
  @Field(() => Date, { nullable: true, description: 'When closing froze the primary submissions (at an early close, or by the system after closesAt)' })
  primariesFrozenAt!: Date | null;
  @Field({ description: 'Before publishing, teams see per-instance scores of their own submissions (false: corpus scores only)' }) teamInstanceScores!: boolean;
  /** The stored split (phase.split JSON); GraphQL's `split` is a field resolver. */
  split?: unknown;
  @Field(() => Int, { nullable: true, description: "The leaderboard's bootstrap/randomisation resamples (null: chosen automatically); public like the board's own resamples" })
  significanceResamples!: number | null;
  @Field(() => Int, { description: "The leaderboard's resampling seed; public like the board's own seed" }) significanceSeed!: number;
  @Field() createdAt!: Date;
}

@ObjectType('PhaseSplit', { description: 'The public/private split of a phase (ADR 0014): organisers, everyone once published' })
export class PhaseSplitType {
  @Field(() => [String], { nullable: true }) publicIds!: string[] | null;
  @Field(() => Float, { nullable: true }) publicFraction!: number | null;
  @Field(() => Int) seed!: number;
  @Field({ description: "'private' or 'all': what the final ranking uses" }) finalOn!: string;
}

@ObjectType('TestSetCommitment', { description: 'A salted hash commitment of the test set (ADR 0014)' })
export class TestSetCommitmentType {
  @Field({ description: 'sha256(salt || canonical JSONL), lower-case hex; public from when the test set was attached' }) commitment!: string;
  @Field(() => String, { nullable: true, description: 'The salt (64 hex digits); null until the phase is published, for everyone' }) salt!: string | null;
  @Field({ description: 'The scheme: how the canonical JSONL is formed and hashed' }) scheme!: string;
  @Field() committedAt!: Date;
  @Field({ description: 'GET path of the canonical JSONL (organisers, everyone once published)' }) canonicalUrl!: string;
}

@ObjectType('Task')
export class TaskType {
  @Field(() => ID) id!: string;
  @Field() slug!: string;
  @Field() title!: string;
  @Field() description!: string;
  @Field({ description: 'mt, summarization, data-to-text or other' }) kind!: string;
  @Field() sourceLang!: string;
  @Field() targetLang!: string;
  @Field(() => [MetricConfigType], { description: 'Configured metrics in order; the first is the primary' }) metrics!: MetricConfigType[];
  @Field(() => Float, { nullable: true, description: 'Weight w of NLI in the combined metric C = w·N + (1−w)·M' })
  combinedWeight!: number | null;
  @Field(() => Registration, { description: 'OPEN: teams register and submit at once; APPROVAL: an organiser approves each team' })
  registration!: Registration;
  @Field({ description: 'A person belongs to at most one team registered for the task, and submission limits count per person across their teams' })
  oneTeamPerPerson!: boolean;
  @Field() createdAt!: Date;
}

@InputType()
export class MetricConfigInput {
  @Field() key!: string;
  @Field() name!: string;
  @Field(() => GraphQLJSONObject, { nullable: true }) options?: Record<string, unknown>;
}

@InputType()
export class CreateTaskInput {
  @Field({ description: 'URL name: ^[a-z0-9][a-z0-9-]{1,62}$' }) slug!: string;
  @Field() title!: string;
  @Field({ nullable: true }) description?: string;
  @Field({ description: 'mt, summarization, data-to-text or other' }) kind!: string;
  @Field() sourceLang!: string;
  @Field() targetLang!: string;
  @Field(() => [MetricConfigInput], { nullable: true, description: 'Defaults depend on the kind' }) metrics?: MetricConfigInput[];
  @Field(() => Float, { nullable: true, description: 'In [0, 1]' }) combinedWeight?: number;
  @Field(() => Registration, { nullable: true, description: 'Default OPEN' }) registration?: Registration;
  @Field({ nullable: true, description: 'One team per person (and per-person submission limits); default false' }) oneTeamPerPerson?: boolean;
}

@InputType({ description: 'Fields left out stay as they are; metrics only before the first submission of the task' })
export class UpdateTaskInput {
  @Field({ nullable: true }) title?: string;
  @Field({ nullable: true }) description?: string;
  @Field(() => [MetricConfigInput], { nullable: true }) metrics?: MetricConfigInput[];
  @Field(() => Float, { nullable: true }) combinedWeight?: number;
  @Field(() => Registration, { nullable: true }) registration?: Registration;
  @Field({ nullable: true }) oneTeamPerPerson?: boolean;
}

@ObjectType('TaskOrganiser', { description: "One of a task's organisers: its creator or someone an organiser of it added" })
export class TaskOrganiserType {
  @Field(() => ID) userId!: string;
  @Field() name!: string;
  @Field(() => String, { nullable: true, description: 'Who added them; null for the creator' })
  addedBy!: string | null;
  @Field() createdAt!: Date;
}

@ObjectType('PhaseImpact', { description: "What closing, publishing or re-scoring a phase would touch, counted now (the organise page's confirmations)" })
export class PhaseImpactType {
  @Field(() => ID) phaseId!: string;
  @Field(() => Int, { description: 'Submissions of the phase that did not fail (baselines included)' }) submissions!: number;
  @Field(() => Int, { description: 'Distinct teams with such a submission' }) teams!: number;
  @Field(() => Int, { description: 'Of them scored' }) scored!: number;
  @Field(() => Int, { description: 'Of them queued or being scored' }) pending!: number;
  @Field(() => Int, { description: 'Baselines among them' }) baselines!: number;
  @Field(() => Int, { description: 'Hidden or disqualified among them' }) moderated!: number;
  @Field(() => Int, { description: 'Teams (non-baseline submissions) without a primary submission: closing gives each its latest scored one' }) teamsWithoutPrimary!: number;
  @Field(() => Int, { description: 'Submissions a phase re-score would queue again (every one not being scored right now, failed ones included)' }) rescorable!: number;
  @Field(() => Int, { description: 'Instances of the test set (0: none attached)' }) instances!: number;
}
