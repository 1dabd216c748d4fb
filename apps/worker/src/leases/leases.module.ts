import { Module } from '@nestjs/common';
import { LeaseKeeper } from './lease-keeper';

/** Scoring leases: renewal of this worker's leases and the reaper of lapsed ones (ADR 0007). */
@Module({ providers: [LeaseKeeper], exports: [LeaseKeeper] })
export class LeasesModule {}
