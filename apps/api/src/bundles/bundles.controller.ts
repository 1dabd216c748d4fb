import { Body, Controller, Get, HttpCode, Param, Post, Query, Res } from '@nestjs/common';
import { type AuthUser } from '@podium/domain';
import type { Response } from 'express';
import { CurrentUser } from '../auth/auth.guard';
import { attachmentDisposition } from '../downloads/csv-writer';
import { BundlesService } from './bundles.service';

/** `?submissions=1` (or `true`); anything else, or nothing, is false. */
function flag(value: unknown): boolean {
  return value === '1' || value === 'true';
}

/** Task bundles: export (the task's organisers) and import (users who may create tasks). */
@Controller('api/tasks')
export class BundlesController {
  constructor(private readonly service: BundlesService) {}

  /** The task as one JSON file; `?submissions=1` adds every submission (but failed ones) with its outputs. */
  @Get(':slug/bundle.json')
  async export(@Param('slug') slug: string, @Query('submissions') submissions: unknown, @CurrentUser() user: AuthUser | null, @Res() res: Response): Promise<void> {
    const bundle = await this.service.export(slug, user, flag(submissions));
    res.status(200);
    res.setHeader('Content-Type', 'application/json; charset=utf-8');
    res.setHeader('Content-Disposition', attachmentDisposition(`${slug}${flag(submissions) ? '-with-submissions' : ''}.podium-task.json`));
    res.setHeader('Cache-Control', 'no-store');
    res.end(JSON.stringify(bundle));
  }

  /** Creates the bundle's task (JSON body); `?slug=` imports it under another slug. 201 with the new task's slug and phases. */
  @Post('import')
  @HttpCode(201)
  async import(@Body() body: unknown, @Query('slug') slug: unknown, @CurrentUser() user: AuthUser | null) {
    return this.service.import(body, user, typeof slug === 'string' && slug !== '' ? slug : undefined);
  }
}
