/**
 * CLI start-up benchmark: `npm run bench:startup`. Wall time of one `podium` call, as a fresh
 * process, for
 *  1. the compiled CLI (`npm run build` → `node dist/apps/cli/main.js`, what `npm run podium` and
 *     the `podium` bin run), and
 *  2. the baseline, measured in the same run: the TypeScript sources under the register hook
 *     (`node -r @swc-node/register apps/cli/src/main.ts`, how the CLI ran before it was built),
 * with bare `node -e ''` for the floor. Two calls: `--help` (start-up only) and
 * `score --metric bleu` on two 2-line files (start-up plus a small command). Runs interleave
 * the variants so that load on the machine affects each alike; medians and p90 are printed, and
 * the ratio register/compiled of the medians. Options: `--runs N` (default 15).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const ROOT = resolve(__dirname, '..');
const args = process.argv.slice(2);
const runsArg = args.indexOf('--runs');
const RUNS = runsArg >= 0 ? Number(args[runsArg + 1]) : 15;

const variants = {
  node: ['-e', ''],
  register: ['-r', '@swc-node/register', 'apps/cli/src/main.ts'],
  compiled: ['dist/apps/cli/main.js'],
} as const;
type Variant = keyof typeof variants;

function timeOnce(argv: readonly string[]): number {
  const t0 = process.hrtime.bigint();
  const r = spawnSync(process.execPath, argv, { cwd: ROOT, encoding: 'utf8' });
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  if (r.status !== 0) throw new Error(`node ${argv.join(' ')} exited ${r.status}: ${r.stderr}`);
  return ms;
}

const quantile = (xs: number[], q: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))] ?? Number.NaN; // NaN for no runs
};

function main(): void {
  execFileSync(process.execPath, [join(ROOT, 'scripts', 'build.mjs'), '--if-stale'], { cwd: ROOT, stdio: 'inherit' });
  const dir = mkdtempSync(join(tmpdir(), 'podium-startup-'));
  try {
    const hyp = join(dir, 'hyp.txt');
    const ref = join(dir, 'ref.txt');
    writeFileSync(hyp, 'the cat sat on the mat\nhello world\n');
    writeFileSync(ref, 'the cat sat on a mat\nhello there world\n');
    const calls: Record<string, string[]> = { '--help': ['--help'], 'score --metric bleu': ['score', '--metric', 'bleu', '--hyp', hyp, '--ref', ref] };
    process.stdout.write(`CLI start-up, ${RUNS} runs each, interleaved (node ${process.version}, ${new Date().toISOString()})\n`);
    for (const [label, call] of Object.entries(calls)) {
      const times: Record<Variant, number[]> = { node: [], register: [], compiled: [] };
      for (const v of Object.keys(variants) as Variant[]) timeOnce(v === 'node' ? variants.node : [...variants[v], ...call]); // warm the disk cache
      for (let i = 0; i < RUNS; i++) {
        for (const v of Object.keys(variants) as Variant[]) times[v].push(timeOnce(v === 'node' ? variants.node : [...variants[v], ...call]));
      }
      const med = (v: Variant) => quantile(times[v], 0.5);
      process.stdout.write(`\npodium ${label}\n`);
      for (const v of Object.keys(variants) as Variant[]) {
        const name = v === 'node' ? "node -e ''" : v === 'register' ? 'register (swc-node)' : 'compiled (dist/)';
        process.stdout.write(`  ${name.padEnd(22)} median ${med(v).toFixed(0).padStart(5)} ms   p90 ${quantile(times[v], 0.9).toFixed(0).padStart(5)} ms\n`);
      }
      process.stdout.write(`  ratio register/compiled: ${(med('register') / med('compiled')).toFixed(2)}×  (compiled minus bare node: ${(med('compiled') - med('node')).toFixed(0)} ms)\n`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

main();
