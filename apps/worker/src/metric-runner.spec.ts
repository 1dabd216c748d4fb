import { referenceStreams, type ScoringInstance } from './metric-runner';

const inst = (references: string[]): ScoringInstance => ({ instanceId: 'i', source: 's', output: 'o', references });

describe('referenceStreams', () => {
  it('lays references out as sacreBLEU streams, one stream per reference position', () => {
    expect(referenceStreams([inst(['a1', 'a2']), inst(['b1', 'b2'])])).toEqual([
      ['a1', 'b1'],
      ['a2', 'b2'],
    ]);
  });
  it('repeats the first reference of an instance that has fewer references than the widest', () => {
    expect(referenceStreams([inst(['a1', 'a2', 'a3']), inst(['b1'])])).toEqual([
      ['a1', 'b1'],
      ['a2', 'b1'],
      ['a3', 'b1'],
    ]);
  });
});
