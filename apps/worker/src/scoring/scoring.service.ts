import { Inject, Injectable, Logger, Optional } from '@nestjs/common';
import type { WorkerConfig } from '@podium/config';
import { metricConfigListSchema, taskKindFromDb, type MetricConfig, type TaskKindName } from '@podium/contracts';
import { SubmissionRepository } from '@podium/db';
import { LeaseHeldError, LeaseLostError } from '@podium/domain';
import { MetricInputError, metricPlugin } from '@podium/metrics';
import { MetricUnavailableError, readsSources, runMetrics, type EmbeddingScorer, type MetricResult, type NliScorer, type ScoringInstance } from '../metrics/metric-runner';
import { LeaseKeeper } from '../leases/lease-keeper';
import { EMBEDDING_SCORER, NLI_SCORER, WORKER_CONFIG } from '../tokens';

/** The outcome of one scoring attempt. */
export type ScoringOutcome =
  | { kind: 'scored'; instances: number; metrics: string[]; attempt: number; phaseId: string }
  | { kind: 'skipped'; reason: string }
  | { kind: 'failed'; reason: string };

/** A failure that retrying cannot fix (bad configuration, missing model, invalid input). */
export class PermanentScoringError extends Error {}

/** A submission loaded and marked SCORING, ready for its metrics. */
interface PreparedSubmission {
  submissionId: string;
  /** The fencing token of this run's claim: the final write lands only with it. */
  token: bigint;
  phaseId: string;
  attempt: number;
  taskKind: TaskKindName;
  metrics: MetricConfig[];
  instances: ScoringInstance[];
  progress: (n: number) => void;
}

function permanent(e: unknown): unknown {
  if (e instanceof MetricUnavailableError || e instanceof MetricInputError) return new PermanentScoringError(e.message);
  return e;
}

/** The NLI result scored in the shared batch for one metric key of a submission. */
function nliResultOf(batch: Map<string, MetricResult>, key: string): MetricResult {
  const r = batch.get(key);
  if (!r) throw new Error(`the shared NLI batch has no result for metric '${key}'`);
  return r;
}

@Injectable()
export class ScoringService {
  private readonly log = new Logger(ScoringService.name);

  constructor(
    private readonly submissions: SubmissionRepository,
    @Inject(NLI_SCORER) private readonly nli: NliScorer | null,
    readonly leases: LeaseKeeper,
    @Optional() @Inject(WORKER_CONFIG) private readonly config: Partial<WorkerConfig> = {},
    @Optional() @Inject(EMBEDDING_SCORER) private readonly embeddings: EmbeddingScorer | null = null,
  ) {}

  /** Fault injection (PODIUM_FAULT_*): pauses that let fault tests kill a worker at a chosen moment. */
  private async faultPause(ms: number | undefined, what: string, submissionId: string): Promise<void> {
    if (!ms) return;
    this.log.log({ msg: `fault injection: pausing ${ms} ms ${what}`, submissionId, event: `fault-${what.replace(/\s+/g, '-')}` });
    await new Promise((r) => setTimeout(r, ms));
  }

  /**
   * Scores every instance of a submission with the task's metrics and stores all scores in one
   * transaction. Idempotent: a rerun replaces the previous scores.
   */
  async score(submissionId: string): Promise<ScoringOutcome> {
    const [result] = await this.scoreBatch([submissionId]);
    if (result instanceof Error) throw result;
    if (!result) throw new Error(`scoring submission ${submissionId} produced no outcome`);
    return result;
  }

