/* eslint-disable @typescript-eslint/no-non-null-assertion -- the timed baselines are plain indexed loops like the kernels they are compared with; a check per access would change what is measured */
/**
 * Ranking benchmark: `npm run bench:ranking`. Three workloads from issue #4, each timed against
 * a straightforward baseline run in the same process (ratios = baseline / ours):
 *  1. 20 systems × 5,000 instances, BT with 1,000 bootstrap resamples (intervals of strengths and
 *     ranks). Baseline: materialise each resample and recount wins O(k²n), then refit.
 *     (Pairformance needs ~30 s for this size with only 100 resamples — quoted, not measured.)
 *  2. 50 × 10,000, the full leaderboard (`analyseSystems`: BT with intervals, six tests on all
 *     1,225 pairs with Holm correction, clusters, Elo/TrueSkill). Baseline: the per-pair
 *     bootstrap and randomisation tests (`pairedBootstrap`, `approximateRandomization`) plus the
 *     naive BT bootstrap — the same resampling done pair by pair.
 *  3. BT point fit on 50 × 100,000 (count wins + MM). Baseline: wins counted instance by instance
 *     over number[][] with a per-instance pair loop.
 * Baselines that would take minutes run a fraction of the resamples or pairs and are scaled
 * linearly (marked "extrapolated"). Targets (2-core machine): < 3 s, < 10 s, < 1 s.
 */
import { cpus, loadavg } from 'node:os';
import {
  analyseSystems,
  approximateRandomization,
  bootstrapBradleyTerry,
  countWins,
  fitBradleyTerry,
  mulberry32,
  pairedBootstrap,
  type ScoreTable,
} from '@podium/ranking';

function synthetic(k: number, n: number, seed: number): ScoreTable {
  const rng = mulberry32(seed);
  const strength = Array.from({ length: k }, () => rng.next());
  const difficulty = Array.from({ length: n }, () => rng.nextNormal());
  return {
    systems: Array.from({ length: k }, (_, s) => `sys${String(s).padStart(2, '0')}`),
    instances: Array.from({ length: n }, (_, i) => `seg${i}`),
    // sentence-level scores rounded to 2 decimals, so ties occur as with real metrics
    scores: strength.map((st) => difficulty.map((d) => Math.round((50 + 10 * d + 5 * st + 8 * rng.nextNormal()) * 100) / 100)),
  };
}

/**
 * Wall-clock and CPU (user + system) seconds. The code is single-threaded, so on a shared,
 * overloaded machine CPU time is the better estimate of the uncontended wall time; ratios use
 * wall time of ours and the baseline measured back to back.
 */
function time<T>(fn: () => T): { seconds: number; cpu: number; value: T } {
  const c0 = process.cpuUsage();
  const t0 = process.hrtime.bigint();
  const value = fn();
  const c = process.cpuUsage(c0);
  return { seconds: Number(process.hrtime.bigint() - t0) / 1e9, cpu: (c.user + c.system) / 1e6, value };
}

/** Baseline BT bootstrap: resample indices, build the resampled table, count wins naively, refit. */
function naiveBtBootstrap(table: ScoreTable, resamples: number, seed: number): void {
  const rng = mulberry32(seed);
  const n = table.instances.length;
  for (let r = 0; r < resamples; r++) {
    const idx = Array.from({ length: n }, () => rng.nextInt(n));
    const scores = table.scores.map((row) => idx.map((i) => row[i]!));
    fitBradleyTerry(naiveCountWins(scores), { throwOnNonConvergence: false });
  }
}

/** Baseline win counting: instance-major, plain arrays, one comparison per pair per instance. */
function naiveCountWins(scores: number[][]): number[][] {
  const k = scores.length;
  const n = scores[0]!.length;
  const w = Array.from({ length: k }, () => new Array<number>(k).fill(0));
  for (let l = 0; l < n; l++) {
    for (let i = 0; i < k; i++) {
      for (let j = 0; j < k; j++) if (scores[i]![l]! > scores[j]![l]!) w[i]![j]!++;
    }
  }
  return w;
}

const rows: string[][] = [['workload', 'ours wall (s)', 'ours cpu (s)', 'baseline wall (s)', 'ratio', 'target']];
const fmt = (s: number): string => s.toFixed(3);

// 1. 20 × 5,000, 1,000 resamples
{
  const table = synthetic(20, 5000, 1);
  const ours = time(() => bootstrapBradleyTerry(table, { resamples: 1000, seed: 12345 }));
  const baseResamples = 50;
  const base = time(() => naiveBtBootstrap(table, baseResamples, 12345));
  const baseline = (base.seconds * 1000) / baseResamples;
  rows.push(['BT + 1,000-resample intervals, 20×5,000', fmt(ours.seconds), fmt(ours.cpu), `${fmt(baseline)} (extrapolated from ${baseResamples})`, `${(baseline / ours.seconds).toFixed(1)}×`, '< 3 s']);
  const hundred = time(() => bootstrapBradleyTerry(table, { resamples: 100, seed: 12345 }));
  rows.push(['  same with 100 resamples (Pairformance: ~30 s, quoted)', fmt(hundred.seconds), fmt(hundred.cpu), '', `${(30 / hundred.seconds).toFixed(0)}× vs 30 s`, '']);
  const full = time(() => analyseSystems(table, { resamples: 1000 }));
  rows.push(['  (full leaderboard, 20×5,000)', fmt(full.seconds), fmt(full.cpu), '', '', '']);
}

// 2. 50 × 10,000 full leaderboard
{
  const table = synthetic(50, 10000, 2);
  const ours = time(() => analyseSystems(table, { resamples: 1000 }));
  const pairsMeasured = 10;
  const totalPairs = (50 * 49) / 2;
  const perPair = time(() => {
    for (let q = 0; q < pairsMeasured; q++) {
      pairedBootstrap(table.scores[q]!, table.scores[q + 1]!, { resamples: 1000 });
      approximateRandomization(table.scores[q]!, table.scores[q + 1]!, { resamples: 1000 });
    }
  });
  const btResamples = 10;
  const bt = time(() => naiveBtBootstrap(table, btResamples, 12345));
  const baseline = (perPair.seconds * totalPairs) / pairsMeasured + (bt.seconds * 1000) / btResamples;
  rows.push(['full leaderboard, 50×10,000, 1,000 resamples', fmt(ours.seconds), fmt(ours.cpu), `${fmt(baseline)} (extrapolated)`, `${(baseline / ours.seconds).toFixed(1)}×`, '< 10 s']);
}

// 3. BT point fit, 50 × 100,000
{
  const table = synthetic(50, 100000, 3);
  const ours = time(() => fitBradleyTerry(countWins(table)));
  const base = time(() => fitBradleyTerry(naiveCountWins(table.scores)));
  const same = ours.value.strengths.every((s, i) => Math.abs(s - base.value.strengths[i]!) < 1e-12);
  rows.push(['BT point fit, 50×100,000', fmt(ours.seconds), fmt(ours.cpu), fmt(base.seconds), `${(base.seconds / ours.seconds).toFixed(1)}×`, '< 1 s']);
  if (!same) rows.push(['  WARNING: baseline strengths differ', '', '', '', '', '']);
}

const widths = rows[0]!.map((_, c) => Math.max(...rows.map((r) => r[c]!.length)));
for (const r of rows) console.log(r.map((cell, c) => cell.padEnd(widths[c]!)).join('  '));
console.log(`load average (1 min) at the end: ${loadavg()[0]!.toFixed(1)} on ${cpus().length} cores`);
