import { Module } from '@nestjs/common';
import { EventLoopWatch } from './event-loop-watch';
import { HealthController } from './health.controller';

@Module({ controllers: [HealthController], providers: [EventLoopWatch] })
export class HealthModule {}
