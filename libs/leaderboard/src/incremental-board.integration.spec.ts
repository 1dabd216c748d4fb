/**
 * Issue #28 / ADR 0027: the board computed after one more submission, with the memo the previous
 * computation kept, is the board computed from scratch (memos deleted), every field but the time
 * it was computed; and the memo made the last computation one system's work.
 */
import { createDb, IdentityRepository, LeaderboardRepository, Role, ScoreRepository, SubmissionRepository, TaskKind, TaskRepository, type Db } from '@podium/db';
import { getMetric, parseMetricOptions } from '@podium/metrics';
import { budgetedResamples, mulberry32 } from '@podium/ranking';
import { randomUUID } from 'node:crypto';
import { defined } from '../../../test/support/defined';
import { FILL_SYSTEMS_AT_ONCE } from './compute';
import { computePhaseBoards, type ComputedBoard } from './phase-boards';
import { parseMemo } from './memo';
import { defaultView, viewKey } from './view';

jest.setTimeout(120_000);

const url = process.env['DATABASE_URL'];
const describeDb = url ? describe : describe.skip;

describeDb('incremental boards (real PostgreSQL)', () => {
  let db: Db;
  const taskRepo = () => new TaskRepository(db);
  let phaseId: string;
  let addSystem: (s: number) => Promise<void>;
  let queueSystem: (s: number) => Promise<string>;

  beforeAll(async () => {
    db = createDb(defined(url, 'DATABASE_URL'), { maxConnections: 3 });
    const tasks = new TaskRepository(db);
    const submissions = new SubmissionRepository(db);
    const identity = new IdentityRepository(db);
    const suffix = randomUUID().slice(0, 8);
    const organiserId = (await identity.createUser(`incorg-${suffix}`, Role.ORGANISER)).id;
    const task = await tasks.createTask({
      slug: `inc-${suffix}`, title: 't', kind: TaskKind.MT, sourceLang: 'de', targetLang: 'en', metrics: [{ key: 'nli', name: 'nli', options: {} }, { key: 'bleu', name: 'bleu', options: {} }] as never, createdById: organiserId,
    });
    const phase = await tasks.createPhase({
      taskId: task.id, name: 'test', opensAt: new Date('2020-01-01'), closesAt: new Date('2099-01-01'), dailyLimit: 50, totalLimit: 50, leaderboardBeforeClose: true,
    });
    // a fixed seed and resample count: the seeded bootstrap, randomisation and clusters are compared too
    await tasks.setPhaseSignificance(phase.id, { resamples: 300, seed: 4242 });
    phaseId = phase.id;
    await tasks.uploadTestSet(phase.id, 'ts', Array.from({ length: 150 }, (_, i) => ({ externalId: `s${(i * 37) % 150}`, source: `quelle ${i}`, references: [`ref ${i}`] })));
    const ids = await tasks.instanceIdsOf(defined(defined(await tasks.phaseById(phase.id), 'phase').testSetId, 'test set'));
    // system s's output on test-set position k: the reference on a third of them, so BLEU's statistics differ between systems
    const outputOf = (s: number, k: number) => ((k + s) % 3 === 0 ? `ref ${k}` : `out ${s} ${k}`);
    const bleu = getMetric('bleu', parseMetricOptions('bleu', {}), 1);
    // A submission as an upload leaves it: queued, not scored.
    queueSystem = async (s: number) => {
      const team = (await identity.createTeam(`incteam-${suffix}-${s}`, [])).id;
      const sub = await submissions.create(
        { phaseId, teamId: team, submittedById: organiserId, systemName: `sys${s}`, description: '', checksum: `c${s}`, outputs: ids.map((i, k) => ({ instanceId: i.id, text: outputOf(s, k) })) },
        async () => undefined,
      );
      return sub.id;
    };
    addSystem = async (s: number) => {
      const sub = { id: await queueSystem(s) };
      const r = mulberry32(s + 1);
      // rounded to two decimals: ties between systems occur
      const values = ids.map(() => Math.round(Math.min(0.999, r.next() * 0.8 + s * 0.03) * 100) / 100);
      // BLEU as the worker stores it: sentence scores, per-instance statistics, the corpus score from their sums
      const stats = ids.map((_, k) => bleu.stats(outputOf(s, k), [`ref ${k}`]));
      const sums = stats.reduce((acc, row) => acc.map((v, c) => v + (row[c] ?? 0)), new Array<number>(stats[0]?.length ?? 0).fill(0));
      await submissions.saveScores(
        sub.id,
        [
          { metric: 'nli', signature: 'nli|test', values },
          { metric: 'bleu', signature: bleu.sentenceSignature, values: stats.map((row) => bleu.corpusFromStats([row])), stats },
        ],
        [
          { metric: 'nli', signature: 'nli|test', value: values.reduce((a, b) => a + b, 0) / values.length },
          { metric: 'bleu', signature: bleu.signature, value: bleu.corpusFromStats([sums]) },
        ],
      );
    };
  });

  afterAll(async () => {
    await db?.$disconnect();
  });

  const boardsOf = async (options: Parameters<typeof computePhaseBoards>[4] = {}): Promise<{ boards: Map<string, Record<string, unknown>>; summary: Awaited<ReturnType<typeof computePhaseBoards>> }> => {
    const out = new Map<string, Record<string, unknown>>();
    const summary = await computePhaseBoards(
      db,
      phaseId,
      null,
      (b: ComputedBoard) => {
        const { computedAt: _computedAt, ...rest } = JSON.parse(b.body) as Record<string, unknown>;
        out.set(b.viewKey, rest);
      },
      // 6 × 150 cells: below the production threshold, so the memo is asked for
      { memoMinCells: 0, ...options },
    );
    return { boards: out, summary };
  };

  it('adds the last system with the kept memo and gives the board from scratch', async () => {
    for (let s = 0; s < 5; s++) await addSystem(s);
    const first = await boardsOf();
    expect(first.summary.memoUses?.length).toBeGreaterThan(0);
    await addSystem(5);
    // which submissions' BLEU statistics are read: only the one the memos do not hold (issue #28)
    const read = jest.spyOn(ScoreRepository.prototype, 'sufficientStatistics');
    const incremental = await boardsOf();
    const asked = read.mock.calls.filter(([, metric]) => metric === 'bleu').map(([ids]) => ids);
    read.mockRestore();
    expect(asked.length).toBeGreaterThan(0);
    for (const ids of asked) expect(ids).toHaveLength(1);
    // the default view reused the five systems and their ten pairs, and computed one system and five pairs
    expect(incremental.summary.memoUses?.[0]?.use).toEqual({ systemsReused: 5, systemsComputed: 1, pairsReused: 10, pairsComputed: 5 });
    const kept = await db.leaderboardMemo.findMany({ where: { phaseId } });
    expect(kept.length).toBeGreaterThan(0);
    for (const row of kept) expect(parseMemo(row.body).systems.size).toBe(6);

    // from scratch: no memo, no stored board of this stamp
    await db.leaderboardMemo.deleteMany({ where: { phaseId } });
    await db.storedLeaderboard.deleteMany({ where: { phaseId } });
    const scratch = await boardsOf();
    expect(scratch.summary.memoUses?.[0]?.use).toMatchObject({ systemsReused: 0, pairsReused: 0 });
    expect([...incremental.boards.keys()].sort()).toEqual([...scratch.boards.keys()].sort());
    for (const [key, board] of scratch.boards) expect(incremental.boards.get(key)).toStrictEqual(board);
    const board = defined(scratch.boards.get(JSON.stringify(['', 'primary', null, 'holm', null, null])), 'default board') as { systems: unknown[]; pairs: unknown[] };
    expect(board.systems).toHaveLength(6);
    expect(board.pairs).toHaveLength(15);
  });

  it('fills the memos ahead of the boards while submissions are being scored: the analyses after the fill compute nothing and read no statistics, and the boards are the ones from scratch', async () => {
    // the test above left six systems, their memos and boards; a seventh is scored, an eighth still queued
    await addSystem(6);
    const queued = await queueSystem(7);
    const read = jest.spyOn(ScoreRepository.prototype, 'sufficientStatistics');
    const events: string[] = [];
    const { boards: out, summary: filled } = await boardsOf({ fillMemos: true, onAnalysis: (stage) => events.push(stage), yieldCpu: () => events.push('yield') });
    const asked = read.mock.calls.filter(([, metric]) => metric === 'bleu').map(([ids]) => ids);
    read.mockRestore();
    // BLEU's statistics read once, for the added system (the fill); the analysis after it read none
    expect(asked.filter((ids) => ids.length > 0)).toHaveLength(1);
    expect(asked.flat()).toHaveLength(1);
    expect(filled.fills?.map((f) => f.use)).toContainEqual({ systemsReused: 6, systemsComputed: 1, pairsReused: 15, pairsComputed: 6 });
    expect(filled.memoUses?.length).toBeGreaterThan(0);
    for (const { use } of filled.memoUses ?? []) expect(use).toMatchObject({ systemsComputed: 0, pairsComputed: 0 });
    // the fills first, at the caller's priority; then it yields, and each board keeps nothing the fills did not
    const yielded = events.indexOf('yield');
    expect(yielded).toBeGreaterThan(0);
    expect(events.slice(0, yielded).every((e) => e === 'fill')).toBe(true);
    expect(events.slice(yielded + 1)).toEqual(Array.from({ length: filled.computed }, () => 'plain'));

    await db.leaderboardMemo.deleteMany({ where: { phaseId } });
    await db.storedLeaderboard.deleteMany({ where: { phaseId } });
    const scratch = await boardsOf();
    expect([...out.keys()].sort()).toEqual([...scratch.boards.keys()].sort());
    for (const [key, board] of scratch.boards) expect(out.get(key)).toStrictEqual(board);

    // Nothing being scored: no fill (the analyses add what their memos lack), and it yields at once.
    await db.submission.update({ where: { id: queued }, data: { status: 'FAILED' } });
    await db.storedLeaderboard.deleteMany({ where: { phaseId } });
    events.length = 0;
    const { summary: final } = await boardsOf({ fillMemos: true, onAnalysis: (stage) => events.push(stage), yieldCpu: () => events.push('yield') });
    expect(events[0]).toBe('yield');
    expect(events).not.toContain('fill');
    expect(final.fills).toEqual([]);
  });

  it('stops filling when the last score overtakes it (\'drop\'): the fill under way ends, no other fill begins and no board is computed', async () => {
    await addSystem(8);
    const queued = await queueSystem(9);
    try {
      const events: string[] = [];
      let asked = 0;
      const overtaken = await boardsOf({
        fillMemos: true,
        onAnalysis: (stage) => events.push(stage),
        staleness: () => {
          asked++;
          return Promise.resolve('drop');
        },
      });
      expect(overtaken.summary.abandoned).toBe(true);
      expect(events).toEqual(['fill']);
      expect(asked).toBe(1);
      expect(overtaken.boards.size).toBe(0);
      expect(overtaken.summary.computed).toBe(0);
      // While the stamp is current every analysis is filled first (the default views hold two).
      events.length = 0;
      const current = await boardsOf({ fillMemos: true, onAnalysis: (stage) => events.push(stage), staleness: () => Promise.resolve('current') });
      expect(current.summary.abandoned).toBe(false);
      expect(events.filter((e) => e === 'fill').length).toBeGreaterThanOrEqual(2);
    } finally {
      await db.submission.update({ where: { id: queued }, data: { status: 'FAILED' } });
    }
  });

  it('threads sharing a computation compute each analysis once, between them every view, the same boards as one thread', async () => {
    if ((await db.submission.count({ where: { phaseId } })) < 2) for (let s = 0; s < 3; s++) await addSystem(10 + s);
    // three analyses (three tests) for four views: the last view is the first analysis again
    const views = (['ttest', 'wilcoxon', 'sign', 'ttest'] as const).map((test, i) => ({ ...defaultView('', i === 3 ? 'all' : 'primary'), test }));
    const run = async (share?: { index: number; of: number }) => {
      const out = new Map<string, Record<string, unknown>>();
      const summary = await computePhaseBoards(
        db,
        phaseId,
        views,
        (b: ComputedBoard) => {
          const { computedAt: _computedAt, ...rest } = JSON.parse(b.body) as Record<string, unknown>;
          out.set(b.viewKey, rest);
        },
        { memoMinCells: 0, ...(share ? { share } : {}) },
      );
      return { out, summary };
    };
    await db.storedLeaderboard.deleteMany({ where: { phaseId } });
    const one = await run();
    expect(one.summary.computed).toBe(3);
    const [a, b] = await Promise.all([run({ index: 0, of: 2 }), run({ index: 1, of: 2 })]);
    // analyses 0 and 2 in the first thread (with the view that repeats analysis 0), analysis 1 in the second
    expect([a.summary.computed, b.summary.computed]).toEqual([2, 1]);
    expect([...a.out.keys()]).toEqual([views[0], views[2], views[3]].map((v) => viewKey(defined(v, 'view'))));
    expect([...b.out.keys()]).toEqual([viewKey(defined(views[1], 'view'))]);
    for (const [key, board] of one.out) expect(a.out.get(key) ?? b.out.get(key)).toStrictEqual(board);
  });

  it('encodes a board once for the views that share its analysis: the same bytes and time', async () => {
    await db.storedLeaderboard.deleteMany({ where: { phaseId } });
    const emitted: ComputedBoard[] = [];
    const views = [defaultView('', 'primary'), defaultView('nli', 'primary'), defaultView('', 'all'), defaultView('nli', 'all')];
    const summary = await computePhaseBoards(db, phaseId, views, (b: ComputedBoard) => void emitted.push(b), { memoMinCells: 0 });
    // no team marked a primary: '' and 'nli' (the task's first metric), primary and all, are one analysis
    expect(summary.computed).toBe(1);
    expect(emitted.length).toBe(4);
    const [first, ...rest] = emitted;
    for (const b of rest) {
      expect(b.body).toBe(defined(first, 'first board').body);
      expect(b.computedAt).toEqual(first?.computedAt);
      // compressed once: the very same bytes, not an equal copy (the time alone could match within a millisecond)
      expect(b.brotli).toBe(first?.brotli);
      expect(b.gzip).toBe(first?.gzip);
    }
  });

  it('prices the automatic resample count for the systems still being scored, and not once they are done', async () => {
    await taskRepo().setPhaseSignificance(phaseId, { resamples: null, seed: 4242 });
    const scored = await db.submission.count({ where: { phaseId, status: 'SCORED' } });
    expect(scored).toBeGreaterThanOrEqual(2);
    const instances = 150;
    const resamplesOf = async () => {
      await db.storedLeaderboard.deleteMany({ where: { phaseId } });
      let resamples: unknown;
      await computePhaseBoards(db, phaseId, [defaultView('', 'primary')], (b: ComputedBoard) => {
        resamples = (JSON.parse(b.body) as { resamples: unknown }).resamples;
      }, { memoMinCells: 0 });
      return resamples;
    };
    // Two submissions queued: the board's count is the one for scored + 2 systems (more pairs, a
    // larger recommended count), not the smaller one its scored systems alone would get.
    const queued = [await queueSystem(90), await queueSystem(91)];
    const forAll = budgetedResamples(((scored + 2) * (scored + 1)) / 2, 0.05, 'holm', scored + 2, instances);
    const forScored = budgetedResamples((scored * (scored - 1)) / 2, 0.05, 'holm', scored, instances);
    expect(forAll).not.toBe(forScored);
    expect(await resamplesOf()).toBe(forAll);
    // Nothing left to score (here: they failed): the count of the scored systems alone.
    await db.submission.updateMany({ where: { id: { in: queued } }, data: { status: 'FAILED' } });
    expect(await resamplesOf()).toBe(forScored);
  });

  it('stores a fill\'s memo every FILL_SYSTEMS_AT_ONCE systems, so that a fill stopped midway keeps what it filled', async () => {
    await taskRepo().setPhaseSignificance(phaseId, { resamples: 40, seed: 99 });
    const view = defaultView('', 'primary');
    const noop = () => undefined;
    // the memo holds every scored system in this context
    await db.storedLeaderboard.deleteMany({ where: { phaseId } });
    await computePhaseBoards(db, phaseId, [view], noop, { memoMinCells: 0 });
    const before = await db.submission.count({ where: { phaseId, status: 'SCORED' } });
    expect(before).toBeGreaterThanOrEqual(2);
    for (const s of [30, 31, 32]) await addSystem(s);
    const queued = await queueSystem(33);
    const saves = jest.spyOn(LeaderboardRepository.prototype, 'saveMemo');
    try {
      const summary = await computePhaseBoards(db, phaseId, [view], noop, { memoMinCells: 0, fillMemos: true });
      expect(FILL_SYSTEMS_AT_ONCE).toBe(2);
      expect(summary.fills?.map((f) => f.use.systemsComputed)).toEqual([3]);
      // two systems, the memo stored; the third, stored again (then the analysis may store its own)
      const key = saves.mock.calls[0]?.[1];
      const sizes = saves.mock.calls.filter(([, k]) => k === key).map(([, , body]) => parseMemo(body).systems.size);
      expect(sizes.slice(0, 2)).toEqual([before + 2, before + 3]);
    } finally {
      saves.mockRestore();
      await db.submission.update({ where: { id: queued }, data: { status: 'FAILED' } });
    }
  });

  it('reads a memo it cannot parse as empty (a cache, never an error)', () => {
    expect(parseMemo(new Uint8Array([1, 2, 3])).systems.size).toBe(0);
    expect(parseMemo(null).pairs.size).toBe(0);
  });
});
