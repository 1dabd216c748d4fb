/**
 * Robustness reports against a real PostgreSQL (the one `npm test` starts): the repository
 * keeps one row per (task, metric, suite, mode) and a rerun replaces it; the worker's result
 * equals running the preference test directly with @podium/metrics on the same rows; suites
 * generated from a task's references work for English and fail clearly otherwise.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { WorkerConfig } from '@podium/config';
import { robustnessResultSchema } from '@podium/contracts';
import { createDb, IdentityRepository, RobustnessRepository, Role, TaskKind, TaskRepository, type Db } from '@podium/db';
import { score, type MetricName } from '@podium/metrics';
import {
  generateSuite,
  menliPreferenceRows,
  parseMenliCsv,
  runPreferenceTest,
  type PairScorer,
  type PreferenceRow,
} from '@podium/robustness';
import type PgBoss from 'pg-boss';
import { combineScores } from '@podium/metrics';
import { defaultNliOptions, loadNliModel, scoreNli, type NliModel } from '@podium/nli';
import { WorkerNliScorer } from '../nli/nli.adapter';
import { RobustnessProcessor } from './robustness.processor';
import { PermanentRobustnessError, RobustnessService } from './robustness.service';
import { suiteCsvPath, useTestDataEnv } from '../../../../test/support/test-data';
import { defined } from '../../../../test/support/defined';

// Real PostgreSQL (and Nest apps) under a loaded 2-core machine: far slower than Jest's 5 s default.
jest.setTimeout(60_000);

const url = process.env['DATABASE_URL'];
const describeDb = url ? describe : describe.skip;
const root = path.resolve(__dirname, '..', '..', '..', '..');
// The built-in suite comes through the dataset registry from the test mirror (the service fetches it too).
useTestDataEnv();

type Scored = Awaited<ReturnType<PairScorer>>;
/**
 * A scorer that scores each (anchors, hypotheses) pair of lists once per file: the tests compare
 * several reports against the same direct scores of the same 2,400 pairs (the reference side is
 * deterministic; what the worker computes is never cached).
 */
function memoised(scorer: PairScorer): PairScorer {
  const scored = new Map<string, Promise<Scored>>();
  return (anchors, hyps) => {
    const key = JSON.stringify([anchors, hyps]);
    let s = scored.get(key);
    if (!s) {
      s = scorer(anchors, hyps);
      scored.set(key, s);
    }
    return s;
  };
}

/** The reference computation: @podium/metrics sentence scores with default options, as the CLI does (once per input, see memoised). */
const direct = new Map<MetricName, PairScorer>();
const directScorer = (metric: MetricName): PairScorer => {
  let s = direct.get(metric);
  if (!s) {
    s = memoised(async (anchors, hyps) => {
      const r = score(metric, {}, hyps, [anchors]);
      return { values: r.instances, signature: r.sentenceSignature, higherIsBetter: r.higherIsBetter };
    });
    direct.set(metric, s);
  }
  return s;
};

// English references with numbers, pronouns and negations, and a second reference each.
const refs = [
  'He said the company sold 300 cars in 2019.',
  'She does not like the new policy.',
  'They paid $45 for the tickets.',
  'The minister will visit 12 schools next week.',
  'We have not seen him since Monday.',
  'Prices rose by 7 percent last year.',
  'His brother works in a large hospital.',
  'The team won 3 of its 5 games.',
];
const refs2 = [
  'According to him, the firm sold 300 cars in 2019.',
  'She dislikes the new policy.',
  'They spent $45 on the tickets.',
  'Next week the minister is visiting 12 schools.',
  'We have not seen him since Monday.',
  'Last year prices went up by 7 percent.',
  'His brother is employed at a big hospital.',
  'The team won three of five games.',
];

