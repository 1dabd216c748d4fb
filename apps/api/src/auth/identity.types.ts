import { Field, ID, ObjectType, registerEnumType } from '@nestjs/graphql';
import { Role } from '@podium/db';

registerEnumType(Role, { name: 'Role', description: 'ADMIN: every task, tokens for other users; ORGANISER: creates tasks and runs those they organise; PARTICIPANT: submits for their teams' });

@ObjectType('Team')
export class TeamType {
  @Field(() => ID) id!: string;
  @Field() name!: string;
}

@ObjectType('User')
export class UserType {
  @Field(() => ID) id!: string;
  @Field() name!: string;
  @Field(() => Role) role!: Role;
  @Field(() => [TeamType]) teams!: TeamType[];
  @Field(() => [ID], { description: 'The tasks the user organises (an administrator organises every task without being listed)' })
  organisedTaskIds!: string[];
}
