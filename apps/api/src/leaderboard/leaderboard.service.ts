import { Injectable } from '@nestjs/common';
import { InvalidInputError, NotFoundError, ScoreRepository, SubmissionRepository, TaskRepository, type AuthUser } from '@podium/db';
import { assertId } from '../common/ids';
import { assertCanSeePhaseScores } from '../common/visibility';
import { PValueCorrection, PairedTest, type Leaderboard, type LeaderboardSystem, type SystemPair } from './leaderboard.types';
import { COMBINED_CORPUS_NOTE, PhaseMetricsService, type MetricSelection, type PhaseForMetrics } from './phase-metrics.service';
import { rankSystems, type Analysis } from './ranking.adapter';
import { leaderboardEntries, type LeaderboardEntries } from '../lifecycle/leaderboard-entries';

export interface LeaderboardOptions {
  metric?: string;
  test?: PairedTest;
  correction?: PValueCorrection;
  seed?: number;
  resamples?: number;
  /** Default: each team's primary submission (see leaderboardEntries). */
  entries?: LeaderboardEntries;
}

export const DEFAULT_SEED = 12345;
export const DEFAULT_RESAMPLES = 1000;
export const MAX_RESAMPLES = 10_000;
/** The pairs' `p` uses the paired t-test unless a test is chosen (mean is the default order). */
export const DEFAULT_PAIR_TEST = PairedTest.TTEST;
const CACHE_SIZE = 200;

const finite = (x: number | undefined): number | null => (x !== undefined && Number.isFinite(x) ? x : null);
const interval = (ci: readonly [number, number]) => ({ low: finite(ci[0]), high: finite(ci[1]) });

function mostCommon(values: string[]): string {
  const counts = new Map<string, number>();
  for (const v of values) if (v) counts.set(v, (counts.get(v) ?? 0) + 1);
  let best = '';
  let bestCount = 0;
  for (const [v, c] of counts) if (c > bestCount) [best, bestCount] = [v, c];
  return best;
}

/** Names the top system under mean, median and BT when they are not the same. */
export function topDisagreement(systems: Pick<LeaderboardSystem, 'system' | 'team' | 'rank'>[]): string | null {
  if (systems.length < 2) return null;
  const top = (agg: 'mean' | 'median' | 'bt') =>
    systems
      .filter((s) => s.rank[agg] === 1)
      .map((s) => `${s.system} (${s.team})`)
      .sort();
  const [m, md, bt] = [top('mean'), top('median'), top('bt')];
  const same = (a: string[], b: string[]) => a.join('\u0000') === b.join('\u0000');
  if (same(m, md) && same(m, bt)) return null;
  return `The aggregations disagree about the top system: mean ranks ${m.join(' and ')} first, median ${md.join(' and ')}, Bradley–Terry ${bt.join(' and ')}. Compare them head to head in the pairs.`;
}

/**
 * Bounded in-memory cache keyed by everything a result depends on; it holds promises, so
 * concurrent requests for the same board share one computation.
 */
class LeaderboardCache {
  private readonly entries = new Map<string, Promise<Leaderboard>>();
  get(key: string): Promise<Leaderboard> | undefined {
    const hit = this.entries.get(key);
    if (hit) {
      this.entries.delete(key);
      this.entries.set(key, hit);
    }
    return hit;
  }
  set(key: string, value: Promise<Leaderboard>): void {
    this.entries.set(key, value);
    // A failed computation is not remembered.
    value.catch(() => {
      if (this.entries.get(key) === value) this.entries.delete(key);
    });
    if (this.entries.size > CACHE_SIZE) this.entries.delete(this.entries.keys().next().value!);
  }
}

@Injectable()
export class LeaderboardService {
  private readonly cache = new LeaderboardCache();

  constructor(
    private readonly tasks: TaskRepository,
    private readonly submissions: SubmissionRepository,
    private readonly scores: ScoreRepository,
    private readonly metrics: PhaseMetricsService = new PhaseMetricsService(submissions, scores),
  ) {}

  async leaderboard(phaseId: string, options: LeaderboardOptions, user: AuthUser | null): Promise<Leaderboard> {
    assertId('phase', phaseId);
    const phase = await this.tasks.phaseById(phaseId);
    if (!phase) throw new NotFoundError('phase', phaseId);
    assertCanSeePhaseScores(phase, user);

    const seed = options.seed ?? DEFAULT_SEED;
    const resamples = options.resamples ?? DEFAULT_RESAMPLES;
    if (!Number.isInteger(seed)) throw new InvalidInputError('seed must be an integer', { field: 'seed' });
    if (!Number.isInteger(resamples) || resamples < 1 || resamples > MAX_RESAMPLES) {
      throw new InvalidInputError(`resamples must be between 1 and ${MAX_RESAMPLES}`, { field: 'resamples' });
    }
    const available = await this.metrics.available(phase);
    const selection = this.metrics.select(phase, options.metric, available.stored);
    const correction = options.correction ?? PValueCorrection.HOLM;
    const test = options.test ?? DEFAULT_PAIR_TEST;

    const stamp = await this.metrics.scoringStamp(phaseId);
    const weight = selection.kind === 'combined' ? selection.combined.w : null;
    const entries = options.entries ?? 'primary';
    const key = JSON.stringify([phaseId, selection.key, weight, options.test ?? null, correction, seed, resamples, stamp, entries]);
    const cached = this.cache.get(key);
    if (cached) return cached;
    const computed = this.compute(phase, selection, available.all, stamp, {
      test,
      explicitTest: options.test,
      correction,
      seed,
      resamples,
      entries,
    });
    this.cache.set(key, computed);
    return computed;
  }

