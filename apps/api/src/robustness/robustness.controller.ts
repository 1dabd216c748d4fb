import { Controller, Get, Param, Res } from '@nestjs/common';
import type { Response } from 'express';
import { attachmentDisposition, csvRow } from '../downloads/csv-writer';
import { combinedKey } from '@podium/leaderboard';
import { RobustnessService } from './robustness.service';
import type { RobustnessAccuracy, RobustnessReportType } from './robustness.types';

/**
 * Columns of the robustness table download: one row per report and phenomenon, plus `overall`
 * (macro: mean over phenomena, the paper's number), `macro` (the same, named) and `pooled`
 * (passes / rows);
 * an NLI report's trade-off curve follows as `overall` rows of `combined:<nli>+<M>`, one per w.
 */
export const ROBUSTNESS_COLUMNS = [
  'metric', 'signature', 'suite', 'mode', 'status', 'phenomenon', 'accuracy', 'ci_low', 'ci_high', 'n', 'passed', 'w',
] as const;

/** The robustness table as CSV lines (CRLF, RFC 4180), header first. */
export function robustnessCsv(reports: readonly RobustnessReportType[]): string {
  let out = csvRow(ROBUSTNESS_COLUMNS);
  const line = (r: RobustnessReportType, phenomenon: string, e: RobustnessAccuracy | null) =>
    csvRow([r.metric, r.signature, r.suite, r.mode, r.status, phenomenon, e?.accuracy ?? '', e?.ci.low ?? '', e?.ci.high ?? '', e?.n ?? '', e?.passed ?? '', '']);
  for (const r of reports) {
    out += line(r, 'overall', r.overall);
    out += line(r, 'macro', r.macroAccuracy);
    out += line(r, 'pooled', r.pooledAccuracy);
    for (const p of r.phenomena) out += line(r, p.phenomenon, p);
    for (const t of r.tradeoff ?? []) {
      out += csvRow([combinedKey(r.metric, t.with), t.signature, r.suite, r.mode, r.status, 'overall', t.accuracy, t.ci.low ?? '', t.ci.high ?? '', r.overall?.n ?? '', '', t.w]);
    }
  }
  return out;
}

/** Downloads of a task's robustness table. */
@Controller('api/tasks')
export class RobustnessController {
  constructor(private readonly service: RobustnessService) {}

  @Get(':slug/robustness.csv')
  async csv(@Param('slug') slug: string, @Res() res: Response): Promise<void> {
    const { task, reports } = await this.service.reportsOf(slug);
    res.status(200);
    res.setHeader('Content-Type', 'text/csv; charset=utf-8');
    res.setHeader('Content-Disposition', attachmentDisposition(`${task.slug}-robustness.csv`));
    res.setHeader('Cache-Control', 'no-store');
    res.send(robustnessCsv(reports));
  }

  @Get(':slug/robustness.json')
  async json(@Param('slug') slug: string, @Res() res: Response): Promise<void> {
    const { task, reports } = await this.service.reportsOf(slug);
    res.status(200);
    res.setHeader('Content-Type', 'application/json; charset=utf-8');
    res.setHeader('Content-Disposition', attachmentDisposition(`${task.slug}-robustness.json`));
    res.setHeader('Cache-Control', 'no-store');
    res.send(JSON.stringify({ task: task.slug, reports }, null, 2) + '\n');
  }
}
