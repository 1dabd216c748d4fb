import { TaskKind, type ScoreRepository, type SubmissionRepository } from '@podium/db';
import { computeLeaderboard, LeaderboardInputs, topDisagreement } from './compute';
import { PhaseMetrics } from './phase-metrics';
import { metricHigherIsBetter, rankSystems } from './ranking.adapter';
import { defaultView, type LeaderboardView } from './view';
import { computedLeaderboardSchema } from './leaderboard.types';
import { getMetric } from '@podium/metrics';
import { defined } from '../../../test/support/defined';

const TER_SIGNATURE = getMetric('ter').signature;

const sys = (system: string, mean: number, median: number, bt: number) => ({ system, team: 't', rank: { mean, median, bt, elo: 1, trueskill: 1, corpus: null } });

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

  it('ignores an exact tie (no instance won or lost: identical outputs) that one aggregation breaks arbitrarily', () => {
    // Mean and median tie A and B; Bradley–Terry's fit puts A first by a rounding difference.
    const tied = [{ ...sys('A', 1, 1, 1), submissionId: 'a' }, { ...sys('B', 1, 1, 2), submissionId: 'b' }, { ...sys('C', 3, 3, 3), submissionId: 'c' }];
    expect(topDisagreement(tied)).toMatch(/Bradley–Terry A \(t\)\./);
    expect(topDisagreement(tied, [{ aSubmissionId: 'a', bSubmissionId: 'b', wins: 0, losses: 0 }])).toBeNull();
    // One instance won is no exact tie: the warning stays.
    expect(topDisagreement(tied, [{ aSubmissionId: 'a', bSubmissionId: 'b', wins: 1, losses: 0 }])).not.toBeNull();
  });
});

