import { largestDifferences, pairInstances, winTieLoss } from './paired';

const score = (instanceId: string, position: number, s: number, output = `out ${instanceId}`) => ({ instanceId, position, source: `src ${instanceId}`, references: [`ref ${instanceId}`], output, score: s });

describe('paired instances', () => {
  const a = [score('i1', 0, 10), score('i2', 1, 20), score('i3', 2, 30), score('i4', 3, 5)];
  const b = [score('i3', 2, 10), score('i1', 0, 10), score('i2', 1, 25)];

  it('joins by instance id in test-set order, leaving out instances one system lacks', () => {
    const pairs = pairInstances(a, b, true);
    expect(pairs.map((p) => [p.instanceId, p.diff])).toEqual([
      ['i1', 0],
      ['i2', -5],
      ['i3', 20],
    ]);
  });

  it('flips the difference for lower-is-better metrics so that positive always means A is better', () => {
    expect(pairInstances(a, b, false).map((p) => p.diff)).toEqual([-0, 5, -20]);
  });

  it('counts wins, ties and losses of A', () => {
    expect(winTieLoss(pairInstances(a, b, true))).toEqual({ wins: 1, ties: 1, losses: 1 });
  });

  it('lists the largest absolute differences first, without ties', () => {
    expect(largestDifferences(pairInstances(a, b, true), 5).map((p) => p.instanceId)).toEqual(['i3', 'i2']);
    expect(largestDifferences(pairInstances(a, b, true), 1)).toHaveLength(1);
  });
});
