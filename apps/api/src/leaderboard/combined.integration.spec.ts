// The combined NLI metric, the leaderboard downloads and NLI availability, against a real
// PostgreSQL: scores are stored with SubmissionRepository.saveScores (no worker), then read back
// through GraphQL and the REST downloads.
import type { INestApplication } from '@nestjs/common';
import { loadApiConfig } from '@podium/config';
import { createDb, type Db } from '@podium/db';
import { parseCsvRecords } from '@podium/contracts';
import { mean as exactMean } from '@podium/ranking';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import request from 'supertest';
import { LeaderboardJobRunner } from '../../../../test/support/leaderboards';
import { createApp } from '../app';
import { defined } from '../../../../test/support/defined';
import { DATABASE_URL, createAdminToken, describeWithDatabase } from '../../../../test/support/database';
import { createOpenPhase, type OpenPhase } from '../../../../test/support/phases';

// Real PostgreSQL (and Nest apps) under a loaded 2-core machine: far slower than Jest's 5 s default.
jest.setTimeout(60_000);

const suite = describeWithDatabase('combined.integration.spec');

// Our own pg-boss schema, so no running worker scores (and overwrites) the hand-written scores.
const QUEUE_SCHEMA = 'pgboss_combined_it';
const ROOT = path.resolve(__dirname, '../../../..');
const suffix = randomBytes(4).toString('hex');
const NLI_SIG = 'nli|model:test@abc|formula:e|version:test';
const CHRF_SIG = 'chrF2|version:test';
const TER_SIG = 'TER|version:test';

interface GqlResult {
  data: Record<string, any> | null; // eslint-disable-line @typescript-eslint/no-explicit-any -- test helper over arbitrary queries
  errors?: { message: string; extensions: Record<string, unknown> }[];
}

// Every field of the leaderboard, to compare the JSON download with GraphQL field by field.
const INTERVAL = '{ low high }';
const RANKS = '{ best worst }';
const FULL_BOARD = `updating stamp computedAt phaseId metric higherIsBetter metricSignature availableMetrics test correction seed resamples instanceCount scoredOn { part instances total note } disagreement notes
  resamplesChosen smallestReachableP alpha significanceWarnings mainAggregation corpusSignature clusterDefinition
  clusterTests { aggregation test label } methods { key label description intervalKind direction clusters test testLabel } btFiniteMle btNote btComponents { tier systems }
  systems { submissionId system team isBaseline n corpusScore corpusCi { mean ci low high } corpusSignature signature mean meanCi ${INTERVAL} median medianCi ${INTERVAL}
    bt btTier btCi ${INTERVAL} elo trueskill { mu sigma } rank { mean median bt elo trueskill corpus }
    rankInterval { mean ${RANKS} median ${RANKS} bt ${RANKS} elo ${RANKS} trueskill ${RANKS} corpus ${RANKS} } cluster { mean median bt corpus } clusterDisagreement
    values { method value interval ${INTERVAL} rank rankInterval ${RANKS} cluster } }
  pairs { aSubmissionId bSubmissionId a b wins losses ties pBt medianDiff meanDiff p pAdjusted pTest testResults { test p }
    significant { mean median bt corpus } }`;

/** Downloaded CSV as objects keyed by the header, read with the project's one CSV dialect. */
function parseCsv(text: string): Record<string, string>[] {
  const [header, ...rows] = parseCsvRecords(text).map((r) => r.fields);
  const cols = defined(header, 'the CSV header');
  return rows.map((r) => Object.fromEntries(r.map((v, i) => [defined(cols[i], `column ${i}`), v])));
}