  /**
   * Scores several submissions together: the NLI pairs of all of them go through the model in
   * shared batches (one model call per NLI configuration), which keeps a GPU busy; classical
   * metrics and the stored scores stay per submission. Returns, per submission in input order,
   * its outcome or the error that stopped it (a {@link PermanentScoringError} when retrying
   * cannot help).
   */
  async scoreBatch(submissionIds: string[], jobIds: (string | null)[] = []): Promise<(ScoringOutcome | Error)[]> {
    const results: (ScoringOutcome | Error | undefined)[] = submissionIds.map(() => undefined);
    const prepared: (PreparedSubmission | null)[] = [];
    for (const [k, id] of submissionIds.entries()) {
      try {
        const p = await this.prepare(id, jobIds[k] ?? null);
        if ('taskKind' in p) prepared[k] = p;
        else {
          results[k] = p;
          prepared[k] = null;
        }
      } catch (e) {
        results[k] = e instanceof Error ? e : new Error(String(e));
        prepared[k] = null;
      }
    }
    const ready = prepared.filter((p): p is PreparedSubmission => p !== null);
    const nliResults = await this.scoreNliTogether(ready);
    for (const [k, p] of prepared.entries()) {
      if (!p) continue;
      try {
        const pre = nliResults.get(p.submissionId);
        if (pre instanceof Error) throw pre;
        const scorer: NliScorer | null = pre ? { score: async (config) => nliResultOf(pre, config.key) } : this.nli;
        await this.faultPause(this.config.PODIUM_FAULT_SCORING_DELAY_MS, 'before scoring', p.submissionId);
        const metricResults = await runMetrics(p.metrics, p.taskKind, p.instances, scorer, p.progress, this.embeddings);
        await this.save(p, metricResults);
        this.leases.settled(p.submissionId);
        results[k] = { kind: 'scored', instances: p.instances.length, metrics: metricResults.map((r) => r.key), attempt: p.attempt, phaseId: p.phaseId };
      } catch (e) {
        if (e instanceof LeaseLostError) {
          // Fenced: another claim came since (this worker was partitioned or paused past its
          // lease). Nothing was written; the result is dropped and the other run settles it.
          this.leases.refused(e, 'submission');
          this.leases.settled(p.submissionId);
          results[k] = { kind: 'skipped', reason: e.message };
        } else {
          const err = permanent(e);
          results[k] = err instanceof Error ? err : new Error(String(err));
        }
      } finally {
        this.leases.release(p.submissionId);
      }
    }
    return results.map((r) => r ?? new Error('not scored'));
  }

  private async prepare(submissionId: string, jobId: string | null): Promise<PreparedSubmission | ScoringOutcome> {
    let lease;
    try {
      lease = await this.leases.acquire(submissionId, jobId);
    } catch (e) {
      // Refused: another run holds a live lease. This job ends; that run settles the submission.
      if (e instanceof LeaseHeldError) return { kind: 'skipped', reason: e.message };
      throw e;
    }
    if (lease.kind === 'gone') return { kind: 'skipped', reason: `submission ${submissionId} no longer exists` };
    if (lease.kind === 'settled') return { kind: 'skipped', reason: `submission ${submissionId} is ${lease.status}, not queued` };
    const input = await this.submissions.scoringInput(submissionId, (task) => readsSources(task.metrics)).catch((e: unknown) => {
      this.leases.release(submissionId);
      throw e;
    });
    if (!input) {
      this.leases.settled(submissionId);
      return { kind: 'skipped', reason: `submission ${submissionId} no longer exists` };
    }
    const metrics = metricConfigListSchema.safeParse(input.task.metrics);
    if (!metrics.success) {
      this.leases.release(submissionId);
      throw new PermanentScoringError(`task '${input.task.slug}' has an invalid metric configuration: ${metrics.error.message}`);
    }
    const kind = taskKindFromDb(input.task.kind);
    if (!kind) {
      this.leases.release(submissionId);
      throw new PermanentScoringError(`unknown task kind ${input.task.kind}`);
    }
    const { outputs, references, sources } = input.texts;
    const instances: ScoringInstance[] = new Array<ScoringInstance>(outputs.length);
    for (let k = 0; k < outputs.length; k++) instances[k] = { source: sources?.[k] ?? '', references: references[k] ?? [], output: outputs[k] ?? '' };
    const total = instances.length * metrics.data.length;
    let done = 0;
    let lastReport = 0;
    const progress = (n: number) => {
      done += n;
      // Report progress at most every 5% so that progress writes stay cheap.
      if (done - lastReport >= total / 20 || done === total) {
        lastReport = done;
        const perInstance = Math.min(instances.length, Math.floor(done / metrics.data.length));
        void this.submissions.setProgress(submissionId, perInstance).catch((e: unknown) => this.log.warn(`progress update failed: ${String(e)}`));
      }
    };
    return { submissionId, token: lease.token, phaseId: input.submission.phaseId, attempt: lease.attempt, taskKind: kind, metrics: metrics.data, instances, progress };
  }

