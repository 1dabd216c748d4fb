import { outputsChecksum } from './outputs-checksum';

describe('outputsChecksum', () => {
  const order = ['a', 'b', 'c'];
  const inOrder = [
    { instanceId: 'a', text: 'one' },
    { instanceId: 'b', text: 'two' },
    { instanceId: 'c', text: 'three' },
  ];

  it('is the same for the same outputs in any upload order', () => {
    expect(outputsChecksum(order, [...inOrder].reverse())).toBe(outputsChecksum(order, inOrder));
  });

  it('differs when one output differs or two swap places', () => {
    const base = outputsChecksum(order, inOrder);
    expect(outputsChecksum(order, [inOrder[0]!, inOrder[1]!, { instanceId: 'c', text: 'three!' }])).not.toBe(base);
    expect(outputsChecksum(order, [{ instanceId: 'a', text: 'two' }, { instanceId: 'b', text: 'one' }, inOrder[2]!])).not.toBe(base);
  });
});
