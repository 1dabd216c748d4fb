import { instanceOrder } from './metrics';

describe('instance order', () => {
  it('puts the lowest scores first for "worst first" when higher is better, and the highest when lower is better', () => {
    expect(instanceOrder('worst', true)).toBe('ASC');
    expect(instanceOrder('worst', false)).toBe('DESC');
    expect(instanceOrder('best', true)).toBe('DESC');
    expect(instanceOrder('position', false)).toBe('POSITION');
  });
});
