/**
 * Score storage benchmark: `npm run bench:score-writes` (issue #11, items 1, 2 and 4). On an
 * embedded PostgreSQL of its own (migrated), S systems × N instances scored with BLEU, chrF and
 * TER on synthetic MT-like texts (seeded), each measured against the row layout it replaced, in
 * the same run:
 *  1. writes: `saveScores` (one column per metric with its statistics, one INSERT each, inside
 *     the lease/settle transaction) vs the old row layout — a scratch table with instance_score's
 *     columns, keys, index and foreign keys, written as Prisma createMany wrote it (multi-row
 *     INSERTs of 5,000 rows in one transaction per submission). Values/s and the ratio new/old;
 *  2. size: pg_total_relation_size (heap + TOAST + indexes) per score value, both layouts; the
 *     columns' value payload and statistics payload on their own;
 *  3. export of the phase as CSV: the pre-change keyset query (pages over the joined position)
 *     on the scratch table vs `ScoreRepository.longRows`, each in a child process of its own:
 *     seconds and peak RSS, and whether both wrote the same bytes (sha256).
 * Targets: ≥ 50,000 values/s written; ≤ 16 bytes per value all-in.
 * Options (env): BENCH_SYSTEMS (20), BENCH_INSTANCES (5000).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import path from 'node:path';
import { cpus, loadavg } from 'node:os';
import { createDb, IdentityRepository, Role, ScoreRepository, SubmissionRepository, TaskKind, TaskRepository, type Db } from '@podium/db';
import { getMetric, type MetricName } from '@podium/metrics';
import { mulberry32 } from '@podium/ranking';
import { exportHeader, exportLine } from '../apps/api/src/downloads/csv-writer';
import { startOwnPostgres } from '../test/e2e/support/postgres';
import { freePort, repoRoot } from '../test/e2e/support/processes';
import { defined } from '../test/support/defined';

const SYSTEMS = Number(process.env['BENCH_SYSTEMS'] ?? 20);
const INSTANCES = Number(process.env['BENCH_INSTANCES'] ?? 5000);
const METRICS: MetricName[] = ['bleu', 'chrf', 'ter'];
const OLD_CHUNK = 5000;

const say = (m: string) => process.stderr.write(`[bench:score-writes] ${m}\n`);
const seconds = (ms: number) => (ms / 1000).toFixed(2);

/** Sentences from a Zipf-like vocabulary; hypotheses are references with substitutions, drops and insertions. */
function syntheticTexts(systems: number, n: number, seed: number): { refs: string[]; hyps: string[][] } {
  const rng = mulberry32(seed);
  const vocab = Array.from({ length: 4000 }, (_, k) => `w${k.toString(36)}`);
  const word = () => defined(vocab[Math.min(vocab.length - 1, Math.floor(Math.exp(rng.next() * Math.log(vocab.length))) - 1)], 'a vocabulary word');
  const refs = Array.from({ length: n }, () => Array.from({ length: 8 + Math.floor(rng.next() * 30) }, word).join(' ') + ' .');
  const hyps = Array.from({ length: systems }, (_, s) => {
    const noise = 0.1 + (0.4 * s) / Math.max(1, systems - 1);
    return refs.map((r) =>
      r
        .split(' ')
        .flatMap((t) => (rng.next() < noise / 3 ? [] : rng.next() < noise / 3 ? [word()] : rng.next() < noise / 3 ? [t, word()] : [t]))
        .join(' '),
    );
  });
  return { refs, hyps };
}

