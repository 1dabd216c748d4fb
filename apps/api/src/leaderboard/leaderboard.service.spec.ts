import type { ScoreRepository, SubmissionRepository, TaskRepository } from '@podium/db';
import { LeaderboardService, topDisagreement } from './leaderboard.service';
import { metricHigherIsBetter, rankSystems } from './ranking.adapter';

const sys = (system: string, mean: number, median: number, bt: number) => ({ system, team: 't', rank: { mean, median, bt, elo: 1, trueskill: 1 } });

describe('topDisagreement', () => {
  it('says nothing when mean, median and BT put the same system first', () => {
    expect(topDisagreement([sys('A', 1, 1, 1), sys('B', 2, 2, 2)])).toBeNull();
  });

  it('names the top system of each aggregation when they differ', () => {
    expect(topDisagreement([sys('A', 1, 2, 2), sys('B', 2, 1, 1)])).toBe(
      'The aggregations disagree about the top system: mean ranks A (t) first, median B (t), Bradley–Terry B (t). Compare them head to head in the pairs.',
    );
  });

  it('treats shared first places as a set', () => {
    expect(topDisagreement([sys('A', 1, 1, 1), sys('B', 1, 1, 1)])).toBeNull();
    expect(topDisagreement([sys('A', 1, 1, 1), sys('B', 1, 2, 1)])).toMatch(/mean ranks A \(t\) and B \(t\) first, median A \(t\)/);
  });

  it('says nothing for a single system', () => {
    expect(topDisagreement([sys('A', 1, 1, 1)])).toBeNull();
  });
});

describe('ranking adapter', () => {
  it('knows TER is lower-is-better and BLEU, chrF, ROUGE and NLI higher-is-better', () => {
    expect(metricHigherIsBetter('ter')).toBe(false);
    for (const m of ['bleu', 'chrf', 'chrf++', 'rougeL', 'nli']) expect(metricHigherIsBetter(m)).toBe(true);
  });

  it('reproduces the Bradley–Terry strengths of the thesis Fig. 1 example (SCIENCE.md: .0942, .6570, .2488)', () => {
    const a = rankSystems(
      { systems: ['A', 'B', 'C'], instances: ['1', '2', '3', '4', '5'], scores: [[1, 5, 11, 12, 17], [5, 11, 12, 17, 1], [2, 6, 7, 13, 18]], higherIsBetter: true },
      { correction: 'holm', seed: 1, resamples: 50 },
    );
    const bt = Object.fromEntries(a.systems.map((s) => [s.system, s.bt]));
    expect(bt['A']).toBeCloseTo(0.0942, 3);
    expect(bt['B']).toBeCloseTo(0.657, 3);
    expect(bt['C']).toBeCloseTo(0.2488, 3);
  });

  it('describes a lone system by its mean and median without pairs', () => {
    const a = rankSystems({ systems: ['A'], instances: ['1', '2', '3'], scores: [[1, 2, 6]], higherIsBetter: true }, { correction: 'holm', seed: 1, resamples: 10 });
    expect(a.systems[0]).toMatchObject({ system: 'A', n: 3, mean: 3, median: 2, rank: { mean: 1 } });
    expect(a.pairs).toEqual([]);
  });
});

describe('LeaderboardService cache', () => {
  const phase = {
    id: '00000000-0000-4000-8000-000000000001',
    name: 'dev',
    closesAt: new Date('2000-01-01T00:00:00Z'),
    leaderboardBeforeClose: false,
    publishedAt: new Date('2000-01-02T00:00:00Z'),
    testSetId: 'ts',
    task: { metrics: [{ key: 'ter', name: 'ter', options: {} }] },
  };
  function fakes() {
    let scoredAt = new Date('2026-01-01T00:00:00Z');
    const matrix = jest.fn(async () => ({
      systems: [
        { submissionId: 'a', systemName: 'A', teamName: 't1', isBaseline: false, createdAt: new Date() },
        { submissionId: 'b', systemName: 'B', teamName: 't2', isBaseline: true, createdAt: new Date() },
      ],
      instances: ['1', '2', '3'],
      values: [
        [10, 20, 30],
        [40, 50, 60],
      ],
      signatures: ['ter|v1', 'ter|v1'],
      corpus: [
        { value: 20, signature: 'ter|v1' },
        { value: 50, signature: 'ter|v1' },
      ],
    }));
    const service = new LeaderboardService(
      { phaseById: async () => phase } as unknown as TaskRepository,
      { ofPhase: async () => [{ id: 'a', scoredAt }, { id: 'b', scoredAt }] } as unknown as SubmissionRepository,
      { metricsOfPhase: async () => ['ter'], matrix } as unknown as ScoreRepository,
    );
    return { service, matrix, rescore: () => (scoredAt = new Date(scoredAt.getTime() + 1000)) };
  }

  it('ranks the lower TER first', async () => {
    const { service } = fakes();
    const board = await service.leaderboard(phase.id, { resamples: 20 }, null);
    expect(board.higherIsBetter).toBe(false);
    expect(board.systems.map((s) => s.system)).toEqual(['A', 'B']);
  });

  it('computes a board once for repeated and concurrent requests with the same options', async () => {
    const { service, matrix } = fakes();
    await Promise.all([service.leaderboard(phase.id, { resamples: 20 }, null), service.leaderboard(phase.id, { resamples: 20 }, null)]);
    await service.leaderboard(phase.id, { resamples: 20 }, null);
    expect(matrix).toHaveBeenCalledTimes(1);
  });

  it('recomputes when options differ or a submission was scored again', async () => {
    const { service, matrix, rescore } = fakes();
    await service.leaderboard(phase.id, { resamples: 20 }, null);
    await service.leaderboard(phase.id, { resamples: 20, seed: 7 }, null);
    expect(matrix).toHaveBeenCalledTimes(2);
    rescore();
    await service.leaderboard(phase.id, { resamples: 20 }, null);
    expect(matrix).toHaveBeenCalledTimes(3);
  });

  it('rejects a metric the task does not configure', async () => {
    const { service } = fakes();
    await expect(service.leaderboard(phase.id, { metric: 'bleu' }, null)).rejects.toThrow("metric 'bleu' is not configured for this task (configured: ter)");
  });
});
