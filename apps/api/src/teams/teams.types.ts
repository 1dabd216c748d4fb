import { Field, ID, ObjectType } from '@nestjs/graphql';

@ObjectType('TeamMember')
export class TeamMemberType {
  @Field(() => ID) id!: string;
  @Field() name!: string;
}

@ObjectType('TeamDetails', { description: 'A team page: its name, and for insiders its members and the invite code' })
export class TeamDetailsType {
  @Field(() => ID) id!: string;
  @Field() name!: string;
  @Field(() => [TeamMemberType], {
    nullable: true,
    description: "The members' names: null unless you are a member, an organiser of a task the team registered for, or an administrator",
  })
  members!: TeamMemberType[] | null;
  @Field(() => String, { nullable: true, description: 'Share it with teammates to join; null unless you are a member, an organiser of a task the team registered for, or an administrator' })
  inviteCode!: string | null;
  @Field(() => ID, { nullable: true, description: 'The member who created the team and may remove members; null for teams organisers made' })
  ownerId!: string | null;
  @Field() createdAt!: Date;
}

@ObjectType('ApiTokenInfo', { description: 'An API token without its value (shown only when created)' })
export class ApiTokenInfoType {
  @Field(() => ID) id!: string;
  @Field() label!: string;
  @Field() createdAt!: Date;
  @Field(() => Date, { nullable: true }) lastUsedAt!: Date | null;
  @Field(() => Date, { nullable: true }) revokedAt!: Date | null;
  @Field(() => String, { nullable: true, description: 'The administrator who issued it on your behalf; null when you created it' })
  issuedBy!: string | null;
}

@ObjectType('NewApiToken')
export class NewApiTokenType {
  @Field(() => ApiTokenInfoType) info!: ApiTokenInfoType;
  @Field({ description: 'The plain token, shown this once; only its hash is stored' }) token!: string;
}
