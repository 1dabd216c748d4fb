import type { MetricConfig } from '@podium/contracts';
import type { PhaseScoreMatrix } from '@podium/db';
import { combinablePairs, combineMatrices, combinedWeightFor, resolveCombined, type CombinedMetric } from './combined-metric';
import { metricHigherIsBetter } from './ranking.adapter';
import { defined } from '../../../test/support/defined';

const metrics: MetricConfig[] = [
  { key: 'bleu', name: 'bleu', options: {} },
  { key: 'nli', name: 'nli', options: {} },
  { key: 'chrf++', name: 'chrf++', options: {} },
  { key: 'ter', name: 'ter', options: {} },
];

function matrix(values: number[][], signature: string): PhaseScoreMatrix {
  return {
    systems: values.map((_, k) => ({ submissionId: `s${k}`, systemName: `S${k}`, teamName: 't', isBaseline: false, createdAt: new Date(0), checksum: `c${k}` })),
    instances: defined(values[0], 'values[0]').map((_, i) => `i${i}`),
    values: values.map((row) => Float64Array.from(row)),
    signatures: values.map(() => signature),
    corpus: values.map(() => ({ value: 0, signature })),
  };
}

const terSpec = (): CombinedMetric => {
  const r = resolveCombined('combined:nli+ter', metrics, ['nli', 'ter'], 0.2, metricHigherIsBetter);
  if ('error' in r) throw new Error(r.error);
  return r;
};

describe('combined metric at read time', () => {
  // Hand computation of C = w·N + (1 − w)·M (MENLI M:1265–1271), w = .2, TER flipped:
  // N = [[0, .5], [1, .5]] has bounds [0, 1], so it scales to itself;
  // TER = [[10, 30], [20, 30]] has bounds [10, 30] and flips to (30 − x)/20 = [[1, 0], [.5, 0]];
  // C = [[.2·0 + .8·1, .2·.5 + 0], [.2·1 + .8·.5, .2·.5 + 0]] = [[.8, .1], [.6, .1]].
  it('scales N and a lower-is-better M over the whole phase and weights them (hand-computed)', () => {
    const c = combineMatrices(terSpec(), matrix([[0, 0.5], [1, 0.5]], 'nli|v1'), matrix([[10, 30], [20, 30]], 'ter|v1'));
    expect(defined(c.values[0], 'c.values[0]')[0]).toBeCloseTo(0.8, 12);
    expect(defined(c.values[0], 'c.values[0]')[1]).toBeCloseTo(0.1, 12);
    expect(defined(c.values[1], 'c.values[1]')[0]).toBeCloseTo(0.6, 12);
    expect(defined(c.values[1], 'c.values[1]')[1]).toBeCloseTo(0.1, 12);
    expect(defined(c.corpus[0], 'c.corpus[0]').value).toBeCloseTo(0.45, 12);
    expect(defined(c.corpus[1], 'c.corpus[1]').value).toBeCloseTo(0.35, 12);
    expect(c.scaling).toEqual({ N: [0, 1], M: [10, 30], n: 4 });
    expect(c.signatures[0]).toBe('combined|nli:(nli|v1)|with:(ter|v1)|w:0.2|M-dir:lower|scale:phase-minmax|N:[0,1]|M:[10,30]|n:4');
    expect(defined(c.corpus[0], 'c.corpus[0]').signature).toBe(`${c.signatures[0]}|corpus:mean`);
  });

  // A third system with TER 0 and 40 widens M's bounds to [0, 40]: the first system's TER 10
  // now flips to (40 − 10)/40 = .75, so its C on the first instance drops from .8 to .2·0 + .8·.75 = .6.
  it('rescales earlier submissions when a new submission widens the bounds', () => {
    const before = combineMatrices(terSpec(), matrix([[0, 0.5], [1, 0.5]], 'nli|v1'), matrix([[10, 30], [20, 30]], 'ter|v1'));
    const after = combineMatrices(terSpec(), matrix([[0, 0.5], [1, 0.5], [0.25, 0.75]], 'nli|v1'), matrix([[10, 30], [20, 30], [0, 40]], 'ter|v1'));
    expect(defined(before.values[0], 'before.values[0]')[0]).toBeCloseTo(0.8, 12);
    expect(defined(after.values[0], 'after.values[0]')[0]).toBeCloseTo(0.6, 12);
    expect(defined(after.values[0], 'after.values[0]')[1]).toBeCloseTo(0.2 * 0.5 + 0.8 * 0.25, 12);
    expect(after.scaling).toEqual({ N: [0, 1], M: [0, 40], n: 6 });
    expect(after.signatures[0]).toContain('|M:[0,40]|n:6');
    expect(after.signatures[0]).not.toBe(before.signatures[0]);
  });

  it('leaves cells without both components out of the population and NaN', () => {
    const c = combineMatrices(terSpec(), matrix([[0, 1], [Number.NaN, 0.5]], 'nli|v1'), matrix([[10, 30], [20, 30]], 'ter|v1'));
    expect(c.scaling?.n).toBe(3);
    expect(defined(c.values[1], 'c.values[1]')[0]).toBeNaN();
    expect(defined(c.corpus[1], 'c.corpus[1]').value).toBeNaN();
  });

  it('resolves combined keys, including keys that contain +', () => {
    const r = resolveCombined('combined:nli+chrf++', metrics, ['nli', 'chrf++'], 0.2, metricHigherIsBetter);
    expect(r).toMatchObject({ key: 'combined:nli+chrf++', nli: { key: 'nli' }, other: { key: 'chrf++' }, otherHigherIsBetter: true });
    expect(resolveCombined('combined', metrics, ['nli', 'ter', 'bleu'], 0.2, metricHigherIsBetter)).toMatchObject({ key: 'combined:nli+bleu' });
    expect(resolveCombined('combined:bleu+nli', metrics, [], 0.2, metricHigherIsBetter)).toEqual({ error: expect.stringMatching(/names no combination/) });
    expect(resolveCombined('combined', metrics.filter((m) => m.name !== 'nli'), [], 0.2, metricHigherIsBetter)).toEqual({
      error: "the task configures no 'nli' metric to combine",
    });
  });

  it('lists a combination per NLI metric and other metric with scores', () => {
    expect(combinablePairs(metrics, ['nli', 'ter', 'chrf++']).map(([n, o]) => `${n.key}+${o.key}`)).toEqual(['nli+chrf++', 'nli+ter']);
    expect(combinablePairs(metrics, ['bleu', 'ter'])).toEqual([]);
  });

  it("uses the task's weight, else .2 for MT and .8 for summarisation (MENLI M:1329–1334, M:1466)", () => {
    expect(combinedWeightFor('mt', null)).toBe(0.2);
    expect(combinedWeightFor('summarization', undefined)).toBe(0.8);
    expect(combinedWeightFor('mt', 0.3)).toBe(0.3);
  });
});
