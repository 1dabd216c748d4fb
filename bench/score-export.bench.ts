/**
 * A phase's scores.csv end to end (issue #28): `npm run bench:score-export -- [--systems S]
 * [--instances N] [--rounds R] [--against DIR]`. An embedded PostgreSQL of its own with one phase
 * of S scored submissions × N instances × 3 metrics (stored columns written directly, no
 * workers), the api from dist/ (built if stale), and R exports of `GET /api/phases/:id/scores.csv`,
 * each timed with the CPU-seconds the api and PostgreSQL spent on it and the api's peak RSS.
 * `--against DIR`: a second api from DIR/dist/apps/api/main.js (another checkout, built) on the
 * same database, its exports alternating with this one's, so both run at the same load; both must
 * send the same bytes. Rows/s and 3 × 10⁷ rows at that rate are printed per api. `--profile`: this
 * checkout's api under --cpu-prof, its shares printed. `GCTRACE=1`: the apis' --trace-gc on stdout.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { cpus, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { Client } from 'pg';
import { IdentityRepository, Role, SubmissionRepository, TaskKind, TaskRepository } from '@podium/db';
import { repoRoot } from '../test/e2e/support/processes';
import { compiledApp } from '../test/support/compiled-app';
import { startApiFrom, type BenchApi } from './platform/bench-api';
import { benchDatabase } from './platform/bench-db';
import { numberFlag } from './platform/flags';
import { formatShares, profilesInDir, treeCpuSeconds, type ShareRule } from './platform/cpu-profile';

const USAGE = `usage: npm run bench:score-export -- [--systems S] [--instances N] [--rounds R] [--against DIR] [--profile]
  --systems S     scored submissions, 1..1000 (default 100)
  --instances N   instances per submission, 1..1000000 (default 10000)
  --rounds R      exports per api, 1..20 (default 2)
  --against DIR   a second api from DIR/dist/apps/api/main.js (another checkout, built), exports alternating
  --profile       this checkout's api under --cpu-prof, its shares printed
  GCTRACE=1       (environment) the apis' --trace-gc on stdout`;
const TARGET_ROWS = 30_000_000;
const METRICS = ['bleu', 'chrf', 'ter'];
const MiB = 1024 * 1024;
const TICKS = 100; // USER_HZ on Linux
/** Where an export's api time goes, first match wins. */
const EXPORT_RULES: readonly ShareRule[] = [
  { category: 'formatting rows', test: /csv-writer\.[jt]s|downloads\.controller|NumberToString|StringAdd|csvField/ },
  { category: 'making rows', test: /score\.repository\.[jt]s|downloads\.service|score-column\.[jt]s/ },
  { category: 'database', test: /node_modules\/(pg|pg-protocol|pg-pool|@prisma)\/|libs\/db\/(src\/)?generated|query_compiler|prisma/ },
  { category: 'sockets and http', test: /^ writev$|^ writeBuffer$|^ writeUtf8String$|node:net |node:_http|node:internal\/stream_base_commons|node:internal\/streams|express|node:internal\/http/ },
  { category: 'garbage collection', test: /\(garbage collector\)/ },
  { category: 'idle', test: /\(idle\)|\(program\)/ },
];

const say = (m: string) => process.stderr.write(`[bench:score-export] ${new Date().toISOString().slice(11, 19)} ${m}\n`);
const fmt = (x: number, d = 0) => x.toLocaleString('en-US', { minimumFractionDigits: d, maximumFractionDigits: d });

/** CPU-seconds (user + system) of a process; `system`: the kernel's part alone. */
function cpuOf(pid: number, part: 'all' | 'system' = 'all'): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((part === 'all' ? Number(f[11]) : 0) + Number(f[12])) / TICKS;
  } catch {
    return 0; // gone (a backend that ended): its time is lost to the sum
  }
}

function rssOf(pid: number): number {
  const m = /^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return Number(m?.[1] ?? NaN) * 1024;
}

type Api = BenchApi;

interface Run {
  seconds: number;
  rows: number;
  bytes: number;
  apiCpu: number;
  /** The kernel's part of apiCpu (the sockets, mostly). */
  apiSystemCpu: number;
  pgCpu: number;
  peakRssMiB: number;
  rssBeforeMiB: number;
  sha: string;
}

