/**
 * Scoring at the kernels' pace and uploads at disk speed (issue #28):
 * `npm run bench:scoring -- [--systems S] [--instances N] [--seed X]`.
 * On an embedded PostgreSQL of its own, in this one process:
 *  - uploads: S output files are written to a temporary folder first (generation is not timed);
 *    then each is stored as a submission, timed from opening the file to the commit, by the
 *    previous path (ADR 0028: UploadStream, COPY text rows into a table shaped like the former
 *    `output`, one row per line with its primary key and two foreign keys; recreated here as
 *    `bench_output_rows`) and the current one (createStreamed: one `submission_output` row per
 *    submission, COPY binary; ADR 0037), on two phases of the same test set, alternating, same
 *    run; lines/s wall, lines per api CPU-s, database CPU-µs per line and bytes stored per line
 *    of each; PASS at ≥ 200,000 lines/s (wall and per api CPU-s);
 *  - scoring: after one warm-up job of 2,000 instances that is not counted (`--cold`: none; V8
 *    compiles the kernels and the job's code once per process, as a worker does once in its life,
 *    on helper threads whose CPU the process's figure counts), each stored submission of the new phase scored by
 *    the worker's ScoringService
 *    (BLEU + chrF + TER: read outputs and references, the metrics, the columnar write), CPU
 *    seconds of this process per job; and the metric kernels alone (scoreWithFlatStats of each
 *    metric, what the worker calls: statistics, instance and corpus scores, nothing read or
 *    written) on the same sentences in the same run, after each job, so that both see the same
 *    load; instances per CPU-s of each and the ratio;
 *    PASS at ≥ 0.8;
 *  - profile shares (the V8 sampling profiler, as `node --cpu-prof`) of one job, one run of the
 *    kernels alone and one upload, each one more run not counted in the figures: metric kernels,
 *    tokenising, decoding, database, serialising.
 * The database server's CPU is its own process's and is not counted in either.
 * `--profile-out FILE` also writes the profiled job's V8 profile there (open it in Chrome's DevTools or speedscope).
 * `--uploads-only` skips the scoring part; `--texts-storage extended` stores the new rows with
 * PostgreSQL's default (pglz-compressed) storage instead of the migration's EXTERNAL, to compare.
 * Results: a table on stdout, JSON in bench-results/scoring-<date>.json (git-ignored).
 */
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { createReadStream, createWriteStream, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { pipeline } from 'node:stream/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import type PgBoss from 'pg-boss';
import { Pool } from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { createDb, IdentityRepository, Role, SubmissionRepository, TaskKind, TaskRepository } from '@podium/db';
import { scoreWithFlatStats } from '@podium/metrics';
import type { WorkerConfig } from '@podium/config';
import { UploadStream } from '../apps/api/src/submissions/upload-parser';
import { ScoringService } from '../apps/worker/src/scoring/scoring.service';
import { LeaseKeeper } from '../apps/worker/src/leases/lease-keeper';
import { startOwnPostgres } from '../test/e2e/support/postgres';
import { freePort, repoRoot } from '../test/e2e/support/processes';
import { defined } from '../test/support/defined';
import { formatShares, mainThreadCpuSeconds, profiled, profileShares, treeCpuSeconds } from './platform/cpu-profile';
import { syntheticTestSet, systemOutputs, systemQualities } from './platform/synthetic';

const METRICS = [
  { key: 'bleu', name: 'bleu', options: {} },
  { key: 'chrf', name: 'chrf', options: {} },
  { key: 'ter', name: 'ter', options: {} },
] as const;
const TARGET = { uploadLinesPerSecond: 200_000, kernelRatio: 0.8 };

const say = (m: string) => process.stderr.write(`[bench:scoring] ${new Date().toISOString().slice(11, 19)} ${m}\n`);
const fmt = (x: number, digits = 0) => (Number.isFinite(x) ? x.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits }) : 'n/a');
const verdict = (ok: boolean) => (ok ? 'PASS' : 'FAIL');
const cpuSeconds = (u: NodeJS.CpuUsage) => (u.user + u.system) / 1e6;

