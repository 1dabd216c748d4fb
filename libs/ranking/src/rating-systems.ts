/* eslint-disable @typescript-eslint/no-non-null-assertion -- hot kernel: typed-array reads in the Elo/TrueSkill update loops over game schedules, indices bounded by the schedule and system counts; a check per access would cost throughput (npm run bench:ranking-scale); bit-identical results checked by npx jest libs/ranking */
import { at } from './checked';
import { mulberry32, shuffleInPlace } from './prng';
import { orientedScores, type ScoreTable } from './score-table';
import { normalQuantile } from './special-functions';

/** How games are ordered for the online rating systems. */
export interface GameOrderOptions {
  /**
   * Number of seeded random game orders to average over (default {@link defaultGameOrders}: 10,
   * fewer above ~2·10⁶ games). Each order shuffles the
   * instances and the pairs of systems; one game per instance per pair of systems. 0 plays the
   * input order instead, pair by pair (as the paper's code), and then depends on input order.
   */
  orders?: number;
  /** Seed for the orders. Default 12345. */
  seed?: number;
}

/** Options for {@link elo}. */
export interface EloOptions extends GameOrderOptions {
  /** K-factor, default 20 (Zhao thesis ch. 11 App. G.1). */
  k?: number;
  /** Starting rating, default 1500. */
  initial?: number;
}

/**
 * Default number of random game orders: 10, fewer for very large inputs so that about 2·10⁷
 * games are played in all, but never fewer than 2.
 * Formula: clamp(⌊2·10⁷ / (k(k−1)/2 · n)⌋, 2, 10).
 * @example defaultGameOrders(20, 5000); // 10 ; defaultGameOrders(50, 10000); // 2
 */
export function defaultGameOrders(systems: number, instances: number): number {
  const games = ((systems * (systems - 1)) / 2) * instances;
  return Math.max(2, Math.min(10, Math.floor(2e7 / Math.max(1, games))));
}

/**
 * Most games one random order plays: 10⁷, so that the 2 orders {@link defaultGameOrders} keeps at
 * least play about the 2·10⁷ games it aims at. Above it, an order plays every pair on the first
 * ⌊10⁷ / pairs⌋ instances of its shuffled instance sequence (a seeded random subset, a new one per
 * order) instead of all n; below it nothing changes.
 */
export const MAX_GAMES_PER_ORDER = 10_000_000;

/**
 * Instances each random game order plays: all n up to {@link MAX_GAMES_PER_ORDER} games per
 * order, else ⌊10⁷ / pairs⌋ (at least 1).
 * @example instancesPerOrder(100, 100000); // 2020 (4,950 pairs)
 */
export function instancesPerOrder(systems: number, instances: number): number {
  const pairs = (systems * (systems - 1)) / 2;
  return pairs * instances <= MAX_GAMES_PER_ORDER ? instances : Math.max(1, Math.floor(MAX_GAMES_PER_ORDER / Math.max(1, pairs)));
}

/** The games of every order: built once, played by Elo and TrueSkill alike. */
export interface GameSchedule {
  k: number;
  n: number;
  /**
   * Oriented scores, instance-major, of the instances some order plays: X[row*k + s]. Every
   * instance's row (row = instance) when every order plays all of them; else only the played
   * ones' (issue #28: at 100 × 100,000 each order plays 2,020 instances, and all 10⁷ scores were
   * copied for them).
   */
  X: Float64Array;
  /** Per order: the rows of X it plays, in order (at least the first `played`), and the (first, second) system of each pair slot. */
  orders: { inst: Int32Array; pi: Int32Array; pj: Int32Array }[];
  /** Instances played per order ({@link instancesPerOrder}; n with input order). */
  played: number;
  /** Input order pair by pair (orders = 0) instead of instance by instance. */
  pairMajor: boolean;
}

function byName(names: readonly string[]): Int32Array {
  return Int32Array.from(names.map((_, i) => i).sort((a, b) => {
    const na = names[a] ?? '';
    const nb = names[b] ?? '';
    return na < nb ? -1 : na > nb ? 1 : a - b;
  }));
}

/**
 * The game schedule: one game per instance per pair of systems. With `orders` > 0, each order
 * shuffles the instances and the pair sequence (and which side of a pair is listed first), seeded;
 * with 0, input order pair by pair is emulated by one order with pairs outermost (see `pairMajor`).
 */
