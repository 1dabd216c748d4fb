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
