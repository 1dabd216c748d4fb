import type { Db } from './client';
import { Prisma } from './generated/client';

export interface ScoredSystem {
  submissionId: string;
  systemName: string;
  teamName: string;
  isBaseline: boolean;
  createdAt: Date;
}

/** Scores of every scored submission of a phase for one metric, as a systems × instances matrix. */
export interface PhaseScoreMatrix {
  systems: ScoredSystem[];
  /** External instance ids in test-set order. */
  instances: string[];
  /** values[s][i]; NaN where a cell is missing (never the case for a fully scored submission). */
  values: number[][];
  signatures: string[];
  corpus: { value: number; signature: string }[];
}

export interface LongScoreRow {
  submissionId: string;
  systemName: string;
  teamName: string;
  instanceId: string;
  position: number;
  metric: string;
  signature: string;
  score: number;
}

export class ScoreRepository {
  constructor(private readonly db: Db) {}

  async scoredSystems(phaseId: string): Promise<ScoredSystem[]> {
    const rows = await this.db.submission.findMany({
      where: { phaseId, status: 'SCORED' },
      include: { team: true },
      orderBy: [{ createdAt: 'asc' }, { systemName: 'asc' }],
    });
    return rows.map((r) => ({ submissionId: r.id, systemName: r.systemName, teamName: r.team.name, isBaseline: r.isBaseline, createdAt: r.createdAt }));
  }

  /** Metric keys that have scores in a phase. */
  async metricsOfPhase(phaseId: string): Promise<string[]> {
    const rows = await this.db.$queryRaw<{ metric: string }[]>`
      SELECT DISTINCT c.metric FROM corpus_score c JOIN submission s ON s.id = c.submission_id
      WHERE s.phase_id = ${phaseId}::uuid AND s.status = 'SCORED' ORDER BY c.metric`;
    return rows.map((r) => r.metric);
  }

  async matrix(phaseId: string, metric: string, testSetId: string): Promise<PhaseScoreMatrix> {
    const systems = await this.scoredSystems(phaseId);
    const instances = await this.db.instance.findMany({ where: { testSetId }, orderBy: { position: 'asc' }, select: { externalId: true } });
    const index = new Map(systems.map((s, k) => [s.submissionId, k]));
    const values = systems.map(() => new Array<number>(instances.length).fill(Number.NaN));
    const signatures = systems.map(() => '');
    if (systems.length > 0) {
      const rows = await this.db.$queryRaw<{ submission_id: string; position: number; value: number; signature: string }[]>`
        SELECT sc.submission_id, i.position, sc.value, sc.signature
        FROM instance_score sc JOIN instance i ON i.id = sc.instance_id
        WHERE sc.metric = ${metric} AND sc.submission_id IN (${Prisma.join(systems.map((s) => Prisma.sql`${s.submissionId}::uuid`))})`;
      for (const r of rows) {
        const k = index.get(r.submission_id);
        if (k === undefined) continue;
        values[k]![r.position] = r.value;
        signatures[k] = r.signature;
      }
    }
    const corpusRows = await this.db.corpusScore.findMany({ where: { metric, submissionId: { in: systems.map((s) => s.submissionId) } } });
    const corpusBy = new Map(corpusRows.map((c) => [c.submissionId, c]));
    const corpus = systems.map((s) => {
      const c = corpusBy.get(s.submissionId);
      return { value: c ? c.value : Number.NaN, signature: c ? c.signature : '' };
    });
    return { systems, instances: instances.map((i) => i.externalId), values, signatures, corpus };
  }

  /**
   * References of a test set (position order) and each submission's outputs aligned to them:
   * what corpus-level resampling rescores from sufficient statistics. Missing outputs are ''.
   */
  async alignedTexts(testSetId: string, submissionIds: string[]): Promise<{ references: string[][]; outputs: string[][] }> {
    const instances = await this.db.instance.findMany({ where: { testSetId }, orderBy: { position: 'asc' }, select: { id: true, references: true } });
    const at = new Map(instances.map((i, k) => [i.id, k]));
    const outputs = submissionIds.map(() => new Array<string>(instances.length).fill(''));
    const index = new Map(submissionIds.map((id, k) => [id, k]));
    if (submissionIds.length > 0) {
      const rows = await this.db.output.findMany({
        where: { submissionId: { in: submissionIds }, instance: { testSetId } },
        select: { submissionId: true, instanceId: true, text: true },
      });
      for (const r of rows) {
        const k = index.get(r.submissionId);
        const pos = at.get(r.instanceId);
        if (k !== undefined && pos !== undefined) outputs[k]![pos] = r.text;
      }
    }
    return { references: instances.map((i) => i.references), outputs };
  }

