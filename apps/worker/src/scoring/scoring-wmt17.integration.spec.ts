/**
 * The scoring job's path (outputs COPYed into the database, read back in JSON chunks, the
 * metrics, the columnar write; issue #28) gives exactly what the plain per-metric path gives:
 * `scoreWithStats` of each metric on the WMT17 de-en files as read from disk. Bit for bit: every
 * instance score, every statistics row and the corpus score of BLEU, chrF and TER, for two of the
 * 11 systems. The data set comes from the offline mirror (PODIUM_DATA_MIRROR, else
 * <repo>/../shared/data/mirror), as in libs/metrics/src/sacrebleu-golden.spec.ts.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Pool } from 'pg';
import { fetchDataset, getDataset, parseDataMirror } from '@podium/datasets';
import { createDb, decodeStats, decodeValues, IdentityRepository, Role, SubmissionRepository, TaskKind, TaskRepository, type Db } from '@podium/db';
import { scoreWithStats, type MetricName } from '@podium/metrics';
import type { WorkerConfig } from '@podium/config';
import type PgBoss from 'pg-boss';
import { LeaseKeeper } from '../leases/lease-keeper';
import { ScoringService } from './scoring.service';
import { defined } from '../../../../test/support/defined';

jest.setTimeout(300_000);

const url = process.env['DATABASE_URL'];
const describeDb = url ? describe : describe.skip;
const root = join(__dirname, '..', '..', '..', '..');
const mirror = process.env['PODIUM_DATA_MIRROR']?.trim() || join(root, '..', 'shared', 'data', 'mirror');
const METRICS: { key: string; name: MetricName }[] = [
  { key: 'bleu', name: 'bleu' },
  { key: 'chrf', name: 'chrf' },
  { key: 'ter', name: 'ter' },
];
const SYSTEMS = ['online-B.0', 'uedin-nmt.4723'];

describeDb('scoring WMT17 de-en through the job equals the plain per-metric path', () => {
  let db: Db;
  let pool: Pool;
  let reference: string[];
  let systemFile: Record<string, string>;
  const cacheDir = mkdtempSync(join(tmpdir(), 'podium-wmt17-'));

  beforeAll(async () => {
    db = createDb(defined(url, 'DATABASE_URL'), { maxConnections: 3 });
    pool = new Pool({ connectionString: url, max: 2 });
    const spec = defined(getDataset('wmt17-de-en').testSet);
    const fetched = await fetchDataset('wmt17-de-en', { source: parseDataMirror(mirror), cacheDir });
    const at = (p: string) => defined(fetched.files.find((f) => f.path === p), p).localPath;
    reference = readFileSync(at(spec.reference), 'utf8').replace(/\n$/, '').split('\n');
    systemFile = Object.fromEntries(Object.entries(spec.systems).map(([name, p]) => [name, at(p)]));
  });
  afterAll(async () => {
    await pool.end();
    await db.$disconnect();
    rmSync(cacheDir, { recursive: true, force: true });
  });

  it.each(SYSTEMS)('%s: every instance score, statistics row and corpus score of BLEU, chrF and TER', async (system) => {
    const submissions = new SubmissionRepository(db, pool);
    const tasks = new TaskRepository(db);
    const identity = new IdentityRepository(db);
    const suffix = randomUUID().slice(0, 8);
    const organiser = await identity.createUser(`org-wmt17-${suffix}`, Role.ORGANISER);
    const team = await identity.createTeam(`team-wmt17-${suffix}`, []);
    const task = await tasks.createTask({
      slug: `wmt17-${suffix}`, title: 'wmt17', kind: TaskKind.MT, sourceLang: 'de', targetLang: 'en', createdById: organiser.id,
      metrics: METRICS.map((m) => ({ ...m, options: {} })),
    });
    const phase = await tasks.createPhase({ taskId: task.id, name: 'test', opensAt: new Date('2020-01-01'), closesAt: new Date('2099-01-01'), dailyLimit: 5, totalLimit: 5, leaderboardBeforeClose: true });
    const ts = await tasks.uploadTestSet(phase.id, 'newstest2017', reference.map((r, i) => ({ externalId: String(i + 1), source: `source ${i + 1}`, references: [r] })));
    const rows = await tasks.instanceIdsOf(ts.id);
    const bytes = readFileSync(defined(systemFile[system], system));
    const hyps = bytes.toString('utf8').replace(/\n$/, '').split('\n');
    // Through the streamed store (spool, COPY), as the api stores a file; the file's lines as its parser hands them on.
    const sub = await submissions.createStreamed(
      { phaseId: phase.id, teamId: team.id, submittedById: organiser.id, systemName: system, description: '', bypassLimits: true, instanceIds: rows.map((r) => r.id) },
      async (out) => {
        hyps.forEach((h, p) => out.row(p, h));
        await out.flush();
        return { checksum: `wmt17 ${system}`, count: hyps.length };
      },
      async () => undefined,
    );
    const service = new ScoringService(submissions, null, new LeaseKeeper(submissions, {} as PgBoss, { PODIUM_WORKER_NAME: `wmt17-${suffix}` } as WorkerConfig));
    expect(await service.score(sub.id)).toMatchObject({ kind: 'scored', instances: reference.length });

    for (const m of METRICS) {
      const plain = scoreWithStats(m.name, {}, hyps, [reference]);
      const column = await db.scoreColumn.findUniqueOrThrow({ where: { submissionId_metric: { submissionId: sub.id, metric: m.key } } });
      const corpus = await db.corpusScore.findFirstOrThrow({ where: { submissionId: sub.id, metric: m.key } });
      expect([...decodeValues(column.values)]).toEqual(plain.instances);
      expect(decodeStats(defined(column.stats, `${m.key} statistics`))).toEqual(plain.stats);
      expect([column.signature, corpus.signature, corpus.value]).toEqual([plain.sentenceSignature, plain.signature, plain.corpus]);
    }
  });
});
