import { Field, ObjectType, Query, Resolver } from '@nestjs/graphql';
import { TASK_KINDS, TASK_KIND_LABELS, defaultMetricsFor } from '@podium/contracts';

@ObjectType('TaskKindDefinition', { description: 'A task kind with its label and the metrics a new task of it gets when none are named (libs/contracts)' })
export class TaskKindDefinitionType {
  @Field({ description: 'Name createTask takes, e.g. data-to-text' }) name!: string;
  @Field({ description: 'Name for people, e.g. Data-to-text' }) displayName!: string;
  @Field(() => [String], { description: 'Metric names configured on a new task of this kind when createTask names none, primary first' }) defaultMetrics!: string[];
}

/** The task kinds, read by the web instead of a copy of the list. */
@Resolver(() => TaskKindDefinitionType)
export class TaskKindsResolver {
  @Query(() => [TaskKindDefinitionType], { name: 'taskKinds', description: 'Every task kind createTask accepts, in the order the web offers them' })
  taskKinds(): TaskKindDefinitionType[] {
    return TASK_KINDS.map((name) => ({ name, displayName: TASK_KIND_LABELS[name], defaultMetrics: defaultMetricsFor(name).map((m) => m.name) }));
  }
}