suite('combined metric and leaderboard downloads against PostgreSQL', () => {
  // Cases read the phase built in beforeAll (systems A and B) and never change it; a case that
  // changes a phase (settings, a new submission) builds its own with scoredPhase(), so cases run
  // in any order (`--randomize`).
  let app: INestApplication;
  let db: Db;
  // No worker serves this suite's queue: the runner computes what the API queued, as a worker would.
  let runner: LeaderboardJobRunner;
  let organiserToken: string;
  let shared: ScoredPhase;
  let phaseId: string;
  let aliceToken: string;
  let seq = 0;

  const gql = async (query: string, variables: Record<string, unknown> = {}, token?: string): Promise<GqlResult> => {
    const req = request(app.getHttpServer()).post('/graphql').send({ query, variables });
    if (token) req.set('Authorization', `Bearer ${token}`);
    return (await req).body as GqlResult;
  };
  const ok = async (query: string, variables: Record<string, unknown> = {}, token?: string) => {
    const r = await gql(query, variables, token);
    if (r.errors) throw new Error(`GraphQL errors: ${JSON.stringify(r.errors)}`);
    return defined(r.data, 'GraphQL data');
  };
  /** The board once the worker's job for the phase's current data ran (the first read of a view queues it). */
  const settledBoard = async (query: string, variables: Record<string, unknown> = {}, token = organiserToken) => {
    const asked = /\bupdating\b/.test(query);
    const q = asked ? query : query.replace(/(leaderboard\([^)]*\)\s*\{)/, '$1 updating ');
    const { updating, ...rest } = await runner.settled(async () => (await ok(q, variables, token))['leaderboard']);
    return asked ? { updating, ...rest } : rest;
  };
  /** leaderboard.json/csv once current; the JSON says whether it is updating, the CSV comes with the JSON of the same view. */
  const settledGet = async (url: string) => {
    const json = url.replace('/leaderboard.csv', '/leaderboard.json');
    await runner.settled(async () => JSON.parse((await get(json)).text) as { updating: boolean });
    return get(url);
  };
  const get = (url: string, token = organiserToken) => request(app.getHttpServer()).get(url).set('Authorization', `Bearer ${token}`);

  interface ScoredPhase extends OpenPhase {
    slug: string;
    /** A member of the team. */
    aliceToken: string;
    /** Submission id per system name. */
    ids: Record<string, string>;
  }

  async function submitAndScore(p: ScoredPhase, system: string, nli: number[], chrf: number[], ter: number[]): Promise<string> {
    const id = await p.submit(system);
    await p.score(id, { metric: 'nli', signature: NLI_SIG, values: nli }, { metric: 'chrf', signature: CHRF_SIG, values: chrf }, { metric: 'ter', signature: TER_SIG, values: ter });
    p.ids[system] = id;
    return id;
  }

  /** A task with NLI, chrF, TER (and an unavailable NLI model), an open phase of 3 instances, a team, and systems A and B scored. */
  async function scoredPhase(): Promise<ScoredPhase> {
    const n = ++seq;
    const slug = `comb-${suffix}-${n}`;
    const phase = await createOpenPhase((query, variables) => ok(query, variables, organiserToken), db, {
      slug,
      title: 'Combined',
      metrics: [
        { key: 'nli', name: 'nli' },
        { key: 'chrf', name: 'chrf' },
        { key: 'ter', name: 'ter' },
        { key: 'nli-big', name: 'nli', options: { model: 'no-such-nli-model' } },
      ],
      instances: [
        { id: 'x1', source: 'Das Haus.', references: ['The house.'] },
        { id: 'x2', source: 'Es regnet.', references: ['It rains.'] },
        { id: 'x3', source: 'Guten Morgen.', references: ['Good morning.'] },
      ],
      leaderboardBeforeClose: false,
      team: { name: `cteam-${suffix}-${n}`, member: `calice-${suffix}-${n}` },
      limits: { daily: 5, total: 10 },
    });
    const aliceToken: string = (await ok(`mutation { issueToken(userName: "calice-${suffix}-${n}", label: "t") }`, {}, organiserToken))['issueToken'];
    const p: ScoredPhase = { ...phase, slug, aliceToken, ids: {} };
    await submitAndScore(p, 'A', [0.9, 0.5, 0.1], [60, 40, 20], [20, 40, 60]);
    await submitAndScore(p, 'B', [0.3, 0.7, 0.2], [50, 30, 80], [30, 10, 50]);
    return p;
  }

  beforeAll(async () => {
    const config = loadApiConfig({ DATABASE_URL, PODIUM_WEB_DIST: '/nonexistent' });
    app = await createApp(config, { logger: false, queueSchema: QUEUE_SCHEMA, root: ROOT });
    db = createDb(defined(DATABASE_URL, 'DATABASE_URL'));
    runner = new LeaderboardJobRunner(defined(DATABASE_URL, 'DATABASE_URL'), QUEUE_SCHEMA);
    organiserToken = await createAdminToken(db, `corg-${suffix}`, 'combined integration test');
    shared = await scoredPhase();
    ({ phaseId, aliceToken } = shared);
  }, 60_000);

  afterAll(async () => {
    await runner?.stop();
    await app?.close();
    await db?.$disconnect();
  });

  // Hand computation, w = .2 (MT default), N over all 6 NLI scores: bounds [.1, .9];
  // chrF over all 6 scores: bounds [20, 80]. C = .2·(N − .1)/.8 + .8·(chrF − 20)/60:
  const A_CHRF = [0.2 * 1 + 0.8 * (40 / 60), 0.2 * 0.5 + 0.8 * (20 / 60), 0];
  const B_CHRF = [0.2 * 0.25 + 0.8 * 0.5, 0.2 * 0.75 + 0.8 * (10 / 60), 0.2 * 0.125 + 0.8 * 1];
  // TER is lower-is-better, bounds [10, 60], flipped: (60 − TER)/50.
  const A_TER = [0.2 * 1 + 0.8 * 0.8, 0.2 * 0.5 + 0.8 * 0.4, 0];
  const B_TER = [0.2 * 0.25 + 0.8 * 0.6, 0.2 * 0.75 + 0.8 * 1, 0.2 * 0.125 + 0.8 * 0.2];
  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

  it('ranks by the combined metric computed from the stored NLI and chrF scores', async () => {
    const board = await settledBoard(`query($p: ID!) { leaderboard(phaseId: $p, metric: "combined", resamples: 100) { ${FULL_BOARD} } }`, { p: phaseId });
    expect(board).toMatchObject({ metric: 'combined:nli+chrf', higherIsBetter: true, instanceCount: 3 });
    expect(board.availableMetrics).toEqual(['chrf', 'nli', 'ter', 'combined:nli+chrf', 'combined:nli+ter']);
    expect(board.metricSignature).toBe(`combined|nli:(${NLI_SIG})|with:(${CHRF_SIG})|w:0.2|M-dir:higher|scale:phase-minmax|N:[0.1,0.9]|M:[20,80]|n:6`);
    expect(board.notes.join(' ')).toMatch(/corpus score is the mean of its instance values/);
    const by = Object.fromEntries(board.systems.map((s: { system: string }) => [s.system, s]));
    expect(board.systems.map((s: { system: string }) => s.system)).toEqual(['B', 'A']);
    expect(by['A'].mean).toBeCloseTo(mean(A_CHRF), 10);
    expect(by['B'].mean).toBeCloseTo(mean(B_CHRF), 10);
    expect(by['A'].corpusScore).toBeCloseTo(mean(A_CHRF), 10);
    expect(by['A'].median).toBeCloseTo(defined(A_CHRF[1], 'A_CHRF[1]'), 10);
    expect(by['A'].corpusSignature).toBe(`${board.metricSignature}|corpus:mean`);
  });

  it('flips a lower-is-better component (TER) before scaling', async () => {
    const board = await settledBoard(`query($p: ID!) { leaderboard(phaseId: $p, metric: "combined:nli+ter", resamples: 50) { metric metricSignature systems { system mean median } } }`, { p: phaseId });
    expect(board.metricSignature).toContain('|M-dir:lower|scale:phase-minmax|N:[0.1,0.9]|M:[10,60]|n:6');
    const by = Object.fromEntries(board.systems.map((s: { system: string; mean: number }) => [s.system, s.mean]));
    expect(by['A']).toBeCloseTo(mean(A_TER), 10);
    expect(by['B']).toBeCloseTo(mean(B_TER), 10);
  });

  it('pages combined instance scores for organisers and keeps them from participants before close', async () => {
    const page = await ok(
      `query($s: ID!) { instanceScores(submissionId: $s, metric: "combined", order: DESC, limit: 2) { total rows { instanceId output score signature } } }`,
      { s: shared.ids['A'] },
      organiserToken,
    );
    expect(page['instanceScores'].total).toBe(3);
    expect(page['instanceScores'].rows.map((r: { instanceId: string }) => r.instanceId)).toEqual(['x1', 'x2']);
    expect(page['instanceScores'].rows[0].score).toBeCloseTo(defined(A_CHRF[0], 'A_CHRF[0]'), 10);
    expect(page['instanceScores'].rows[0].output).toBe('a');
    expect(page['instanceScores'].rows[0].signature).toMatch(/^combined\|nli:/);
    const hidden = await gql(`query($s: ID!) { instanceScores(submissionId: $s, metric: "combined") { total } }`, { s: shared.ids['A'] }, aliceToken);
    expect(hidden.errors?.[0]?.extensions['code']).toBe('FORBIDDEN');
  });

  it('adds combined rows to the phase download only when asked', async () => {
    const plain = parseCsv((await get(`/api/phases/${phaseId}/scores.csv`)).text);
    expect(new Set(plain.map((r) => r['metric']))).toEqual(new Set(['nli', 'chrf', 'ter']));
    const res = await get(`/api/phases/${phaseId}/scores.csv?metric=combined`);
    expect(res.status).toBe(200);
    const rows = parseCsv(res.text);
    expect(rows).toHaveLength(plain.length + 6);
    const combined = rows.filter((r) => r['metric'] === 'combined:nli+chrf');
    expect(combined).toHaveLength(6);
    for (const [k, id] of ['x1', 'x2', 'x3'].entries()) {
      expect(Number(defined(combined.find((r) => r['system'] === 'A' && r['instance_id'] === id), `A's row of ${id}`)['score'])).toBeCloseTo(defined(A_CHRF[k], 'A_CHRF[k]'), 12);
      expect(Number(defined(combined.find((r) => r['system'] === 'B' && r['instance_id'] === id), `B's row of ${id}`)['score'])).toBeCloseTo(defined(B_CHRF[k], 'B_CHRF[k]'), 12);
    }
    // '+' must be sent as %2B; a literal '+' arrives as a space and is restored.
    for (const q of ['combined:nli%2Bter', 'combined:nli+ter']) {
      const jsonl = await get(`/api/phases/${phaseId}/scores.jsonl?metric=${q}`);
      const lines = jsonl.text.trim().split('\n').map((l) => JSON.parse(l));
      expect(lines.filter((l) => l.metric === 'combined:nli+ter')).toHaveLength(6);
    }
    const bad = await get(`/api/phases/${phaseId}/scores.csv?metric=combined:ter%2Bnli`);
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ code: 'INVALID_INPUT', field: 'metric' });
  });

  it('reads combined scores from one place: instance pages, the phase download and the board agree bit for bit', async () => {
    // PhaseMetrics.derivedRows (libs/leaderboard) feeds the pages and the download, PhaseMetrics.matrix
    // the board; all three must show the same doubles, not merely close ones.
    const board = await settledBoard(`query($p: ID!) { leaderboard(phaseId: $p, metric: "combined:nli+ter", resamples: 50) { systems { system mean } } }`, { p: phaseId });
    const rows = parseCsv((await get(`/api/phases/${phaseId}/scores.csv?metric=combined:nli%2Bter`)).text).filter((r) => r['metric'] === 'combined:nli+ter');
    for (const system of ['A', 'B']) {
      const page = await ok(
        `query($s: ID!) { instanceScores(submissionId: $s, metric: "combined:nli+ter", limit: 10) { rows { instanceId score } } }`,
        { s: shared.ids[system] },
        organiserToken,
      );
      const paged: { instanceId: string; score: number }[] = page['instanceScores'].rows;
      const downloaded = rows.filter((r) => r['system'] === system).map((r) => ({ instanceId: r['instance_id'], score: Number(r['score']) }));
      expect(downloaded).toEqual(paged);
      // the board's mean is the ranking mean of exactly these doubles, in instance order
      const boardMean = board.systems.find((s: { system: string }) => s.system === system).mean;
      expect(boardMean).toBe(exactMean(paged.map((r) => r.score)));
      // and they are the hand computation's (above)
      paged.forEach((r, i) => expect(r.score).toBeCloseTo(defined((system === 'A' ? A_TER : B_TER)[i], 'hand value'), 12));
    }
  });

  it('serves the leaderboard as JSON with exactly the GraphQL numbers', async () => {
    const board = await settledBoard(`query($p: ID!) { leaderboard(phaseId: $p, metric: "combined", test: WILCOXON, correction: BH, seed: 7, resamples: 200) { ${FULL_BOARD} } }`, { p: phaseId });
    const res = await settledGet(`/api/phases/${phaseId}/leaderboard.json?metric=combined&test=wilcoxon&correction=BH&seed=7&resamples=200`);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="comb-[0-9a-f]+-[0-9]+-test-leaderboard-combined-nli-chrf\.json"$/);
    expect(JSON.parse(res.text)).toEqual(board);
    expect(board.pairs).toHaveLength(1);
    expect(board.pairs[0].pAdjusted).not.toBeNull();
    // The deprecated fixed-field `tests` (not in the document) still answers, made from testResults
    // by the registry: the same p for each test, null for the corpus-score tests this metric lacks.
    const old = await settledBoard(`query($p: ID!) { leaderboard(phaseId: $p, metric: "combined", test: WILCOXON, correction: BH, seed: 7, resamples: 200) { pairs { testResults { test p } tests { ttest wilcoxon sign mood bootstrap ar bootstrapCorpus arCorpus } } } }`, { p: phaseId });
    const [pair] = old.pairs;
    const byKey = Object.fromEntries(pair.testResults.map((r: { test: string; p: number | null }) => [r.test, r.p]));
    expect(pair.tests).toEqual({ ttest: byKey.ttest, wilcoxon: byKey.wilcoxon, sign: byKey.sign, mood: byKey.mood, bootstrap: byKey.bootstrap, ar: byKey.ar, bootstrapCorpus: null, arCorpus: null });
    expect(pair.tests.wilcoxon).toEqual(expect.any(Number));

    const stored = await settledBoard(`query($p: ID!) { leaderboard(phaseId: $p, resamples: 100) { ${FULL_BOARD} } }`, { p: phaseId });
    expect(JSON.parse((await settledGet(`/api/phases/${phaseId}/leaderboard.json?resamples=100`)).text)).toEqual(stored);
  });

  it('takes resamples and seed from the phase settings that only organisers set, and chooses resamples when none is set', async () => {
    const { phaseId, aliceToken } = await scoredPhase(); // changes the phase's settings
    const auto = await settledBoard(`query($p: ID!) { leaderboard(phaseId: $p, metric: "chrf") { resamples resamplesChosen seed smallestReachableP } }`, { p: phaseId });
    expect(auto).toMatchObject({ resamplesChosen: true, seed: 12345 });
    expect(auto.smallestReachableP).toBeLessThanOrEqual(0.005);
    const denied = await gql(`mutation($p: ID!) { setPhaseSignificance(phaseId: $p, resamples: 500, seed: 9) { resamples } }`, { p: phaseId }, aliceToken);
    expect(denied.errors?.[0]?.extensions['code']).toBe('FORBIDDEN');
    const set = (await ok(`mutation($p: ID!) { setPhaseSignificance(phaseId: $p, resamples: 500, seed: 9) { phaseId resamples seed } }`, { p: phaseId }, organiserToken))[
      'setPhaseSignificance'
    ];
    expect(set).toEqual({ phaseId, resamples: 500, seed: 9 });
    const fixed = await settledBoard(`query($p: ID!) { leaderboard(phaseId: $p, metric: "chrf") { resamples resamplesChosen seed } }`, { p: phaseId });
    expect(fixed).toEqual({ resamples: 500, resamplesChosen: false, seed: 9 });
  });

  it('serves the leaderboard as CSV, one row per system with the same numbers', async () => {
    const board = await settledBoard(`query($p: ID!) { leaderboard(phaseId: $p, metric: "chrf", seed: 3, resamples: 150) { ${FULL_BOARD} } }`, { p: phaseId });
    const res = await settledGet(`/api/phases/${phaseId}/leaderboard.csv?metric=chrf&seed=3&resamples=150`);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    const rows = parseCsv(res.text);
    expect(rows.map((r) => r['system'])).toEqual(board.systems.map((s: { system: string }) => s.system));
    for (const [k, s] of board.systems.entries()) {
      const r = defined(rows[k], 'rows[k]');
      expect(Number(r['rank_mean'])).toBe(s.rank.mean);
      expect(Number(r['rank_bt'])).toBe(s.rank.bt);
      expect(Number(r['mean'])).toBe(s.mean);
      expect(Number(r['mean_ci_low'])).toBe(s.meanCi.low);
      expect(Number(r['mean_ci_high'])).toBe(s.meanCi.high);
      expect(Number(r['median'])).toBe(s.median);
      expect(Number(r['bt'])).toBe(s.bt);
      expect(Number(r['bt_ci_low'])).toBe(s.btCi.low);
      expect(Number(r['elo'])).toBe(s.elo);
      expect(Number(r['trueskill'])).toBe(s.trueskill.mu);
      expect(Number(r['mean_win_rate'])).toBe(s.values.find((v: { method: string }) => v.method === 'mean_win_rate').value);
      expect(Number(r['trueskill_sigma'])).toBe(s.trueskill.sigma);
      expect(Number(r['cluster_mean'])).toBe(s.cluster.mean);
      expect(Number(r['corpus_score'])).toBe(s.corpusScore);
      expect(r['metric']).toBe('chrf');
      expect(r['seed']).toBe('3');
    }
  });

  it('validates the download arguments like GraphQL (400 naming the field) and applies the same visibility', async () => {
    const cases: [string, string][] = [
      ['test=foo', 'test'],
      ['correction=bonferroni', 'correction'],
      ['seed=1.5', 'seed'],
      ['seed=99999999999', 'seed'],
      ['resamples=0', 'resamples'],
      ['resamples=100001', 'resamples'],
      ['metric=bogus', 'metric'],
    ];
    for (const [q, field] of cases) {
      const res = await get(`/api/phases/${phaseId}/leaderboard.json?${q}`);
      expect([q, res.status, res.body.field]).toEqual([q, 400, field]);
      expect(res.body.code).toBe('INVALID_INPUT');
    }
    expect((await get(`/api/phases/${phaseId}/leaderboard.csv?metric=bogus`)).body.error).toMatch(/metric 'bogus' is not configured for this task \(configured: nli, chrf, ter, nli-big; combined: combined:nli\+chrf, combined:nli\+ter\)/);
    expect((await get(`/api/phases/${phaseId}/leaderboard.json`, aliceToken)).status).toBe(403);
    expect((await request(app.getHttpServer()).get(`/api/phases/${phaseId}/leaderboard.csv`)).status).toBe(403);
    expect((await get(`/api/phases/00000000-0000-4000-8000-000000000000/leaderboard.json`)).status).toBe(404);
  });

  it('rescales every submission when a new one widens the bounds', async () => {
    const p = await scoredPhase(); // adds a submission
    const { phaseId } = p;
    const query = `query($p: ID!) { leaderboard(phaseId: $p, metric: "combined", resamples: 50) { metricSignature systems { system mean } } }`;
    const before = await settledBoard(query, { p: phaseId });
    await submitAndScore(p, 'C', [1.0, 0.0, 0.5], [10, 90, 50], [0, 100, 50]);
    const after = await settledBoard(query, { p: phaseId });
    // N bounds [0, 1], chrF bounds [10, 90]: A's C = .2·N + .8·(chrF − 10)/80.
    const A_AFTER = [0.2 * 0.9 + 0.8 * (50 / 80), 0.2 * 0.5 + 0.8 * (30 / 80), 0.2 * 0.1 + 0.8 * (10 / 80)];
    expect(after.metricSignature).toContain('|N:[0,1]|M:[10,90]|n:9');
    expect(after.metricSignature).not.toBe(before.metricSignature);
    const a = after.systems.find((s: { system: string }) => s.system === 'A');
    expect(a.mean).toBeCloseTo(mean(A_AFTER), 10);
    expect(a.mean).not.toBeCloseTo(mean(A_CHRF), 3);
    const csv = parseCsv((await get(`/api/phases/${phaseId}/scores.csv?metric=combined`)).text).filter((r) => r['metric'] === 'combined:nli+chrf');
    expect(csv).toHaveLength(9);
    expect(Number(defined(csv.find((r) => r['system'] === 'A' && r['instance_id'] === 'x1'), "A's row of x1")['score'])).toBeCloseTo(defined(A_AFTER[0], 'A_AFTER[0]'), 12);
  });

  it('reports each NLI metric as available or not, with the fetch command', async () => {
    const task = (await ok(`query($s: String!) { task(slug: $s) { metrics { key available unavailableReason } } }`, { s: shared.slug }))['task'];
    expect(task.metrics).toEqual([
      { key: 'nli', available: true, unavailableReason: null },
      { key: 'chrf', available: true, unavailableReason: null },
      { key: 'ter', available: true, unavailableReason: null },
      {
        key: 'nli-big',
        available: false,
        unavailableReason: "NLI model 'no-such-nli-model' is not present in models/no-such-nli-model; fetch it with: npm run -s podium -- models fetch no-such-nli-model",
      },
    ]);
  });
});
