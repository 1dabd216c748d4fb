/**
 * Storing a phase's default views: `npm run bench:board-store -- [--systems 100] [--rounds 3]`
 * (issue #28). On an embedded PostgreSQL of its own, the eight default views of a phase with
 * three metrics (BLEU twice per entries, chrF and TER once: three distinct boards of S systems,
 * synthetic, bench/platform/synthetic-board.ts) stored one view per call, as the worker stores
 * them, through Prisma (LeaderboardRepository without a pool, as before) and through a pg pool
 * (the worker's now), alternating, `--rounds` times each. Printed per round: wall seconds, CPU of
 * this process (the worker's event loop in production) and of PostgreSQL; then the medians and the
 * ratios Prisma ÷ pool.
 */
import { cpus, loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { LeaderboardRepository } from '@podium/db';
import { asServed, encodeLeaderboard } from '@podium/leaderboard';
import { Pool } from 'pg';
import { boardPhase } from './platform/board-phase';
import { treeCpuSeconds } from './platform/cpu-profile';
import { numberFlag } from './platform/flags';
import { syntheticBoard } from './platform/synthetic-board';

const say = (m: string) => process.stderr.write(`[bench:board-store] ${m}\n`);
/** The analysis of each default view: '' and bleu are one, for primary and all entries. */
const VIEW_ANALYSIS = [0, 0, 1, 2, 0, 0, 1, 2];

interface Round {
  seconds: number;
  processCpu: number;
  postgresCpu: number;
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? (s[m] ?? NaN) : ((s[m - 1] ?? NaN) + (s[m] ?? NaN)) / 2;
};

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { systems: { type: 'string' }, rounds: { type: 'string' } }, strict: true });
  const systems = numberFlag('systems', values.systems, 100, 2, 1000, true);
  const rounds = numberFlag('rounds', values.rounds, 3, 1, 50, true);
  const cleanup: (() => Promise<void>)[] = [];
  try {
    const { db, phaseId, pgPid, pgUrl } = await boardPhase('board-store', 'stored', cleanup);
    const pool = new Pool({ connectionString: pgUrl, max: 2 });
    cleanup.unshift(() => pool.end());
    const docs = [1, 2, 3].map((k) => encodeLeaderboard(asServed({ ...syntheticBoard(systems, 20261127 + k), phaseId }, 'stamp', new Date())));
    say(`${systems} systems: three boards of ${(Buffer.byteLength(docs[0]?.body ?? '') / 1048576).toFixed(1)} MiB of JSON; ${cpus().length} cores, load ${loadavg()[0]?.toFixed(1)}`);
    const results: Record<'prisma' | 'pool', Round[]> = { prisma: [], pool: [] };
    for (let r = 0; r < 2 * rounds; r++) {
      const way = r % 2 === 0 ? 'prisma' : 'pool';
      const boards = way === 'prisma' ? new LeaderboardRepository(db) : new LeaderboardRepository(db, pool);
      const stamp = `stamp-${r}`;
      const t = performance.now();
      const cpu0 = process.cpuUsage();
      const pg0 = treeCpuSeconds(pgPid);
      for (const [v, a] of VIEW_ANALYSIS.entries()) {
        const d = docs[a];
        if (!d) throw new Error(`no board ${a}`);
        await boards.store(phaseId, stamp, [{ viewKey: `view-${v}`, body: d.body, gzip: d.gzip, brotli: d.brotli, etag: d.etag, computedAt: new Date(), durationMs: 1 }]);
      }
      const c = process.cpuUsage(cpu0);
      const round = { seconds: (performance.now() - t) / 1000, processCpu: (c.user + c.system) / 1e6, postgresCpu: treeCpuSeconds(pgPid) - pg0 };
      results[way].push(round);
      say(`round ${Math.floor(r / 2) + 1} ${way.padEnd(6)} ${round.seconds.toFixed(2)} s, this process ${round.processCpu.toFixed(2)} CPU-s, PostgreSQL ${round.postgresCpu.toFixed(2)} CPU-s`);
    }
    const m = (way: 'prisma' | 'pool', k: keyof Round) => median(results[way].map((x) => x[k]));
    const line = (k: keyof Round, label: string) => `  ${label.padEnd(22)} Prisma ${m('prisma', k).toFixed(2)}   pool ${m('pool', k).toFixed(2)}   ratio ${(m('prisma', k) / m('pool', k)).toFixed(1)}×`;
    process.stdout.write(
      [
        `board-store: eight default views (three boards) of ${systems} systems stored one view per call, medians of ${rounds} rounds`,
        line('seconds', 'wall s'),
        line('processCpu', 'storing process CPU-s'),
        line('postgresCpu', 'PostgreSQL CPU-s'),
      ].join('\n') + '\n',
    );
  } finally {
    for (const c of cleanup) await c().catch(() => undefined);
  }
}

main().catch((e: unknown) => {
  process.stderr.write(`${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
  process.exitCode = 1;
});
