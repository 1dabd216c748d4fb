import { Module } from '@nestjs/common';
import { PhasesResolver } from './phases.resolver';
import { PhasesService } from './phases.service';

@Module({ providers: [PhasesResolver, PhasesService], exports: [PhasesService] })
export class PhasesModule {}
