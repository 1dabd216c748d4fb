import { outputsChecksum } from './outputs-checksum';
import { defined } from '../../../../test/support/defined';

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
    expect(outputsChecksum(order, [defined(inOrder[0]), defined(inOrder[1]), { instanceId: 'c', text: 'three!' }])).not.toBe(base);
    expect(outputsChecksum(order, [{ instanceId: 'a', text: 'two' }, { instanceId: 'b', text: 'one' }, defined(inOrder[2])])).not.toBe(base);
  });
});
