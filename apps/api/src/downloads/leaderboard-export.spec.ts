import { InvalidInputError } from '@podium/domain';
import { PValueCorrection, PairedTest, type Leaderboard } from '../leaderboard/leaderboard.types';
import { LEADERBOARD_COLUMNS, leaderboardCsv, leaderboardJson, parseLeaderboardQuery, parseMetricList } from './leaderboard-export';

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
      },
    ],
    pairs: [],
    disagreement: null,
    notes: [],
  };

  it('names enums as GraphQL does in the JSON', () => {
    expect(leaderboardJson(board)).toMatchObject({ test: 'TTEST', correction: 'HOLM', systems: board.systems });
  });

  it('writes one CSV row per system with full-precision numbers and empty nulls', () => {
    const [header, row, end] = leaderboardCsv(board).split('\r\n');
    expect(header).toBe(LEADERBOARD_COLUMNS.join(','));
    expect(end).toBe('');
    expect(row).toBe('mean,,1,1,1,1,1,"A, the first",t,s,false,2,50.5,,,,,0.30000000000000004,,1,0.3,0,1,,,,0,,25,8.3,1,1,1,1,1,1,,,,,,,,1,1,1,false,chrf,chrF2,chrF2,ttest,holm,1,10');
  });
});
