import { Field, Float, ObjectType } from '@nestjs/graphql';
import { optionNames, type MetricDefinition } from '@podium/metrics';

@ObjectType('MetricDefinition', { description: "A metric's facts from the one metric registry (libs/metrics, one plugin folder per metric)" })
export class MetricDefinitionType {
  @Field({ description: 'Name a task configures, e.g. chrf++' }) name!: string;
  @Field({ description: 'Name for people, e.g. chrF++' }) displayName!: string;
  @Field({ description: 'corpus (additive sufficient statistics) or sentence (corpus score = mean of instances)' }) kind!: string;
  @Field() higherIsBetter!: boolean;
  @Field(() => Float, { nullable: true, description: 'Lower end of the range; null when unbounded (MoverScore, XMoverScore)' }) rangeLow!: number | null;
  @Field(() => Float, { nullable: true, description: 'Upper end of the range; null when unbounded (TER)' }) rangeHigh!: number | null;
  @Field(() => [String], { description: 'Option names the metric accepts' }) options!: string[];
  @Field({ description: 'Shape of the score signature' }) signatureFormat!: string;
  @Field() description!: string;
  @Field({ description: 'Whether a task may configure it (false for the combined metric, which the task weight enables)' }) configurable!: boolean;
}

export function toMetricDefinitionType(d: MetricDefinition): MetricDefinitionType {
  return {
    name: d.name,
    displayName: d.displayName,
    kind: d.kind,
    higherIsBetter: d.higherIsBetter,
    rangeLow: Number.isFinite(d.range[0]) ? d.range[0] : null,
    rangeHigh: Number.isFinite(d.range[1]) ? d.range[1] : null,
    options: optionNames(d),
    signatureFormat: d.signatureFormat,
    description: d.description,
    // The task's weight enables derived metrics (the combined metric); every other plugin is configured.
    configurable: d.capability !== 'derived',
  };
}
