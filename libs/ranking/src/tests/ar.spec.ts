import { analyseSystems } from '../analyse';

const n = 20;
const base = Array.from({ length: n }, (_, l) => ((l * 7) % 5) / 4);
const instances = base.map((_, l) => String(l).padStart(2, '0'));

describe('approximate randomisation plugin', () => {
  it('gives p = 1/(R + 1) for a constant shift: a trial reaches |D| only when it swaps none or all of 20 instances (2/2²⁰)', () => {
    // D = n·c; swapping m instances gives |n·c − 2·m·c| ≥ n·c only for m ∈ {0, n}: by hand, no trial of 1,000 exceeds.
    const R = 1000;
    const a = analyseSystems({ systems: ['A', 'B'], instances, scores: [base.map((x) => x + 0.25), base] }, { resamples: R });
    expect(a.pairs[0]?.tests.ar.p).toBe(1 / (R + 1));
  });

  it('gives p = 1 for identical systems (every trial reaches a zero difference)', () => {
    const a = analyseSystems({ systems: ['A', 'B'], instances, scores: [base, base] }, { resamples: 200 });
    expect(a.pairs[0]?.tests.ar.p).toBe(1);
  });
});
