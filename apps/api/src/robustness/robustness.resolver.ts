import { Args, ID, Mutation, Query, Resolver } from '@nestjs/graphql';
import type { AuthUser } from '@podium/domain';
import { CurrentUser } from '../auth/auth.guard';
import { RobustnessService } from './robustness.service';
import { ReportCard, RobustnessMode, RobustnessReportType } from './robustness.types';

@Resolver(() => RobustnessReportType)
export class RobustnessResolver {
  constructor(private readonly service: RobustnessService) {}

  @Query(() => [RobustnessReportType], {
    description: "Robustness reports of a task's metrics (MENLI adversarial preference test), in the order of the task's metrics",
  })
  async robustness(@Args('taskSlug') taskSlug: string): Promise<RobustnessReportType[]> {
    return (await this.service.reportsOf(taskSlug)).reports;
  }

  @Mutation(() => [RobustnessReportType], {
    description: "Queues robustness reports for a metric, or for all of the task's metrics; a rerun replaces the previous result",
  })
  async runRobustness(
    @Args('taskSlug') taskSlug: string,
    @Args('metric', { type: () => String, nullable: true, description: "Metric key; default all of the task's metrics" }) metric: string | undefined,
    @Args('suite', { type: () => String, nullable: true, description: "'builtin:wmt20-de' (default) or 'generated:<seed>' (from the task's English references)" })
    suite: string | undefined,
    @Args('mode', { type: () => RobustnessMode, nullable: true, description: 'Default REF; generated suites are REF only' }) mode: RobustnessMode | undefined,
    @CurrentUser() user: AuthUser | null,
  ): Promise<RobustnessReportType[]> {
    return this.service.run(taskSlug, { metric, suite, mode }, user);
  }

  @Query(() => ReportCard, {
    description: "Each stored metric's segment- and system-level correlation with the phase's human scores, next to its robustness",
  })
  async reportCard(
    @Args('phaseId', { type: () => ID }) phaseId: string,
    @Args('metric', { type: () => String, nullable: true, description: 'Metric key; default every metric with scores in the phase' }) metric: string | undefined,
    @Args('suite', { type: () => String, nullable: true, description: "Robustness suite to show; default 'builtin:wmt20-de'" }) suite: string | undefined,
    @Args('mode', { type: () => RobustnessMode, nullable: true, description: 'Robustness mode to show; default REF' }) mode: RobustnessMode | undefined,
    @CurrentUser() user: AuthUser | null,
  ): Promise<ReportCard> {
    return this.service.reportCard(phaseId, { metric: metric ?? undefined, suite: suite ?? undefined, mode: mode ?? undefined }, user);
  }
}
