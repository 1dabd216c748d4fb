import { LRUCache } from 'lru-cache';
import { COMBINED_PLUGIN } from '@podium/metrics';
import { taskKindFromDb, type MetricConfig, type TaskKindName } from '@podium/contracts';
import { type LeaderboardRepository, type LongScoreRow, type PhaseScoreMatrix, type ScoreRepository, type Task } from '@podium/db';
import { InvalidInputError } from '@podium/domain';
import { combinablePairs, combineMatrices, combinedKey, combinedWeightFor, isCombinedKey, resolveCombined, type CombinedMetric } from './combined-metric';
import { metricHigherIsBetter } from './ranking.adapter';

/** The task's metric list as stored (validated when written). */
export function taskMetrics(task: Pick<Task, 'metrics'>): MetricConfig[] {
  return Array.isArray(task.metrics) ? (task.metrics as unknown as MetricConfig[]) : [];
}

/** A stored task kind as the contracts name it ('other' when unknown). */
export function kindFromDb(kind: Task['kind']): TaskKindName {
  return taskKindFromDb(kind) ?? 'other';
}

/** A metric a phase can be read under: stored scores, or the derived (combined) metric computed from two of them. */
export type MetricSelection =
  | { kind: 'stored'; key: string; name: string; higherIsBetter: boolean }
  | { kind: 'derived'; key: string; name: string; higherIsBetter: boolean; combined: CombinedMetric };

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
export class PhaseMetrics {
  private readonly matrices = new LRUCache<string, Promise<PhaseScoreMatrix>>({ max: CACHE_SIZE });

  constructor(
    private readonly scores: ScoreRepository,
    private readonly boards: Pick<LeaderboardRepository, 'stamp'>,
  ) {}

  /**
   * Changes whenever anything a leaderboard of the phase depends on changes: a submission
   * (re)scored, moderated, marked primary or baseline, renamed; the phase's significance
   * settings, test set or publication; the task's metrics. One SQL query (LeaderboardRepository.stamp).
   */
  async scoringStamp(phaseId: string): Promise<string> {
    return this.boards.stamp(phaseId);
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
      return { kind: 'derived', key: r.key, name: COMBINED_PLUGIN.definition.name, higherIsBetter: COMBINED_PLUGIN.definition.higherIsBetter, combined: r };
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

  /**
   * The long rows (one per system and instance) of a derived (combined) selection, read from
   * {@link matrix}: the one place instance pages and phase downloads take derived scores from,
   * so they show the leaderboard's numbers. `submissionIds`: only these systems (all when
   * absent); `positions`: only these instance positions (all when null); missing cells are left
   * out. Yields one system's rows at a time, in the matrix's system order.
   */
  async *derivedRows(
    phase: PhaseForMetrics & { testSetId: string },
    selection: MetricSelection & { kind: 'derived' },
    stamp: string,
    only: { submissionIds?: ReadonlySet<string>; positions?: ReadonlySet<number> | null } = {},
  ): AsyncGenerator<LongScoreRow[]> {
    const m = await this.matrix(phase, selection, stamp);
    for (const [k, s] of m.systems.entries()) {
      if (only.submissionIds && !only.submissionIds.has(s.submissionId)) continue;
      const values = m.values[k];
      const signature = m.signatures[k];
      if (values === undefined || signature === undefined) throw new Error(`${selection.key} matrix: no row for ${s.systemName}`);
      const rows: LongScoreRow[] = [];
      values.forEach((score, position) => {
        if (!Number.isFinite(score) || (only.positions && !only.positions.has(position))) return;
        const instanceId = m.instances[position];
        if (instanceId === undefined) throw new Error(`${selection.key} matrix: ${s.systemName} has a value past the last instance (${position})`);
        rows.push({ submissionId: s.submissionId, systemName: s.systemName, teamName: s.teamName, instanceId, position, metric: selection.key, signature, score });
      });
      yield rows;
    }
  }
}
