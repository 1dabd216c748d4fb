/**
 * The demo seed (prisma/seed.ts, as `npm run up` runs it) gets WMT17 de-en through the dataset
 * registry: fetched from the offline mirror into an empty cache, verified, and stored as the
 * same demo as before the data left the repository (506 judged segments, 11 systems). Without
 * a reachable source it seeds no demo task and says why in one line.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createDb, type Db } from '@podium/db';
import { createDatabase, databaseUrl, freePort, repoRoot } from './support/processes';
import { TEST_DATA_MIRROR } from '../support/test-data';
import { defined } from '../support/defined';

const MENLI = path.join(TEST_DATA_MIRROR, 'cyr19', 'MENLI', '911238d470288125d35cc950f69411bc619a2c4b', 'experiments', 'datasets', 'WMT17');

/** A throw-away database with Podium's migrations applied. */
async function migratedDatabase(baseUrl: string) {
  const db = await createDatabase(baseUrl, 'podium_seed_e2e');
  const r = spawnSync(path.join(repoRoot, 'node_modules', '.bin', 'prisma'), ['migrate', 'deploy'], { cwd: repoRoot, env: { ...process.env, DATABASE_URL: db.url }, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`migrate deploy failed: ${r.stdout}${r.stderr}`);
  return db;
}

function runSeed(env: Record<string, string>) {
  const r = spawnSync(process.execPath, ['-r', '@swc-node/register', 'prisma/seed.ts'], { cwd: repoRoot, env: { ...process.env, ...env }, encoding: 'utf8', timeout: 170_000 });
  if (r.status !== 0) throw new Error(`seed failed (exit ${r.status ?? r.signal}):\n${r.stdout}\n${r.stderr}`);
  return r.stdout;
}

/** Lines as the old committed copies were split: one trailing newline dropped, bytes kept. */
const lines = (file: string) => readFileSync(file, 'utf8').replace(/\n$/, '').split('\n');

describe('demo seed through the dataset registry', () => {
  const dbs: { drop: () => Promise<void> }[] = [];
  const caches: string[] = [];
  let db: Db | undefined;
  afterAll(async () => {
    await db?.$disconnect();
    for (const d of dbs) await d.drop();
    for (const c of caches) rmSync(c, { recursive: true, force: true });
  });

  it('fetches wmt17-de-en from the mirror into an empty cache and seeds the same demo as before (506 segments, 11 systems)', async () => {
    const created = await migratedDatabase(databaseUrl());
    dbs.push(created);
    const cache = mkdtempSync(path.join(tmpdir(), 'podium-seed-cache-'));
    caches.push(cache);
    const status = path.join(cache, 'status.json');
    const env = { DATABASE_URL: created.url, PODIUM_DATA_MIRROR: TEST_DATA_MIRROR, PODIUM_CACHE: cache, PODIUM_SEED_STATUS_FILE: status };
    const out = runSeed(env);

    expect(out).toContain(`fetching data set wmt17-de-en (15 files, 4.7 MB) from mirror folder ${TEST_DATA_MIRROR} into ${cache}`);
    expect(out).toMatch(/data set wmt17-de-en: 4\.7 MB in [\d.]+ s, verified \(sha256\), cached in .*cyr19\/MENLI\/911238d470288125d35cc950f69411bc619a2c4b/);
    expect(out).toContain('seeded test set: 506 instances, 622 human scores');
    expect(out).toContain('seeded 11 demo submissions (queued for scoring)');
    expect(out).toContain('fetching data set menli-wmt20-de (2 files, 1.5 MB)');
    expect(JSON.parse(readFileSync(status, 'utf8'))).toEqual({ demo: 'seeded' });

    db = createDb(created.url, { maxConnections: 2 });
    const task = await db.task.findUniqueOrThrow({ where: { slug: 'wmt17-de-en' }, include: { phases: true, organisers: { include: { user: true } } } });
    // The demo's organiser administers the instance (ADR 0012) and organises the demo task.
    expect(task.organisers.map((o) => [o.user.name, o.user.role])).toEqual([['organiser', 'ADMIN']]);
    const testSetId = defined(defined(task.phases[0]).testSetId);
    const instances = await db.instance.findMany({ where: { testSetId }, orderBy: { position: 'asc' } });
    expect(instances).toHaveLength(506);
    expect(await db.humanScore.count({ where: { instance: { testSetId } } })).toBe(622);

    // Independently from the mirror's upstream files: segment ids are the de-en rows of the
    // all-pairs DA file; texts are those lines of the source and reference.
    const da = lines(path.join(MENLI, 'DA-seglevel.csv')).filter((l) => l.startsWith('de-en '));
    const sids = [...new Set(da.map((l) => Number(l.split(' ')[3])))].sort((a, b) => a - b);
    const source = lines(path.join(MENLI, 'sources', 'newstest2017-deen-src.de'));
    const reference = lines(path.join(MENLI, 'references', 'newstest2017-deen-ref.en'));
    expect(instances.map((i) => Number(i.externalId))).toEqual(sids);
    expect(instances.map((i) => i.source)).toEqual(sids.map((s) => source[s - 1]));
    expect(instances.map((i) => i.references[0])).toEqual(sids.map((s) => reference[s - 1]));

    const subs = await db.submission.findMany({ where: { phaseId: defined(task.phases[0]).id }, orderBy: { systemName: 'asc' } });
    expect(subs.map((s) => s.systemName)).toEqual([
      'C-3MA.4958', 'KIT.4951', 'LIUM-NMT.4733', 'RWTH-nmt-ensemble.4920', 'SYSTRAN.4846', 'TALP-UPC.4830',
      'online-A.0', 'online-B.0', 'online-F.0', 'online-G.0', 'uedin-nmt.4723',
    ]);
    const onlineB = lines(path.join(MENLI, 'system-outputs', 'newstest2017', 'de-en', 'newstest2017.online-B.0.de-en'));
    const expected = createHash('sha256').update(sids.map((s) => onlineB[s - 1]).join('\n')).digest('hex');
    expect(defined(subs.find((s) => s.systemName === 'online-B.0')).checksum).toBe(expected);
    expect(await db.robustnessReport.count({ where: { taskId: task.id, suite: 'builtin:wmt20-de' } })).toBe(4);

    // Again: nothing to fetch, nothing added.
    const again = runSeed(env);
    expect(again).not.toContain('fetching');
    expect(again).toContain('demo task already seeded');
    expect(JSON.parse(readFileSync(status, 'utf8'))).toEqual({ demo: 'already seeded' });
  });

  it('seeds no demo task, in one line naming the failure, when the data cannot be fetched', async () => {
    const created = await migratedDatabase(databaseUrl());
    dbs.push(created);
    const cache = mkdtempSync(path.join(tmpdir(), 'podium-seed-cache-'));
    caches.push(cache);
    const status = path.join(cache, 'status.json');
    const nowhere = `http://127.0.0.1:${await freePort()}/`; // nothing listens there
    const out = runSeed({ DATABASE_URL: created.url, PODIUM_DATA_MIRROR: nowhere, PODIUM_CACHE: cache, PODIUM_SEED_STATUS_FILE: status });
    const notSeeded = out.split('\n').filter((l) => l.startsWith('demo task not seeded: '));
    expect(notSeeded).toHaveLength(1);
    expect(notSeeded[0]).toMatch(/^demo task not seeded: cannot fetch http:\/\/127\.0\.0\.1:\d+\/cyr19\/MENLI\/911238d470288125d35cc950f69411bc619a2c4b\/LICENSE: fetch failed \(ECONNREFUSED\)$/);
    expect(JSON.parse(readFileSync(status, 'utf8'))).toMatchObject({ demo: 'unavailable' });
    const other = createDb(created.url, { maxConnections: 1 });
    try {
      expect(await other.task.count()).toBe(0);
      expect(await other.user.count({ where: { name: 'organiser' } })).toBe(1);
    } finally {
      await other.$disconnect();
    }
  });
});