async function exportOnce(api: Api, phaseId: string, pgPid: number): Promise<Run> {
  const pid = api.child.pid ?? 0;
  // The server's whole process tree, ended backends included (their time is in their parent's cutime).
  const pg0 = treeCpuSeconds(pgPid);
  const api0 = cpuOf(pid);
  const sys0 = cpuOf(pid, 'system');
  const rssBefore = rssOf(pid);
  let peak = rssBefore;
  const timer = setInterval(() => (peak = Math.max(peak, rssOf(pid))), 20);
  const hash = createHash('sha256');
  let bytes = 0;
  let newlines = 0;
  const t0 = process.hrtime.bigint();
  const status = await new Promise<number>((resolve, reject) => {
    http
      .get(`${api.baseUrl}/api/phases/${phaseId}/scores.csv`, { agent: false }, (res) => {
        res.on('data', (c: Buffer) => {
          bytes += c.length;
          hash.update(c);
          for (let i = c.indexOf(10); i >= 0; i = c.indexOf(10, i + 1)) newlines++;
        });
        res.on('end', () => resolve(res.statusCode ?? 0));
        res.on('error', reject);
      })
      .on('error', reject);
  });
  const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
  clearInterval(timer);
  if (status !== 200) throw new Error(`the ${api.name} api answered ${status}`);
  const pg1 = treeCpuSeconds(pgPid);
  return { seconds, rows: newlines - 1, bytes, apiCpu: cpuOf(pid) - api0, apiSystemCpu: cpuOf(pid, 'system') - sys0, pgCpu: pg1 - pg0, peakRssMiB: peak / MiB, rssBeforeMiB: rssBefore / MiB, sha: hash.digest('hex') };
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return ((s[Math.floor((s.length - 1) / 2)] ?? NaN) + (s[Math.ceil((s.length - 1) / 2)] ?? NaN)) / 2;
};