  /**
   * NLI scores of all prepared submissions, one model call per distinct (configuration, task
   * kind): instances are concatenated, scored, and split back. An NLI score depends only on its
   * own instance, so this gives the same values as scoring each submission alone.
   */
  private async scoreNliTogether(prepared: PreparedSubmission[]): Promise<Map<string, Map<string, MetricResult> | Error>> {
    const out = new Map<string, Map<string, MetricResult> | Error>();
    if (!this.nli) return out;
    const groups = new Map<string, { config: MetricConfig; kind: TaskKindName; members: { p: PreparedSubmission; key: string }[] }>();
    for (const p of prepared) {
      for (const config of p.metrics.filter((m) => metricPlugin(m.name)?.capability === 'model')) {
        const id = JSON.stringify([config.options, p.taskKind]);
        const g = groups.get(id) ?? { config, kind: p.taskKind, members: [] };
        g.members.push({ p, key: config.key });
        groups.set(id, g);
      }
    }
    for (const g of groups.values()) {
      const all = g.members.flatMap((m) => m.p.instances);
      // Each member's instances are all[lo, hi).
      let at = 0;
      const spans = g.members.map((m) => ({ m, lo: at, hi: (at += m.p.instances.length) }));
      let reported = 0;
      const progress = (n: number) => {
        // Credit progress to the submissions whose instances are now covered.
        const before = reported;
        reported += n;
        spans.forEach(({ m, lo, hi }) => {
          const credited = Math.max(0, Math.min(hi, reported) - Math.max(lo, before));
          if (credited > 0) m.p.progress(credited);
        });
      };
      try {
        const r = await this.nli.score(g.config, g.kind, all, progress);
        spans.forEach(({ m, lo, hi }) => {
          const values = r.instances.slice(lo, hi);
          const corpus = values.reduce((a, b) => a + b, 0) / Math.max(1, values.length);
          const mine = out.get(m.p.submissionId);
          const map = mine instanceof Map ? mine : new Map<string, MetricResult>();
          map.set(m.key, { key: m.key, signature: r.signature, sentenceSignature: r.sentenceSignature, corpus, instances: values });
          out.set(m.p.submissionId, map);
        });
      } catch (e) {
        const err = permanent(e);
        for (const m of g.members) out.set(m.p.submissionId, err instanceof Error ? err : new Error(String(err)));
      }
    }
    return out;
  }

  private async save(p: PreparedSubmission, results: MetricResult[]): Promise<void> {
    // Instances are in test-set position order (scoringInput), so each metric is one column.
    const columns = results.map((r) => ({ metric: r.key, signature: r.sentenceSignature, values: r.instances, stats: r.stats ?? null }));
    const corpusScores = results.map((r) => ({ metric: r.key, signature: r.signature, value: r.corpus }));
    await this.submissions.saveScores(p.submissionId, columns, corpusScores, { owner: this.leases.owner, token: p.token }, () =>
      this.faultPause(this.config.PODIUM_FAULT_SAVE_DELAY_MS, 'in the final transaction', p.submissionId),
    );
  }

  /**
   * Fails the submission while this worker's claim (its fencing token) still holds the lease.
   * A run whose lease was taken back fails nothing: another run settles the submission.
   */
  async fail(submissionId: string, reason: string): Promise<void> {
    const holder = this.leases.holder(submissionId);
    this.leases.settled(submissionId);
    if (holder) {
      if (!(await this.submissions.markFailed(submissionId, reason, holder))) {
        this.log.warn({ msg: `late write refused: submission ${submissionId} was claimed again since token ${holder.token}; not failed`, event: 'fencing.refused', submissionId, token: holder.token.toString() });
      }
      return;
    }
    // The last attempt failed before it could take the lease (the database was unreachable):
    // no job is left for it, so a QUEUED submission must not wait for one.
    await this.submissions.markFailed(submissionId, reason, null);
  }

  /** Hands a submission back to the queue (an error pg-boss will retry, or a shutdown); false when this worker's claim no longer holds it. */
  async handBack(submissionId: string, reason: 'error' | 'shutdown', alsoInTx?: Parameters<SubmissionRepository['releaseLease']>[3]): Promise<boolean> {
    const holder = this.leases.holder(submissionId);
    this.leases.settled(submissionId);
    if (!holder) return false;
    return this.submissions.releaseLease(submissionId, holder, reason, alsoInTx);
  }
}