/** ADR 0028's COPY text escaping (backslash, tab, newline, carriage return), for the previous path. */
function copyText(text: string): string {
  return /[\\\t\n\r]/.test(text) ? text.replace(/[\\\t\n\r]/g, (c) => ({ '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r' })[c] ?? c) : text;
}

interface Flags {
  systems: number;
  instances: number;
  seed: number;
  uploadsOnly: boolean;
  textsStorage: 'external' | 'extended';
  profileOut: string | null;
  cold: boolean;
}

function flags(argv: string[]): Flags {
  const { values } = parseArgs({
    args: argv,
    options: { systems: { type: 'string' }, instances: { type: 'string' }, seed: { type: 'string' }, 'uploads-only': { type: 'boolean' }, 'texts-storage': { type: 'string' }, 'profile-out': { type: 'string' }, cold: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } },
    strict: true,
  });
  if (values.help) {
    process.stdout.write('usage: npm run bench:scoring -- [--systems S (2..100, default 6)] [--instances N (10..1000000, default 20000)] [--seed X] [--uploads-only] [--texts-storage external|extended (default external)] [--profile-out FILE.cpuprofile] [--cold]\n');
    process.exit(0);
  }
  const storage = values['texts-storage'] ?? 'external';
  if (storage !== 'external' && storage !== 'extended') throw new Error(`--texts-storage must be external or extended, got '${storage}'`);
  const int = (raw: string | undefined, fallback: number, min: number, max: number, name: string) => {
    const v = raw === undefined ? fallback : Number(raw.replace(/_/g, ''));
    if (!Number.isInteger(v) || v < min || v > max) throw new Error(`--${name} must be an integer from ${min} to ${max}, got '${raw}'`);
    return v;
  };
  return {
    systems: int(values.systems, 6, 2, 100, 'systems'), instances: int(values.instances, 20_000, 10, 1_000_000, 'instances'), seed: int(values.seed, 20261124, 0, 0x7fffffff, 'seed'),
    uploadsOnly: values['uploads-only'] ?? false, textsStorage: storage, profileOut: values['profile-out'] ?? null, cold: values.cold ?? false,
  };
}

