import { Controller, Get, Param, Query, Res } from '@nestjs/common';
import { type AuthUser } from '@podium/db';
import type { Response } from 'express';
import { once } from 'node:events';
import { CurrentUser } from '../auth/auth.guard';
import { EXPORT_CONTENT_TYPE, attachmentDisposition, exportHeader, exportLine, type ExportFormat } from './csv-writer';
import { DownloadsService, type ScoreExport } from './downloads.service';
import { leaderboardCsv, leaderboardJson, parseLeaderboardQuery, parseMetricList } from './leaderboard-export';

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

function send(res: Response, contentType: string, fileName: string, body: string): void {
  res.status(200);
  res.setHeader('Content-Type', contentType);
  res.setHeader('Content-Disposition', attachmentDisposition(fileName));
  res.setHeader('Cache-Control', 'no-store');
  res.end(body);
}

/** Long-form score downloads (`system,team,instance_id,metric,signature,score`), and leaderboard downloads (health: HealthController). */
@Controller('api')
export class DownloadsController {
  constructor(private readonly service: DownloadsService) {}

  @Get('submissions/:id/scores.csv')
  async submissionCsv(@Param('id') id: string, @CurrentUser() user: AuthUser | null, @Res() res: Response): Promise<void> {
    await stream(res, 'csv', await this.service.submissionScores(id, user));
  }

  @Get('submissions/:id/scores.jsonl')
  async submissionJsonl(@Param('id') id: string, @CurrentUser() user: AuthUser | null, @Res() res: Response): Promise<void> {
    await stream(res, 'jsonl', await this.service.submissionScores(id, user));
  }

  /** `?metric=combined` (or `combined:<nli>+<other>`, repeatable) adds the combined metric's rows. */
  @Get('phases/:id/scores.csv')
  async phaseCsv(@Param('id') id: string, @Query('metric') metric: unknown, @CurrentUser() user: AuthUser | null, @Res() res: Response): Promise<void> {
    await stream(res, 'csv', await this.service.phaseScores(id, user, parseMetricList(metric)));
  }

  @Get('phases/:id/scores.jsonl')
  async phaseJsonl(@Param('id') id: string, @Query('metric') metric: unknown, @CurrentUser() user: AuthUser | null, @Res() res: Response): Promise<void> {
    await stream(res, 'jsonl', await this.service.phaseScores(id, user, parseMetricList(metric)));
  }

  /** The GraphQL `leaderboard` object; `?metric=&test=&correction=&seed=&resamples=` as its arguments. */
  @Get('phases/:id/leaderboard.json')
  async leaderboardJson(@Param('id') id: string, @Query() query: Record<string, unknown>, @CurrentUser() user: AuthUser | null, @Res() res: Response): Promise<void> {
    const { fileStem, board } = await this.service.leaderboard(id, parseLeaderboardQuery(query), user);
    send(res, 'application/json; charset=utf-8', `${fileStem}.json`, JSON.stringify(leaderboardJson(board)));
  }

  /** One row per system: ranks, mean and its CI, median, BT and its CI, Elo, TrueSkill, clusters. */
  @Get('phases/:id/leaderboard.csv')
  async leaderboardCsv(@Param('id') id: string, @Query() query: Record<string, unknown>, @CurrentUser() user: AuthUser | null, @Res() res: Response): Promise<void> {
    const { fileStem, board } = await this.service.leaderboard(id, parseLeaderboardQuery(query), user);
    send(res, EXPORT_CONTENT_TYPE.csv, `${fileStem}.csv`, leaderboardCsv(board));
  }
}