describeDb('robustness reports (real PostgreSQL)', () => {
  let db: Db;
  let tasks: TaskRepository;
  let reports: RobustnessRepository;
  let organiserId: string;
  const noEnqueue = async () => undefined;

  async function makeTask(targetLang = 'en', metrics: unknown = [
    { key: 'bleu', name: 'bleu', options: {} },
    { key: 'chrf', name: 'chrf', options: {} },
    { key: 'ter', name: 'ter', options: {} },
  ]) {
    const suffix = randomUUID().slice(0, 8);
    const task = await tasks.createTask({
      slug: `rob-${suffix}`, title: 't', kind: TaskKind.MT, sourceLang: 'de', targetLang, metrics: metrics as never, createdById: organiserId,
    });
    const phase = await tasks.createPhase({
      taskId: task.id, name: 'test', opensAt: new Date('2020-01-01'), closesAt: new Date('2099-01-01'), dailyLimit: 5, totalLimit: 5, leaderboardBeforeClose: true,
    });
    await tasks.uploadTestSet(phase.id, 'ts', refs.map((r, i) => ({ externalId: `s${i}`, source: `Quelle ${i}`, references: [r, defined(refs2[i], 'refs2[i]')] })));
    return task;
  }

  // The worker's NLI scorer, as one worker process keeps it (its model loaded once, on first use),
  // and the test model loaded directly for the reference scores (scoreNli, once per input).
  const nliConfig = { PODIUM_NLI_MODEL: 'test-nli-tiny', PODIUM_NLI_PROVIDER: 'cpu', PODIUM_NLI_BATCH_SIZE: 64, PODIUM_NLI_THREADS: 0 } as WorkerConfig;
  let workerNli: WorkerNliScorer | undefined;
  const workerScorer = () => (workerNli ??= new WorkerNliScorer(nliConfig, path.join(root, 'models')));
  let directModel: Promise<NliModel> | undefined;
  const directNli = memoised(async (anchors, hyps) => {
    directModel ??= loadNliModel(path.join(root, 'models/test-nli-tiny'), { log: () => undefined });
    const s = await scoreNli(await directModel, { hyps, refStreams: [anchors] }, defaultNliOptions('mt', 'ref'));
    return { values: s.instances, signature: s.signature, higherIsBetter: s.higherIsBetter };
  });

  beforeAll(async () => {
    db = createDb(defined(url, 'DATABASE_URL'), { maxConnections: 3 });
    tasks = new TaskRepository(db);
    reports = new RobustnessRepository(db);
    const identity = new IdentityRepository(db);
    organiserId = (await identity.createUser(`org-rob-${randomUUID().slice(0, 8)}`, Role.ORGANISER)).id;
  });
  afterAll(async () => {
    // Both ONNX sessions are released.
    await Promise.all([directModel?.then((m) => m.close()), workerNli?.model('test-nli-tiny').then((m) => m.close())]);
    await db.$disconnect();
  });

  it('keeps one report per (task, metric, suite, mode); a rerun resets it and bumps the attempt', async () => {
    const task = await makeTask();
    const sent: [string, number][] = [];
    const request = { taskId: task.id, metric: 'chrf', suite: 'builtin:wmt20-de', mode: 'ref' };
    const [first] = await reports.queue([request], async (_sql, id, attempt) => void sent.push([id, attempt]));
    if (!first) throw new Error('expected first to be present');
    expect(first.status).toBe('QUEUED');
    expect(await reports.saveResult(first.id, 1, 'sig', { x: 1 })).toBe(true);
    const [second] = await reports.queue([request], async (_sql, id, attempt) => void sent.push([id, attempt]));
    if (!second) throw new Error('expected second to be present');
    expect(second.id).toBe(first.id);
    expect(sent).toEqual([[first.id, 1], [first.id, 2]]);
    const rows = await reports.ofTask(task.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ status: 'QUEUED', attempt: 2, result: null, signature: '' });
    // A job of the first attempt can no longer write.
    expect(await reports.saveResult(first.id, 1, 'old', { x: 1 })).toBe(false);
    expect(await reports.acquireLease(first.id, 1, 'w', null, 30)).toMatchObject({ kind: 'stale', attempt: 2 });
  });

  it('rolls back the report when its job cannot be queued', async () => {
    const task = await makeTask();
    await expect(
      reports.queue([{ taskId: task.id, metric: 'bleu', suite: 'builtin:wmt20-de', mode: 'ref' }], async () => {
        throw new Error('queue down');
      }),
    ).rejects.toThrow('queue down');
    expect(await reports.countOfTask(task.id)).toBe(0);
  });

  it('fails a report permanently, with the one-line reason, when its built-in suite cannot be fetched', async () => {
    const task = await makeTask();
    const [report] = await reports.queue([{ taskId: task.id, metric: 'chrf', suite: 'builtin:xpaws-ja', mode: 'ref' }], noEnqueue);
    if (!report) throw new Error('expected report to be present');
    const offline = { cacheDir: mkdtempSync(path.join(tmpdir(), 'podium-worker-cache-')), source: { kind: 'directory' as const, dir: path.join(tmpdir(), 'podium-no-mirror') } };
    const err = await new RobustnessService(reports, null, offline).compute(report.id, 1).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PermanentRobustnessError);
    expect((err as Error).message).toMatch(/^built-in suite 'builtin:xpaws-ja': PODIUM_DATA_MIRROR names .*podium-no-mirror, which does not exist$/);
  });

  it.each([
    ['chrf', 'ref'],
    ['ter', 'ref'],
    ['bleu', 'src'],
  ] as const)('stores the %s accuracy on the built-in suite (%s mode) equal to runPreferenceTest run directly', async (metric, mode) => {
    const task = await makeTask();
    const [report] = await reports.queue([{ taskId: task.id, metric, suite: 'builtin:wmt20-de', mode }], noEnqueue);
    if (!report) throw new Error('expected report to be present');
    const service = new RobustnessService(reports, null);
    const outcome = await service.compute(report.id, 1);
    expect(outcome).toMatchObject({ kind: 'done', metric, rows: 2400 });

    const rows = menliPreferenceRows(parseMenliCsv(readFileSync(await suiteCsvPath('builtin:wmt20-de'), 'utf8')), mode);
    const expected = await runPreferenceTest(rows, directScorer(metric));
    const stored = await db.robustnessReport.findUniqueOrThrow({ where: { id: report.id } });
    expect(stored.status).toBe('DONE');
    expect(stored.finishedAt).not.toBeNull();
    expect(stored.signature).toBe(expected.signature);
    const result = robustnessResultSchema.parse(stored.result);
    expect(result.overall.accuracy).toBeCloseTo(expected.overall.accuracy, 12);
    expect(result.overall.ci[0]).toBeCloseTo(expected.overall.ci[0], 12);
    expect(result.overall.ci[1]).toBeCloseTo(expected.overall.ci[1], 12);
    expect(result.overall.n).toBe(2400);
    expect(Object.keys(result.phenomena).sort()).toEqual(Object.keys(expected.phenomena).sort());
    for (const [name, est] of Object.entries(expected.phenomena)) {
      expect(defined(result.phenomena[name], 'result.phenomena[name]').accuracy).toBeCloseTo(est.accuracy, 12);
      expect(defined(result.phenomena[name], 'result.phenomena[name]').n).toBe(est.n);
    }
    expect(result.failingCount).toBe(expected.failing.length);
    expect(result.bootstrap).toEqual({ seed: 12345, resamples: 1000, confidence: 0.95 });
    expect(result.higherIsBetter).toBe(metric !== 'ter');
    if (mode === 'ref' && metric === 'chrf') {
      // libs/robustness/README.md: chrF .202 [.190, .215] overall on WMT20_de, ref mode.
      expect(result.overall.accuracy).toBeCloseTo(0.202, 3);
    }
  }, 120_000);

  it('scores an NLI metric with the worker’s model (loaded once) as scoreNli does directly', async () => {
    const task = await makeTask('en', [{ key: 'nli', name: 'nli', options: {} }]);
    const [report] = await reports.queue([{ taskId: task.id, metric: 'nli', suite: 'builtin:wmt20-de', mode: 'ref' }], noEnqueue);
    if (!report) throw new Error('expected report to be present');
    expect(await new RobustnessService(reports, workerScorer()).compute(report.id, 1)).toMatchObject({ kind: 'done' });

    const rows = menliPreferenceRows(parseMenliCsv(readFileSync(await suiteCsvPath('builtin:wmt20-de'), 'utf8')), 'ref');
    const expected = await runPreferenceTest(rows, directNli);
    const stored = await db.robustnessReport.findUniqueOrThrow({ where: { id: report.id } });
    expect(stored.signature).toBe(expected.signature);
    const result = robustnessResultSchema.parse(stored.result);
    expect(result.overall.accuracy).toBeCloseTo(expected.overall.accuracy, 12);
    // libs/robustness/README.md: NLI (test-nli-tiny) .213 overall, ref mode.
    expect(result.overall.accuracy).toBeCloseTo(0.213, 3);
  }, 300_000);

  it('stores the NLI report’s trade-off curve: ends equal chrF/TER and NLI alone, w = .3 equals the combined values tested directly', async () => {
    const task = await makeTask('en', [
      { key: 'nli', name: 'nli', options: {} },
      { key: 'chrf', name: 'chrf', options: {} },
      { key: 'ter', name: 'ter', options: {} },
    ]);
    const [report] = await reports.queue([{ taskId: task.id, metric: 'nli', suite: 'builtin:wmt20-de', mode: 'ref' }], noEnqueue);
    if (!report) throw new Error('expected report to be present');
    expect(await new RobustnessService(reports, workerScorer()).compute(report.id, 1)).toMatchObject({ kind: 'done' });
    const result = robustnessResultSchema.parse((await db.robustnessReport.findUniqueOrThrow({ where: { id: report.id } })).result);
    const curve = defined(result.tradeoff, 'result.tradeoff');
    expect(curve.map((p) => `${p.with}@${p.w}`)).toEqual(
      ['chrf', 'ter'].flatMap((m) => [0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1].map((w) => `${m}@${w}`)),
    );
    const point = (m: string, w: number) => defined(curve.find((p) => p.with === m && p.w === w), `the point of ${m} at w = ${w}`);

    // Independent scores: @podium/metrics and scoreNli directly, as the CLI's report card does.
    const rows = menliPreferenceRows(parseMenliCsv(readFileSync(await suiteCsvPath('builtin:wmt20-de'), 'utf8')), 'ref');
    // Scored once per side (memoised): the preference test and the recomputation of w = .3 ask for the same pairs.
    const nliScorer = directNli;
    const sides = async (scorer: PairScorer) => {
      const anchors = rows.map((r) => r.anchor);
      return { good: (await scorer(anchors, rows.map((r) => r.good))).values, bad: (await scorer(anchors, rows.map((r) => r.bad))).values };
    };
    const nliAlone = await runPreferenceTest(rows, nliScorer);
    for (const m of ['chrf', 'ter'] as const) {
      const alone = await runPreferenceTest(rows, directScorer(m));
      // C at w = 0 is a monotone map of M (flipped for TER), at w = 1 of NLI: same passes, same bootstrap draws.
      expect(point(m, 0).accuracy).toBeCloseTo(alone.overall.accuracy, 12);
      expect(point(m, 0).ci[0]).toBeCloseTo(alone.overall.ci[0], 12);
      expect(point(m, 0).ci[1]).toBeCloseTo(alone.overall.ci[1], 12);
      expect(point(m, 1).accuracy).toBeCloseTo(nliAlone.overall.accuracy, 12);
      expect(point(m, 1).ci[0]).toBeCloseTo(nliAlone.overall.ci[0], 12);
    }
    // chrF .202 and NLI (test-nli-tiny) .213 overall (libs/robustness/README.md).
    expect(point('chrf', 0).accuracy).toBeCloseTo(0.202, 3);
    expect(point('chrf', 1).accuracy).toBeCloseTo(0.213, 3);

    // w = .3 with chrF, recomputed: scale per phenomenon over pooled good+bad, combine, then test.
    const n = await sides(nliScorer);
    const c = await sides(directScorer('chrf'));
    const good = new Array<number>(rows.length);
    const bad = new Array<number>(rows.length);
    const groups = new Map<string, number[]>();
    rows.forEach((r: PreferenceRow, i) => groups.set(r.phenomenon, [...(groups.get(r.phenomenon) ?? []), i]));
    for (const idx of groups.values()) {
      const combined = combineScores([...idx.map((i) => defined(n.good[i], 'n.good[i]')), ...idx.map((i) => defined(n.bad[i], 'n.bad[i]'))], [...idx.map((i) => defined(c.good[i], 'c.good[i]')), ...idx.map((i) => defined(c.bad[i], 'c.bad[i]'))], 0.3, { otherHigherIsBetter: true }).values;
      idx.forEach((i, k) => {
        good[i] = defined(combined[k], 'combined[k]');
        bad[i] = defined(combined[idx.length + k], 'combined[idx.length + k]');
      });
    }
    let call = 0;
    const combinedScorer: PairScorer = async () => ({ values: call++ === 0 ? good : bad, signature: 'combined', higherIsBetter: true });
    const expected = await runPreferenceTest(rows, combinedScorer);
    expect(point('chrf', 0.3).accuracy).toBeCloseTo(expected.overall.accuracy, 12);
    expect(point('chrf', 0.3).ci[0]).toBeCloseTo(expected.overall.ci[0], 12);
    expect(point('chrf', 0.3).ci[1]).toBeCloseTo(expected.overall.ci[1], 12);
    expect(point('chrf', 0.3).signature).toMatch(/^combined\|nli:\(.+\)\|with:\(chrf\|.*\)\|w:0\.3\|M-dir:higher\|scale:suite-phenomenon-minmax\|seed:12345$/);
    // Reports of the other metrics carry no curve.
    const [chrf] = await reports.queue([{ taskId: task.id, metric: 'chrf', suite: 'builtin:wmt20-de', mode: 'ref' }], noEnqueue);
    if (!chrf) throw new Error('expected chrf to be present');
    await new RobustnessService(reports, null).compute(chrf.id, 1);
    expect(robustnessResultSchema.parse((await db.robustnessReport.findUniqueOrThrow({ where: { id: chrf.id } })).result).tradeoff).toBeUndefined();
  }, 300_000);

  it('generates a suite from the task’s English references and scores it as generateSuite + runPreferenceTest do', async () => {
    const task = await makeTask();
    const [report] = await reports.queue([{ taskId: task.id, metric: 'chrf', suite: 'generated:7', mode: 'ref' }], noEnqueue);
    if (!report) throw new Error('expected report to be present');
    const outcome = await new RobustnessService(reports, null).compute(report.id, 1);
    const suite = generateSuite({ references: refs, secondReferences: refs2, sources: refs.map((_, i) => `Quelle ${i}`), language: 'en', seed: 7 });
    const expected = await runPreferenceTest(menliPreferenceRows(suite.rows, 'ref'), directScorer('chrf'));
    expect(outcome).toMatchObject({ kind: 'done', rows: suite.rows.length });
    const result = robustnessResultSchema.parse((await db.robustnessReport.findUniqueOrThrow({ where: { id: report.id } })).result);
    expect(result.overall.accuracy).toBeCloseTo(expected.overall.accuracy, 12);
    expect(defined(result.phenomena['num'], `result.phenomena['num']`).n).toBe(defined(expected.phenomena['num'], `expected.phenomena['num']`).n);
  });

  /** A processor over a fake pg-boss whose scoring queue holds `queued[k]` jobs at the k-th look. */
  function processor(queued: number[] = [0]) {
    const config = { PODIUM_WORKER_NAME: 'test', PODIUM_WORKER_POLL_SECONDS: 0.01 } as WorkerConfig;
    let looks = 0;
    const boss = { getQueueSize: async () => queued[Math.min(looks++, queued.length - 1)] } as unknown as PgBoss;
    return Object.assign(new RobustnessProcessor(boss, config, new RobustnessService(reports, null)), { looks: () => looks });
  }
  const job = (data: unknown) => ({ id: 'job', data, retryCount: 0, retryLimit: 2 }) as unknown as PgBoss.JobWithMetadata<unknown>;

  it('fails a generated suite for a German-reference task with the language named, without retrying', async () => {
    const task = await makeTask('de');
    const [report] = await reports.queue([{ taskId: task.id, metric: 'chrf', suite: 'generated:7', mode: 'ref' }], noEnqueue);
    if (!report) throw new Error('expected report to be present');
    await processor().handle(job({ v: 1, reportId: report.id, attempt: 1 }));
    const stored = await db.robustnessReport.findUniqueOrThrow({ where: { id: report.id } });
    expect(stored.status).toBe('FAILED');
    expect(stored.error).toMatch(/English references only.*'de'/);
  });

  it('fails a report whose metric is no longer configured, and an NLI metric on a worker without a model', async () => {
    const task = await makeTask('en', [{ key: 'nli', name: 'nli', options: {} }]);
    const [gone, nli] = await reports.queue(
      [
        { taskId: task.id, metric: 'bleu', suite: 'builtin:wmt20-de', mode: 'ref' },
        { taskId: task.id, metric: 'nli', suite: 'builtin:wmt20-de', mode: 'ref' },
      ],
      noEnqueue,
    );
    if (!gone) throw new Error('expected gone to be present');
    if (!nli) throw new Error('expected nli to be present');
    await processor().handle(job({ v: 1, reportId: gone.id, attempt: 1 }));
    await processor().handle(job({ v: 1, reportId: nli.id, attempt: 1 }));
    const rows = await reports.ofTask(task.id);
    expect(rows.find((r) => r.metric === 'bleu')).toMatchObject({ status: 'FAILED', error: expect.stringContaining("has no metric 'bleu'") });
    expect(rows.find((r) => r.metric === 'nli')).toMatchObject({ status: 'FAILED', error: expect.stringContaining('needs an NLI model') });
  });

  it('waits while submissions are queued for scoring, then computes the report', async () => {
    const task = await makeTask();
    const [report] = await reports.queue([{ taskId: task.id, metric: 'bleu', suite: 'generated:1', mode: 'ref' }], noEnqueue);
    if (!report) throw new Error('expected report to be present');
    const p = processor([2, 1, 0]);
    await p.handle(job({ v: 1, reportId: report.id, attempt: 1 }));
    expect(p.looks()).toBe(3);
    expect((await reports.byId(report.id))?.status).toBe('DONE');
  });

  it('skips a job of a superseded attempt and drops a malformed payload', async () => {
    const task = await makeTask();
    const request = { taskId: task.id, metric: 'bleu', suite: 'builtin:wmt20-de', mode: 'ref' };
    await reports.queue([request], noEnqueue);
    const [again] = await reports.queue([request], noEnqueue);
    if (!again) throw new Error('expected again to be present');
    expect(await new RobustnessService(reports, null).compute(again.id, 1)).toMatchObject({ kind: 'skipped' });
    await processor().handle(job({ v: 2, reportId: 'nope' }));
    expect((await reports.byId(again.id))?.status).toBe('QUEUED');
  });
});
