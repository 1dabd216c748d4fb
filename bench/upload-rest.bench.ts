/**
 * Uploads through the public REST upload (issue #28): `npm run bench:upload-rest -- [--systems S]
 * [--instances N] [--rounds R] [--against DIR] [--profile] [--quoted]`. An embedded PostgreSQL of its own,
 * one phase of N synthetic instances, the api from dist/ (built if stale); S output files (and a
 * team each) made first, then uploaded `POST /api/phases/:id/submissions`, two at a time, as
 * bench:platform does, R rounds (a new phase each). Per round: lines/s wall, the api's and
 * PostgreSQL's CPU-seconds (per line and per upload). `--against DIR`: a second api from
 * DIR/dist/apps/api/main.js (another checkout, built) on the same database, rounds alternating,
 * so both run at the same load. `--profile`: this checkout's api under --cpu-prof, its shares.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { createDb, IdentityRepository, Role, TaskKind, TaskRepository } from '@podium/db';
import { startOwnPostgres } from '../test/e2e/support/postgres';
import { freePort, repoRoot } from '../test/e2e/support/processes';
import { compiledApp } from '../test/support/compiled-app';
import { defined } from '../test/support/defined';
import { startApiFrom, type BenchApi } from './platform/bench-api';
import { formatShares, profilesInDir, SCORING_RULES, treeCpuSeconds } from './platform/cpu-profile';
import { syntheticTestSet, systemOutputs, systemQualities } from './platform/synthetic';

const TARGET_LINES_PER_SECOND = 200_000;
const say = (m: string) => process.stderr.write(`[bench:upload-rest] ${new Date().toISOString().slice(11, 19)} ${m}\n`);
const fmt = (x: number, d = 0) => x.toLocaleString('en-US', { minimumFractionDigits: d, maximumFractionDigits: d });

type Api = BenchApi;

interface Round {
  seconds: number;
  lines: number;
  apiCpu: number;
  pgCpu: number;
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { systems: { type: 'string' }, instances: { type: 'string' }, rounds: { type: 'string' }, against: { type: 'string' }, profile: { type: 'boolean' }, quoted: { type: 'boolean' } }, strict: true });
  const systems = Number(values.systems ?? 40);
  const instances = Number(values.instances ?? 10_000);
  const rounds = Number(values.rounds ?? 2);
  for (const [k, v, max] of [['systems', systems, 1000], ['instances', instances, 1_000_000], ['rounds', rounds, 20]] as const) {
    if (!Number.isInteger(v) || v < 1 || v > max) throw new Error(`--${k} must be an integer from 1 to ${max}`);
  }
  const cleanup: (() => Promise<void>)[] = [];
  try {
    const pg = await startOwnPostgres(`bench-upload-rest-${process.pid}`, await freePort(), false);
    cleanup.unshift(() => pg.stop());
    const pgPid = defined(pg.child.pid, 'the PostgreSQL process id');
    execFileSync(path.join(repoRoot, 'node_modules/.bin/prisma'), ['migrate', 'deploy'], { cwd: repoRoot, env: { ...process.env, DATABASE_URL: pg.url }, stdio: 'ignore' });
    const db = createDb(pg.url, { maxConnections: 2 });
    cleanup.unshift(() => db.$disconnect());
    const identity = new IdentityRepository(db);
    const organiser = await identity.createUser('bench-organiser', Role.ORGANISER);
    const participant = await identity.createUser('bench-participant', Role.PARTICIPANT);
    const token = await identity.issueToken(participant.id, 'bench');
    const tasks = new TaskRepository(db);
    const task = await tasks.createTask({ slug: 'bench-upload-rest', title: 'bench:upload-rest', kind: TaskKind.MT, sourceLang: 'de', targetLang: 'en', createdById: organiser.id, metrics: [{ key: 'bleu', name: 'bleu', options: {} }] });
    const synthetic = syntheticTestSet(instances, 20261124);
    const quality = systemQualities(systems, 20261124);
    // `--quoted`: every other line with quotes and non-ASCII characters, as real outputs have (the
    // synthetic ones have neither, and take the parser's fast path line runs).
    const quote = (l: string, i: number) => (values.quoted && i % 2 === 1 ? l.replace(' ', ' „Grüße“ "zitat" — ') : l);
    const files = Array.from({ length: systems }, (_, s) => new Blob([systemOutputs(synthetic, defined(quality[s]), s, 20261124).map(quote).join('\n') + '\n']));
    const env = { DATABASE_URL: pg.url, PODIUM_RATE_LIMIT: '0', PODIUM_RATE_LIMIT_UPLOADS: '0', NODE_OPTIONS: '--max-old-space-size=640' };
    const apis: Api[] = [];
    if (values.against) {
      const dir = path.resolve(values.against);
      const other = await startApiFrom(`against (${dir})`, path.join(dir, 'dist/apps/api/main.js'), dir, env);
      apis.push(other);
      cleanup.unshift(async () => void other.child.kill('SIGTERM'));
    }
    const profileDir = values.profile ? mkdtempSync(path.join(tmpdir(), 'upload-rest-prof-')) : null;
    const here = await startApiFrom('this checkout', compiledApp('apps/api/src/main.ts'), repoRoot, env, profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`, '--cpu-prof-interval=1000', '-r', path.join(repoRoot, 'bench/platform/exit-on-signal.cjs')] : []);
    apis.push(here);
    cleanup.unshift(async () => void here.child.kill('SIGTERM'));
    const results = new Map<Api, Round[]>(apis.map((a) => [a, []]));
    for (let r = 0; r < rounds; r++) {
      for (const api of r % 2 === 0 ? apis : [...apis].reverse()) {
        const name = `p${r}-${apis.indexOf(api)}`;
        const phase = await tasks.createPhase({ taskId: task.id, name, opensAt: new Date('2020-01-01'), closesAt: new Date('2099-01-01'), dailyLimit: systems + 10, totalLimit: systems + 10, leaderboardBeforeClose: true });
        await tasks.uploadTestSet(phase.id, `${name}-ts`, synthetic.map((i) => ({ externalId: i.id, source: i.source, references: [i.reference] })));
        const teams: string[] = [];
        for (let s = 0; s < systems; s++) teams.push((await identity.createTeam(`${name}-team-${s}`, ['bench-participant'])).id);
        // One upload first, not timed: the api reads (and caches) the test set's ids on its first.
        const upload = async (s: number, systemName: string) => {
          const form = new FormData();
          form.set('teamId', defined(teams[s]));
          form.set('systemName', systemName);
          form.set('format', 'text');
          form.set('file', defined(files[s]), `sys-${s}.txt`);
          const res = await fetch(`${api.baseUrl}/api/phases/${phase.id}/submissions`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form });
          if (res.status !== 201) throw new Error(`upload ${systemName} answered ${res.status}: ${(await res.text()).slice(0, 300)}`);
          await res.arrayBuffer();
        };
        await upload(0, 'warm-up');
        let next = 1;
        const uploader = async () => {
          for (let s = next++; s < systems; s = next++) await upload(s, `sys-${s}`);
        };
        const pid = defined(api.child.pid);
        const a0 = treeCpuSeconds(pid);
        const p0 = treeCpuSeconds(pgPid);
        const t0 = process.hrtime.bigint();
        await Promise.all([uploader(), uploader()]);
        const round = { seconds: Number(process.hrtime.bigint() - t0) / 1e9, lines: (systems - 1) * instances, apiCpu: treeCpuSeconds(pid) - a0, pgCpu: treeCpuSeconds(pgPid) - p0 };
        say(`${api.name}: ${systems - 1} uploads × ${fmt(instances)} lines in ${fmt(round.seconds, 2)} s: ${fmt(round.lines / round.seconds)} lines/s; api ${fmt(round.apiCpu, 2)} CPU-s (${fmt((round.apiCpu / (systems - 1)) * 1000, 1)} ms per upload), PostgreSQL ${fmt(round.pgCpu, 2)} CPU-s`);
        results.get(api)?.push(round);
      }
    }
    const out = [`bench:upload-rest — ${systems - 1} uploads of ${fmt(instances)} lines, 2 at a time, per round; ${cpus().length} cores, load ${loadavg()[0]?.toFixed(1)}; best of ${rounds} rounds`];
    for (const [api, rs] of results) {
      const best = rs.reduce((a, b) => (b.seconds < a.seconds ? b : a));
      const cpu = rs.reduce((a, b) => a + b.apiCpu, 0);
      const pgCpu = rs.reduce((a, b) => a + b.pgCpu, 0);
      const lines = rs.reduce((a, b) => a + b.lines, 0);
      out.push(
        `${api.name.padEnd(40)} ${fmt(best.lines / best.seconds)} lines/s wall (target ≥ ${fmt(TARGET_LINES_PER_SECOND)})  all rounds: ${fmt(lines / cpu)} lines per api CPU-s (${fmt((cpu / (rs.length * (systems - 1))) * 1000, 1)} ms per upload), PostgreSQL ${fmt((pgCpu / lines) * 1e6, 2)} CPU-µs per line`,
      );
    }
    if (profileDir) {
      await new Promise<void>((resolve) => {
        here.child.once('exit', () => resolve());
        here.child.kill('SIGUSR2');
      });
      const { main: shares } = profilesInDir(profileDir, SCORING_RULES, SCORING_RULES);
      if (shares) out.push(`this checkout's api, the whole run (start-up included): ${formatShares(shares)}`, ...shares.top.slice(0, 25).map((t) => `  ${fmt(t.ms).padStart(7)} ms  ${t.frame}`));
      out.push(`profiles: ${profileDir}`);
    }
    process.stdout.write(out.join('\n') + '\n');
  } finally {
    for (const c of cleanup) await c().catch((e: unknown) => say(`cleanup: ${String(e)}`));
  }
}

main().catch((e: unknown) => {
  process.stderr.write(`${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
  process.exit(1);
});
