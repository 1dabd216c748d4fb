/**
 * @jest-environment ../../libs/nli/jest-environment.js
 */
// MENLI's trade-off curve on the platform against a real PostgreSQL: a task with `nli` and
// `chrf`, the WMT17 de→en DA demo data scored with both (NLI: the synthetic test-nli-tiny model).
// The NLI report's stored curve is served by GraphQL and the downloads; reportCard adds the
// combined metric's correlation with humans for each w, combined as the leaderboard does.
import type { INestApplication } from '@nestjs/common';
import { loadApiConfig } from '@podium/config';
import type { RobustnessResult } from '@podium/contracts';
import { createDb, IdentityRepository, RobustnessRepository, Role, SubmissionRepository, TaskKind, TaskRepository, type Db } from '@podium/db';
import { score } from '@podium/metrics';
import { defaultNliOptions, loadNliModel, scoreNli } from '@podium/nli';
import { minMaxScale } from '@podium/metrics';
import { parseDaSegLevel, type DaJudgement } from '@podium/datasets';
import { alignJudgements, pearson } from '@podium/robustness';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import request from 'supertest';
import { createApp } from '../app';
import { fileLines as lines, uploadDaTestSet, useTestDataEnv, wmtFiles } from '../../../../test/support/test-data';
import { defined } from '../../../../test/support/defined';

// Real PostgreSQL (and Nest apps) under a loaded 2-core machine: far slower than Jest's 5 s default.
jest.setTimeout(60_000);

const DATABASE_URL = process.env['DATABASE_URL'];
const suite = DATABASE_URL ? describe : describe.skip;

const QUEUE_SCHEMA = 'pgboss_robustness_tradeoff_it';
const root = path.resolve(__dirname, '..', '..', '..', '..');
// WMT17 de-en and the MENLI suite through the dataset registry, from the test mirror.
useTestDataEnv();
const suffix = randomBytes(4).toString('hex');
const slug = `rob-to-${suffix}`;
const WEIGHTS = [0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1];


