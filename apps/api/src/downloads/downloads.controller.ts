import { Controller, Get, Inject, Param, Res } from '@nestjs/common';
import { type AuthUser, type Db } from '@podium/db';
import type { Response } from 'express';
import { once } from 'node:events';
import { CurrentUser } from '../auth/auth.guard';
import { DB } from '../common/tokens';
import { EXPORT_CONTENT_TYPE, attachmentDisposition, exportHeader, exportLine, type ExportFormat } from './csv-writer';
import { DownloadsService, type ScoreExport } from './downloads.service';

/** Writes, waiting for the socket to drain so a large phase never piles up in memory. */
async function write(res: Response, chunk: string): Promise<void> {
  if (!res.write(chunk)) await once(res, 'drain');
}

async function stream(res: Response, format: ExportFormat, exp: ScoreExport): Promise<void> {
  // The first page is read before any header goes out, so early failures still get a status.
  const first = await exp.pages.next();
  res.status(200);
  res.setHeader('Content-Type', EXPORT_CONTENT_TYPE[format]);
  res.setHeader('Content-Disposition', attachmentDisposition(`${exp.fileStem}.${format}`));
  res.setHeader('Cache-Control', 'no-store');
  await write(res, exportHeader(format));
  let page = first;
  while (!page.done) {
    let chunk = '';
    for (const r of page.value) {
      chunk += exportLine(format, { system: r.systemName, team: r.teamName, instance_id: r.instanceId, metric: r.metric, signature: r.signature, score: r.score });
    }
    await write(res, chunk);
    if (res.destroyed) return;
    page = await exp.pages.next();
  }
  res.end();
}

/** Long-form score downloads (`system,team,instance_id,metric,signature,score`) and health. */
@Controller('api')
export class DownloadsController {
  constructor(
    private readonly service: DownloadsService,
    @Inject(DB) private readonly db: Db,
  ) {}

  @Get('health')
  async health(): Promise<{ status: 'ok' }> {
    await this.db.$queryRaw`SELECT 1`;
    return { status: 'ok' };
  }

  @Get('submissions/:id/scores.csv')
  async submissionCsv(@Param('id') id: string, @CurrentUser() user: AuthUser | null, @Res() res: Response): Promise<void> {
    await stream(res, 'csv', await this.service.submissionScores(id, user));
  }

  @Get('submissions/:id/scores.jsonl')
  async submissionJsonl(@Param('id') id: string, @CurrentUser() user: AuthUser | null, @Res() res: Response): Promise<void> {
    await stream(res, 'jsonl', await this.service.submissionScores(id, user));
  }

  @Get('phases/:id/scores.csv')
  async phaseCsv(@Param('id') id: string, @CurrentUser() user: AuthUser | null, @Res() res: Response): Promise<void> {
    await stream(res, 'csv', await this.service.phaseScores(id, user));
  }

  @Get('phases/:id/scores.jsonl')
  async phaseJsonl(@Param('id') id: string, @CurrentUser() user: AuthUser | null, @Res() res: Response): Promise<void> {
    await stream(res, 'jsonl', await this.service.phaseScores(id, user));
  }
}