function schedule(table: ScoreTable<ArrayLike<number>>, options: GameOrderOptions): GameSchedule {
  return gameSchedule(orientedScores(table), byName(table.systems), byName(table.instances), options);
}

/**
 * {@link schedule} from oriented score rows `x[s][l]`. `sysOrder`/`instOrder` list the rows in name
 * order (null: the rows already are in name order), so the named game sequence does not depend
 * on the input order.
 */
export function gameSchedule(x: readonly Float64Array[], sysOrder: Int32Array | null, instOrder: Int32Array | null, options: GameOrderOptions): GameSchedule {
  const k = x.length;
  const n = x[0]?.length ?? 0;
  const pairCount = (k * (k - 1)) / 2;
  const basePi = new Int32Array(pairCount);
  const basePj = new Int32Array(pairCount);
  let q = 0;
  for (let i = 0; i < k; i++) for (let j = i + 1; j < k; j++) {
    basePi[q] = i;
    basePj[q++] = j;
  }
  const count = options.orders ?? defaultGameOrders(k, n);
  if (count === 0) {
    return { k, n, X: instanceMajor(x, null), orders: [{ inst: Int32Array.from({ length: n }, (_, l) => l), pi: basePi, pj: basePj }], played: n, pairMajor: true };
  }
  // Shuffle canonical positions (systems and instances sorted by name), then map to input
  // indices: the game sequence, named, does not depend on the input order.
  const rng = mulberry32(options.seed ?? 12345);
  const orders: GameSchedule['orders'] = [];
  const perm = Int32Array.from({ length: pairCount }, (_, p) => p);
  for (let o = 0; o < count; o++) {
    const inst = Int32Array.from({ length: n }, (_, l) => l);
    shuffleInPlace(inst, rng);
    if (instOrder) for (const [t, l] of inst.entries()) inst[t] = at(instOrder, l, 'instOrder');
    shuffleInPlace(perm, rng);
    const pi = new Int32Array(pairCount);
    const pj = new Int32Array(pairCount);
    for (let p = 0; p < pairCount; p++) {
      const swap = rng.next() < 0.5;
      const base = perm[p]!;
      const a = sysOrder ? sysOrder[basePi[base]!]! : basePi[base]!;
      const b = sysOrder ? sysOrder[basePj[base]!]! : basePj[base]!;
      pi[p] = swap ? b : a;
      pj[p] = swap ? a : b;
    }
    orders.push({ inst, pi, pj });
  }
  const played = instancesPerOrder(k, n);
  if (played === n) return { k, n, X: instanceMajor(x, null), orders, played, pairMajor: false };
  // only the instances some order plays: their rows in X, each order's sequence as rows
  const rowOf = new Int32Array(n).fill(-1);
  const rows: number[] = [];
  for (const order of orders) {
    const seq = order.inst.subarray(0, played);
    for (const l of seq) if (rowOf[l] === -1) rowOf[l] = rows.push(l) - 1;
    order.inst = Int32Array.from(seq, (l) => at(rowOf, l, 'rowOf'));
  }
  return { k, n, X: instanceMajor(x, Int32Array.from(rows)), orders, played, pairMajor: false };
}

/** The rows `x[s]` instance-major: X[t·k + s] = x[s][instances[t]] (null: every instance in order). */
function instanceMajor(x: readonly Float64Array[], instances: Int32Array | null): Float64Array {
  const k = x.length;
  const count = instances ? instances.length : (x[0]?.length ?? 0);
  const X = new Float64Array(count * k);
  x.forEach((row, s) => {
    let o = s;
    for (let t = 0; t < count; t++) {
      X[o] = row[instances ? instances[t]! : t]!;
      o += k;
    }
  });
  return X;
}

/**
 * Elo ratings from per-instance games between every pair of systems; ties are draws.
 *
 * Formula: E_i = 1/(1 + 10^((R_j − R_i)/400)); R_i ← R_i + K(δ − E_i), R_j ← R_j − K(δ − E_i),
 * δ ∈ {1, ½, 0}; K = 20, start 1500; averaged over seeded random game orders, drawn over systems
 * and instances sorted by name, so the result does not depend on the input order. Reference: Elo (1978); Zhao thesis ch. 11 App. G.1 eq. 5.
 * @example elo({ systems: ['A', 'B'], instances: ['1'], scores: [[1], [0]] }, { orders: 0 }); // [1510, 1490]
 */