describe('ranking adapter', () => {
  it('knows TER is lower-is-better and BLEU, chrF, ROUGE and NLI higher-is-better', () => {
    expect(metricHigherIsBetter('ter')).toBe(false);
    for (const m of ['bleu', 'chrf', 'chrf++', 'rougeL', 'nli']) expect(metricHigherIsBetter(m)).toBe(true);
  });

  it('reproduces the Bradley–Terry strengths of the thesis Fig. 1 example (docs/science.md: .0942, .6570, .2488)', () => {
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

describe('computeLeaderboard', () => {
  const phase = {
    id: '00000000-0000-4000-8000-000000000001',
    testSetId: 'ts',
    significanceResamples: 200,
    significanceSeed: 12345,
    task: { metrics: [{ key: 'ter', name: 'ter', options: {} }], kind: TaskKind.MT, combinedWeight: null },
  };
  function fakes(corpusA = 100 / 9) {
    const matrix = jest.fn(async () => ({
      systems: [
        { submissionId: 'a', systemName: 'A', teamName: 't1', isBaseline: false, createdAt: new Date(), checksum: 'ca' },
        { submissionId: 'b', systemName: 'B', teamName: 't2', isBaseline: true, createdAt: new Date(), checksum: 'cb' },
      ],
      instances: ['1', '2', '3'],
      values: [
        [10, 20, 30],
        [40, 50, 60],
      ],
      signatures: ['ter|v1', 'ter|v1'],
      corpus: [
        { value: corpusA, signature: TER_SIGNATURE },
        { value: 600 / 9, signature: TER_SIGNATURE },
      ],
    }));
    const scores = {
      metricsOfPhase: async () => ['ter'],
      matrix,
      testSetShape: async () => ({ instances: 3, maxReferences: 1 }),
      alignedTexts: async () => ({ references: [['a b c'], ['d e f'], ['g h i']], outputs: [['a b c', 'd e x', 'g h i'], ['a x x', 'x x x', 'g x i']] }),
    } as unknown as ScoreRepository;
    const submissions = {
      ofPhase: async () => [
        { id: 'a', teamId: 't1', isPrimary: false, isBaseline: false, moderation: 'NONE', createdAt: new Date(0) },
        { id: 'b', teamId: 't2', isPrimary: false, isBaseline: true, moderation: 'NONE', createdAt: new Date(0) },
      ],
    } as unknown as SubmissionRepository;
    const metrics = new PhaseMetrics(scores, { stamp: async () => 'stamp' });
    const inputs = new LeaderboardInputs(metrics, submissions, scores, 'stamp');
    const compute = async (view: LeaderboardView = defaultView('', 'primary')) => {
      const available = await metrics.available(phase);
      return computeLeaderboard(inputs, phase, metrics.select(phase, view.metric || undefined, available.stored), available.all, view);
    };
    return { compute, matrix, metrics };
  }

  it('ranks the lower TER first, by the corpus score (main aggregation) recomputed from the texts', async () => {
    const { compute } = fakes();
    const board = await compute();
    expect(board.higherIsBetter).toBe(false);
    expect(board.mainAggregation).toBe('corpus');
    expect(board.systems.map((s) => s.system)).toEqual(['A', 'B']);
    // hand: A makes 1 edit over 9 reference words, B 6 → TER 11.1 and 66.7
    expect(defined(board.systems[0], 'board.systems[0]').corpusScore).toBeCloseTo(100 / 9, 10);
    expect(defined(board.systems[1], 'board.systems[1]').corpusScore).toBeCloseTo(600 / 9, 10);
    expect(board.resamples).toBe(200); // the phase's setting
    expect(board.resamplesChosen).toBe(false);
    expect(defined(board.pairs[0], 'board.pairs[0]').pTest).toBe('bootstrap_corpus');
    expect(board.clusterTests.map((c) => c.aggregation)).toContain('corpus');
    expect(board.clusterDefinition).toMatch(/WMT style/);
  });

  it('is a valid leaderboard document listing every ranking method, mean win rate included, with values per system in that order', async () => {
    const { compute } = fakes();
    const board = computedLeaderboardSchema.parse(await compute());
    const keys = board.methods.map((m) => m.key);
    expect(keys).toEqual(['corpus', 'mean', 'median', 'bt', 'elo', 'trueskill', 'mean_win_rate']);
    for (const s of board.systems) expect(s.values.map((v) => v.method)).toEqual(keys);
    // A has the lower TER on all three instances: it wins every game (win rate 1), B none (0)
    const winRate = (i: number) => defined(board.systems[i], 'system').values.find((v) => v.method === 'mean_win_rate');
    expect(winRate(0)).toMatchObject({ value: 1, rank: 1, cluster: null });
    expect(winRate(1)).toMatchObject({ value: 0, rank: 2, cluster: null });
    // the corpus clusters use sacreBLEU's paired bootstrap, the mean's the t-test (named per method)
    const test = (key: string) => board.methods.find((m) => m.key === key)?.test;
    expect([test('corpus'), test('mean'), test('median'), test('bt'), test('elo'), test('mean_win_rate')]).toEqual(['bootstrap_corpus', 'ttest', 'mood', 'sign', null, null]);
    // the legacy per-aggregation fields are the same numbers as the method-keyed values
    const a = defined(board.systems[0], 'system');
    expect(a.values.find((v) => v.method === 'mean')).toMatchObject({ value: a.mean, interval: a.meanCi, rank: a.rank.mean, rankInterval: a.rankInterval.mean, cluster: a.cluster.mean });
  });

  it('falls back to the mean, with a note, when stored corpus scores do not match the outputs', async () => {
    const { compute } = fakes(42);
    const board = await compute();
    expect(board.mainAggregation).toBe('mean');
    expect(board.notes.join(' ')).toMatch(/do not match their outputs/);
  });

  it("uses a preview's seed and resamples instead of the phase's", async () => {
    const { compute } = fakes();
    const board = await compute({ ...defaultView('', 'primary'), resamples: 300, seed: 3 });
    expect(board).toMatchObject({ resamples: 300, seed: 3 });
  });

  it('reads the matrix once for every view of the same metric in one job', async () => {
    const { compute, matrix } = fakes();
    await Promise.all([compute(), compute(defaultView('ter', 'all'))]);
    await compute({ ...defaultView('', 'primary'), seed: 7 });
    expect(matrix).toHaveBeenCalledTimes(1);
  });

  it('rejects a metric the task does not configure', async () => {
    const { compute } = fakes();
    await expect(compute(defaultView('bleu', 'primary'))).rejects.toThrow("metric 'bleu' is not configured for this task (configured: ter)");
  });

  it('gives the same board, Elo and TrueSkill included, when the same submissions have other ids (another database)', async () => {
    // Four systems on 40 instances, scores from a fixed formula; only the submission ids differ
    // between the two databases, in an order that reverses their sorted order.
    const n = 40;
    const values = [0, 1, 2, 3].map((s) => Array.from({ length: n }, (_, i) => ((i * 7 + s * 13) % 17) + s * 0.5));
    const board = async (ids: string[]) => {
      const scores = {
        metricsOfPhase: async () => ['ter'],
        matrix: async () => ({
          systems: ids.map((id, k) => ({ submissionId: id, systemName: `S${k}`, teamName: `t${k}`, isBaseline: false, createdAt: new Date(0), checksum: `sum${k}` })),
          instances: Array.from({ length: n }, (_, i) => `i${i}`),
          values,
          signatures: ids.map(() => 'ter|v1'),
          corpus: ids.map(() => ({ value: 1, signature: 'not-recomputed' })),
        }),
        testSetShape: async () => ({ instances: n, maxReferences: 1 }),
        alignedTexts: async () => ({ references: Array.from({ length: n }, () => ['a b c']), outputs: ids.map(() => Array.from({ length: n }, () => 'a b c')) }),
      } as unknown as ScoreRepository;
      const submissions = {
        ofPhase: async () => ids.map((id, k) => ({ id, teamId: `t${k}`, isPrimary: false, isBaseline: false, moderation: 'NONE', createdAt: new Date(0) })),
      } as unknown as SubmissionRepository;
      const metrics = new PhaseMetrics(scores, { stamp: async () => 'stamp' });
      const inputs = new LeaderboardInputs(metrics, submissions, scores, 'stamp');
      const available = await metrics.available(phase);
      const view = defaultView('', 'primary');
      return computeLeaderboard(inputs, phase, metrics.select(phase, undefined, available.stored), available.all, view);
    };
    const here = await board(['00000000-0000-4000-8000-00000000000a', '00000000-0000-4000-8000-00000000000b', '00000000-0000-4000-8000-00000000000c', '00000000-0000-4000-8000-00000000000d']);
    const there = await board(['ffffffff-0000-4000-8000-00000000000d', 'eeeeeeee-0000-4000-8000-00000000000c', 'dddddddd-0000-4000-8000-00000000000b', 'cccccccc-0000-4000-8000-00000000000a']);
    const withoutIds = (b: typeof here) => JSON.parse(JSON.stringify(b, (k, v: unknown) => (/submissionId$/i.test(k) ? undefined : v))) as unknown;
    const elo = (b: typeof here) => b.systems.map((s) => [s.system, s.elo, s.trueskill.mu]);
    // Elo and TrueSkill play seeded game orders over the canonical order of the systems: the same
    // in both databases only when that order does not follow the ids.
    expect(elo(there)).toEqual(elo(here));
    expect(withoutIds(there)).toEqual(withoutIds(here));
  });
});
