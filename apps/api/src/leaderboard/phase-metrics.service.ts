import { Injectable } from '@nestjs/common';
import { LRUCache } from 'lru-cache';
import type { MetricConfig } from '@podium/contracts';
import { InvalidInputError, ScoreRepository, SubmissionRepository, type PhaseScoreMatrix, type Task } from '@podium/db';
import { createHash } from 'node:crypto';
import { kindFromDb, taskMetrics } from '../tasks/task.mapper';
import { combinablePairs, combineMatrices, combinedKey, combinedWeightFor, isCombinedKey, resolveCombined, type CombinedMetric } from './combined-metric';
import { metricHigherIsBetter } from './ranking.adapter';

/** A metric a phase can be read under: stored scores, or the combined metric computed from two of them. */
export type MetricSelection =
  | { kind: 'stored'; key: string; name: string; higherIsBetter: boolean }
  | { kind: 'combined'; key: string; name: 'combined'; higherIsBetter: true; combined: CombinedMetric };

/** The parts of a phase this service reads. */
export interface PhaseForMetrics {
  id: string;
  testSetId: string | null;
  task: Pick<Task, 'metrics' | 'kind' | 'combinedWeight'>;
}

/** Note added wherever the combined metric's corpus score is shown. */
export const COMBINED_CORPUS_NOTE =
  "the combined metric is computed when read from the stored NLI and other scores, min–max scaled over every instance score of the phase's scored submissions (so it moves as submissions arrive; the bounds are in the signature); its corpus score is the mean of its instance values";

const CACHE_SIZE = 50;

/**
 * Resolves metric keys of a phase (stored or `combined…`) and reads their score matrices; the
 * leaderboard, instance pages and downloads all go through it, so they show the same numbers.
 * Combined matrices are cached per phase, metric, weight and scoring state.
 */
@Injectable()
export class PhaseMetricsService {
  private readonly matrices = new LRUCache<string, Promise<PhaseScoreMatrix>>({ max: CACHE_SIZE });

  constructor(
    private readonly submissions: SubmissionRepository,
    private readonly scores: ScoreRepository,
  ) {}

  /** Changes whenever a submission of the phase is (re)scored. */
  async scoringStamp(phaseId: string): Promise<string> {
    const scored = await this.submissions.ofPhase(phaseId, { status: 'SCORED' });
    return createHash('sha256')
      .update(scored.map((s) => `${s.id}@${s.scoredAt?.toISOString() ?? ''}:${s.isPrimary ? 'p' : ''}${s.moderation}`).join(','))
      .digest('hex');
  }

  /** Stored metric keys with scores, then the combined keys the phase can compute from them. */
  async available(phase: PhaseForMetrics): Promise<{ stored: string[]; all: string[] }> {
    const stored = await this.scores.metricsOfPhase(phase.id);
    const combined = combinablePairs(taskMetrics(phase.task), stored).map(([n, o]) => combinedKey(n.key, o.key));
    return { stored, all: [...stored, ...combined] };
  }

  /**
   * The metric a key names, or INVALID_INPUT (field `metric`) saying what can be asked for.
   * Without a key: the task's first metric.
   */
  select(phase: PhaseForMetrics, key: string | undefined, stored: readonly string[]): MetricSelection {
    const configured: MetricConfig[] = taskMetrics(phase.task);
    const metric = key ?? configured[0]?.key ?? stored[0] ?? '';
    const config = configured.find((m) => m.key === metric);
    if (config || stored.includes(metric)) {
      const name = config?.name ?? metric;
      return { kind: 'stored', key: metric, name, higherIsBetter: metricHigherIsBetter(name) };
    }
    if (isCombinedKey(metric)) {
      const w = combinedWeightFor(kindFromDb(phase.task.kind), phase.task.combinedWeight);
      const r = resolveCombined(metric, configured, stored, w, metricHigherIsBetter);
      if ('error' in r) throw new InvalidInputError(r.error, { field: 'metric' });
      return { kind: 'combined', key: r.key, name: 'combined', higherIsBetter: true, combined: r };
    }
    const combinable = combinablePairs(configured, stored).map(([n, o]) => combinedKey(n.key, o.key));
    throw new InvalidInputError(
      `metric '${metric}' is not configured for this task (configured: ${configured.map((m) => m.key).join(', ')}${
        combinable.length > 0 ? `; combined: ${combinable.join(', ')}` : ''
      })`,
      { field: 'metric' },
    );
  }

  /** Systems × instances matrix of a selection; `stamp` from {@link scoringStamp} keys the cache. */
  async matrix(phase: PhaseForMetrics & { testSetId: string }, selection: MetricSelection, stamp: string): Promise<PhaseScoreMatrix> {
    if (selection.kind === 'stored') return this.scores.matrix(phase.id, selection.key, phase.testSetId);
    const spec = selection.combined;
    const key = JSON.stringify([phase.id, spec.key, spec.w, stamp]);
    let hit = this.matrices.get(key);
    if (hit) return hit;
    hit = (async () => {
      const [n, m] = await Promise.all([
        this.scores.matrix(phase.id, spec.nli.key, phase.testSetId),
        this.scores.matrix(phase.id, spec.other.key, phase.testSetId),
      ]);
      return combineMatrices(spec, n, m);
    })();
    this.matrices.set(key, hit);
    hit.catch(() => {
      if (this.matrices.peek(key) === hit) this.matrices.delete(key);
    });
    return hit;
  }
}
