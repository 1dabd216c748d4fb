import { Module } from '@nestjs/common';
import { MetricConfigResolver, MetricDefinitionsResolver } from './metric-config.resolver';
import { NliAvailabilityService } from './nli-availability.service';
import { TasksResolver } from './tasks.resolver';
import { TasksService } from './tasks.service';

@Module({ providers: [TasksResolver, TasksService, MetricConfigResolver, MetricDefinitionsResolver, NliAvailabilityService], exports: [TasksService] })
export class TasksModule {}
