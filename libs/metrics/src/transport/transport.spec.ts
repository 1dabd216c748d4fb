import { earthMoversDistance } from './transport';
import { loadHighs, lpTransport, seededRandom } from './lp-reference';

/** A random instance: sizes 1–40, some zero weights, tied costs, unequal masses. */
function instance(rand: () => number, k: number): { a: number[]; b: number[]; cost: number[] } {
  const n = 1 + Math.floor(rand() * (k % 10 === 0 ? 40 : 15));
  const m = 1 + Math.floor(rand() * (k % 10 === 5 ? 40 : 15));
  const integral = k % 3 === 0; // integer weights make degenerate bases likely
  const weight = (): number => (rand() < 0.15 ? 0 : integral ? 1 + Math.floor(rand() * 4) : rand());
  const a = Array.from({ length: n }, weight);
  const b = Array.from({ length: m }, weight);
  if (k % 4 !== 0) {
    // balanced: rescale b to a's mass (the MoverScore case)
    const sa = a.reduce((s, x) => s + x, 0);
    const sb = b.reduce((s, x) => s + x, 0);
    if (sa > 0 && sb > 0) for (let j = 0; j < m; j++) b[j] = ((b[j] as number) * sa) / sb;
  }
  const ties = k % 2 === 0; // costs from a few values: many optimal plans
  const cost = Array.from({ length: n * m }, () => (ties ? Math.floor(rand() * 4) : rand() * 3));
  return { a, b, cost };
}

describe('earthMoversDistance', () => {
  it('equals the HiGHS linear-programming optimum on 1,200 random instances to 1e-9 relative', async () => {
    const highs = await loadHighs();
    const rand = seededRandom(24);
    for (let k = 0; k < 1200; k++) {
      const { a, b, cost } = instance(rand, k);
      const mine = earthMoversDistance(a, b, cost);
      const lp = lpTransport(highs, a, b, cost);
      const tol = 1e-9 * Math.abs(lp.distance) + 1e-14;
      if (Math.abs(mine.distance - lp.distance) > tol) {
        throw new Error(`instance ${k}: ${mine.distance} vs LP ${lp.distance} (n=${a.length}, m=${b.length})`);
      }
      // The flow is feasible and its cost is the reported cost.
      const n = a.length;
      const m = b.length;
      const sa = a.reduce((s, x) => s + x, 0);
      const sb = b.reduce((s, x) => s + x, 0);
      let total = 0;
      let moved = 0;
      for (let i = 0; i < n; i++) {
        let row = 0;
        for (let j = 0; j < m; j++) {
          const f = mine.flow[i * m + j] as number;
          expect(f).toBeGreaterThanOrEqual(0);
          row += f;
          total += f * (cost[i * m + j] as number);
        }
        moved += row;
        expect(row).toBeLessThanOrEqual((a[i] as number) + 1e-12);
        if (sa <= sb) expect(row).toBeCloseTo(a[i] as number, 12);
      }
      for (let j = 0; j < m; j++) {
        let col = 0;
        for (let i = 0; i < n; i++) col += mine.flow[i * m + j] as number;
        expect(col).toBeLessThanOrEqual((b[j] as number) + 1e-12);
        if (sb <= sa) expect(col).toBeCloseTo(b[j] as number, 12);
      }
      expect(moved).toBeCloseTo(Math.min(sa, sb), 12);
      expect(total).toBeCloseTo(mine.cost, 12);
    }
  }, 600_000); // HiGHS takes most of it; minutes on a loaded machine

  it('solves a hand case: two points each, crossing is dearer', () => {
    // a = (0.5, 0.5) at 0 and 1, b = (0.5, 0.5) at 0 and 1 on a line: identity plan, cost 0.
    const r = earthMoversDistance([0.5, 0.5], [0.5, 0.5], [0, 1, 1, 0]);
    expect(r.distance).toBe(0);
    expect(Array.from(r.flow)).toEqual([0.5, 0, 0, 0.5]);
    // (1, 0) vs (0.25, 0.75): 0.75 must cross at cost 2.
    expect(earthMoversDistance([1, 0], [0.25, 0.75], [0, 2, 2, 0]).distance).toBeCloseTo(1.5, 15);
  });

  it('adds |Σa − Σb| × the penalty for unequal masses, as pyemd does (default: the largest cost)', () => {
    // Σa = 1, Σb = 0.5: 0.5 moves at cost 1 (row 0 → col 0 is free), 0.5 surplus × max cost 3.
    const r = earthMoversDistance([0.5, 0.5], [0.5], [0, 3]);
    expect(r.cost).toBe(0);
    expect(r.transported).toBe(0.5);
    expect(r.distance).toBe(1.5);
    expect(earthMoversDistance([0.5, 0.5], [0.5], [0, 3], { extraMassPenalty: 0 }).distance).toBe(0);
  });

  it('returns 0 when a side has no mass and rejects negative, NaN or misshapen input', () => {
    expect(earthMoversDistance([0, 0], [1], [1, 2], { extraMassPenalty: 0 }).distance).toBe(0);
    expect(() => earthMoversDistance([-1], [1], [0])).toThrow(/supply\[0\]/);
    expect(() => earthMoversDistance([1], [Number.NaN], [0])).toThrow(/demand\[0\]/);
    expect(() => earthMoversDistance([1], [1], [0, 1])).toThrow(/expected 1×1/);
  });
});
