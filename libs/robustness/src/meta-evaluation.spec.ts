import { parseDaSegLevel } from '@podium/datasets';
import { tradeoffCurve } from './combined-metric';
import { kendallTauB, pearson } from './correlation';
import type { PreferenceRow } from './preference-test';
import { metaEvaluate, reportCard } from './report-card';
import { upstreamText } from '../../../test/support/test-data';

// Real files, data sets or ONNX sessions: seconds when idle, far longer on a loaded 2-core machine than Jest's 5 s.
jest.setTimeout(60_000);

describe('pearson and kendallTauB', () => {
  // Expected values from scipy 1.17.1: pearsonr(x, y)[0] and kendalltau(x, y)[0] (τ-b).
  const x = [0.3, 1.2, 1.2, 2.5, 3.1, 0.7, 2.5, 4.0];
  const y = [1, 2, 2, 3, 1, 0, 5, 4];

  it('match scipy on data with ties in both variables', () => {
    expect(pearson(x, y)).toBeCloseTo(0.6216588959790336, 12);
    expect(kendallTauB(x, y)).toBeCloseTo(0.5, 12);
  });

  it('match scipy on the TSDoc examples', () => {
    expect(pearson([1, 2, 3], [2, 4, 7])).toBeCloseTo(0.9933992677987828, 12);
    expect(kendallTauB([1, 2, 3, 4], [1, 3, 2, 4])).toBeCloseTo(2 / 3, 12);
  });

  it('are NaN for a constant input and reject unequal lengths', () => {
    expect(pearson([1, 1, 1], [1, 2, 3])).toBeNaN();
    expect(kendallTauB([1, 1, 1], [1, 2, 3])).toBeNaN();
    expect(() => pearson([1, 2], [1])).toThrow(RangeError);
  });
});

describe('parseDaSegLevel', () => {
  it("reads WMT17's all-pairs DA file and splits systems joined with '+'", async () => {
    // 560 judgements per language pair, 9 pairs (SOURCES.md); 26 de-en rows name joined systems (grep -c '+').
    const all = parseDaSegLevel(await upstreamText('wmt17-de-en', 'experiments/datasets/WMT17/DA-seglevel.csv'));
    expect(all).toHaveLength(9 * 560);
    const rows = all.filter((r) => r.lp === 'de-en');
    expect(rows).toHaveLength(560);
    expect(rows.filter((r) => r.systems.length > 1)).toHaveLength(26);
    expect(rows[3]).toEqual({ lp: 'de-en', data: 'newstest2017', systems: ['C-3MA.4958', 'KIT.4951'], sid: 169, human: 0.750658335654728 });
  });

  it('names the line of a malformed row', () => {
    expect(() => parseDaSegLevel('LP DATA SYSTEM SID HUMAN\nde-en x A 0 0.1\n')).toThrow(/line 2: SID/);
    expect(() => parseDaSegLevel('LP SYSTEM\n')).toThrow(/line 1/);
  });
});

describe('metaEvaluate', () => {
  const judgements = parseDaSegLevel(
    ['LP DATA SYSTEM SID HUMAN', 'xx t A 1 0.5', 'xx t B 1 -0.5', 'xx t A+B 2 1.0', 'xx t C 1 0.0', 'xx t C 2 -1.0'].join('\n'),
  );
  const sentence: Record<string, number[]> = { A: [30, 50], B: [10, 50], C: [20, 5] };

  it('scores a joined judgement once at segment level and counts it for every listed system', () => {
    const m = metaEvaluate({
      judgements,
      segmentScore: (s, sid) => sentence[s]?.[sid - 1],
      systemScores: { A: 40, B: 30, C: 10 },
      higherIsBetter: true,
    });
    // Segment points (metric, human): (30, .5) (10, −.5) (50, 1) (20, 0) (5, −1); scipy pearsonr = 0.9722718241315028.
    expect(m.segment.n).toBe(5);
    expect(m.segment.pearson).toBeCloseTo(0.9722718241315028, 12);
    expect(m.segment.kendallTauB).toBeCloseTo(1, 12);
    // System means: A (.5 + 1)/2 = .75, B (−.5 + 1)/2 = .25, C −.5.
    expect(m.system.systems).toEqual(['A', 'B', 'C']);
    // scipy pearsonr([40, 30, 10], [.75, .25, −.5]) = 0.997176464952738.
    expect(m.system.pearson).toBeCloseTo(0.997176464952738, 12);
  });

  it('negates a lower-is-better metric so that agreement is positive', () => {
    const m = metaEvaluate({
      judgements,
      segmentScore: (s, sid) => -(sentence[s]?.[sid - 1] ?? Number.NaN),
      systemScores: { A: -40, B: -30, C: -10 },
      higherIsBetter: false,
    });
    expect(m.segment.kendallTauB).toBeCloseTo(1, 12);
    expect(m.system.pearson).toBeGreaterThan(0.9);
  });

  it('puts robustness and correlation on one report card', () => {
    const card = reportCard({ metric: 'chrf', signature: 'sig', higherIsBetter: true });
    expect(card).toEqual({ metric: 'chrf', signature: 'sig', higherIsBetter: true, robustness: null, humanCorrelation: null });
  });
});

describe('combined metric (MENLI Eq. 2)', () => {
  it('moves accuracy from the classical metric at w = 0 to the NLI metric at w = 1', () => {
    const rows: PreferenceRow[] = [1, 2, 3, 4].map((i) => ({ id: String(i), phenomenon: 'p', anchor: 'a', good: 'g', bad: 'b' }));
    // Metric prefers good on rows 1–2 only; NLI on all four.
    const curve = tradeoffCurve({
      rows,
      metric: { good: [5, 5, 1, 1], bad: [1, 1, 5, 5], higherIsBetter: true },
      nli: { good: [0.9, 0.9, 0.9, 0.9], bad: [0.1, 0.1, 0.1, 0.1], higherIsBetter: true },
      weights: [0, 0.5, 1],
    });
    expect(curve.map((p) => p.accuracy)).toEqual([0.5, 0.5, 1]);
  });
});