async function main(): Promise<void> {
  const f = flags(process.argv.slice(2));
  const cleanup: (() => Promise<void>)[] = [];
  const dir = mkdtempSync(path.join(tmpdir(), 'podium-bench-scoring-'));
  cleanup.push(async () => rmSync(dir, { recursive: true, force: true }));
  try {
    say(`machine: ${cpus().length} × ${cpus()[0]?.model ?? '?'}, load ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
    const pg = await startOwnPostgres(`bench-scoring-${process.pid}`, await freePort(), false);
    cleanup.unshift(() => pg.stop());
    execFileSync(path.join(repoRoot, 'node_modules/.bin/prisma'), ['migrate', 'deploy'], { cwd: repoRoot, env: { ...process.env, DATABASE_URL: pg.url }, stdio: 'ignore' });
    const db = createDb(pg.url, { maxConnections: 4 });
    cleanup.unshift(() => db.$disconnect());
    const pool = new Pool({ connectionString: pg.url, max: 2 });
    cleanup.unshift(() => pool.end());
    const submissions = new SubmissionRepository(db, pool);
    const tasks = new TaskRepository(db);
    const identity = new IdentityRepository(db);
    const suffix = randomUUID().slice(0, 8);
    const organiser = await identity.createUser(`bench-org-${suffix}`, Role.ORGANISER);
    const team = await identity.createTeam(`bench-team-${suffix}`, []);
    const task = await tasks.createTask({ slug: `bench-${suffix}`, title: 'bench', kind: TaskKind.MT, sourceLang: 'de', targetLang: 'en', createdById: organiser.id, metrics: METRICS });
    const instances = syntheticTestSet(f.instances, f.seed);
    const phases: { id: string; dbIds: string[] }[] = [];
    for (const name of ['before', 'after']) {
      const phase = await tasks.createPhase({ taskId: task.id, name, opensAt: new Date('2020-01-01'), closesAt: new Date('2099-01-01'), dailyLimit: 1000, totalLimit: 1000, leaderboardBeforeClose: true });
      const ts = await tasks.uploadTestSet(phase.id, `${name}-ts`, instances.map((i) => ({ externalId: i.id, source: i.source, references: [i.reference] })));
      phases.push({ id: phase.id, dbIds: (await tasks.instanceIdsOf(ts.id)).map((r) => r.id) });
    }
    const [before, after] = [defined(phases[0]), defined(phases[1])];
    const externalIds = instances.map((i) => i.id);

    // Output files first: their generation is not part of any figure.
    const quality = systemQualities(f.systems, f.seed);
    const files: string[] = [];
    let bytes = 0;
    for (let s = 0; s < f.systems; s++) {
      const file = path.join(dir, `sys-${s}.txt`);
      const text = systemOutputs(instances, defined(quality[s]), s, f.seed).join('\n') + '\n';
      writeFileSync(file, text);
      bytes += Buffer.byteLength(text);
      files.push(file);
    }
    say(`${f.systems} files of ${fmt(f.instances)} lines written (${fmt(bytes / f.systems / 1024)} KiB each); uploading`);

    const base = { teamId: team.id, submittedById: organiser.id, description: '', bypassLimits: true };
    // The previous store (ADR 0028), as it was: one row per output with its primary key and two
    // foreign keys, COPYed in text format from a spool written while the file streamed.
    await pool.query(`CREATE TABLE bench_output_rows (
      submission_id uuid NOT NULL REFERENCES submission(id) ON DELETE CASCADE, instance_id uuid NOT NULL REFERENCES instance(id) ON DELETE CASCADE,
      text text NOT NULL, PRIMARY KEY (submission_id, instance_id))`);
    if (f.textsStorage === 'extended') await pool.query('ALTER TABLE submission_output ALTER COLUMN texts SET STORAGE EXTENDED');
    const oldUpload = async (s: number) => {
      const id = randomUUID();
      const spoolPath = path.join(dir, `spool-${id}.copy`);
      const out = createWriteStream(spoolPath, { flags: 'wx' });
      let pending = '';
      const parser = new UploadStream(externalIds, 'text', (p, t) => {
        pending += `${id}\t${defined(before.dbIds[p])}\t${copyText(t)}\n`;
      });
      for await (const chunk of createReadStream(defined(files[s]), { highWaterMark: 1 << 16 })) {
        parser.pushBytes(chunk as Buffer);
        if (pending !== '' && !out.write(pending)) await once(out, 'drain');
        pending = '';
      }
      const summary = parser.end();
      out.end(pending);
      await once(out, 'close');
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        await client.query(
          `INSERT INTO submission (id, phase_id, team_id, submitted_by_id, system_name, description, checksum, progress_total) VALUES ($1::uuid, $2::uuid, $3::uuid, $4::uuid, $5, '', $6, $7)`,
          [id, before.id, team.id, organiser.id, `sys-${s}`, summary.checksum, summary.count],
        );
        const copy = client.query(copyFrom('COPY bench_output_rows (submission_id, instance_id, text) FROM STDIN'));
        await pipeline(createReadStream(spoolPath, { highWaterMark: 1 << 20 }), copy);
        await client.query('COMMIT');
      } finally {
        client.release();
        rmSync(spoolPath, { force: true });
      }
      return id;
    };
    const newUpload = async (s: number, systemName = `sys-${s}`) => {
      const sub = await submissions.createStreamed({ ...base, phaseId: after.id, systemName, instanceIds: after.dbIds }, async (out) => {
        const parser = new UploadStream(externalIds, 'text', (p, t) => out.row(p, t));
        for await (const chunk of createReadStream(defined(files[s]), { highWaterMark: 1 << 16 })) {
          parser.pushBytes(chunk as Buffer);
          await out.flush();
        }
        return parser.end();
      }, async () => undefined);
      return sub.id;
    };
    const timing = { old: 0, new: 0, oldCpu: 0, newCpu: 0, oldDbCpu: 0, newDbCpu: 0 };
    const pgPid = defined(pg.child.pid, 'the PostgreSQL process id');
    const scoredIds: string[] = [];
    for (let s = 0; s < f.systems; s++) {
      let t0 = process.hrtime.bigint();
      let c0 = process.cpuUsage();
      let d0 = treeCpuSeconds(pgPid);
      await oldUpload(s);
      timing.old += Number(process.hrtime.bigint() - t0) / 1e9;
      timing.oldCpu += cpuSeconds(process.cpuUsage(c0));
      timing.oldDbCpu += treeCpuSeconds(pgPid) - d0;
      t0 = process.hrtime.bigint();
      c0 = process.cpuUsage();
      d0 = treeCpuSeconds(pgPid);
      scoredIds.push(await newUpload(s));
      timing.new += Number(process.hrtime.bigint() - t0) / 1e9;
      timing.newCpu += cpuSeconds(process.cpuUsage(c0));
      timing.newDbCpu += treeCpuSeconds(pgPid) - d0;
    }
    // The profile from one more upload of the first file, not counted in the figures (the profiler costs CPU).
    const uploadProfile = profileShares((await profiled(() => newUpload(0, 'sys-profiled'))).profile);
    const lines = f.systems * f.instances;
    const sizeOf = async (table: string) => Number((await pool.query<{ n: string }>(`SELECT pg_total_relation_size('${table}') AS n`)).rows[0]?.n ?? 0);
    // The profiled upload's row is left out of the bytes stored (as the previous path has none).
    await pool.query(`DELETE FROM submission WHERE system_name = 'sys-profiled'`);
    await pool.query('VACUUM submission_output');
    const stored = { old: await sizeOf('bench_output_rows'), new: await sizeOf('submission_output') };
    const upload = {
      oldBytesPerLine: stored.old / lines, newBytesPerLine: stored.new / lines,
      oldDbCpuMicrosecondsPerLine: (timing.oldDbCpu / lines) * 1e6, newDbCpuMicrosecondsPerLine: (timing.newDbCpu / lines) * 1e6, textsStorage: f.textsStorage,
      oldLinesPerSecond: lines / timing.old, newLinesPerSecond: lines / timing.new, oldSeconds: timing.old, newSeconds: timing.new,
      // Per CPU-second of this process (the api's part) and of it plus the database server: what
      // the machine's load does not change much.
      oldLinesPerApiCpuSecond: lines / timing.oldCpu, newLinesPerApiCpuSecond: lines / timing.newCpu,
      oldLinesPerCpuSecond: lines / (timing.oldCpu + timing.oldDbCpu), newLinesPerCpuSecond: lines / (timing.newCpu + timing.newDbCpu),
      apiCpuSeconds: { old: timing.oldCpu, new: timing.newCpu }, dbCpuSeconds: { old: timing.oldDbCpu, new: timing.newDbCpu },
    };

    const uploadLines = [
      `bench:scoring  ${f.systems} systems × ${fmt(f.instances)} instances (synthetic, seed ${f.seed}); ${cpus().length} CPUs, load ${loadavg().map((l) => l.toFixed(2)).join(' ')}`,
      '',
      `upload, previous (ADR 0028: a row per line, COPY text)   ${fmt(upload.oldLinesPerSecond)} lines/s  (${fmt(upload.oldSeconds, 1)} s; ${fmt(upload.oldLinesPerApiCpuSecond)} lines per api CPU-s; database ${fmt(upload.oldDbCpuMicrosecondsPerLine, 1)} CPU-µs per line; ${fmt(upload.oldBytesPerLine, 1)} bytes stored per line)`,
      `upload, now (ADR 0037: a row per submission, COPY binary) ${fmt(upload.newLinesPerSecond)} lines/s  (${fmt(upload.newSeconds, 1)} s; ${fmt(upload.newLinesPerApiCpuSecond)} lines per api CPU-s; database ${fmt(upload.newDbCpuMicrosecondsPerLine, 1)} CPU-µs per line; ${fmt(upload.newBytesPerLine, 1)} bytes stored per line, texts storage ${f.textsStorage})`,
      `  ×${fmt(upload.newLinesPerSecond / upload.oldLinesPerSecond, 2)} wall, ×${fmt(upload.newLinesPerApiCpuSecond / upload.oldLinesPerApiCpuSecond, 2)} per api CPU-s;  target ≥ ${fmt(TARGET.uploadLinesPerSecond)} lines/s: wall ${verdict(upload.newLinesPerSecond >= TARGET.uploadLinesPerSecond)}, per api CPU-s ${verdict(upload.newLinesPerApiCpuSecond >= TARGET.uploadLinesPerSecond)}`,
      `  profile of one upload now: ${formatShares(uploadProfile)}`,
      ...uploadProfile.top.slice(0, 8).map((t) => `    ${fmt(t.ms)} ms  ${t.frame}`),
    ];
    if (f.uploadsOnly) {
      process.stdout.write(uploadLines.join('\n') + '\n');
      writeResults({ flags: f, machine: { cpus: cpus().length, model: cpus()[0]?.model, load: loadavg() }, upload, uploadProfile, targets: TARGET });
      return;
    }

    // Scoring: the worker's service in this process, one job after another.
    say('scoring');
    const boss = {} as PgBoss;
    const service = new ScoringService(submissions, null, new LeaseKeeper(submissions, boss, { PODIUM_WORKER_NAME: `bench-${suffix}` } as WorkerConfig));
    if (!f.cold) {
      // One job before the measured ones, not counted: V8 compiles the kernels and the job's
      // code once per process (on helper threads whose CPU the process's figure counts), as a
      // worker does once in its life. It scores the first 2,000 sentences of system 0 as a test
      // set of their own in a third phase, so the first measured job still reads its references.
      const warmInstances = instances.slice(0, Math.min(f.instances, 2_000));
      const warmPhase = await tasks.createPhase({ taskId: task.id, name: 'warm-up', opensAt: new Date('2020-01-01'), closesAt: new Date('2099-01-01'), dailyLimit: 1000, totalLimit: 1000, leaderboardBeforeClose: true });
      const warmSet = await tasks.uploadTestSet(warmPhase.id, 'warm-up-ts', warmInstances.map((i) => ({ externalId: i.id, source: i.source, references: [i.reference] })));
      const warmIds = (await tasks.instanceIdsOf(warmSet.id)).map((r) => r.id);
      const warmTexts = systemOutputs(warmInstances, defined(quality[0]), 0, f.seed);
      const warmSub = await submissions.createStreamed({ ...base, phaseId: warmPhase.id, systemName: 'sys-warm-up', instanceIds: warmIds }, async (out) => {
        warmTexts.forEach((t, p) => out.row(p, t));
        await out.flush();
        return { checksum: 'warm-up', count: warmTexts.length };
      }, async () => undefined);
      const warm = await service.score(warmSub.id);
      if (warm.kind !== 'scored') throw new Error(`warm-up job: ${JSON.stringify(warm)}`);
    }
    // Each job, then the kernels alone on the same sentences (that system's outputs, the same
    // references): alternating, so that both see the same load on a shared machine.
    const refs = [instances.map((i) => i.reference)];
    let jobCpu = 0;
    const eachJobCpu: number[] = [];
    let jobMainCpu = 0;
    let jobWall = 0;
    let kernelCpu = 0;
    const eachKernelCpu: number[] = [];
    let kernelMainCpu = 0;
    for (const [s, id] of scoredIds.entries()) {
      let c0 = process.cpuUsage();
      let m0 = mainThreadCpuSeconds();
      const t0 = process.hrtime.bigint();
      const outcome = await service.score(id);
      if (outcome.kind !== 'scored') throw new Error(`job ${id}: ${JSON.stringify(outcome)}`);
      jobWall += Number(process.hrtime.bigint() - t0) / 1e9;
      eachJobCpu.push(cpuSeconds(process.cpuUsage(c0)));
      jobMainCpu += mainThreadCpuSeconds() - m0;
      jobCpu += eachJobCpu.at(-1) ?? 0;
      const hyps = readFileSync(defined(files[s]), 'utf8').replace(/\n$/, '').split('\n');
      c0 = process.cpuUsage();
      m0 = mainThreadCpuSeconds();
      for (const m of METRICS) scoreWithFlatStats(m.name, {}, hyps, refs);
      eachKernelCpu.push(cpuSeconds(process.cpuUsage(c0)));
      kernelMainCpu += mainThreadCpuSeconds() - m0;
      kernelCpu += eachKernelCpu.at(-1) ?? 0;
    }
    // The profiles from one more job (the first file uploaded again) and one more run of the
    // kernels on its sentences, not counted in the figures: the profiler costs CPU, stopping it
    // most (it serialises the profile).
    say('profiles');
    const run = await profiled(() => newUpload(0, 'sys-profiled-job').then((id) => service.score(id)));
    if (run.value.kind !== 'scored') throw new Error(`profiled job: ${JSON.stringify(run.value)}`);
    const jobProfile = profileShares(run.profile);
    if (f.profileOut) writeFileSync(f.profileOut, JSON.stringify(run.profile));
    const firstHyps = readFileSync(defined(files[0]), 'utf8').replace(/\n$/, '').split('\n');
    const kernelProfile = profileShares((await profiled(async () => METRICS.forEach((m) => scoreWithFlatStats(m.name, {}, firstHyps, refs)))).profile);
    const scored = f.systems * f.instances;
    const scoring = { jobInstancesPerCpuSecond: scored / jobCpu, kernelInstancesPerCpuSecond: scored / kernelCpu, ratio: kernelCpu / jobCpu, jobCpuSeconds: jobCpu, jobWallSeconds: jobWall, kernelCpuSeconds: kernelCpu, eachJobCpuSeconds: eachJobCpu, eachKernelCpuSeconds: eachKernelCpu, jobMainThreadCpuSeconds: jobMainCpu, kernelMainThreadCpuSeconds: kernelMainCpu };

    const out = [
      ...uploadLines,
      '',
      `scoring job (read, BLEU + chrF + TER, write)${f.cold ? ', cold' : ', warm'}  ${fmt(scoring.jobInstancesPerCpuSecond)} instances/CPU-s  (${fmt(jobCpu, 1)} CPU-s, ${fmt(jobWall, 1)} s; each job ${eachJobCpu.map((c) => fmt(c, 2)).join(', ')} CPU-s)`,
      `metric kernels alone, same sentences          ${fmt(scoring.kernelInstancesPerCpuSecond)} instances/CPU-s  (${fmt(kernelCpu, 1)} CPU-s; each system ${eachKernelCpu.map((c) => fmt(c, 2)).join(', ')} CPU-s)`,
      `ratio job ÷ kernels                           ${fmt(scoring.ratio, 2)}   target ≥ ${TARGET.kernelRatio}  ${verdict(scoring.ratio >= TARGET.kernelRatio)}`,
      `  main thread alone (V8's helper threads left out): job ${fmt(jobMainCpu, 1)} CPU-s, kernels ${fmt(kernelMainCpu, 1)} CPU-s, ratio ${fmt(kernelMainCpu / jobMainCpu, 2)}`,
      `  profile of one job: ${formatShares(jobProfile)}`,
      `  profile of the kernels alone: ${formatShares(kernelProfile)}`,
      ...jobProfile.top.slice(0, 12).map((t) => `    ${fmt(t.ms)} ms  ${t.frame}`),
    ];
    process.stdout.write(out.join('\n') + '\n');
    writeResults({ flags: f, machine: { cpus: cpus().length, model: cpus()[0]?.model, load: loadavg() }, upload, scoring, uploadProfile, jobProfile, kernelProfile, targets: TARGET });
  } finally {
    for (const c of cleanup) await c().catch((e: unknown) => say(`cleanup: ${String(e)}`));
  }
}

function writeResults(results: object): void {
  mkdirSync(path.join(repoRoot, 'bench-results'), { recursive: true });
  const file = path.join(repoRoot, 'bench-results', `scoring-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
  writeFileSync(file, JSON.stringify(results, null, 2));
  say(`results in ${path.relative(repoRoot, file)}`);
}

main().catch((e: unknown) => {
  process.stderr.write(`${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
  process.exit(1);
});
