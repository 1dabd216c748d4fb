import { NotFoundError } from '@podium/domain';
import type { Db } from './client';
import { Prisma, RobustnessStatus } from './generated/client';
import { readColumns } from './score.repository';
import { txSql, type TxSql } from './submission.repository';

/** One report to (re)compute: a task's metric on a suite in a mode. */
export interface RobustnessRequest {
  taskId: string;
  metric: string;
  suite: string;
  mode: string;
}

/** Everything a worker needs to compute a report. */
export interface RobustnessJobInput {
  report: { id: string; metric: string; suite: string; mode: string; attempt: number; status: RobustnessStatus };
  task: { id: string; slug: string; kind: string; sourceLang: string; targetLang: string; metrics: Prisma.JsonValue };
}

export class RobustnessRepository {
  constructor(private readonly db: Db) {}

  /**
   * Queues reports in one transaction: each (task, metric, suite, mode) row is created, or reset
   * to QUEUED with its attempt bumped (a rerun replaces the previous result), and its job is sent
   * through `enqueue` inside the same transaction.
   */
  async queue(requests: readonly RobustnessRequest[], enqueue: (sql: TxSql, reportId: string, attempt: number) => Promise<void>) {
    return this.db.$transaction(async (tx) => {
      const out = [];
      for (const r of requests) {
        const report = await tx.robustnessReport.upsert({
          where: { taskId_metric_suite_mode: { taskId: r.taskId, metric: r.metric, suite: r.suite, mode: r.mode } },
          create: { taskId: r.taskId, metric: r.metric, suite: r.suite, mode: r.mode },
          update: {
            status: RobustnessStatus.QUEUED,
            attempt: { increment: 1 },
            error: null,
            result: Prisma.DbNull,
            signature: '',
            createdAt: new Date(),
            startedAt: null,
            finishedAt: null,
          },
        });
        await enqueue(txSql(tx), report.id, report.attempt);
        out.push(report);
      }
      return out;
    });
  }

  /** Reports of a task, by metric, suite and mode. */
  async ofTask(taskId: string) {
    return this.db.robustnessReport.findMany({ where: { taskId }, orderBy: [{ metric: 'asc' }, { suite: 'asc' }, { mode: 'asc' }] });
  }

  async countOfTask(taskId: string): Promise<number> {
    return this.db.robustnessReport.count({ where: { taskId } });
  }

  async byId(id: string) {
    return this.db.robustnessReport.findUnique({ where: { id } });
  }

  async jobInput(reportId: string): Promise<RobustnessJobInput | null> {
    const row = await this.db.robustnessReport.findUnique({ where: { id: reportId }, include: { task: true } });
    if (!row) return null;
    const { task } = row;
    return {
      report: { id: row.id, metric: row.metric, suite: row.suite, mode: row.mode, attempt: row.attempt, status: row.status },
      task: { id: task.id, slug: task.slug, kind: task.kind, sourceLang: task.sourceLang, targetLang: task.targetLang, metrics: task.metrics },
    };
  }

  /** Marks the report RUNNING if `attempt` is still its current one; false when the job is stale. */
  async markRunning(reportId: string, attempt: number): Promise<boolean> {
    const r = await this.db.robustnessReport.updateMany({
      where: { id: reportId, attempt, status: { in: [RobustnessStatus.QUEUED, RobustnessStatus.RUNNING] } },
      data: { status: RobustnessStatus.RUNNING, startedAt: new Date() },
    });
    return r.count === 1;
  }

  /**
   * Stores a finished report in one statement, only for the current attempt (a rerun queued in
   * the meantime wins); false when the attempt is stale.
   */
  async saveResult(reportId: string, attempt: number, signature: string, result: Prisma.InputJsonValue): Promise<boolean> {
    const r = await this.db.robustnessReport.updateMany({
      where: { id: reportId, attempt },
      data: { status: RobustnessStatus.DONE, signature, result, error: null, finishedAt: new Date() },
    });
    return r.count === 1;
  }

  async markFailed(reportId: string, attempt: number, error: string): Promise<boolean> {
    const r = await this.db.robustnessReport.updateMany({
      where: { id: reportId, attempt },
      data: { status: RobustnessStatus.FAILED, error: error.slice(0, 2000), finishedAt: new Date() },
    });
    return r.count === 1;
  }

