/**
 * The paper's simulation (Zhao thesis ch. 11 §4, Fig. 3; docs/science.md §1 "Simulation"), reproduced
 * qualitatively: `npm run bench:simulation`.
 *
 * Protocol of the released `simulations.py` (offset version, as summarised in docs/science.md §1):
 * - latent strengths λ = 10·u/Σu, u ~ U(0,1) per system;
 * - N_types instance types, each with an offset 100·U(0,1) shared by all systems;
 *   ⌊M/N_types⌋ instances per type; score = λ_j + offset_t + N(0, 1);
 * - outliers (f > 0): max(⌊f·rows⌋, 1) appended instances whose scores are 100·U(0,1) per system,
 *   redrawn until Kendall τ(row, λ) < 0;
 * - grid N_types ∈ {1,3,5,10} × f ∈ {0, .01, .025} × N_sys ∈ {2,3,5,10,25,50} × M ∈ {10,30,100,200},
 *   10 samples each = 2,880 setups; metric: Kendall τ_b(λ, aggregate) for MEAN, MEDIAN, BT.
 * An undefined τ (an aggregate constant over systems) counts as 0.
 * Expected pattern (paper): outliers hurt MEAN but not BT; several types hurt MEDIAN but not BT.
 */
import { countWins, fitBradleyTerry, kendallTau, mean, median, mulberry32, type ScoreTable } from '@podium/ranking';

const rng = mulberry32(Number(process.env.SIM_SEED ?? 2024));
const SAMPLES = Number(process.env.SIM_SAMPLES ?? 10);

function btKey(table: ScoreTable): number[] {
  const fit = fitBradleyTerry(countWins(table), { throwOnNonConvergence: false });
  const maxTier = Math.max(...fit.tier);
  return fit.strengths.map((s, i) => (Number.isFinite(s) ? s : 2 + maxTier - (fit.tier[i] ?? Number.NaN)));
}

function simulate(nTypes: number, f: number, nSys: number, M: number): { mean: number; median: number; bt: number } {
  const u = Array.from({ length: nSys }, () => rng.next());
  const sum = u.reduce((a, b) => a + b, 0);
  const lambda = u.map((v) => (10 * v) / sum);
  const perType = Math.floor(M / nTypes);
  const rows: number[][] = []; // rows[instance][system]
  for (let t = 0; t < nTypes; t++) {
    const offset = 100 * rng.next();
    for (let r = 0; r < perType; r++) rows.push(lambda.map((l) => l + offset + rng.nextNormal()));
  }
  if (f > 0) {
    const outliers = Math.max(Math.floor(f * rows.length), 1);
    for (let o = 0; o < outliers; o++) {
      let row: number[];
      let tries = 0;
      do {
        row = lambda.map(() => 100 * rng.next());
        tries++;
      } while (!(kendallTau(row, lambda) < 0) && tries < 1000);
      rows.push(row);
    }
  }
  const table: ScoreTable = {
    systems: lambda.map((_, s) => `s${s}`),
    instances: rows.map((_, i) => `i${i}`),
    scores: lambda.map((_, s) => rows.map((r) => r[s] ?? Number.NaN)), // every row has one score per system
  };
  const tau = (agg: number[]): number => {
    const t = kendallTau(lambda, agg);
    return Number.isNaN(t) ? 0 : t;
  };
  return { mean: tau(table.scores.map((r) => mean(r))), median: tau(table.scores.map((r) => median(r))), bt: tau(btKey(table)) };
}

interface Setup {
  nTypes: number;
  f: number;
  nSys: number;
  M: number;
  mean: number;
  median: number;
  bt: number;
}

const t0 = Date.now();
const setups: Setup[] = [];
for (const nTypes of [1, 3, 5, 10])
  for (const f of [0, 0.01, 0.025])
    for (const nSys of [2, 3, 5, 10, 25, 50])
      for (const M of [10, 30, 100, 200])
        for (let s = 0; s < SAMPLES; s++) setups.push({ nTypes, f, nSys, M, ...simulate(nTypes, f, nSys, M) });

function row(label: string, pick: (s: Setup) => boolean, reference: [number, number, number]): string[] {
  const sel = setups.filter(pick);
  const avg = (key: 'mean' | 'median' | 'bt'): string => mean(sel.map((s) => s[key])).toFixed(2);
  return [label, String(sel.length), avg('mean'), avg('median'), avg('bt'), reference.map((v) => String(v)).join(' / ')];
}

const table = [
  ['condition', 'setups', 'MEAN', 'MEDIAN', 'BT', 'docs/science.md (MEAN/MEDIAN/BT)'],
  row('easy (1 type, f = 0), N_sys 2', (s) => s.nTypes === 1 && s.f === 0 && s.nSys === 2, [0.95, 0.95, 0.95]),
  row('easy (1 type, f = 0), N_sys 50', (s) => s.nTypes === 1 && s.f === 0 && s.nSys === 50, [0.45, 0.4, 0.44]),
  row('outliers: 1 type, f = .025', (s) => s.nTypes === 1 && s.f === 0.025, [0.32, 0.77, 0.78]),
  row('types: f = 0, 10 types', (s) => s.nTypes === 10 && s.f === 0, [0.76, 0.6, 0.76]),
  row('both: all f, 10 types', (s) => s.nTypes === 10, [0.51, 0.33, 0.77]),
  row('all setups', () => true, [0.505, 0.591, 0.775]),
];
const widths = (table[0] ?? []).map((_, c) => Math.max(...table.map((r) => r[c]?.length ?? 0)));
console.log(`Kendall τ(true λ, aggregate), mean over setups; ${setups.length} setups, seed ${process.env.SIM_SEED ?? 2024}, ${((Date.now() - t0) / 1000).toFixed(1)} s`);
for (const r of table) console.log(r.map((cell, c) => cell.padEnd(widths[c] ?? 0)).join('  '));
const outl = setups.filter((s) => s.nTypes === 1 && s.f === 0.025);
const types = setups.filter((s) => s.nTypes === 10 && s.f === 0);
const ok1 = mean(outl.map((s) => s.bt)) - mean(outl.map((s) => s.mean)) > 0.2;
const ok2 = mean(types.map((s) => s.bt)) - mean(types.map((s) => s.median)) > 0.05;
console.log(`claim 1 (outliers: MEAN drops, BT does not): ${ok1 ? 'reproduced' : 'NOT reproduced'}`);
console.log(`claim 2 (several types: MEDIAN drops, BT does not): ${ok2 ? 'reproduced' : 'NOT reproduced'}`);
