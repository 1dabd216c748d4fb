import { Controller, Get, Param, Res } from '@nestjs/common';
import { NotFoundError, type AuthUser } from '@podium/domain';
import type { Response } from 'express';
import { once } from 'node:events';
import { CurrentUser } from '../auth/auth.guard';
import { attachmentDisposition } from '../downloads/csv-writer';
import { assertCan } from '../common/visibility';
import { PhasesService } from './phases.service';

/**
 * The test-set commitment (docs/adr/0014-no-oracles-split-commitment.md):
 * - `GET /api/phases/:id/commitment.json`: `{ phaseId, scheme, commitment, salt, committedAt,
 *   canonicalUrl, published }`, everyone; `salt` is null until the phase is published;
 * - `GET /api/phases/:id/test-set.jsonl`: the canonical JSONL the commitment hashes (ids,
 *   sources, references): organisers, everyone once published (the `references` cell).
 */
@Controller('api/phases/:id')
export class CommitmentController {
  constructor(private readonly phases: PhasesService) {}

  @Get('commitment.json')
  async commitment(@Param('id') id: string, @Res() res: Response): Promise<void> {
    const phase = await this.phases.byId(id);
    const c = await this.phases.commitmentOf(phase);
    if (!c) throw new NotFoundError('test-set commitment of phase', id);
    res.setHeader('Cache-Control', 'no-store');
    res.status(200).json({ phaseId: phase.id, ...c, published: phase.publishedAt !== null });
  }

  @Get('test-set.jsonl')
  async canonical(@Param('id') id: string, @CurrentUser() user: AuthUser | null, @Res() res: Response): Promise<void> {
    const phase = await this.phases.byId(id);
    assertCan('references', phase, user);
    if (!phase.testSetId) throw new NotFoundError('test set of phase', id);
    res.status(200);
    res.setHeader('Content-Type', 'application/jsonl; charset=utf-8');
    res.setHeader('Content-Disposition', attachmentDisposition(`${phase.task.slug}-${phase.name}-test-set.jsonl`));
    res.setHeader('Cache-Control', 'no-store');
    for await (const chunk of this.phases.canonicalJsonl(phase.testSetId)) {
      if (!res.write(chunk)) await once(res, 'drain');
      if (res.destroyed) return;
    }
    res.end();
  }
}