async function main(): Promise<void> {
  let systems: number;
  let instances: number;
  let rounds: number;
  let values: { against?: string; profile?: boolean; help?: boolean; systems?: string; instances?: string; rounds?: string };
  try {
    ({ values } = parseArgs({ options: { systems: { type: 'string' }, instances: { type: 'string' }, rounds: { type: 'string' }, against: { type: 'string' }, profile: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } }, strict: true }));
    systems = numberFlag('systems', values.systems, 100, 1, 1000, true);
    instances = numberFlag('instances', values.instances, 10_000, 1, 1_000_000, true);
    rounds = numberFlag('rounds', values.rounds, 2, 1, 20, true);
  } catch (e) {
    process.stderr.write(`bench:score-export: ${(e as Error).message.split('\n', 1)[0] ?? String(e)}\n${USAGE}\n`);
    process.exit(2);
  }
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  const cleanup: (() => Promise<void>)[] = [];
  try {
    const { pgUrl, db, pgPid } = await benchDatabase('score-export', cleanup);
    const sql = new Client({ connectionString: pgUrl });
    await sql.connect();
    cleanup.unshift(() => sql.end());
    say(`seeding ${systems} submissions × ${fmt(instances)} instances × ${METRICS.length} metrics`);
    const identity = new IdentityRepository(db);
    const organiser = await identity.createUser('bench-organiser', Role.ORGANISER);
    const tasks = new TaskRepository(db);
    const task = await tasks.createTask({ slug: 'bench-score-export', title: 'bench:score-export', kind: TaskKind.MT, sourceLang: 'de', targetLang: 'en', createdById: organiser.id, metrics: METRICS.map((m) => ({ key: m, name: m, options: {} })) });
    const phase = await tasks.createPhase({ taskId: task.id, name: 'p', opensAt: new Date('2020-01-01'), closesAt: new Date('2099-01-01'), dailyLimit: 1, totalLimit: 1, leaderboardBeforeClose: true });
    await tasks.uploadTestSet(phase.id, 'ts', Array.from({ length: instances }, (_, i) => ({ externalId: `doc${i % 997}-seg${i}`, source: `s${i}`, references: [`r${i}`] })));
    const testSetId = (await tasks.phaseById(phase.id))?.testSetId;
    if (!testSetId) throw new Error('the phase has no test set');
    const ids = await tasks.instanceIdsOf(testSetId);
    const submissions = new SubmissionRepository(db);
    for (let s = 0; s < systems; s++) {
      const team = await identity.createTeam(`team-${s}`, []);
      const sub = await submissions.create(
        { phaseId: phase.id, teamId: team.id, submittedById: organiser.id, systemName: `sys-${s}`, description: '', checksum: `c${s}`, bypassLimits: true, outputs: ids.map((i) => ({ instanceId: i.id, text: 'x' })) },
        async () => undefined,
      );
      // Scores with as many digits as the metrics give (shortest round-trip text of a double).
      const cols = METRICS.map((metric, m) => ({ metric, signature: `${metric}|nrefs:1|version:2.4.2`, values: Array.from({ length: instances }, (_, i) => (((i * 7919 + s * 31 + m) % 10007) / 100.07) * (1 + s / 1000)) }));
      await submissions.saveScores(sub.id, cols, cols.map((c) => ({ metric: c.metric, signature: c.signature, value: 1 })));
      await sql.query(`UPDATE submission SET status = 'SCORED' WHERE id = $1`, [sub.id]);
    }
    await sql.query('VACUUM ANALYZE');
    const env = { DATABASE_URL: pgUrl, PODIUM_RATE_LIMIT: '0', NODE_OPTIONS: '--max-old-space-size=640' };
    const apis: Api[] = [];
    if (values.against) {
      const dir = path.resolve(values.against);
      apis.push(await startApiFrom(`against (${dir})`, path.join(dir, 'dist/apps/api/main.js'), dir, env));
      cleanup.unshift(async () => void apis[0]?.child.kill('SIGTERM'));
    }
    const profileDir = values.profile ? mkdtempSync(path.join(tmpdir(), 'score-export-prof-')) : null;
    const here = await startApiFrom('this checkout', compiledApp('apps/api/src/main.ts'), repoRoot, env, profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`, '--cpu-prof-interval=1000', '-r', path.join(repoRoot, 'bench/platform/exit-on-signal.cjs')] : []);
    apis.push(here);
    cleanup.unshift(async () => void here.child.kill('SIGTERM'));
    const runs = new Map<Api, Run[]>(apis.map((a) => [a, []]));
    for (let r = 0; r < rounds; r++) {
      for (const api of r % 2 === 0 ? apis : [...apis].reverse()) {
        const run = await exportOnce(api, phase.id, pgPid);
        say(`${api.name}: ${fmt(run.rows)} rows in ${fmt(run.seconds, 2)} s, api ${fmt(run.apiCpu, 2)} CPU-s (${fmt(run.apiSystemCpu, 2)} in the kernel), PostgreSQL ${fmt(run.pgCpu, 2)} CPU-s, RSS ${fmt(run.rssBeforeMiB)} → peak ${fmt(run.peakRssMiB)} MiB`);
        runs.get(api)?.push(run);
      }
    }
    const shas = new Set([...runs.values()].flat().map((r) => r.sha));
    if (shas.size !== 1) throw new Error(`the exports differ (${shas.size} different bodies)`);
    const out = [`bench:score-export — ${systems} × ${fmt(instances)} × ${METRICS.length} = ${fmt(systems * instances * METRICS.length)} rows, ${cpus().length} cores, load ${loadavg()[0]?.toFixed(1)}; best of ${rounds} rounds; identical bodies`];
    for (const [api, rs] of runs) {
      const best = rs.reduce((a, b) => (b.seconds < a.seconds ? b : a));
      const rate = best.rows / best.seconds;
      out.push(
        `${api.name.padEnd(40)} ${fmt(best.seconds, 2)} s (median ${fmt(median(rs.map((x) => x.seconds)), 2)} s, api median ${fmt(median(rs.map((x) => x.apiCpu)), 2)} CPU-s)  ${fmt(rate)} rows/s (3 × 10⁷ ≈ ${fmt(TARGET_ROWS / rate)} s)  api ${fmt(best.apiCpu, 2)} CPU-s (${fmt(best.apiSystemCpu, 2)} kernel; ${fmt(best.rows / best.apiCpu)} rows/CPU-s)  PostgreSQL ${fmt(best.pgCpu, 2)} CPU-s  peak RSS +${fmt(Math.max(...rs.map((x) => x.peakRssMiB - x.rssBeforeMiB)))} MiB  ${fmt(best.bytes / MiB, 1)} MiB`,
      );
    }
    if (profileDir) {
      await new Promise<void>((resolve) => {
        here.child.once('exit', () => resolve());
        here.child.kill('SIGUSR2');
      });
      const { main: shares } = profilesInDir(profileDir, EXPORT_RULES, EXPORT_RULES);
      if (shares) out.push(`this checkout's api, the whole run (start-up included): ${formatShares(shares)}`, ...shares.top.slice(0, 25).map((t) => `  ${fmt(t.ms).padStart(7)} ms  ${t.frame}`));
    }
    process.stdout.write(out.join('\n') + '\n');
    writeFileSync(path.join(repoRoot, 'bench-results', `score-export-${new Date().toISOString().replace(/[:.]/g, '-')}.json`), JSON.stringify({ systems, instances, rounds, runs: [...runs].map(([a, rs]) => ({ api: a.name, runs: rs })) }, null, 2));
  } finally {
    for (const c of cleanup) await c().catch((e: unknown) => say(`cleanup: ${String(e)}`));
  }
}

main().catch((e: unknown) => {
  process.stderr.write(`${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
  process.exit(1);
});
