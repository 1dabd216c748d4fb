import { clusters } from './clusters';

describe('clusters', () => {
  const sig = (pairs: [number, number][]) => (a: number, b: number): boolean => pairs.some(([x, y]) => x === a && y === b);

  it('puts a boundary only where every system above beats every system below', () => {
    // 0 > 1 > 2 > 3 by value; 0 and 1 beat 2 and 3; 2 does not beat 3 → {0,1} {2,3}
    const better = sig([[0, 2], [0, 3], [1, 2], [1, 3]]);
    expect(clusters([4, 3, 2, 1], better)).toEqual([1, 1, 2, 2]);
  });

  it('refuses a boundary when one system above fails to beat one system below', () => {
    // 0 beats all → boundary after 0; 1 does not beat 3, so neither 1|2 nor 2|3 is a boundary,
    // although 1 beats 2 and 2 beats 3 (adjacent significance alone is not enough)
    const better = sig([[0, 1], [0, 2], [0, 3], [1, 2], [2, 3]]);
    expect(clusters([4, 3, 2, 1], better)).toEqual([1, 2, 2, 2]);
  });

  it('orders by value, not by input position, and never splits tied values', () => {
    const all = () => true;
    expect(clusters([1, 3, 2], all)).toEqual([3, 1, 2]);
    expect(clusters([2, 2, 1], all)).toEqual([1, 1, 2]);
  });

  it('puts everything in one cluster when nothing is significant', () => {
    expect(clusters([5, 4, 3], () => false)).toEqual([1, 1, 1]);
  });
});

describe('clusters in O(k²) calls (issue #28: 1,000 systems)', () => {
  /** The rule as written: a boundary where every system above beats every one below (k³ checks). */
  function byDefinition(values: number[], better: (a: number, b: number) => boolean): number[] {
    const sorted = values.map((v, i) => ({ v, i })).sort((a, b) => (a.v === b.v ? a.i - b.i : b.v > a.v ? 1 : -1));
    const out = new Array<number>(values.length);
    let id = 1;
    sorted.forEach((current, p) => {
      const prev = sorted[p - 1];
      if (prev && prev.v !== current.v && sorted.slice(0, p).every((a) => sorted.slice(p).every((b) => better(a.i, b.i)))) id++;
      out[current.i] = id;
    });
    return out;
  }

  it('gives the clusters of the definition on 300 random boards with ties and sparse or dense significance', () => {
    let seed = 7;
    const rand = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
    for (let t = 0; t < 300; t++) {
      const k = 2 + Math.floor(rand() * 14);
      const values = Array.from({ length: k }, () => Math.floor(rand() * 8));
      const density = rand();
      const table = Array.from({ length: k }, () => Array.from({ length: k }, () => rand() < density));
      const better = (a: number, b: number) => table[a]?.[b] ?? false;
      expect(clusters(values, better)).toEqual(byDefinition(values, better));
    }
  });

  it('calls the test at most k(k − 1)/2 times', () => {
    let calls = 0;
    const values = Array.from({ length: 200 }, (_, i) => 200 - i);
    const ids = clusters(values, (a, b) => (calls++, b - a > 20));
    expect(calls).toBeLessThanOrEqual((200 * 199) / 2);
    // a boundary needs every system above more than 20 positions ahead of every one below: neighbours are 1 apart
    expect(new Set(ids).size).toBe(1);
  });
});
