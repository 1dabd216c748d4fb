import { Module } from '@nestjs/common';
import { ScoringQueue } from '../submissions/scoring-queue';
import { LifecycleResolver } from './lifecycle.resolver';
import { LifecycleService } from './lifecycle.service';

@Module({ providers: [LifecycleResolver, LifecycleService, ScoringQueue], exports: [LifecycleService] })
export class LifecycleModule {}
