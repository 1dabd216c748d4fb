import { Module } from '@nestjs/common';
import { LifecycleResolver } from './lifecycle.resolver';
import { LifecycleService } from './lifecycle.service';

@Module({ providers: [LifecycleResolver, LifecycleService], exports: [LifecycleService] })
export class LifecycleModule {}
