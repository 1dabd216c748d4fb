import { Field, Int, ObjectType } from '@nestjs/graphql';
import { GraphQLJSONObject } from '../common/json.scalar';

@ObjectType('TestInputRow')
export class TestInputRowType {
  @Field({ description: 'Instance id; JSONL submissions name it' }) id!: string;
  @Field(() => Int, { description: '0-based line of the instance in plain-line submissions' }) position!: number;
  @Field() source!: string;
  @Field(() => GraphQLJSONObject, { nullable: true, description: 'Optional context of the instance (never references)' }) context!: Record<string, unknown> | null;
}

@ObjectType('TestInputPage')
export class TestInputPageType {
  @Field(() => Int) total!: number;
  @Field(() => Int) offset!: number;
  @Field(() => [TestInputRowType]) rows!: TestInputRowType[];
}
