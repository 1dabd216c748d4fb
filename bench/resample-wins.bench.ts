/**
 * The per-resample wins kernel (issue #28, docs/adr/0043): `npm run bench:resample-wins -- --systems
 * 100 --instances 100000 --resamples 64`. Draws the bootstrap counts as an analysis does
 * (mulberry32, seed 12345), runs both kernels of `resampleWins` on the same synthetic beats
 * counts in this run, checks that their sums are identical, and prints each kernel's time per
 * resample (median of --repeat runs) and the ratio js ÷ wasm.
 */
import { bootstrapCounts, mulberry32, resampleWins, RESAMPLE_BATCH } from '@podium/ranking';

function flag(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return (i >= 0 ? process.argv[i + 1] : undefined) ?? fallback;
}

const k = Number(flag('systems', '100'));
const n = Number(flag('instances', '100000'));
const R = Number(flag('resamples', '64'));
const repeat = Number(flag('repeat', '5'));
if (!(k >= 2 && k <= 256 && n >= 1 && R >= 1 && repeat >= 1)) {
  console.error('usage: --systems 2…256 --instances N≥1 --resamples R≥1 --repeat K≥1');
  process.exit(2);
}
const rng = mulberry32(7);
const beats = Array.from({ length: k }, () => {
  const b = new Uint8Array(n);
  for (let l = 0; l < n; l++) b[l] = rng.nextInt(k);
  return b;
});
const draw = mulberry32(12345);
const counts = Array.from({ length: R }, () => bootstrapCounts(n, draw, new Int32Array(n)));

function run(kernel: 'auto' | 'js'): { ms: number; out: Float64Array; name: string } {
  const wins = resampleWins(beats, n, { kernel });
  const out = new Float64Array(R * k);
  const t = performance.now();
  for (let r = 0; r < R; r += RESAMPLE_BATCH) wins.wins(counts.slice(r, r + RESAMPLE_BATCH), Math.min(RESAMPLE_BATCH, R - r), out.subarray(r * k));
  return { ms: performance.now() - t, out, name: wins.kernel };
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;
const times: Record<'auto' | 'js', number[]> = { auto: [], js: [] };
let identical = true;
let wasmName = '';
for (let rep = 0; rep < repeat; rep++) {
  const a = run('auto');
  const j = run('js');
  wasmName = a.name;
  times.auto.push(a.ms);
  times.js.push(j.ms);
  for (let q = 0; q < a.out.length; q++) if (a.out[q] !== j.out[q]) identical = false;
}
const perResample = (ms: number[]): string => `${((median(ms) / R) * 1000).toFixed(0)} µs`;
console.log(`${k} systems × ${n} instances, ${R} resamples, median of ${repeat}`);
console.log(`  ${wasmName.padEnd(10)} ${perResample(times.auto)} per resample`);
console.log(`  js         ${perResample(times.js)} per resample`);
console.log(`  ratio js ÷ ${wasmName}: ${(median(times.js) / median(times.auto)).toFixed(1)}×; sums identical: ${identical ? 'yes' : 'NO'}`);
if (!identical) process.exit(1);
