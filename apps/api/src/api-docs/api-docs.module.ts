import { Module } from '@nestjs/common';
import { SchemaController } from './schema.controller';
import { CliDownloadController } from '../cli-download/cli-download.controller';

@Module({ controllers: [SchemaController, CliDownloadController] })
export class ApiDocsModule {}