  /**
   * The task's references and sources for suite generation: every instance of every test set
   * of the task, in test-set creation order then position.
   */
  async taskTexts(taskId: string): Promise<{ source: string; references: string[] }[]> {
    const task = await this.db.task.findUnique({ where: { id: taskId }, select: { id: true } });
    if (!task) throw new NotFoundError('task', taskId);
    return this.db.instance.findMany({
      where: { testSet: { taskId } },
      orderBy: [{ testSet: { createdAt: 'asc' } }, { position: 'asc' }],
      select: { source: true, references: true },
    });
  }

  /**
   * Human judgements of a phase's test set next to the phase's scored systems (the latest
   * scored submission per system name). Human scores of several systems on one instance with
   * the same score and identical outputs are one judgement of joined systems (WMT's "A+B",
   * stored as one row per system), so they count once at segment level.
   */
  async humanJudgements(phaseId: string): Promise<{
    systems: { systemName: string; submissionId: string }[];
    judgements: { position: number; systems: string[]; human: number }[];
  }> {
    const phase = await this.db.phase.findUnique({ where: { id: phaseId }, select: { testSetId: true } });
    if (!phase) throw new NotFoundError('phase', phaseId);
    if (!phase.testSetId) return { systems: [], judgements: [] };
    const human = await this.db.humanScore.findMany({
      where: { instance: { testSetId: phase.testSetId } },
      select: { instanceId: true, systemName: true, score: true, instance: { select: { position: true } } },
    });
    if (human.length === 0) return { systems: [], judgements: [] };
    const scored = await this.db.submission.findMany({
      where: { phaseId, status: 'SCORED' },
      orderBy: [{ createdAt: 'desc' }, { id: 'asc' }],
      select: { id: true, systemName: true },
    });
    const latest = new Map<string, string>();
    for (const s of scored) if (!latest.has(s.systemName)) latest.set(s.systemName, s.id);
    const judged = new Set(human.map((h) => h.systemName));
    const systems = [...latest].filter(([name]) => judged.has(name)).map(([systemName, submissionId]) => ({ systemName, submissionId }));
    const outputs = await this.db.output.findMany({
      where: { submissionId: { in: systems.map((s) => s.submissionId) }, instance: { testSetId: phase.testSetId } },
      select: { submissionId: true, instanceId: true, text: true },
    });
    const textOf = new Map(outputs.map((o) => [`${o.submissionId}\u0000${o.instanceId}`, o.text]));
    const groups = new Map<string, { position: number; systems: [string, ...string[]]; human: number }>();
    for (const h of human) {
      const sub = latest.get(h.systemName);
      const text = sub === undefined ? undefined : textOf.get(`${sub}\u0000${h.instanceId}`);
      // Unscored systems and outputs never group, so they cannot pull a judgement apart.
      const key = text === undefined ? `${h.instanceId}\u0000${h.systemName}` : `${h.instanceId}\u0000${h.score}\u0000${text}`;
      const g = groups.get(key);
      if (g) g.systems.push(h.systemName);
      else groups.set(key, { position: h.instance.position, systems: [h.systemName], human: h.score });
    }
    const judgements = [...groups.values()].sort((a, b) => a.position - b.position || a.systems[0].localeCompare(b.systems[0]));
    for (const j of judgements) j.systems.sort();
    return { systems, judgements };
  }

  /** Instance scores (by position) and corpus score of one metric for the given submissions. */
  async metricScores(submissionIds: string[], metric: string): Promise<Map<string, { signature: string; corpus: number | null; values: Map<number, number> }>> {
    const out = new Map<string, { signature: string; corpus: number | null; values: Map<number, number> }>();
    if (submissionIds.length === 0) return out;
    for (const id of submissionIds) out.set(id, { signature: '', corpus: null, values: new Map() });
    await readColumns(this.db, submissionIds, metric, null, (submissionId, signature, values) => {
      const s = out.get(submissionId);
      if (!s) return; // a column of a submission not asked for (readColumns reads only those)
      values.forEach((value, position) => {
        if (!Number.isNaN(value)) s.values.set(position, value);
      });
      s.signature = signature;
    });
    const corpus = await this.db.corpusScore.findMany({ where: { metric, submissionId: { in: submissionIds } } });
    for (const c of corpus) {
      const s = out.get(c.submissionId);
      if (s) s.corpus = c.value;
    }
    return out;
  }
}
