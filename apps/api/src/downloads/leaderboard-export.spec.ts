import { InvalidInputError } from '@podium/domain';
import { PValueCorrection, PairedTest, type Leaderboard } from '../leaderboard/leaderboard.types';
import { leaderboardColumns, leaderboardCsv, leaderboardJson, parseLeaderboardQuery, parseMetricList } from './leaderboard-export';

function fieldOf(query: Record<string, unknown>): unknown {
  try {
    parseLeaderboardQuery(query);
  } catch (e) {
    return e instanceof InvalidInputError ? e.details['field'] : e;
  }
  return null;
}

describe('leaderboard download arguments', () => {
  it('reads the GraphQL arguments from a query string, enums in any case', () => {
    expect(parseLeaderboardQuery({ metric: 'combined:nli chrf', test: 'WILCOXON', correction: 'bh', seed: '-3', resamples: '200' })).toEqual({
      metric: 'combined:nli+chrf',
      test: PairedTest.WILCOXON,
      correction: PValueCorrection.BH,
      seed: -3,
      resamples: 200,
    });
    expect(parseLeaderboardQuery({})).toEqual({});
  });

  it('rejects bad values naming the field', () => {
    expect(fieldOf({ test: 'z' })).toBe('test');
    expect(fieldOf({ correction: 'bonferroni' })).toBe('correction');
    expect(fieldOf({ seed: '1e3' })).toBe('seed');
    expect(fieldOf({ seed: String(2 ** 31) })).toBe('seed');
    expect(fieldOf({ resamples: '0' })).toBe('resamples');
    expect(fieldOf({ metric: ['a', 'b'] })).toBe('metric');
  });

  it('accepts repeated and comma-separated metric lists', () => {
    expect(parseMetricList(undefined)).toEqual([]);
    expect(parseMetricList(['combined', 'combined:nli chrf++,bleu'])).toEqual(['combined', 'combined:nli+chrf++', 'bleu']);
  });
});

describe('leaderboard downloads', () => {
  const board: Leaderboard = {
    phaseId: 'p',
    metric: 'chrf',
    higherIsBetter: true,
    metricSignature: 'chrF2',
    availableMetrics: ['chrf'],
    test: PairedTest.TTEST,
    correction: PValueCorrection.HOLM,
    seed: 1,
    updating: false,
    stamp: 'stamp',
    computedAt: new Date('2026-11-24T08:00:00Z'),
    resamples: 10,
    resamplesChosen: false,
    smallestReachableP: 1 / 11,
    alpha: 0.05,
    significanceWarnings: [],
    mainAggregation: 'mean',
    corpusSignature: 'chrF2',
    clusterDefinition: 'WMT style',
    clusterTests: [],
    methods: [
      { key: 'mean', label: 'Mean', description: 'd', intervalKind: 'bootstrap', direction: 'metric', clusters: true, test: 'ttest', testLabel: 'paired t-test' },
      { key: 'elo', label: 'Elo', description: 'd', intervalKind: 'game order', direction: 'higher is better', clusters: false, test: null, testLabel: null },
      { key: 'mean_win_rate', label: 'Mean win rate', description: 'd', intervalKind: 'bootstrap', direction: 'higher is better', clusters: false, test: null, testLabel: null },
    ],
    btFiniteMle: true,
    btNote: null,
    btComponents: [],
    instanceCount: 2,
    scoredOn: null,
    systems: [
      {
        submissionId: 's',
        system: 'A, the first',
        team: 't',
        isBaseline: false,
        n: 2,
        corpusScore: 50.5,
        corpusCi: null,
        corpusSignature: 'chrF2',
        signature: 'chrF2',
        mean: 0.1 + 0.2,
        meanCi: { low: null, high: 1 },
        median: 0.3,
        medianCi: { low: 0, high: 1 },
        bt: null,
        btTier: 0,
        btCi: { low: null, high: null },
        elo: null,
        trueskill: { mu: 25, sigma: 8.3 },
        rank: { mean: 1, median: 1, bt: 1, elo: 1, trueskill: 1, corpus: null },
        rankInterval: { mean: { best: 1, worst: 1 }, median: { best: 1, worst: 1 }, bt: { best: 1, worst: 1 }, elo: null, trueskill: null, corpus: null },
        cluster: { mean: 1, median: 1, bt: 1, corpus: null },
        clusterDisagreement: false,
        values: [
          { method: 'mean', value: 0.1 + 0.2, interval: { low: null, high: 1 }, rank: 1, rankInterval: { best: 1, worst: 1 }, cluster: 1 },
          { method: 'elo', value: null, interval: null, rank: 1, rankInterval: { best: 1, worst: 2 }, cluster: null },
          { method: 'mean_win_rate', value: 0.75, interval: { low: 0.5, high: 1 }, rank: 1, rankInterval: { best: 1, worst: 2 }, cluster: null },
        ],
      },
    ],
    pairs: [],
    disagreement: null,
    notes: [],
  };

  it('names enums as GraphQL does in the JSON', () => {
    expect(leaderboardJson(board)).toMatchObject({ test: 'TTEST', correction: 'HOLM', systems: board.systems });
  });

  it('writes one CSV row per system with full-precision numbers and empty nulls, columns per method of the board', () => {
    const [header, row, end] = leaderboardCsv(board).split('\r\n');
    expect(header).toBe(leaderboardColumns(board).join(','));
    expect(header).toBe(
      'main_aggregation,system,team,submission_id,is_baseline,n,corpus_score,' +
        'rank_mean,mean,mean_ci_low,mean_ci_high,rank_mean_best,rank_mean_worst,cluster_mean,cluster_test_mean,' +
        'rank_elo,elo,elo_ci_low,elo_ci_high,rank_elo_best,rank_elo_worst,' +
        'rank_mean_win_rate,mean_win_rate,mean_win_rate_ci_low,mean_win_rate_ci_high,rank_mean_win_rate_best,rank_mean_win_rate_worst,' +
        'corpus_bootstrap_mean,corpus_ci_halfwidth,bt_tier,trueskill_sigma,cluster_disagreement,metric,signature,corpus_signature,test,correction,alpha,seed,resamples',
    );
    expect(end).toBe('');
    expect(row).toBe('mean,"A, the first",t,s,false,2,50.5,1,0.30000000000000004,,1,1,1,1,ttest,1,,,,1,2,1,0.75,0.5,1,1,2,,,0,8.3,false,chrf,chrF2,chrF2,ttest,holm,0.05,1,10');
  });
});
