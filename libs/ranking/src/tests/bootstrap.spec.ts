import { analyseSystems } from '../analyse';

const n = 30;
const base = Array.from({ length: n }, (_, l) => ((l * 37) % 11) / 10);

describe('paired bootstrap plugin', () => {
  it('finds no difference between identical systems (p = 1) and a clear one between shifted systems', () => {
    const same = analyseSystems({ systems: ['A', 'B'], instances: base.map((_, l) => String(l).padStart(2, '0')), scores: [base, base] }, { resamples: 500 });
    expect(same.pairs[0]?.tests.bootstrap.p).toBe(1);
    // every resample's mean difference is the shift: the centred |differences| are all 0 < 0.5
    const shifted = analyseSystems({ systems: ['A', 'B'], instances: base.map((_, l) => String(l).padStart(2, '0')), scores: [base.map((x) => x + 0.5), base] }, { resamples: 500 });
    expect(shifted.pairs[0]?.tests.bootstrap.p).toBeLessThan(0.01);
    expect(shifted.systems[0]?.system).toBe('A');
  });
});