export function elo(table: ScoreTable<ArrayLike<number>>, options: EloOptions = {}): number[] {
  return eloRuns(table, options).mean;
}

/**
 * {@link elo} with the final ratings of every game order kept (`runs[o][s]`), e.g. to see how
 * much the order moves a system's rank.
 * @example eloRuns(table, { orders: 10 }).runs.length; // 10
 */
export function eloRuns(table: ScoreTable<ArrayLike<number>>, options: EloOptions = {}): { mean: number[]; runs: number[][] } {
  return eloFromSchedule(schedule(table, options), options);
}

/** {@link eloRuns} on a prepared {@link GameSchedule}. */
export function eloFromSchedule(games: GameSchedule, options: Omit<EloOptions, keyof GameOrderOptions> = {}): { mean: number[]; runs: number[][] } {
  const K = options.k ?? 20;
  const start = options.initial ?? 1500;
  const { k, X, orders, pairMajor, played: n } = games;
  const ratings = new Float64Array(k);
  const total = new Float64Array(k);
  const runs: number[][] = [];
  const scale = Math.LN10 / 400;
  for (const { inst, pi, pj } of orders) {
    ratings.fill(start);
    const P = pi.length;
    const game = (i: number, j: number, o: number): void => {
      const a = X[o + i]!;
      const b = X[o + j]!;
      const outcome = a > b ? 1 : a === b ? 0.5 : 0;
      const delta = K * (outcome - 1 / (1 + Math.exp((ratings[j]! - ratings[i]!) * scale)));
      ratings[i]! += delta;
      ratings[j]! -= delta;
    };
    if (pairMajor) {
      for (let q = 0; q < P; q++) for (let t = 0; t < n; t++) game(pi[q]!, pj[q]!, inst[t]! * k);
    } else {
      for (let t = 0; t < n; t++) {
        const o = inst[t]! * k;
        for (let q = 0; q < P; q++) game(pi[q]!, pj[q]!, o);
      }
    }
    for (const [s, v] of ratings.entries()) total[s] = at(total, s) + v;
    runs.push(Array.from(ratings));
  }
  return { mean: Array.from(total, (v) => v / orders.length), runs };
}

/** TrueSkill environment (defaults of the `trueskill` Python package, Herbrich et al. 2007). */
export interface TrueSkillOptions extends GameOrderOptions {
  mu?: number;
  sigma?: number;
  beta?: number;
  tau?: number;
  drawProbability?: number;
}

/** A TrueSkill rating N(μ, σ²). */
export interface TrueSkillRating {
  mu: number;
  sigma: number;
}

// Fast erfc (Press et al. §6.2 Chebyshev fit, |rel. error| < 1.2e-7), the one the `trueskill`
// package uses; the exact p-value code lives in special-functions.ts.
function erfcFast(x: number): number {
  const z = Math.abs(x);
  const t = 1 / (1 + z / 2);
  const r =
    t *
    Math.exp(
      -z * z - 1.26551223 +
        t * (1.00002368 + t * (0.37409196 + t * (0.09678418 + t * (-0.18628806 + t * (0.27886807 + t * (-1.13520398 + t * (1.48851587 + t * (-0.82215223 + t * 0.17087277)))))))),
    );
  return x < 0 ? 2 - r : r;
}
const cdf = (x: number): number => 0.5 * erfcFast(-x / Math.SQRT2);
const INV_SQRT_2PI = 1 / Math.sqrt(2 * Math.PI);
const pdf = (x: number): number => INV_SQRT_2PI * Math.exp(-0.5 * x * x);

// v(x) = φ(x)/Φ(x) and w(x) = v(x)(v(x) + x) for decisive games, tabulated on [−X_MAX, X_MAX]
// with step 1/LUT_SCALE and read by linear interpolation (max. abs. error < 1e-6, tested), so
// the hot loop needs no exp; rare arguments outside the table are computed directly.
const X_MAX = 12;
const LUT_SCALE = 512;
let vTable: Float64Array | null = null;
let wTable: Float64Array | null = null;

function winTables(): [Float64Array, Float64Array] {
  if (!vTable || !wTable) {
    const size = 2 * X_MAX * LUT_SCALE + 1;
    vTable = new Float64Array(size);
    wTable = new Float64Array(size);
    for (let q = 0; q < size; q++) {
      const x = q / LUT_SCALE - X_MAX;
      const [v, w] = vwWinExact(x);
      vTable[q] = v;
      wTable[q] = w;
    }
  }
  return [vTable, wTable];
}

