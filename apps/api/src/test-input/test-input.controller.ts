import { Controller, Get, Param, Res } from '@nestjs/common';
import { InvalidInputError, type AuthUser } from '@podium/domain';
import type { Response } from 'express';
import { once } from 'node:events';
import { CurrentUser } from '../auth/auth.guard';
import { attachmentDisposition } from '../downloads/csv-writer';
import { TEST_INPUT_CONTENT_TYPE, parseTestInputFormat, testInputHeader, testInputLine } from './test-input.format';
import { TestInputService } from './test-input.service';

/** `GET /api/phases/:id/test-input.tsv|jsonl|txt`: ids and sources in test-set order. */
@Controller('api/phases/:id')
export class TestInputController {
  constructor(private readonly service: TestInputService) {}

  @Get('test-input.:format')
  async download(@Param('id') id: string, @Param('format') formatParam: string, @CurrentUser() user: AuthUser | null, @Res() res: Response): Promise<void> {
    const format = parseTestInputFormat(formatParam);
    if (!format) throw new InvalidInputError(`the test input comes as .tsv, .jsonl or .txt, not .${formatParam}`, { field: 'format' });
    const phase = await this.service.phase(id, user);
    res.status(200);
    res.setHeader('Content-Type', TEST_INPUT_CONTENT_TYPE[format]);
    res.setHeader('Content-Disposition', attachmentDisposition(`${phase.task.slug}-${phase.name}-test-input.${format}`));
    res.setHeader('Cache-Control', 'no-store');
    const withContext = format === 'tsv' && (await this.service.hasContext(phase.testSetId));
    if (!res.write(testInputHeader(format, withContext))) await once(res, 'drain');
    for await (const page of this.service.all(phase.testSetId)) {
      if (!res.write(page.map((r) => testInputLine(format, r, withContext)).join(''))) await once(res, 'drain');
      if (res.destroyed) return;
    }
    res.end();
  }
}