  private async compute(
    phase: PhaseForMetrics,
    selection: MetricSelection,
    available: string[],
    stamp: string,
    o: { test: PairedTest; explicitTest?: PairedTest; correction: PValueCorrection; seed: number; resamples: number; entries: LeaderboardEntries },
  ): Promise<Leaderboard> {
    const phaseId = phase.id;
    const metric = selection.key;
    const { test, correction, seed, resamples } = o;
    const base = {
      phaseId,
      metric,
      higherIsBetter: selection.higherIsBetter,
      availableMetrics: available,
      test,
      correction,
      seed,
      resamples,
    };
    const notes: string[] = selection.kind === 'combined' ? [COMBINED_CORPUS_NOTE] : [];
    if (!phase.testSetId) {
      return { ...base, metricSignature: '', instanceCount: 0, systems: [], pairs: [], disagreement: null, notes: [...notes, 'the phase has no test set yet'] };
    }
    const matrix = await this.metrics.matrix({ ...phase, testSetId: phase.testSetId }, selection, stamp);
    const entering = leaderboardEntries(await this.submissions.ofPhase(phaseId, { status: 'SCORED' }), o.entries);
    // Only fully scored systems can be compared instance by instance.
    const keep = matrix.systems.map((_, s) => matrix.values[s]!.every((v) => Number.isFinite(v)));
    matrix.systems.forEach((s, k) => {
      if (!entering.has(s.submissionId)) keep[k] = false;
      else if (!keep[k]) notes.push(`${s.systemName} (${s.teamName}) has no complete '${metric}' scores and is left out`);
    });
    const idx = matrix.systems.map((_, k) => k).filter((k) => keep[k]);
    const signature = mostCommon(idx.map((k) => matrix.signatures[k]!));
    if (new Set(idx.map((k) => matrix.signatures[k])).size > 1) {
      notes.push(`the systems' '${metric}' scores carry different signatures; rescore the phase to compare like with like`);
    }
    if (idx.length < 2) notes.push('significance tests and Bradley–Terry need at least two scored systems');
    let analysis: Analysis | null = null;
    if (idx.length > 0) {
      analysis = rankSystems(
        {
          systems: idx.map((k) => matrix.systems[k]!.submissionId),
          instances: matrix.instances,
          scores: idx.map((k) => matrix.values[k]!),
          higherIsBetter: base.higherIsBetter,
        },
        { seed, resamples, correction, ...(o.explicitTest ? { test: o.explicitTest } : {}) },
      );
    }
    const bySubmission = new Map(idx.map((k) => [matrix.systems[k]!.submissionId, k]));
    const systems: LeaderboardSystem[] = (analysis?.systems ?? []).map((a) => {
      const k = bySubmission.get(a.system)!;
      const s = matrix.systems[k]!;
      return {
        submissionId: s.submissionId,
        system: s.systemName,
        team: s.teamName,
        isBaseline: s.isBaseline,
        n: a.n,
        corpusScore: finite(matrix.corpus[k]!.value),
        corpusSignature: matrix.corpus[k]!.signature,
        signature: matrix.signatures[k]!,
        mean: a.mean,
        meanCi: interval(a.mean_ci),
        median: a.median,
        medianCi: interval(a.median_ci),
        bt: finite(a.bt),
        btCi: interval(a.bt_ci),
        elo: finite(a.elo),
        trueskill: { mu: finite(a.trueskill.mu), sigma: finite(a.trueskill.sigma) },
        rank: a.rank,
        rankInterval: {
          mean: { best: a.rank_ci.mean[0], worst: a.rank_ci.mean[1] },
          median: { best: a.rank_ci.median[0], worst: a.rank_ci.median[1] },
          bt: { best: a.rank_ci.bt[0], worst: a.rank_ci.bt[1] },
        },
        cluster: a.cluster,
        clusterDisagreement: a.cluster_disagreement,
      };
    });
    systems.sort((x, y) => x.rank.mean - y.rank.mean || x.rank.bt - y.rank.bt || x.system.localeCompare(y.system));
    const nameOf = (id: string) => matrix.systems[bySubmission.get(id)!]!.systemName;
    const pairs: SystemPair[] = (analysis?.pairs ?? []).map((p) => ({
      aSubmissionId: p.a,
      bSubmissionId: p.b,
      a: nameOf(p.a),
      b: nameOf(p.b),
      wins: p.wins,
      losses: p.losses,
      ties: p.ties,
      pBt: finite(p.p_bt),
      medianDiff: finite(p.median_diff),
      meanDiff: finite(p.mean_diff),
      p: finite(p.tests[test].p),
      pAdjusted: finite(p.p_adjusted[test]),
      tests: {
        ttest: finite(p.tests.ttest.p),
        wilcoxon: finite(p.tests.wilcoxon.p),
        sign: finite(p.tests.sign.p),
        mood: finite(p.tests.mood.p),
        bootstrap: finite(p.tests.bootstrap.p),
        ar: finite(p.tests.ar.p),
      },
    }));
    const result: Leaderboard = {
      ...base,
      metricSignature: signature,
      instanceCount: matrix.instances.length,
      systems,
      pairs,
      disagreement: topDisagreement(systems),
      notes,
    };
    return result;
  }
}
