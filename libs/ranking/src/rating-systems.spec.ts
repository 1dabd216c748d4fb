import { elo, gameSchedule, instancesPerOrder, trueSkill, trueSkillUpdate, vwWin, vwWinExact } from './rating-systems';
import type { ScoreTable } from './score-table';

describe('Elo and TrueSkill', () => {
  it('moves two 1500-rated players by K/2 = 10 after one decisive game (expected score 1/2)', () => {
    const t: ScoreTable = { systems: ['A', 'B'], instances: ['1'], scores: [[1], [0]] };
    const [a, b] = elo(t, { orders: 0 });
    expect(a).toBeCloseTo(1510, 12);
    expect(b).toBeCloseTo(1490, 12);
  });

  it('treats a tie between equal ratings as a draw that changes nothing', () => {
    const t: ScoreTable = { systems: ['A', 'B'], instances: ['1'], scores: [[1], [1]] };
    expect(elo(t, { orders: 0 })).toEqual([1500, 1500]);
  });

  it('applies the second game with the updated expectation (hand: 1510 vs 1490 → E = 0.5288)', () => {
    const t: ScoreTable = { systems: ['A', 'B'], instances: ['1', '2'], scores: [[1, 1], [0, 0]] };
    const e = 1 / (1 + Math.pow(10, -20 / 400));
    expect(elo(t, { orders: 0 })[0]).toBeCloseTo(1510 + 20 * (1 - e), 10);
  });

  it('reproduces the trueskill package 1-vs-1 examples: win → 29.396/20.604, σ 7.171; draw → σ 6.458', () => {
    // trueskill.readthedocs.io, "Head-to-head (1 vs. 1) match rule" (default environment)
    const [w, l] = trueSkillUpdate({ mu: 25, sigma: 25 / 3 }, { mu: 25, sigma: 25 / 3 }, 1);
    expect(w.mu).toBeCloseTo(29.396, 3);
    expect(l.mu).toBeCloseTo(20.604, 3);
    expect(w.sigma).toBeCloseTo(7.171, 3);
    const [d1, d2] = trueSkillUpdate({ mu: 25, sigma: 25 / 3 }, { mu: 25, sigma: 25 / 3 }, 0.5);
    expect(d1.mu).toBeCloseTo(25, 10);
    expect(d1.sigma).toBeCloseTo(6.458, 3);
    expect(d2.sigma).toBeCloseTo(6.458, 3);
  });

  it('ranks a system that wins most games highest under both systems, whatever the order', () => {
    const t: ScoreTable = {
      systems: ['weak', 'strong', 'mid'],
      instances: Array.from({ length: 40 }, (_, i) => String(i)),
      scores: [0, 2, 1].map((s) => Array.from({ length: 40 }, (_, i) => s + ((i * 7 + s * 3) % 5) * 0.3)),
    };
    const e = elo(t, { orders: 5, seed: 1 });
    expect(e[1]).toBeGreaterThan((e[2] ?? NaN));
    expect(e[2]).toBeGreaterThan((e[0] ?? NaN));
    const ts = trueSkill(t, { orders: 5, seed: 1 });
    expect(ts[1]?.mu).toBeGreaterThan(ts[2]?.mu ?? NaN);
    expect(ts[2]?.mu).toBeGreaterThan(ts[0]?.mu ?? NaN);
    // Elo is zero-sum: the average rating stays at the start value
    expect(((e[0] ?? NaN) + (e[1] ?? NaN) + (e[2] ?? NaN)) / 3).toBeCloseTo(1500, 9);
  });

  it('gives the same ratings, system by system, when systems and instances are listed in another order', () => {
    const t: ScoreTable = {
      systems: ['a', 'b', 'c', 'd'],
      instances: Array.from({ length: 25 }, (_, i) => `i${i}`),
      scores: [0, 1, 2, 3].map((s) => Array.from({ length: 25 }, (_, i) => Math.round(3 * Math.sin(i * (s + 1))))),
    };
    const sysPerm = [2, 0, 3, 1];
    const instPerm = Array.from({ length: 25 }, (_, i) => (i * 7) % 25);
    const p: ScoreTable = {
      systems: sysPerm.map((s) => t.systems[s] ?? ''),
      instances: instPerm.map((l) => t.instances[l] ?? ''),
      scores: sysPerm.map((s) => instPerm.map((l) => t.scores[s]?.[l] ?? NaN)),
    };
    const e = elo(t, { orders: 3 });
    const ep = elo(p, { orders: 3 });
    sysPerm.forEach((s, q) => expect(ep[q]).toBe(e[s]));
    const ts = trueSkill(t, { orders: 3 });
    const tp = trueSkill(p, { orders: 3 });
    sysPerm.forEach((s, q) => expect(tp[q]).toEqual(ts[s]));
  });

  it('averages over seeded orders: same seed, same ratings; other seed, slightly different', () => {
    const t: ScoreTable = {
      systems: ['a', 'b', 'c'],
      instances: Array.from({ length: 30 }, (_, i) => String(i)),
      scores: [0, 1, 2].map((s) => Array.from({ length: 30 }, (_, i) => Math.sin(i * (s + 1)))),
    };
    expect(elo(t, { seed: 4 })).toEqual(elo(t, { seed: 4 }));
    expect(elo(t, { seed: 4 })).not.toEqual(elo(t, { seed: 5 }));
  });
});

describe('TrueSkill win-function table', () => {
  it('matches the direct v(x) = φ(x)/Φ(x), w = v(v + x) within 1e-6 from x = −15 to 15', () => {
    for (let x = -15; x <= 15; x += 0.0137) {
      const [v, w] = vwWin(x);
      const [ve, we] = vwWinExact(x);
      expect(Math.abs(v - ve)).toBeLessThan(1e-6);
      expect(Math.abs(w - we)).toBeLessThan(1e-6);
    }
  });
});

describe('game schedule of a large board (orders play a subset of the instances)', () => {
  it('copies only the played instances\' scores, each order reading the instances it plays', () => {
    // 150 systems × 1,000 instances: 11,175 pairs, so an order plays ⌊10⁷ / 11,175⌋ = 894 instances
    const k = 150;
    const n = 1000;
    // score of system s on instance l: l·1000 + s, so a row of X says which instance it holds
    const x = Array.from({ length: k }, (_, s) => Float64Array.from({ length: n }, (_, l) => l * 1000 + s));
    const games = gameSchedule(x, null, null, { orders: 2, seed: 5 });
    const played = instancesPerOrder(k, n);
    expect(played).toBe(894);
    expect(games.played).toBe(played);
    const rows = games.X.length / k;
    expect(rows).toBeLessThan(n);
    expect(rows).toBeGreaterThanOrEqual(played);
    for (let row = 0; row < rows; row++) {
      const l = (games.X[row * k] ?? NaN) / 1000;
      for (let s = 0; s < k; s++) expect(games.X[row * k + s]).toBe(l * 1000 + s);
    }
    // each order plays `played` distinct instances, and the two orders play different ones
    const instancesOf = (o: number) => Array.from(games.orders[o]?.inst.subarray(0, played) ?? [], (row) => (games.X[row * k] ?? NaN) / 1000);
    for (const o of [0, 1]) expect(new Set(instancesOf(o)).size).toBe(played);
    expect(instancesOf(0)).not.toEqual(instancesOf(1));
  });
});
