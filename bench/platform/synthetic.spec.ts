import { defined } from '../../test/support/defined';
import { score } from '@podium/metrics';
import { syntheticTestSet, systemOutputs, systemQualities } from './synthetic';

describe('bench:platform synthetic data', () => {
  const instances = syntheticTestSet(200, 42);

  it('has references and sources of 20–30 tokens and unique ids', () => {
    for (const i of instances) {
      for (const text of [i.reference, i.source]) {
        const n = text.split(' ').length;
        expect(n).toBeGreaterThanOrEqual(20);
        expect(n).toBeLessThanOrEqual(30);
      }
    }
    expect(new Set(instances.map((i) => i.id)).size).toBe(200);
  });

  it('is the same for the same seed and differs for another', () => {
    expect(syntheticTestSet(200, 42)).toEqual(instances);
    expect(systemOutputs(instances, 0.7, 3, 42)).toEqual(systemOutputs(instances, 0.7, 3, 42));
    expect(syntheticTestSet(5, 43).map((i) => i.reference)).not.toEqual(instances.slice(0, 5).map((i) => i.reference));
  });

  it('spreads qualities over [0.45, 0.95] in shuffled order', () => {
    const q = systemQualities(11, 42);
    expect([...q].sort((a, b) => a - b)).toEqual(Array.from({ length: 11 }, (_, s) => expect.closeTo(0.45 + 0.05 * s, 12)));
    expect(q).not.toEqual([...q].sort((a, b) => a - b));
  });

  it('gives better systems higher BLEU and chrF and lower TER', () => {
    const refs = [instances.map((i) => i.reference)];
    const at = (quality: number, s: number) => systemOutputs(instances, quality, s, 42);
    const [low, mid, high] = [at(0.5, 0), at(0.7, 1), at(0.9, 2)];
    for (const metric of ['bleu', 'chrf'] as const) {
      const [a, b, c] = [low, mid, high].map((h) => score(metric, {}, h, refs).corpus);
      expect(a).toBeLessThan(defined(b));
      expect(b).toBeLessThan(defined(c));
    }
    const [a, b, c] = [low, mid, high].map((h) => score('ter', {}, h, refs).corpus);
    expect(a).toBeGreaterThan(defined(b));
    expect(b).toBeGreaterThan(defined(c));
  });
});
