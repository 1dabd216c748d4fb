import { Parent, Query, ResolveField, Resolver } from '@nestjs/graphql';
import { metricDefinition, registeredMetrics } from '@podium/metrics';
import { MetricDefinitionType, toMetricDefinitionType } from './metric-definition.types';
import { NliAvailabilityService } from './nli-availability.service';
import { MetricConfigType } from './task.types';

/** Availability of a task's metrics: those computed from texts always; a `model` (NLI) or `embedding` metric when its model is present. */
@Resolver(() => MetricConfigType)
export class MetricConfigResolver {
  constructor(private readonly nli: NliAvailabilityService) {}

  @ResolveField(() => Boolean, { description: 'Whether the metric can be computed here (false for an NLI metric whose model is missing)' })
  available(@Parent() metric: MetricConfigType): boolean {
    return this.nli.forMetric(metric.name, metric.options)?.available ?? true;
  }

  @ResolveField(() => MetricDefinitionType, { nullable: true, description: "The metric's facts from the registry (direction, range, display name)" })
  definition(@Parent() metric: MetricConfigType): MetricDefinitionType | null {
    const d = metricDefinition(metric.name);
    return d ? toMetricDefinitionType(d) : null;
  }

  @ResolveField(() => String, { nullable: true, description: 'Why not, with the command that fetches a missing NLI model' })
  unavailableReason(@Parent() metric: MetricConfigType): string | null {
    return this.nli.forMetric(metric.name, metric.options)?.reason ?? null;
  }
}

/** The metric registry, read by the web instead of a copy of its facts. */
@Resolver(() => MetricDefinitionType)
export class MetricDefinitionsResolver {
  @Query(() => [MetricDefinitionType], { name: 'metrics', description: 'Every registered metric, classical first, then NLI and combined' })
  metrics(): MetricDefinitionType[] {
    return registeredMetrics().map(toMetricDefinitionType);
  }
}