/** The pre-change export query (commit 4bb9499, ScoreRepository.longRows) over the scratch table. */
async function* preChangeLongRows(db: Db, ids: string[], pageSize = 5000) {
  let after: { sub: string; metric: string; pos: number } | null = null;
  for (;;) {
    const rows: { submission_id: string; system_name: string; team_name: string; external_id: string; position: number; metric: string; signature: string; value: number }[] =
      await db.$queryRawUnsafe(
        `SELECT sc.submission_id::text, s.system_name, t.name AS team_name, i.external_id, i.position, sc.metric, sc.signature, sc.value
         FROM bench_instance_score sc JOIN instance i ON i.id = sc.instance_id JOIN submission s ON s.id = sc.submission_id JOIN team t ON t.id = s.team_id
         WHERE sc.submission_id = ANY($1::uuid[]) ${after ? 'AND (sc.submission_id, sc.metric, i.position) > ($2::uuid, $3, $4)' : ''}
         ORDER BY sc.submission_id, sc.metric, i.position LIMIT ${pageSize}`,
        ...(after ? [ids, after.sub, after.metric, after.pos] : [ids]),
      );
    const last = rows.at(-1);
    if (last === undefined) return;
    yield rows.map((r) => ({ systemName: r.system_name, teamName: r.team_name, instanceId: r.external_id, metric: r.metric, signature: r.signature, score: r.value }));
    after = { sub: last.submission_id, metric: last.metric, pos: last.position };
    if (rows.length < pageSize) return;
  }
}

/** Child process: one export, CSV bytes hashed and counted, then time and peak RSS as JSON. */
async function exportChild(which: 'old' | 'new', url: string, ids: string[]): Promise<void> {
  const db = createDb(url, { maxConnections: 2 });
  await db.$queryRaw`SELECT 1`;
  const rssBefore = process.memoryUsage().rss;
  const started = performance.now();
  const hash = createHash('sha256');
  // The old write path rounded scores to 16 significant digits (Prisma's float parameters);
  // a second hash compares the text with every score so rounded.
  const rounded = createHash('sha256');
  let bytes = 0;
  let rows = 0;
  let roundingMs = 0;
  const put = (s: string) => {
    hash.update(s);
    bytes += Buffer.byteLength(s);
  };
  put(exportHeader('csv'));
  rounded.update(exportHeader('csv'));
  const pages = which === 'old' ? preChangeLongRows(db, ids) : new ScoreRepository(db).longRows(ids);
  for await (const page of pages) {
    let chunk = '';
    for (const r of page) chunk += exportLine('csv', { system: r.systemName, team: r.teamName, instance_id: r.instanceId, metric: r.metric, signature: r.signature, score: r.score });
    put(chunk);
    const r0 = performance.now();
    for (const r of page) rounded.update(exportLine('csv', { system: r.systemName, team: r.teamName, instance_id: r.instanceId, metric: r.metric, signature: r.signature, score: Number(r.score.toPrecision(16)) }));
    roundingMs += performance.now() - r0;
    rows += page.length;
  }
  const ms = performance.now() - started - roundingMs;
  await db.$disconnect();
  process.stdout.write(JSON.stringify({ ms, rows, bytes, sha256: hash.digest('hex'), sha256Rounded: rounded.digest('hex'), peakRssMb: process.resourceUsage().maxRSS / 1024, startRssMb: rssBefore / 2 ** 20 }) + '\n');
}

function runExport(which: 'old' | 'new', url: string, ids: string[]) {
  const r = spawnSync(process.execPath, ['-r', '@swc-node/register', __filename, '--export', which, url, JSON.stringify(ids)], { cwd: repoRoot, encoding: 'utf8', maxBuffer: 1 << 20 });
  if (r.status !== 0) throw new Error(`export ${which} failed: ${r.stderr}`);
  const last = r.stdout.trim().split('\n').at(-1);
  if (last === undefined) throw new Error(`export ${which} printed nothing`);
  return JSON.parse(last) as { ms: number; rows: number; bytes: number; sha256: string; sha256Rounded: string; peakRssMb: number; startRssMb: number };
}

