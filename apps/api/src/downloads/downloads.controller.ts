import { Controller, Get, Param, Query, Req, Res } from '@nestjs/common';
import { longRowsOf, type LongScoreRow } from '@podium/db';
import { type AuthUser } from '@podium/domain';
import type { Request, Response } from 'express';
import { once } from 'node:events';
import { CurrentUser } from '../auth/auth.guard';
import { sendPrecompressed } from '../common/precompressed';
import { EXPORT_CONTENT_TYPE, attachmentDisposition, exportHeader, exportLine, ChunkPool, scoreCsvColumns, scoreCsvLines, type ExportFormat } from './csv-writer';
import { DownloadsService, type ScoreExport } from './downloads.service';
import { leaderboardCsv, parseLeaderboardQuery, parseMetricList, parseTileQuery } from './leaderboard-export';

const LEADERBOARD_CACHE_CONTROL = 'private, no-cache';

/** Characters per write of a long export (strings this short are allocated in V8's young generation). */
const WRITE_CHUNK_CHARS = 32 * 1024;

/** Rows per page of a stored column written as JSONL. */
const COLUMN_ROWS_PAGE = 5000;

/** Writes, waiting for the socket to drain so a large phase never piles up in memory; `written` once the socket has it. */
async function write(res: Response, chunk: string | Buffer, written?: () => void): Promise<void> {
  if (!res.write(chunk, written)) await once(res, 'drain');
}

async function stream(res: Response, format: ExportFormat, exp: ScoreExport): Promise<void> {
  // The first page is read before any header goes out, so early failures still get a status.
  const first = await exp.pages.next();
  res.status(200);
  res.setHeader('Content-Type', EXPORT_CONTENT_TYPE[format]);
  res.setHeader('Content-Disposition', attachmentDisposition(`${exp.fileStem}.${format}`));
  res.setHeader('Cache-Control', 'no-store');
  await write(res, exportHeader(format, exp.columns));
  const line = format === 'csv' ? scoreCsvLines(exp.columns, exp.row) : (r: LongScoreRow) => exportLine(format, exp.row(r), exp.columns);
  const columnCsv = scoreCsvColumns(exp.columns, exp.row);
  const pool = new ChunkPool();
  async function writeRows(rows: LongScoreRow[]): Promise<void> {
    let chunk = '';
    for (const r of rows) {
      chunk += line(r);
      // Written in pieces below V8's large-object size, so they die young (page-sized strings
      // went to large-object space, collected only by full GCs: +1 GB of RSS during a 12M-row export).
      if (chunk.length >= WRITE_CHUNK_CHARS) {
        await write(res, chunk);
        if (res.destroyed) return;
        chunk = '';
      }
    }
    if (chunk) await write(res, chunk);
  }
  for (let page = first; !page.done; page = await exp.pages.next()) {
    const part = page.value;
    if ('rows' in part) await writeRows(part.rows);
    else if (format === 'csv') {
      // A stored column's CSV is written as bytes (scoreCsvColumns): no row objects, no strings to encode.
      for (const chunk of columnCsv(part.column, part.visible, pool)) {
        await write(res, chunk, () => pool.give(chunk));
        if (res.destroyed) return;
      }
    } else {
      for (const rows of longRowsOf(part.column, COLUMN_ROWS_PAGE, part.visible)) {
        await writeRows(rows);
        if (res.destroyed) return;
      }
    }
    if (res.destroyed) return;
  }
  res.end();
}

