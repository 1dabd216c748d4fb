import { Parent, ResolveField, Resolver } from '@nestjs/graphql';
import { NliAvailabilityService } from './nli-availability.service';
import { MetricConfigType } from './task.types';

/** Availability of a task's metrics: classical metrics always; `nli` when its model is present. */
@Resolver(() => MetricConfigType)
export class MetricConfigResolver {
  constructor(private readonly nli: NliAvailabilityService) {}

  @ResolveField(() => Boolean, { description: 'Whether the metric can be computed here (false for an NLI metric whose model is missing)' })
  available(@Parent() metric: MetricConfigType): boolean {
    return metric.name !== 'nli' || this.nli.availability(this.nli.modelFor(metric.options)).available;
  }

  @ResolveField(() => String, { nullable: true, description: 'Why not, with the command that fetches a missing NLI model' })
  unavailableReason(@Parent() metric: MetricConfigType): string | null {
    if (metric.name !== 'nli') return null;
    return this.nli.availability(this.nli.modelFor(metric.options)).reason ?? null;
  }
}
