import { Injectable } from '@nestjs/common';
import { Prisma, TaskRepository, type Db } from '@podium/db';
import { NotFoundError, type AuthUser } from '@podium/domain';
import { Inject } from '@nestjs/common';
import { assertId } from '../common/ids';
import { DB } from '../common/tokens';
import { assertCan } from '../common/visibility';
import type { TestInputRow } from './test-input.format';
import { assertIntegerArg } from '../common/integer-args';

export interface TestInputPage {
  total: number;
  offset: number;
  rows: (TestInputRow & { position: number; context: Record<string, unknown> | null })[];
}

/** Instance ids and sources of a phase's test set (never references), in test-set order. */
@Injectable()
export class TestInputService {
  constructor(
    private readonly tasks: TaskRepository,
    @Inject(DB) private readonly db: Db,
  ) {}

  async phase(phaseId: string, user: AuthUser | null) {
    assertId('phase', phaseId);
    const phase = await this.tasks.phaseById(phaseId);
    if (!phase) throw new NotFoundError('phase', phaseId);
    assertCan('testInput', phase, user);
    if (!phase.testSetId) throw new NotFoundError('test set of phase', phaseId);
    return { ...phase, testSetId: phase.testSetId };
  }

  async page(phaseId: string, offset: number, limit: number, user: AuthUser | null): Promise<TestInputPage> {
    assertIntegerArg('offset', offset, 0);
    assertIntegerArg('limit', limit, 1, 10_000);
    const phase = await this.phase(phaseId, user);
    const rows = await this.db.instance.findMany({
      where: { testSetId: phase.testSetId },
      orderBy: { position: 'asc' },
      skip: offset,
      take: limit,
      select: { externalId: true, source: true, position: true, context: true },
    });
    return {
      total: phase.testSet?.instanceCount ?? rows.length,
      offset,
      rows: rows.map((r) => ({ id: r.externalId, source: r.source, position: r.position, context: (r.context as Record<string, unknown> | null) ?? null })),
    };
  }

  /** Whether any instance of the test set carries context (the TSV then has a context column). */
  async hasContext(testSetId: string): Promise<boolean> {
    return (await this.db.instance.count({ where: { testSetId, NOT: { context: { equals: Prisma.DbNull } } } })) > 0;
  }

  /** Pages of the whole test input, for streaming downloads. */
  async *all(testSetId: string, pageSize = 5000): AsyncGenerator<TestInputRow[]> {
    for (let position = 0; ; position += pageSize) {
      const rows = await this.db.instance.findMany({
        where: { testSetId, position: { gte: position, lt: position + pageSize } },
        orderBy: { position: 'asc' },
        select: { externalId: true, source: true, context: true },
      });
      if (rows.length === 0) return;
      yield rows.map((r) => ({ id: r.externalId, source: r.source, context: (r.context as Record<string, unknown> | null) ?? null }));
    }
  }
}
