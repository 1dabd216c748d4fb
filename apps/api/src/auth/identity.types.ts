import { Field, ID, ObjectType, registerEnumType } from '@nestjs/graphql';
import { Role } from '@podium/db';

registerEnumType(Role, { name: 'Role', description: 'Organisers run tasks; participants submit for their teams' });

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
}