async function main(): Promise<void> {
  const [load1 = Number.NaN] = loadavg();
  say(`${cpus().length} cores, load ${load1.toFixed(1)}; ${SYSTEMS} systems × ${INSTANCES} instances × ${METRICS.join(', ')}`);
  const pg = await startOwnPostgres(`bench-scores-${process.pid}`, await freePort(), false);
  const cleanup: (() => Promise<void>)[] = [() => pg.stop()];
  try {
    execFileSync(path.join(repoRoot, 'node_modules/.bin/prisma'), ['migrate', 'deploy'], { cwd: repoRoot, env: { ...process.env, DATABASE_URL: pg.url }, stdio: 'ignore' });
    const db = createDb(pg.url, { maxConnections: 4 });
    cleanup.unshift(() => db.$disconnect());

    // A task, a phase and a test set; one submission (with outputs) per system.
    const identity = new IdentityRepository(db);
    const tasks = new TaskRepository(db);
    const submissions = new SubmissionRepository(db);
    const organiser = await identity.createUser('bench-organiser', Role.ORGANISER);
    const team = await identity.createTeam('bench-team', []);
    const task = await tasks.createTask({ slug: 'bench', title: 'bench', kind: TaskKind.MT, sourceLang: 'de', targetLang: 'en', metrics: METRICS.map((m) => ({ key: m, name: m })), createdById: organiser.id });
    const phase = await tasks.createPhase({ taskId: task.id, name: 'test', opensAt: new Date('2020-01-01'), closesAt: new Date('2099-01-01'), dailyLimit: 1000, totalLimit: 1000, leaderboardBeforeClose: true });
    const { refs, hyps } = syntheticTexts(SYSTEMS, INSTANCES, 11);
    await tasks.uploadTestSet(phase.id, 'bench', refs.map((r, i) => ({ externalId: `seg-${i + 1}`, source: `src ${i}`, references: [r] })));
    const testSetId = (await tasks.phaseById(phase.id))?.testSetId;
    if (!testSetId) throw new Error('the bench phase has no test set');
    const instances = await tasks.instanceIdsOf(testSetId);
    const ids: string[] = [];
    for (const [s, h] of hyps.entries()) {
      const sub = await submissions.create(
        { phaseId: phase.id, teamId: team.id, submittedById: organiser.id, systemName: `sys${s}`, description: '', checksum: `c${s}`, bypassLimits: true, outputs: instances.map((inst, i) => ({ instanceId: inst.id, text: defined(h[i], `output ${i} of sys${s}`) })) },
        async () => undefined,
      );
      ids.push(sub.id);
    }

    // Scores and statistics, computed before any timing.
    let t = performance.now();
    const scored = hyps.map((h) =>
      METRICS.map((name) => {
        const m = getMetric(name, {}, 1);
        const stats = h.map((hyp, i) => m.stats(hyp, [defined(refs[i], `reference ${i}`)]));
        return { metric: name, signature: m.sentenceSignature, corpusSignature: m.signature, values: stats.map((r) => m.sentenceFromStats(r)), stats, corpus: m.corpusFromStats(stats) };
      }),
    );
    const values = SYSTEMS * INSTANCES * METRICS.length;
    say(`scored ${values} values in ${seconds(performance.now() - t)} s`);

    // 1a. The old row layout: instance_score's shape as a scratch table, written as createMany did.
    await db.$executeRawUnsafe(`CREATE TABLE bench_instance_score (
      submission_id uuid NOT NULL REFERENCES submission(id) ON DELETE CASCADE, instance_id uuid NOT NULL REFERENCES instance(id) ON DELETE CASCADE,
      metric text NOT NULL, signature text NOT NULL, value double precision NOT NULL, PRIMARY KEY (submission_id, metric, instance_id))`);
    await db.$executeRawUnsafe(`CREATE INDEX bench_instance_score_metric_instance_id_idx ON bench_instance_score (metric, instance_id)`);
    t = performance.now();
    for (const [s, id] of ids.entries()) {
      const rows = defined(scored[s], `scores of sys${s}`).flatMap((c) => c.values.map((value, i) => [id, defined(instances[i], `instance ${i}`).id, c.metric, c.signature, value] as const));
      await db.$transaction(async (tx) => {
        await tx.$executeRawUnsafe(`DELETE FROM bench_instance_score WHERE submission_id = $1::uuid`, id);
        for (let at = 0; at < rows.length; at += OLD_CHUNK) {
          const chunk = rows.slice(at, at + OLD_CHUNK);
          await tx.$executeRawUnsafe(
            `INSERT INTO bench_instance_score (submission_id, instance_id, metric, signature, value) VALUES ${chunk.map((_, k) => `($${5 * k + 1}::uuid, $${5 * k + 2}::uuid, $${5 * k + 3}, $${5 * k + 4}, $${5 * k + 5})`).join(', ')}`,
            ...chunk.flat(),
          );
        }
      }, { timeout: 600_000 });
    }
    const oldMs = performance.now() - t;

    // 1b. Columns through saveScores (settles each submission under the same transaction).
    t = performance.now();
    for (const [s, id] of ids.entries()) {
      const columns = defined(scored[s], `scores of sys${s}`);
      await submissions.saveScores(
        id,
        columns.map((c) => ({ metric: c.metric, signature: c.signature, values: c.values, stats: c.stats })),
        columns.map((c) => ({ metric: c.metric, signature: c.corpusSignature, value: c.corpus })),
      );
    }
    const newMs = performance.now() - t;
    const rate = (ms: number) => Math.round(values / (ms / 1000));

    // 2. Sizes.
    const [size] = await db.$queryRawUnsafe<{ old: number; cols: number; payload: number; stats: number; stored: number }[]>(
      `SELECT pg_total_relation_size('bench_instance_score')::float8 AS old, pg_total_relation_size('score_column')::float8 AS cols,
              (SELECT sum(octet_length("values")) FROM score_column)::float8 AS payload, (SELECT sum(octet_length(stats)) FROM score_column)::float8 AS stats,
              (SELECT sum(pg_column_size("values")) FROM score_column)::float8 AS stored`,
    );
    if (!size) throw new Error('the size query returned no row');
    const per = (bytes: number) => (bytes / values).toFixed(2);

    // 3. Exports, each in a process of its own.
    const oldExport = runExport('old', pg.url, ids);
    const newExport = runExport('new', pg.url, ids);

    const lines = [
      `score storage: ${SYSTEMS} systems × ${INSTANCES} instances × ${METRICS.length} metrics = ${values} values`,
      `writes   row layout (createMany-style INSERTs)   ${seconds(oldMs)} s   ${rate(oldMs).toLocaleString('en')} values/s`,
      `         columns + statistics (saveScores)      ${seconds(newMs)} s   ${rate(newMs).toLocaleString('en')} values/s   new/old ${(oldMs / newMs).toFixed(1)}×   (target ≥ 50,000 values/s)`,
      `size     row layout, all-in                      ${per(size.old)} B/value`,
      `         columns, all-in (stats, TOAST, index)  ${per(size.cols)} B/value   (target ≤ 16)   old/new ${(size.old / size.cols).toFixed(1)}×`,
      `         of which values ${per(size.payload)} B/value (${per(size.stored)} as stored, pglz), statistics ${per(size.stats)} B/value`,
      `export   pre-change keyset query                 ${seconds(oldExport.ms)} s   peak RSS ${oldExport.peakRssMb.toFixed(0)} MB (${oldExport.startRssMb.toFixed(0)} MB before)   ${oldExport.rows} rows, ${(oldExport.bytes / 2 ** 20).toFixed(1)} MB of CSV`,
      `         columns (longRows)                      ${seconds(newExport.ms)} s   peak RSS ${newExport.peakRssMb.toFixed(0)} MB (${newExport.startRssMb.toFixed(0)} MB before)   old/new ${(oldExport.ms / newExport.ms).toFixed(1)}×`,
      `         same rows: ${oldExport.rows === values && newExport.rows === values ? 'yes' : 'NO'}; same bytes: ${oldExport.sha256 === newExport.sha256 ? 'yes' : 'no'}; ` +
        `same bytes with scores at 16 significant digits (as the old path stored them): ${oldExport.sha256Rounded === newExport.sha256Rounded ? 'yes' : 'NO'}`,
    ];
    process.stdout.write(lines.join('\n') + '\n');
  } finally {
    for (const c of cleanup) await c().catch(() => undefined);
  }
}

const [, , mode, which, url, idsJson] = process.argv;
if (mode === '--export') {
  if (url === undefined || idsJson === undefined) throw new Error('usage: score-writes.bench.ts --export old|new URL IDS_JSON');
  void exportChild(which as 'old' | 'new', url, JSON.parse(idsJson) as string[]).catch((e: unknown) => {
    process.stderr.write(`${String(e)}\n`);
    process.exit(1);
  });
} else {
  main().catch((e: unknown) => {
    say(e instanceof Error ? (e.stack ?? e.message) : String(e));
    process.exit(1);
  });
}
