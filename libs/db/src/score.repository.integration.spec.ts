import { createHash, randomUUID } from 'node:crypto';
import { InvalidInputError } from '@podium/domain';
import { Pool } from 'pg';
import { createDb, IdentityRepository, LeaderboardRepository, Role, ScoreRepository, SubmissionRepository, TaskKind, TaskRepository, type CachedScoreColumn, type Db, type ScoreColumnCache } from './index';
import { defined } from '../../../test/support/defined';

// Real PostgreSQL under a loaded 2-core machine: far slower than Jest's 5 s default.
jest.setTimeout(60_000);

const url = process.env['DATABASE_URL'];
const describeDb = url ? describe : describe.skip;

describeDb('score columns (real PostgreSQL)', () => {
  let db: Db;
  let tasks: TaskRepository;
  let submissions: SubmissionRepository;
  let scores: ScoreRepository;
  /** The same repository reading matrices through binary COPY (a leaderboard thread's). */
  let bulk: ScoreRepository;
  let pool: Pool;
  let organiserId: string;
  let teamId: string;

  /** A phase with a test set of `n` instances (ids i0…) and one submission per system. */
  async function phaseWith(n: number, systems: string[]) {
    const suffix = randomUUID().slice(0, 8);
    const task = await tasks.createTask({ slug: `cols-${suffix}`, title: 't', kind: TaskKind.MT, sourceLang: 'de', targetLang: 'en', metrics: [], createdById: organiserId });
    const phase = await tasks.createPhase({ taskId: task.id, name: 'p', opensAt: new Date('2020-01-01'), closesAt: new Date('2099-01-01'), dailyLimit: 50, totalLimit: 50, leaderboardBeforeClose: true });
    await tasks.uploadTestSet(phase.id, 'ts', Array.from({ length: n }, (_, i) => ({ externalId: `i${i}`, source: `s${i}`, references: [`r${i}`] })));
    const testSetId = defined(defined(await tasks.phaseById(phase.id), 'the phase').testSetId, 'the phase\'s test set');
    const instances = await tasks.instanceIdsOf(testSetId);
    const ids: string[] = [];
    for (const systemName of systems) {
      const sub = await submissions.create(
        { phaseId: phase.id, teamId, submittedById: organiserId, systemName, description: '', checksum: systemName, bypassLimits: true, outputs: instances.map((i) => ({ instanceId: i.id, text: `out ${systemName} ${i.externalId}` })) },
        async () => undefined,
      );
      ids.push(sub.id);
    }
    return { phaseId: phase.id, testSetId, instances, ids };
  }

  beforeAll(async () => {
    db = createDb(defined(url), { maxConnections: 2 });
    tasks = new TaskRepository(db);
    submissions = new SubmissionRepository(db);
    scores = new ScoreRepository(db);
    pool = new Pool({ connectionString: defined(url), max: 1 });
    bulk = new ScoreRepository(db, pool);
    const identity = new IdentityRepository(db);
    const suffix = randomUUID().slice(0, 8);
    organiserId = (await identity.createUser(`cols-org-${suffix}`, Role.ORGANISER)).id;
    teamId = (await identity.createTeam(`cols-team-${suffix}`, [])).id;
  });
  afterAll(async () => {
    await Promise.all([db.$disconnect(), pool.end()]);
  });

  it('stores one column per metric with its statistics, and returns the statistics per submission in the order asked (null where none)', async () => {
    const { ids } = await phaseWith(3, ['a', 'b']);
    const [a, b] = [defined(ids[0], 'submission a'), defined(ids[1], 'submission b')];
    const stats = [[3, 3, 2, 1, 0, 0, 3, 2, 1, 0], [1, 2, 1, 0, 0, 0, 1, 0, 0, 0], [0, 4, 0, 0, 0, 0, 0, 0, 0, 0]];
    await submissions.saveScores(
      a,
      [
        { metric: 'bleu', signature: 'bleu|eff:yes', values: [40.5, 20.25, 0], stats },
        { metric: 'nli', signature: 'nli|m', values: [0.5, 0.25, 1] },
      ],
      [{ metric: 'bleu', signature: 'bleu|eff:no', value: 30 }, { metric: 'nli', signature: 'nli|m', value: 0.58 }],
    );
    const columns = await db.scoreColumn.findMany({ where: { submissionId: a }, orderBy: { metric: 'asc' } });
    expect(columns.map((c) => [c.metric, c.signature, c.count, c.scored, c.values.length, c.stats === null])).toEqual([
      ['bleu', 'bleu|eff:yes', 3, 3, 24, false],
      ['nli', 'nli|m', 3, 3, 24, true],
    ]);
    const got = await scores.sufficientStatistics([b, a], 'bleu');
    expect(got[0]).toBeNull();
    expect(got[1]).toMatchObject({ signature: 'bleu|eff:yes', stats: { rows: 3, width: 10, data: Float64Array.from(stats.flat()) } });
    expect(await scores.testSetShape(defined(got[1], 'the statistics of a').testSetId)).toEqual({ instances: 3, maxReferences: 1 });
    expect(await scores.sufficientStatistics([a], 'nli')).toEqual([null]);
  });

  it('names each column\'s statistics by the MD5 of its stored bytes, written with the column and renewed when it is replaced', async () => {
    const { ids } = await phaseWith(2, ['a', 'b']);
    const [a, b] = [defined(ids[0], 'submission a'), defined(ids[1], 'submission b')];
    const digestOf = async (id: string) => {
      const row = defined(await db.scoreColumn.findUnique({ where: { submissionId_metric: { submissionId: id, metric: 'chrf' } } }), 'the column');
      return createHash('md5').update(defined(row.stats, 'its statistics')).digest('hex');
    };
    await submissions.saveScores(a, [{ metric: 'chrf', signature: 'chrf|s', values: [1, 2], stats: [[1, 2, 3], [4, 5, 6]] }], []);
    await submissions.saveScores(b, [{ metric: 'chrf', signature: 'chrf|s', values: [3, 4] }], []);
    const [da, db0] = await scores.statisticsDigests([a, b], 'chrf');
    expect(db0).toBeNull();
    expect(da).toEqual({ signature: 'chrf|s', testSetId: expect.any(String), rows: 2, width: 3, digest: await digestOf(a) });
    await submissions.saveScores(a, [{ metric: 'chrf', signature: 'chrf|s', values: [1, 2], stats: [[1, 2, 3], [4, 5, 7]] }], []);
    const [again] = await scores.statisticsDigests([a], 'chrf');
    expect(again?.digest).toBe(await digestOf(a));
    expect(again?.digest).not.toBe(da?.digest);
  });

  it('keeps a scored submission at its full progress when a progress update the worker sent earlier arrives after the final write', async () => {
    const { ids } = await phaseWith(3, ['late-progress']);
    const a = defined(ids[0], 'the submission');
    await submissions.setProgress(a, 1);
    expect((await db.submission.findUniqueOrThrow({ where: { id: a } })).progressDone).toBe(1);
    await submissions.saveScores(a, [{ metric: 'chrf', signature: 's', values: [1, 2, 3] }], [{ metric: 'chrf', signature: 's', value: 2 }]);
    // Seen in CI: `podium submit` printed "scored 2/3" when the update for 2 landed after the final write.
    await submissions.setProgress(a, 2);
    expect(await db.submission.findUniqueOrThrow({ where: { id: a } })).toMatchObject({ status: 'SCORED', progressDone: 3, progressTotal: 3 });
  });

  it('refuses a column of the wrong length or with a non-finite score, and writes nothing', async () => {
    const { ids } = await phaseWith(3, ['a']);
    const a = defined(ids[0], 'submission a');
    await expect(submissions.saveScores(a, [{ metric: 'chrf', signature: 's', values: [1, 2] }], [])).rejects.toThrow(/chrf has 2 scores but the test set has 3 instances/);
    await expect(submissions.saveScores(a, [{ metric: 'chrf', signature: 's', values: [1, Number.NaN, 3] }], [])).rejects.toBeInstanceOf(InvalidInputError);
    await expect(submissions.saveScores(a, [{ metric: 'chrf', signature: 's', values: [1, 2, 3], stats: [[1]] }], [])).rejects.toThrow(/1 statistics rows/);
    expect(await db.scoreColumn.count({ where: { submissionId: a } })).toBe(0);
    expect((await db.submission.findUniqueOrThrow({ where: { id: a } })).status).toBe('QUEUED');
  });

  it('pages instance scores by slicing the column: position order, value order with ties by position, past the end', async () => {
    const { ids } = await phaseWith(6, ['a']);
    const a = defined(ids[0], 'submission a');
    await submissions.saveScores(a, [{ metric: 'chrf', signature: 'chrf|x', values: [5, 1, 5, 3, 0, 9] }], []);
    const page = async (order: 'position' | 'asc' | 'desc', offset: number, limit: number) => {
      const r = await scores.instanceScores(a, 'chrf', { offset, limit, order });
      return { total: r.total, rows: r.rows.map((x) => [x.instance.externalId, x.instance.position, x.value, x.output]) };
    };
    expect(await page('position', 2, 3)).toEqual({ total: 6, rows: [['i2', 2, 5, 'out a i2'], ['i3', 3, 3, 'out a i3'], ['i4', 4, 0, 'out a i4']] });
    expect(await page('position', 5, 10)).toEqual({ total: 6, rows: [['i5', 5, 9, 'out a i5']] });
    expect(await page('position', 6, 10)).toEqual({ total: 6, rows: [] });
    expect((await page('desc', 0, 3)).rows.map((r) => r[0])).toEqual(['i5', 'i0', 'i2']);
    expect((await page('asc', 1, 2)).rows.map((r) => r[0])).toEqual(['i1', 'i3']);
    const first = defined((await scores.instanceScores(a, 'chrf', { offset: 0, limit: 1, order: 'position' })).rows[0], 'the first row');
    expect(first).toMatchObject({ submissionId: a, metric: 'chrf', signature: 'chrf|x', value: 5, instance: { externalId: 'i0', position: 0, source: 's0', references: ['r0'] } });
    expect(await scores.instanceScores(a, 'bleu', { offset: 0, limit: 5, order: 'position' })).toEqual({ total: 0, rows: [] });
  });

  it('keeps rows keyed by instance id as a column with gaps: pages, matrix and downloads skip the missing cells', async () => {
    const { phaseId, testSetId, instances, ids } = await phaseWith(4, ['a', 'b']);
    const [a, b] = [defined(ids[0], 'submission a'), defined(ids[1], 'submission b')];
    await submissions.saveScores(a, [
      { instanceId: defined(instances[3], 'instance 3').id, metric: 'ter', signature: 'ter|x', value: 30 },
      { instanceId: defined(instances[1], 'instance 1').id, metric: 'ter', signature: 'ter|x', value: 10 },
    ], [{ metric: 'ter', signature: 'ter|x', value: 20 }]);
    await submissions.saveScores(b, [{ metric: 'ter', signature: 'ter|y', values: [1, 2, 3, 4] }], [{ metric: 'ter', signature: 'ter|y', value: 2.5 }]);
    expect((await db.scoreColumn.findUniqueOrThrow({ where: { submissionId_metric: { submissionId: a, metric: 'ter' } } })).scored).toBe(2);
    const p = await scores.instanceScores(a, 'ter', { offset: 0, limit: 10, order: 'position' });
    expect([p.total, p.rows.map((r) => [r.instance.externalId, r.value])]).toEqual([2, [['i1', 10], ['i3', 30]]]);
    for (const repository of [scores, bulk]) {
      const m = await repository.matrix(phaseId, 'ter', testSetId);
      expect(m.instances).toEqual(['i0', 'i1', 'i2', 'i3']);
      expect(Array.from(defined(m.values[m.systems.findIndex((s) => s.submissionId === a)], 'a\'s row'))).toEqual([Number.NaN, 10, Number.NaN, 30]);
      expect(Array.from(defined(m.values[m.systems.findIndex((s) => s.submissionId === b)], 'b\'s row'))).toEqual([1, 2, 3, 4]);
      expect(m.signatures).toEqual(m.systems.map((s) => (s.submissionId === a ? 'ter|x' : 'ter|y')));
    }
    const rows = [];
    for await (const page of scores.longRows([b, a], 3)) {
      expect(page.length).toBeLessThanOrEqual(3);
      rows.push(...page.map((r) => [r.submissionId, r.instanceId, r.position, r.signature, r.score]));
    }
    // Ordered by submission id (as the row layout's download was), then metric and position.
    const [x, y] = [a, b].sort();
    const of = (id: string) => (id === a ? [[id, 'i1', 1, 'ter|x', 10], [id, 'i3', 3, 'ter|x', 30]] : [1, 2, 3, 4].map((v, i) => [id, `i${i}`, i, 'ter|y', v]));
    expect(rows).toEqual([...of(defined(x)), ...of(defined(y))]);
  });

  it('refuses keyed rows of an instance outside the submission\'s test set', async () => {
    const one = await phaseWith(2, ['a']);
    const other = await phaseWith(2, ['b']);
    await expect(
      submissions.saveScores(defined(one.ids[0], 'submission a'), [{ instanceId: defined(other.instances[0], 'the other test set\'s instance').id, metric: 'chrf', signature: 's', value: 1 }], []),
    ).rejects.toThrow(/is not in the test set/);
  });

  it('reads a matrix only from columns of the test set asked for', async () => {
    const { phaseId, ids } = await phaseWith(2, ['a']);
    await submissions.saveScores(defined(ids[0], 'submission a'), [{ metric: 'chrf', signature: 's', values: [1, 2] }], [{ metric: 'chrf', signature: 's', value: 1.5 }]);
    const other = await phaseWith(2, ['b']);
    for (const repository of [scores, bulk]) {
      const m = await repository.matrix(phaseId, 'chrf', other.testSetId);
      expect(m.instances).toEqual(['i0', 'i1']);
      expect(Array.from(defined(m.values[0], 'the row'))).toEqual([Number.NaN, Number.NaN]);
      expect(m.signatures[0]).toBe('');
    }
  });

  it('reads the same matrix through binary COPY as through Prisma: every column, −0, extreme values, ids with quotes and tabs, a metric key with a quote', async () => {
    const suffix = randomUUID().slice(0, 8);
    const task = await tasks.createTask({ slug: `copy-${suffix}`, title: 't', kind: TaskKind.MT, sourceLang: 'de', targetLang: 'en', metrics: [], createdById: organiserId });
    const phase = await tasks.createPhase({ taskId: task.id, name: 'p', opensAt: new Date('2020-01-01'), closesAt: new Date('2099-01-01'), dailyLimit: 50, totalLimit: 50, leaderboardBeforeClose: true });
    const externalIds = ['plain', "it's", 'tab\there', 'back\\slash', 'ünï', ...Array.from({ length: 3000 }, (_, i) => `x${i}`)];
    await tasks.uploadTestSet(phase.id, 'ts', externalIds.map((externalId, i) => ({ externalId, source: `s${i}`, references: [`r${i}`] })));
    const testSetId = defined(defined(await tasks.phaseById(phase.id), 'the phase').testSetId, 'the test set');
    const instances = await tasks.instanceIdsOf(testSetId);
    const metric = "q'uote";
    const rows: number[][] = [];
    for (let s = 0; s < 12; s++) {
      const sub = await submissions.create(
        { phaseId: phase.id, teamId, submittedById: organiserId, systemName: `sys${s}`, description: '', checksum: `c${s}`, bypassLimits: true, outputs: instances.map((i) => ({ instanceId: i.id, text: 'x' })) },
        async () => undefined,
      );
      const values = externalIds.map((_, i) => (i === 0 ? -0 : i === 1 ? Number.MAX_VALUE : i === 2 ? Number.MIN_VALUE : Math.sin(s * 1000 + i) * 100));
      rows.push(values);
      await submissions.saveScores(sub.id, [{ metric, signature: `sig'${s}`, values }], [{ metric, signature: 'c', value: s }]);
    }
    const viaPrisma = await scores.matrix(phase.id, metric, testSetId);
    const viaCopy = await bulk.matrix(phase.id, metric, testSetId);
    expect(viaCopy.instances).toEqual(externalIds);
    expect(viaCopy).toEqual(viaPrisma);
    expect(viaCopy.values.map((row) => Array.from(row))).toEqual(rows);
    expect(Object.is(viaCopy.values[0]?.[0], -0)).toBe(true);
    expect(viaCopy.signatures).toEqual(rows.map((_, s) => `sig'${s}`));
  });

  it('reads a matrix through a column cache: only the columns it lacks or holds at an older row version, the same matrix as without it, and never the kept arrays', async () => {
    const { phaseId, testSetId, ids } = await phaseWith(5, ['a', 'b', 'c']);
    const rows = ids.map((_, s) => [0, 1, 2, 3, 4].map((i) => s * 10 + i + 0.5));
    for (const [s, id] of ids.entries()) await submissions.saveScores(id, [{ metric: 'bleu', signature: `sig${s}`, values: defined(rows[s], 'row') }], [{ metric: 'bleu', signature: 'c', value: s }]);
    const kept = new Map<string, CachedScoreColumn>();
    const cache: ScoreColumnCache = {
      get: (id, metric, testSet) => kept.get(`${id}/${metric}/${testSet}`),
      set: (id, metric, testSet, column) => void kept.set(`${id}/${metric}/${testSet}`, { ...column, values: column.values.slice() }),
    };
    const read = async () => {
      const repository = new ScoreRepository(db, pool, cache);
      return { matrix: await repository.matrix(phaseId, 'bleu', testSetId), reads: repository.columnReads };
    };
    const plain = await bulk.matrix(phaseId, 'bleu', testSetId);
    const first = await read();
    expect(first.reads).toEqual({ cached: 0, read: 3 });
    expect(first.matrix).toEqual(plain);
    expect(kept.size).toBe(3);
    const second = await read();
    expect(second.reads).toEqual({ cached: 3, read: 0 });
    expect(second.matrix).toEqual(plain);
    // a computation that changes its matrix changes nothing kept
    defined(second.matrix.values[0], 'row')[0] = -1;
    expect((await read()).matrix).toEqual(plain);
    // b rescored: a new row version, read again; the others still kept
    const rescored = [9, 8, 7, 6, 5];
    await submissions.saveScores(defined(ids[1], 'b'), [{ metric: 'bleu', signature: 'sig-new', values: rescored }], [{ metric: 'bleu', signature: 'c', value: 7 }]);
    const third = await read();
    expect(third.reads).toEqual({ cached: 2, read: 1 });
    expect(Array.from(defined(third.matrix.values[1], 'b'))).toEqual(rescored);
    expect(third.matrix.signatures[1]).toBe('sig-new');
    expect(third.matrix).toEqual(await bulk.matrix(phaseId, 'bleu', testSetId));
    // a column deleted since is not taken from the cache: its row is missing
    await db.$executeRawUnsafe(`DELETE FROM score_column WHERE submission_id = $1::uuid AND metric = 'bleu'`, defined(ids[2], 'c'));
    const fourth = await read();
    expect(fourth.reads).toEqual({ cached: 2, read: 0 });
    expect(Array.from(defined(fourth.matrix.values[2], 'c')).every(Number.isNaN)).toBe(true);
  });

  it('reads an analysis memo through binary COPY as through Prisma, whatever its key holds', async () => {
    const { phaseId } = await phaseWith(1, ['a']);
    const viaPrisma = new LeaderboardRepository(db);
    const viaCopy = new LeaderboardRepository(db, pool);
    const key = JSON.stringify(["it's", 'back\\slash', 'E\'x\'', null, 'all']);
    const body = Uint8Array.from({ length: 200_000 }, (_, i) => (i * 7919) % 251);
    await viaPrisma.saveMemo(phaseId, key, body);
    expect(Buffer.from(defined(await viaCopy.memo(phaseId, key), 'the memo'))).toEqual(Buffer.from(body));
    expect(Buffer.from(defined(await viaPrisma.memo(phaseId, key), 'the memo'))).toEqual(Buffer.from(body));
    expect(await viaCopy.memo(phaseId, `${key} `)).toBeNull();
  });

  it('saves an analysis memo through a binary parameter of the pool as through Prisma, replacing the one before', async () => {
    const { phaseId } = await phaseWith(1, ['a']);
    const viaPrisma = new LeaderboardRepository(db);
    const viaPool = new LeaderboardRepository(db, pool);
    const key = JSON.stringify(["it's", 'back\\slash', null]);
    // every byte value, NUL and high bytes included; a view into a larger buffer
    const whole = Uint8Array.from({ length: 300_010 }, (_, i) => (i * 7919) % 256);
    const body = whole.subarray(10);
    await viaPool.saveMemo(phaseId, key, whole.subarray(0, 5));
    await viaPool.saveMemo(phaseId, key, body);
    expect(Buffer.from(defined(await viaPrisma.memo(phaseId, key), 'the memo'))).toEqual(Buffer.from(body));
    expect(await db.leaderboardMemo.count({ where: { phaseId } })).toBe(1);
  });
});