/** `?includeDisqualified=1` (or `true`); anything else, or nothing, is false. */
function includeFlag(value: unknown): boolean {
  return value === '1' || value === 'true';
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

  /**
   * `submission_id,system,team,primary,baseline,status,instance_id,metric,signature,score`;
   * `?metric=combined` (or `combined:<nli>+<other>`, repeatable) adds the combined metric's rows;
   * `?includeDisqualified=1` a disqualified submission's rows (left out by default: not ranked).
   */
  @Get('phases/:id/scores.csv')
  async phaseCsv(@Param('id') id: string, @Query('metric') metric: unknown, @Query('includeDisqualified') dq: unknown, @CurrentUser() user: AuthUser | null, @Res() res: Response): Promise<void> {
    await stream(res, 'csv', await this.service.phaseScores(id, user, parseMetricList(metric), includeFlag(dq)));
  }

  @Get('phases/:id/scores.jsonl')
  async phaseJsonl(@Param('id') id: string, @Query('metric') metric: unknown, @Query('includeDisqualified') dq: unknown, @CurrentUser() user: AuthUser | null, @Res() res: Response): Promise<void> {
    await stream(res, 'jsonl', await this.service.phaseScores(id, user, parseMetricList(metric), includeFlag(dq)));
  }

  /**
   * Every output of the phase with a manifest first (JSONL): everyone once the phase is
   * published, its organisers before (`bulkOutputs`).
   */
  @Get('phases/:id/outputs.jsonl')
  async phaseOutputs(@Param('id') id: string, @CurrentUser() user: AuthUser | null, @Res() res: Response): Promise<void> {
    const exp = await this.service.phaseOutputs(id, user);
    // The manifest is read before any header goes out, so its failures still get a status.
    const first = await exp.lines.next();
    res.status(200);
    res.setHeader('Content-Type', EXPORT_CONTENT_TYPE.jsonl);
    res.setHeader('Content-Disposition', attachmentDisposition(`${exp.fileStem}.jsonl`));
    res.setHeader('Cache-Control', 'no-store');
    for (let line = first; !line.done; line = await exp.lines.next()) {
      await write(res, line.value);
      if (res.destroyed) return;
    }
    res.end();
  }

  /** The GraphQL `leaderboard` object; `?metric=&test=&correction=&seed=&resamples=` as its arguments. */
  // The stored bytes as a worker wrote them: strong ETag, 304 on If-None-Match, gzip or brotli as
  // accepted. `private, no-cache`: a board may be visible to organisers only, and it changes with
  // every scored submission, so a cache must revalidate (a 304 costs one small query).
  @Get('phases/:id/leaderboard.json')
  async leaderboardJson(@Param('id') id: string, @Query() query: Record<string, unknown>, @CurrentUser() user: AuthUser | null, @Req() req: Request, @Res() res: Response): Promise<void> {
    const snapshot = await this.service.leaderboardSnapshot(id, parseLeaderboardQuery(query), user);
    res.setHeader('Content-Type', 'application/json; charset=utf-8');
    res.setHeader('Content-Disposition', attachmentDisposition(`${snapshot.fileStem}.json`));
    res.setHeader('Cache-Control', LEADERBOARD_CACHE_CONTROL);
    sendPrecompressed(req, res, { etag: snapshot.etag, identity: snapshot.body, gzip: snapshot.gzip, brotli: snapshot.brotli });
  }

  /**
   * One tile of the board's pairwise matrix (ADR 0038): `?row=R&col=C` (tile positions, R ≤ C;
   * tile (R, C) holds the pairs of the systems at board positions R·T…R·T+T−1 against
   * C·T…C·T+T−1, T = `pairsApart.tile` of the document, 32), with the board's view arguments.
   * `{"row":R,"col":C,"pairs":[…]}`: stored bytes, strong ETag, 304, gzip or brotli as accepted.
   * The same visibility as the board: a hidden board's tiles are hidden too.
   */
  @Get('phases/:id/leaderboard-pairs.json')
  async leaderboardPairTile(@Param('id') id: string, @Query() query: Record<string, unknown>, @CurrentUser() user: AuthUser | null, @Req() req: Request, @Res() res: Response): Promise<void> {
    const { row, col } = parseTileQuery(query);
    const tile = await this.service.leaderboardPairTile(id, parseLeaderboardQuery(query), row, col, user);
    res.setHeader('Content-Type', 'application/json; charset=utf-8');
    res.setHeader('Content-Disposition', attachmentDisposition(`${tile.fileStem}.json`));
    res.setHeader('Cache-Control', LEADERBOARD_CACHE_CONTROL);
    sendPrecompressed(req, res, tile);
  }

  /** Every pair of the board, one JSON object a line, streamed (a 1,000-system board has 499,500). */
  @Get('phases/:id/leaderboard-pairs.jsonl')
  async leaderboardPairs(@Param('id') id: string, @Query() query: Record<string, unknown>, @CurrentUser() user: AuthUser | null, @Res() res: Response): Promise<void> {
    const exp = await this.service.leaderboardPairStream(id, parseLeaderboardQuery(query), user);
    res.status(200);
    res.setHeader('Content-Type', EXPORT_CONTENT_TYPE.jsonl);
    res.setHeader('Content-Disposition', attachmentDisposition(`${exp.fileStem}.jsonl`));
    res.setHeader('Cache-Control', 'no-store');
    let chunk = '';
    for await (const pair of exp.pairs) {
      chunk += JSON.stringify(pair) + '\n';
      if (chunk.length >= WRITE_CHUNK_CHARS) {
        await write(res, chunk);
        if (res.destroyed) return;
        chunk = '';
      }
    }
    if (chunk) await write(res, chunk);
    res.end();
  }

  /** One row per system: per ranking method of the board its rank, value, 95% CI, rank interval and cluster (with its test), then α and the settings. */
  @Get('phases/:id/leaderboard.csv')
  async leaderboardCsv(@Param('id') id: string, @Query() query: Record<string, unknown>, @CurrentUser() user: AuthUser | null, @Req() req: Request, @Res() res: Response): Promise<void> {
    const snapshot = await this.service.leaderboardSnapshot(id, parseLeaderboardQuery(query), user);
    const csv = this.service.leaderboardCsv(snapshot, leaderboardCsv);
    res.setHeader('Content-Type', EXPORT_CONTENT_TYPE.csv);
    res.setHeader('Content-Disposition', attachmentDisposition(`${snapshot.fileStem}.csv`));
    res.setHeader('Cache-Control', LEADERBOARD_CACHE_CONTROL);
    sendPrecompressed(req, res, csv);
  }
}