/** v and w of a decisive game at x = (μ_w − μ_l − ε)/c, from the erfc approximation directly. */
export function vwWinExact(x: number): [number, number] {
  const denom = cdf(x);
  const v = denom > 0 ? pdf(x) / denom : -x;
  return [v, v * (v + x)];
}

/** v and w of a decisive game by table lookup (see {@link vwWinExact}). */
export function vwWin(x: number): [number, number] {
  const [vt, wt] = winTables();
  if (x <= -X_MAX || x >= X_MAX) return vwWinExact(x);
  const pos = (x + X_MAX) * LUT_SCALE;
  const q = Math.floor(pos);
  const frac = pos - q;
  return [vt[q]! + frac * (vt[q + 1]! - vt[q]!), wt[q]! + frac * (wt[q + 1]! - wt[q]!)];
}

/**
 * One TrueSkill 1-vs-1 update (closed form of the factor graph for two players).
 * Formula: c² = 2β² + σ_a² + σ_b² (after σ² += τ²), t = (μ_a − μ_b)/c, ε = Φ⁻¹((p_draw + 1)/2)·√2·β;
 * win: v = φ(t − ε/c)/Φ(t − ε/c), w = v(v + t − ε/c); draw: v, w of the doubly truncated normal;
 * μ_a += σ_a²/c·v, μ_b −= σ_b²/c·v, σ² ← σ²(1 − σ²w/c²).
 * Reference: Herbrich, Minka & Graepel (2007), NeurIPS; Moser (2010) "Computing your skill".
 * @example trueSkillUpdate({mu: 25, sigma: 25/3}, {mu: 25, sigma: 25/3}, 1); // μ 29.396/20.604, σ 7.171
 */
export function trueSkillUpdate(
  a: TrueSkillRating,
  b: TrueSkillRating,
  outcome: 1 | 0.5 | 0,
  options: Omit<TrueSkillOptions, keyof GameOrderOptions> = {},
): [TrueSkillRating, TrueSkillRating] {
  const env = trueSkillEnv(options);
  const s = Float64Array.of(a.mu, a.sigma * a.sigma, b.mu, b.sigma * b.sigma);
  if (outcome === 0) {
    updatePair(s, 2, 0, 1, env);
  } else updatePair(s, 0, 2, outcome, env);
  return [
    { mu: at(s, 0), sigma: Math.sqrt(at(s, 1)) },
    { mu: at(s, 2), sigma: Math.sqrt(at(s, 3)) },
  ];
}

interface Env {
  beta2: number;
  tau2: number;
  margin: number;
}

function trueSkillEnv(o: Omit<TrueSkillOptions, keyof GameOrderOptions>): Env & { mu: number; sigma: number } {
  const sigma = o.sigma ?? 25 / 3;
  const beta = o.beta ?? sigma / 2;
  const tau = o.tau ?? sigma / 100;
  const p = o.drawProbability ?? 0.1;
  return { mu: o.mu ?? 25, sigma, beta2: beta * beta, tau2: tau * tau, margin: normalQuantile((p + 1) / 2) * Math.SQRT2 * beta };
}

/** In-place update of state s = [μ, σ², …] at offsets ia (winner or first) and ib. */
function updatePair(s: Float64Array, ia: number, ib: number, outcome: number, env: Env): void {
  makeUpdater(env)(s, ia, ib, outcome);
}

