import { topDisagreement } from './leaderboard.service';
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