  async corpusScores(submissionId: string) {
    return this.db.corpusScore.findMany({ where: { submissionId }, orderBy: { metric: 'asc' } });
  }

  /** Corpus scores of many submissions in one query (DataLoader batches), by metric within each. */
  async corpusScoresOf(submissionIds: readonly string[]) {
    if (submissionIds.length === 0) return [];
    return this.db.corpusScore.findMany({ where: { submissionId: { in: [...submissionIds] } }, orderBy: [{ submissionId: 'asc' }, { metric: 'asc' }] });
  }

  /** One page of a submission's instance scores for a metric, sorted by value or position. */
  async instanceScores(submissionId: string, metric: string, opts: { offset: number; limit: number; order: 'position' | 'asc' | 'desc' }) {
    const orderBy: Prisma.InstanceScoreOrderByWithRelationInput[] =
      opts.order === 'position' ? [{ instance: { position: 'asc' } }] : [{ value: opts.order }, { instance: { position: 'asc' } }];
    const [total, rows] = await Promise.all([
      this.db.instanceScore.count({ where: { submissionId, metric } }),
      this.db.instanceScore.findMany({
        where: { submissionId, metric },
        orderBy,
        skip: opts.offset,
        take: opts.limit,
        include: { instance: { select: { externalId: true, position: true, source: true, references: true } } },
      }),
    ]);
    const outputs = await this.db.output.findMany({
      where: { submissionId, instanceId: { in: rows.map((r) => r.instanceId) } },
      select: { instanceId: true, text: true },
    });
    const outputBy = new Map(outputs.map((o) => [o.instanceId, o.text]));
    return { total, rows: rows.map((r) => ({ ...r, output: outputBy.get(r.instanceId) ?? '' })) };
  }

  /** Instances of a test set at the given positions, with a submission's output for each (any order). */
  async instanceDetails(submissionId: string, testSetId: string, positions: number[]) {
    if (positions.length === 0) return [];
    const rows = await this.db.instance.findMany({
      where: { testSetId, position: { in: positions } },
      select: { id: true, externalId: true, position: true, source: true, references: true, outputs: { where: { submissionId }, select: { text: true } } },
    });
    return rows.map((r) => ({ instanceId: r.externalId, position: r.position, source: r.source, references: r.references, output: r.outputs[0]?.text ?? '' }));
  }

  /**
   * Streams long-form score rows in pages (keyset pagination on submission, metric, position),
   * so a download never holds a whole phase in memory.
   */
  async *longRows(submissionIds: string[], pageSize = 5000): AsyncGenerator<LongScoreRow[]> {
    if (submissionIds.length === 0) return;
    let after: { sub: string; metric: string; pos: number } | null = null;
    const ids = Prisma.join(submissionIds.map((id) => Prisma.sql`${id}::uuid`));
    for (;;) {
      const cursor: Prisma.Sql = after
        ? Prisma.sql`AND (sc.submission_id, sc.metric, i.position) > (${after.sub}::uuid, ${after.metric}, ${after.pos})`
        : Prisma.empty;
      const rows: {
        submission_id: string; system_name: string; team_name: string; external_id: string;
        position: number; metric: string; signature: string; value: number;
      }[] = await this.db.$queryRaw`
        SELECT sc.submission_id, s.system_name, t.name AS team_name, i.external_id, i.position, sc.metric, sc.signature, sc.value
        FROM instance_score sc
        JOIN instance i ON i.id = sc.instance_id
        JOIN submission s ON s.id = sc.submission_id
        JOIN team t ON t.id = s.team_id
        WHERE sc.submission_id IN (${ids}) ${cursor}
        ORDER BY sc.submission_id, sc.metric, i.position
        LIMIT ${pageSize}`;
      if (rows.length === 0) return;
      yield rows.map((r) => ({
        submissionId: r.submission_id, systemName: r.system_name, teamName: r.team_name, instanceId: r.external_id,
        position: r.position, metric: r.metric, signature: r.signature, score: r.value,
      }));
      const last = rows[rows.length - 1]!;
      after = { sub: last.submission_id, metric: last.metric, pos: last.position };
      if (rows.length < pageSize) return;
    }
  }
}