/** The TrueSkill 1-vs-1 update with the environment's constants captured as locals (hot loop). */
function makeUpdater(env: Env): (s: Float64Array, ia: number, ib: number, outcome: number) => void {
  const { beta2, tau2, margin } = env;
  const twoBeta2 = 2 * beta2;
  const [vt, wt] = winTables();
  return (s, ia, ib, outcome) => {
    const va = s[ia + 1]! + tau2;
    const vb = s[ib + 1]! + tau2;
    const c2 = twoBeta2 + va + vb;
    const c = Math.sqrt(c2);
    const t = (s[ia]! - s[ib]!) / c;
    const e = margin / c;
    let v: number;
    let w: number;
    if (outcome === 1) {
      const x = t - e;
      if (x <= -X_MAX || x >= X_MAX) {
        const denom = cdf(x);
        v = denom > 0 ? pdf(x) / denom : -x;
        w = v * (v + x);
      } else {
        const pos = (x + X_MAX) * LUT_SCALE;
        const q = Math.floor(pos);
        const frac = pos - q;
        v = vt[q]! + frac * (vt[q + 1]! - vt[q]!);
        w = wt[q]! + frac * (wt[q + 1]! - wt[q]!);
      }
    } else {
      const absT = Math.abs(t);
      const hi = e - absT;
      const lo = -e - absT;
      const denom = cdf(hi) - cdf(lo);
      const vv = denom > 0 ? (pdf(lo) - pdf(hi)) / denom : hi;
      v = t < 0 ? -vv : vv;
      w = denom > 0 ? vv * vv + (hi * pdf(hi) - lo * pdf(lo)) / denom : 1;
    }
    if (!(w > 0)) w = 0;
    if (w >= 1) w = 1 - 1e-12;
    s[ia]! += (va / c) * v;
    s[ib]! -= (vb / c) * v;
    s[ia + 1] = va * (1 - (va / c2) * w);
    s[ib + 1] = vb * (1 - (vb / c2) * w);
  };
}

/**
 * TrueSkill ratings from per-instance 1-vs-1 games between every pair of systems (ties are draws),
 * defaults μ = 25, σ = 25/3, β = σ/2, τ = σ/100, draw probability 0.1 (the `trueskill` package, as
 * in Zhao thesis ch. 11 App. G.2); μ and σ averaged over seeded random game orders. Rank by μ.
 * Reference: Herbrich, Minka & Graepel (2007), "TrueSkill™: A Bayesian skill rating system".
 * @example trueSkill({ systems: ['A', 'B'], instances: ['1'], scores: [[1], [0]] }, { orders: 0 }); // A μ≈29.40
 */
export function trueSkill(table: ScoreTable<ArrayLike<number>>, options: TrueSkillOptions = {}): TrueSkillRating[] {
  return trueSkillRuns(table, options).mean;
}

/**
 * {@link trueSkill} with the final μ of every game order kept (`runs[o][s]`).
 * @example trueSkillRuns(table, { orders: 10 }).runs.length; // 10
 */
export function trueSkillRuns(table: ScoreTable<ArrayLike<number>>, options: TrueSkillOptions = {}): { mean: TrueSkillRating[]; runs: number[][] } {
  return trueSkillFromSchedule(schedule(table, options), options);
}

/** {@link trueSkillRuns} on a prepared {@link GameSchedule}. */
export function trueSkillFromSchedule(
  games: GameSchedule,
  options: Omit<TrueSkillOptions, keyof GameOrderOptions> = {},
): { mean: TrueSkillRating[]; runs: number[][] } {
  const env = trueSkillEnv(options);
  const { k, X, orders, pairMajor, played: n } = games;
  const update = makeUpdater(env);
  const state = new Float64Array(2 * k);
  const mu = new Float64Array(k);
  const sigma = new Float64Array(k);
  const runs: number[][] = [];
  for (const { inst, pi, pj } of orders) {
    for (let s = 0; s < k; s++) {
      state[2 * s] = env.mu;
      state[2 * s + 1] = env.sigma * env.sigma;
    }
    const P = pi.length;
    const game = (i: number, j: number, o: number): void => {
      const a = X[o + i]!;
      const b = X[o + j]!;
      if (a > b) update(state, 2 * i, 2 * j, 1);
      else if (b > a) update(state, 2 * j, 2 * i, 1);
      else update(state, 2 * i, 2 * j, 0.5);
    };
    if (pairMajor) {
      for (let q = 0; q < P; q++) for (let t = 0; t < n; t++) game(pi[q]!, pj[q]!, inst[t]! * k);
    } else {
      for (let t = 0; t < n; t++) {
        const o = inst[t]! * k;
        for (let q = 0; q < P; q++) game(pi[q]!, pj[q]!, o);
      }
    }
    for (const [s, m] of mu.entries()) {
      mu[s] = m + at(state, 2 * s, 'TrueSkill state');
      sigma[s] = at(sigma, s) + Math.sqrt(at(state, 2 * s + 1, 'TrueSkill state'));
    }
    runs.push(Array.from({ length: k }, (_, s) => at(state, 2 * s, 'TrueSkill state')));
  }
  return { mean: Array.from(mu, (m, s) => ({ mu: m / orders.length, sigma: at(sigma, s) / orders.length })), runs };
}
