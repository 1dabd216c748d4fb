import { Module } from '@nestjs/common';
import { MetricConfigResolver, MetricDefinitionsResolver } from './metric-config.resolver';
import { NliAvailabilityService } from './nli-availability.service';
import { TaskKindsResolver } from './task-kinds.resolver';
import { TasksResolver } from './tasks.resolver';
import { TasksService } from './tasks.service';

@Module({ providers: [TasksResolver, TasksService, MetricConfigResolver, MetricDefinitionsResolver, TaskKindsResolver, NliAvailabilityService], exports: [TasksService] })
export class TasksModule {}
