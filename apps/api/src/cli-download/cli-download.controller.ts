import { Controller, Get, Res, StreamableFile } from '@nestjs/common';
import { NotFoundError } from '@podium/domain';
import type { Response } from 'express';
import { createReadStream, existsSync, statSync } from 'node:fs';
import path from 'node:path';

/** The repository root: the nearest folder above this file with a package.json (src/ in development, dist/ when built). */
function repositoryRoot(from: string): string {
  for (let dir = from; ; dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, 'package.json')) && existsSync(path.join(dir, 'apps'))) return dir;
    if (path.dirname(dir) === dir) return from;
  }
}

/** Where `npm run build` (scripts/bundle-cli.mjs) writes the standalone `podium` command. */
export const CLI_BUNDLE = path.join(repositoryRoot(__dirname), 'dist', 'podium.cjs');

/**
 * `GET /api/cli/podium.cjs`: the `podium` command as one file that runs with `node podium.cjs …`
 * where nothing is installed (Node ≥ 20): what a participant downloads to fetch the test input
 * and submit. Public, like the CLI's source.
 */
@Controller('api/cli')
export class CliDownloadController {
  @Get('podium.cjs')
  download(@Res({ passthrough: true }) res: Response): StreamableFile {
    if (!existsSync(CLI_BUNDLE)) throw new NotFoundError('standalone podium command (built by npm run build)', 'podium.cjs');
    res.setHeader('Content-Type', 'application/javascript; charset=utf-8');
    res.setHeader('Content-Disposition', 'attachment; filename="podium.cjs"');
    res.setHeader('Content-Length', String(statSync(CLI_BUNDLE).size));
    res.setHeader('Cache-Control', 'no-cache');
    return new StreamableFile(createReadStream(CLI_BUNDLE));
  }
}
