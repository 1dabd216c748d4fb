import { Inject, Injectable, Logger } from '@nestjs/common';
import { metricConfigListSchema, TASK_KINDS, type TaskKindName } from '@podium/contracts';
import { SubmissionRepository, TaskKind } from '@podium/db';
import { MetricUnavailableError, runMetrics, type NliScorer, type ScoringInstance } from './metric-runner';
import { NLI_SCORER } from './tokens';

const KIND_NAMES: Record<TaskKind, TaskKindName> = {
  MT: 'mt',
  SUMMARIZATION: 'summarization',
  DATA_TO_TEXT: 'data-to-text',
  OTHER: 'other',
};

/** The outcome of one scoring attempt. */
export type ScoringOutcome =
  | { kind: 'scored'; instances: number; metrics: string[] }
  | { kind: 'skipped'; reason: string }
  | { kind: 'failed'; reason: string };

/** A failure that retrying cannot fix (bad configuration, missing model, invalid input). */
export class PermanentScoringError extends Error {}

@Injectable()
export class ScoringService {
  private readonly log = new Logger(ScoringService.name);

  constructor(
    private readonly submissions: SubmissionRepository,
    @Inject(NLI_SCORER) private readonly nli: NliScorer | null,
  ) {}

  /**
   * Scores every instance of a submission with the task's metrics and stores all scores in one
   * transaction. Idempotent: a rerun replaces the previous scores.
   */
  async score(submissionId: string): Promise<ScoringOutcome> {
    const input = await this.submissions.scoringInput(submissionId);
    if (!input) return { kind: 'skipped', reason: `submission ${submissionId} no longer exists` };
    if (!(await this.submissions.markScoring(submissionId))) {
      return { kind: 'skipped', reason: `submission ${submissionId} is ${input.submission.status}, not queued` };
    }
    const metrics = metricConfigListSchema.safeParse(input.task.metrics);
    if (!metrics.success) {
      throw new PermanentScoringError(`task '${input.task.slug}' has an invalid metric configuration: ${metrics.error.message}`);
    }
    const kind = KIND_NAMES[input.task.kind];
    if (!TASK_KINDS.includes(kind)) throw new PermanentScoringError(`unknown task kind ${input.task.kind}`);
    const instances: ScoringInstance[] = input.outputs.map((o) => ({
      instanceId: o.instance.id,
      source: o.instance.source,
      references: o.instance.references,
      output: o.text,
    }));
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
    let results;
    try {
      results = await runMetrics(metrics.data, kind, instances, this.nli, progress);
    } catch (e) {
      if (e instanceof MetricUnavailableError || (e instanceof Error && e.name === 'MetricInputError')) {
        throw new PermanentScoringError(e.message);
      }
      throw e;
    }
    const instanceScores = results.flatMap((r) =>
      r.instances.map((value, i) => ({ instanceId: instances[i]!.instanceId, metric: r.key, signature: r.sentenceSignature, value })),
    );
    const corpusScores = results.map((r) => ({ metric: r.key, signature: r.signature, value: r.corpus }));
    await this.submissions.saveScores(submissionId, instanceScores, corpusScores);
    return { kind: 'scored', instances: instances.length, metrics: results.map((r) => r.key) };
  }

  async fail(submissionId: string, reason: string): Promise<void> {
    await this.submissions.markFailed(submissionId, reason);
  }
}
