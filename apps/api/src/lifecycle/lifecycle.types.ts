import { Field, Float, ID, ObjectType, registerEnumType } from '@nestjs/graphql';
import { Moderation, RegistrationStatus } from '@podium/db';
import { GraphQLJSONObject } from '../common/json.scalar';
import { TeamType } from '../auth/identity.types';

registerEnumType(Moderation, { name: 'Moderation', description: 'NONE; HIDDEN (off the leaderboard, seen only by its team and organisers); DISQUALIFIED (shown, not ranked)' });
registerEnumType(RegistrationStatus, { name: 'RegistrationStatus' });

@ObjectType('DuplicateOf', { description: 'An earlier submission of the phase with identical outputs' })
export class DuplicateOfType {
  @Field(() => ID) id!: string;
  @Field() systemName!: string;
  @Field(() => ID) teamId!: string;
}

@ObjectType('ScoreHistoryEntry', { description: 'A corpus score replaced by a re-score, with its signature' })
export class ScoreHistoryEntryType {
  @Field() metric!: string;
  @Field() signature!: string;
  @Field(() => Float) value!: number;
  @Field() replacedAt!: Date;
}

@ObjectType('AuditEntry', { description: 'An organiser action: who, what, when' })
export class AuditEntryType {
  @Field(() => ID) id!: string;
  @Field({ description: "The user's name, or 'system' (a phase that closed at its closesAt)" }) actor!: string;
  @Field({
    description:
      'task.create, task.update, task.addOrganiser, task.removeOrganiser, token.issue, phase.create, phase.update, phase.significance, testset.upload, phase.close, phase.closed (the system recorded a close at closesAt), phase.publish, submission.primary (a team switched its primary), submission.primary-auto (closing chose the latest scored submission of a team without one), submission.hide, submission.disqualify, submission.baseline, phase.rescore, registration.approve',
  })
  action!: string;
  @Field() targetType!: string;
  @Field() targetId!: string;
  @Field(() => GraphQLJSONObject) details!: Record<string, unknown>;
  @Field() createdAt!: Date;
}

@ObjectType('TaskRegistration')
export class TaskRegistrationType {
  @Field(() => TeamType) team!: TeamType;
  @Field(() => RegistrationStatus) status!: RegistrationStatus;
  @Field() createdAt!: Date;
}
