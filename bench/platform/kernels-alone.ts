/**
 * The metric kernels alone (scoreWithFlatStats of each metric, what the scoring worker calls) on
 * a phase's synthetic sentences, for bench:platform's ratio of scoring jobs to kernels (issue
 * #28). Run as a process of its own (`node -r @swc-node/register bench/platform/kernels-alone.ts
 * N INSTANCE_SEED SYSTEMS SEED SAMPLE`): bench:platform starts one per scoring worker at once, so
 * that the kernels share the cores as the jobs did (two workers on two cores), not one process on
 * an idle machine. Prints `{"instances":…,"cpuSeconds":…,"mainCpuSeconds":…}`: the sentences' generation is not
 * counted. On the 2-core reference machine the same work took 21–28 CPU-s from run to run, alone or
 * two at once: compare ratios within one run.
 */
import { scoreWithFlatStats } from '@podium/metrics';
import { defined } from '../../test/support/defined';
import { mainThreadCpuSeconds } from './cpu-profile';
import { syntheticTestSet, systemOutputs, systemQualities } from './synthetic';

/** The metrics the bench's task scores with. */
export const BENCH_METRICS = [
  { key: 'bleu', name: 'bleu', options: {} },
  { key: 'chrf', name: 'chrf', options: {} },
  { key: 'ter', name: 'ter', options: {} },
] as const;

/**
 * CPU seconds of the kernels on the first `sample` systems' outputs for `n` instances: this
 * process's (every thread) and its main thread's alone.
 */
export function kernelsCpu(n: number, instanceSeed: number, systems: number, seed: number, sample: number): { instances: number; cpuSeconds: number; mainCpuSeconds: number } {
  const instances = syntheticTestSet(n, instanceSeed);
  const quality = systemQualities(systems, seed);
  const refs = [instances.map((i) => i.reference)];
  const count = Math.min(systems, sample);
  let cpu = 0;
  let main = 0;
  for (let s = 0; s < count; s++) {
    const hyps = systemOutputs(instances, defined(quality[s], `the quality of system ${s}`), s, seed);
    const c0 = process.cpuUsage();
    const m0 = mainThreadCpuSeconds();
    for (const m of BENCH_METRICS) scoreWithFlatStats(m.name, m.options, hyps, refs);
    main += mainThreadCpuSeconds() - m0;
    const used = process.cpuUsage(c0);
    cpu += (used.user + used.system) / 1e6;
  }
  return { instances: count * n, cpuSeconds: cpu, mainCpuSeconds: main };
}

if (require.main === module) {
  const [n, instanceSeed, systems, seed, sample] = process.argv.slice(2).map(Number);
  if (![n, instanceSeed, systems, seed, sample].every((v) => Number.isInteger(v) && (v ?? -1) >= 0)) {
    console.error('usage: kernels-alone.ts N INSTANCE_SEED SYSTEMS SEED SAMPLE (non-negative integers)');
    process.exit(2);
  }
  process.stdout.write(`${JSON.stringify(kernelsCpu(n ?? 0, instanceSeed ?? 0, systems ?? 0, seed ?? 0, sample ?? 0))}\n`);
}
