import { mulberry32 } from '@podium/ranking';
import { createRng } from './random';

describe('createRng', () => {
  it('draws the same numbers as ranking’s mulberry32 for the same seed (one generator in the project)', () => {
    const a = createRng(12345);
    const b = mulberry32(12345);
    for (let i = 0; i < 100; i++) expect(a.next()).toBe(b.next());
    expect(createRng(7).int(10)).toBe(mulberry32(7).nextInt(10));
  });
  it('picks within the array and refuses an empty one', () => {
    const rng = createRng(1);
    for (let i = 0; i < 50; i++) expect(['a', 'b', 'c']).toContain(rng.pick(['a', 'b', 'c']));
    expect(() => rng.pick([])).toThrow('pick from an empty array');
  });
});
