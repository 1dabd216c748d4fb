import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Profiler } from 'node:inspector';
import { BOARD_RULES, machineCpuSeconds, mergeShares, profileShares, profilesInDir, SCORING_RULES, type Shares } from './cpu-profile';

/** A profile whose frames each hold `ms` of self time (one sample each, 1 µs per ms apart). */
function profileOf(frames: { url: string; functionName: string; ms: number }[]): Profiler.Profile {
  const nodes = frames.map((f, i) => ({ id: i + 1, callFrame: { url: f.url, functionName: f.functionName, scriptId: String(i), lineNumber: 0, columnNumber: 0 } }));
  return {
    nodes,
    startTime: 0,
    endTime: frames.reduce((a, f) => a + f.ms * 1000, 0),
    samples: frames.map((_, i) => i + 1),
    // The delta after sample i is its self time (profileShares reads the next delta).
    timeDeltas: [0, ...frames.map((f) => f.ms * 1000)],
  };
}

describe('profile shares of the workers (bench:platform)', () => {
  it('puts frames of dist/ and of sources in the same categories', () => {
    const shares = profileShares(
      profileOf([
        { url: 'file:///repo/dist/libs/metrics/plugins/ter/ter.js', functionName: 'run', ms: 30 },
        { url: '/repo/libs/metrics/src/plugins/bleu/bleu.ts', functionName: 'stats', ms: 30 },
        { url: 'file:///repo/dist/libs/metrics/tokenizers.js', functionName: 'tokenize13a', ms: 20 },
        { url: '', functionName: '(garbage collector)', ms: 20 },
        { url: '', functionName: '(idle)', ms: 500 },
      ]),
      SCORING_RULES,
    );
    // Idle is left out: 100 ms of work, of which 60 in the kernels, 20 tokenising, 20 GC.
    expect(shares.cpuMs).toBeCloseTo(100, 6);
    expect(shares.shares).toEqual({ 'metric kernels': 0.6, tokenising: 0.2, 'garbage collection': 0.2 });
  });

  it('weights merged shares by each profile’s CPU time', () => {
    const a: Shares = { cpuMs: 300, shares: { x: 1 }, top: [{ frame: 'f', ms: 300 }] };
    const b: Shares = { cpuMs: 100, shares: { y: 1 }, top: [{ frame: 'f', ms: 100 }] };
    const m = mergeShares([a, b]);
    expect(m.cpuMs).toBe(400);
    expect(m.shares).toEqual({ x: 0.75, y: 0.25 });
    expect(m.top).toEqual([{ frame: 'f', ms: 400 }]);
  });

  it('reads main threads (tid 0) and other threads apart from a --cpu-prof folder', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'podium-prof-spec-'));
    try {
      writeFileSync(path.join(dir, 'CPU.20261126.102021.15435.0.001.cpuprofile'), JSON.stringify(profileOf([{ url: 'file:///r/dist/libs/metrics/chrf.js', functionName: 'f', ms: 10 }])));
      writeFileSync(path.join(dir, 'CPU.20261126.102021.15435.1.002.cpuprofile'), JSON.stringify(profileOf([{ url: 'file:///r/dist/libs/ranking/bootstrap.js', functionName: 'g', ms: 10 }])));
      const r = profilesInDir(dir, SCORING_RULES, BOARD_RULES);
      expect(r.files).toBe(2);
      expect(r.main?.shares).toEqual({ 'metric kernels': 1 });
      expect(r.threads?.shares).toEqual({ 'ranking kernels': 1 });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('machineCpuSeconds', () => {
  it('reads every core time, idle and steal from /proc/stat’s first line', () => {
    const stat = 'cpu  4152106 740933 449882 1417271 14931 0 24146 16259 0 0\ncpu0 1 2 3 4 5 6 7 8 0 0\n';
    const t = machineCpuSeconds(stat);
    expect(t.total).toBeCloseTo((4152106 + 740933 + 449882 + 1417271 + 14931 + 0 + 24146 + 16259) / 100, 6);
    expect(t.idle).toBeCloseTo((1417271 + 14931) / 100, 6);
    expect(t.steal).toBeCloseTo(162.59, 6);
  });

  it('refuses what is not /proc/stat', () => {
    expect(() => machineCpuSeconds('intr 1 2 3')).toThrow(/not \/proc\/stat/);
    expect(() => machineCpuSeconds('cpu  1 2 x 4 5 6 7 8')).toThrow(/not \/proc\/stat/);
  });

  it('reads this machine’s', () => {
    const a = machineCpuSeconds();
    expect(a.total).toBeGreaterThan(0);
    expect(a.steal).toBeGreaterThanOrEqual(0);
    expect(a.idle).toBeLessThanOrEqual(a.total);
  });
});