suite('robustness trade-off curve (API, PostgreSQL)', () => {
  let app: INestApplication;
  let db: Db;
  let phaseId: string;
  /** Instance scores per metric and system, in test-set order (the 560 judged segments). */
  const stored: Record<'nli' | 'chrf', Map<string, number[]>> = { nli: new Map(), chrf: new Map() };
  const sids: number[] = [];
  const da: DaJudgement[] = [];

  const gql = async (query: string, variables: Record<string, unknown> = {}) => {
    const body = (await request(app.getHttpServer()).post('/graphql').send({ query, variables })).body;
    if (body.errors) throw new Error(`GraphQL errors: ${JSON.stringify(body.errors)}`);
    return body.data;
  };

  beforeAll(async () => {
    app = await createApp(loadApiConfig({ DATABASE_URL, PODIUM_WEB_DIST: '/nonexistent' }), { logger: false, queueSchema: QUEUE_SCHEMA });
    db = createDb(defined(DATABASE_URL));
    const wmt = await wmtFiles('wmt17-de-en');
    da.push(...parseDaSegLevel(readFileSync(defined(wmt.human), 'utf8')).filter((j) => j.lp === 'de-en'));
    const identity = new IdentityRepository(db);
    const tasks = new TaskRepository(db);
    const submissions = new SubmissionRepository(db);
    const organiser = await identity.createUser(`rob-to-org-${suffix}`, Role.ORGANISER);
    const task = await tasks.createTask({
      slug, title: 'WMT17 de-en', kind: TaskKind.MT, sourceLang: 'de', targetLang: 'en',
      metrics: [{ key: 'nli', name: 'nli', options: {} }, { key: 'chrf', name: 'chrf', options: {} }], createdById: organiser.id,
    });
    const phase = await tasks.createPhase({
      taskId: task.id, name: 'test', opensAt: new Date('2017-01-01'), closesAt: new Date('2099-01-01'), dailyLimit: 5, totalLimit: 50, leaderboardBeforeClose: true,
    });
    phaseId = phase.id;
    const uploaded = await uploadDaTestSet(tasks, phase.id, wmt, da);
    sids.push(...uploaded.sids);
    const { reference, instances } = uploaded;
    const team = await identity.createTeam(`rob-to-team-${suffix}`, []);
    const model = await loadNliModel(path.join(root, 'models/test-nli-tiny'), { log: () => undefined });
    const refs = instances.map((i) => defined(reference[Number(i.externalId) - 1]));
    for (const system of [...new Set(da.flatMap((j) => j.systems))].sort()) {
      const output = lines(defined(wmt.systems.find((s) => s.name === system)).file);
      const texts = instances.map((i) => defined(output[Number(i.externalId) - 1]));
      const sub = await submissions.create(
        { phaseId, teamId: team.id, submittedById: organiser.id, systemName: system, description: '', checksum: system, bypassLimits: true,
          outputs: instances.map((i, k) => ({ instanceId: i.id, text: defined(texts[k]) })) },
        async () => undefined,
      );
      const chrf = score('chrf', {}, texts, [refs]);
      const nli = await scoreNli(model, { hyps: texts, refStreams: [refs] }, defaultNliOptions('mt', 'ref'));
      stored.chrf.set(system, chrf.instances);
      stored.nli.set(system, nli.instances);
      const scored = [
        { m: 'chrf', sig: chrf.sentenceSignature, values: chrf.instances, corpus: chrf.corpus, corpusSig: chrf.signature },
        { m: 'nli', sig: nli.signature, values: nli.instances, corpus: nli.corpus, corpusSig: nli.signature },
      ];
      await submissions.saveScores(
        sub.id,
        scored.flatMap((s) => s.values.map((value, k) => ({ instanceId: defined(instances[k]).id, metric: s.m, signature: s.sig, value }))),
        scored.map((s) => ({ metric: s.m, signature: s.corpusSig, value: s.corpus })),
      );
    }

    // An NLI report as the worker stores it (apps/worker/src/robustness/robustness.integration.spec.ts checks its numbers).
    const reports = new RobustnessRepository(db);
    const [nliReport] = await reports.queue([{ taskId: task.id, metric: 'nli', suite: 'builtin:wmt20-de', mode: 'ref' }], async () => undefined);
    const est = { accuracy: 0.213, ci: [0.2, 0.227] as [number, number], n: 2400, passed: 511 };
    const result: RobustnessResult = {
      higherIsBetter: true, overall: est, phenomena: { num: est }, failingCount: 1889, bootstrap: { seed: 12345, resamples: 1000, confidence: 0.95 },
      tradeoff: WEIGHTS.map((w) => ({ with: 'chrf', w, accuracy: 0.2 + w / 100, ci: [0.19 + w / 100, 0.21 + w / 100], signature: `combined|w:${w}` })),
    };
    await reports.saveResult(defined(nliReport).id, 1, 'nli|model:test-nli-tiny', result);
  }, 300_000);

  afterAll(async () => {
    await app?.close();
    await db?.$disconnect();
  });

  it('serves the NLI report’s stored curve in GraphQL, the JSON download and the CSV', async () => {
    const data = await gql(`query($slug: String!) { robustness(taskSlug: $slug) { metric tradeoff { with w accuracy ci { low high } signature } } }`, { slug });
    const [nli] = data.robustness;
    expect(nli.metric).toBe('nli');
    expect(nli.tradeoff).toHaveLength(11);
    expect(nli.tradeoff[3]).toEqual({ with: 'chrf', w: 0.3, accuracy: expect.closeTo(0.203, 12), ci: { low: expect.closeTo(0.193, 12), high: expect.closeTo(0.213, 12) }, signature: 'combined|w:0.3' });

    const json = JSON.parse((await request(app.getHttpServer()).get(`/api/tasks/${slug}/robustness.json`)).text);
    expect(json.reports[0].tradeoff.map((p: { w: number }) => p.w)).toEqual(WEIGHTS);
    const csv = (await request(app.getHttpServer()).get(`/api/tasks/${slug}/robustness.csv`)).text.trimEnd().split('\r\n');
    const curveRows = csv.filter((r) => r.startsWith('combined:nli+chrf,'));
    expect(curveRows).toHaveLength(11);
    expect(defined(curveRows[10]).split(',').slice(-7)).toEqual(['overall', '0.21', '0.2', '0.22', '2400', '', '1']);
  });

  it('adds the combined metric’s correlation per w to the NLI report card: w = 0 is chrF’s, w = 1 NLI’s, w = .2 as recomputed', async () => {
    const data = await gql(
      `query($phaseId: ID!) { reportCard(phaseId: $phaseId) { metrics { metric humanCorrelation { segmentPearson systemPearson segmentN }
        tradeoff { with w segmentPearson systemPearson segmentN } } } }`,
      { phaseId },
    );
    const [nli, chrf] = data.reportCard.metrics;
    expect([nli.metric, chrf.metric]).toEqual(['nli', 'chrf']);
    expect(chrf.tradeoff).toBeNull();
    expect(nli.tradeoff.map((p: { with: string; w: number }) => `${p.with}@${p.w}`)).toEqual(WEIGHTS.map((w) => `chrf@${w}`));
    const at = (w: number) => nli.tradeoff.find((p: { w: number }) => p.w === w);
    // Pearson is invariant under the positive affine min–max scaling, so the ends are the components.
    expect(at(0).segmentPearson).toBeCloseTo(chrf.humanCorrelation.segmentPearson, 10);
    expect(at(1).segmentPearson).toBeCloseTo(nli.humanCorrelation.segmentPearson, 10);
    expect(at(0).segmentN).toBe(560);
    // libs/robustness/README.md report card: chrF .531, NLI (test-nli-tiny) .319 segment Pearson.
    expect(at(0).segmentPearson).toBeCloseTo(0.531, 3);
    expect(at(1).segmentPearson).toBeCloseTo(0.319, 3);

    // w = .2 recomputed here: scale each component over every stored score of the phase, combine,
    // average a joined "A+B" judgement over its systems, Pearson with the human scores.
    const systems = [...stored.chrf.keys()];
    const flat = (m: 'nli' | 'chrf') => systems.flatMap((s) => defined(stored[m].get(s)));
    const n = minMaxScale(flat('nli'));
    const c = minMaxScale(flat('chrf'));
    const combined = new Map(systems.map((s, k) => [s, sids.map((_, i) => 0.2 * defined(n[k * sids.length + i]) + 0.8 * defined(c[k * sids.length + i]))]));
    const aligned = alignJudgements(da, systems);
    const seg = aligned.segments.map((g) => g.systems.reduce((a, s) => a + defined(defined(combined.get(s))[sids.indexOf(g.sid)]), 0) / g.systems.length);
    expect(at(0.2).segmentPearson).toBeCloseTo(pearson(seg, aligned.segments.map((g) => g.human)), 10);
    const sys = aligned.systems.map((s) => defined(combined.get(s)).reduce((a, b) => a + b, 0) / sids.length);
    expect(at(0.2).systemPearson).toBeCloseTo(pearson(sys, aligned.systemHuman), 10);
  });
});
