import { randomUUID } from 'node:crypto';
import { PhaseTransitionError } from '@podium/domain';
import { createDb, IdentityRepository, LifecycleRepository, Role, SubmissionRepository, TaskKind, TaskRepository, type Db } from './index';

// Real PostgreSQL under a loaded 2-core machine: far slower than Jest's 5 s default.
jest.setTimeout(60_000);

const url = process.env['DATABASE_URL'];
const describeDb = url ? describe : describe.skip;

describeDb('phase transitions in LifecycleRepository (real PostgreSQL)', () => {
  let db: Db;
  let lifecycle: LifecycleRepository;
  let organiserId: string;

  beforeAll(async () => {
    db = createDb(url ?? '', { maxConnections: 6 });
    lifecycle = new LifecycleRepository(db);
    organiserId = (await new IdentityRepository(db).createUser(`lc-org-${randomUUID().slice(0, 8)}`, Role.ORGANISER)).id;
  });

  afterAll(async () => {
    await db?.$disconnect();
  });

  /**
   * A phase whose closesAt passed a minute ago, nothing recorded yet, with two scored submissions
   * of each of `teams` teams (the second newer; stored as an organiser may store them after close).
   */
  async function closedPhaseWith(teams: number) {
    const closesAt = new Date(Date.now() - 60_000);
    const suffix = randomUUID().slice(0, 8);
    const tasks = new TaskRepository(db);
    const submissions = new SubmissionRepository(db);
    const task = await tasks.createTask({ slug: `lc-${suffix}`, title: 't', kind: TaskKind.MT, sourceLang: 'de', targetLang: 'en', metrics: [], createdById: organiserId });
    const phase = await tasks.createPhase({ taskId: task.id, name: 'p', opensAt: new Date('2020-01-01'), closesAt, dailyLimit: 50, totalLimit: 50, leaderboardBeforeClose: true });
    const latest = new Map<string, string>();
    for (let t = 0; t < teams; t++) {
      const teamId = (await new IdentityRepository(db).createTeam(`lc-${suffix}-${t}`, [])).id;
      for (const [k, name] of ['old', 'new'].entries()) {
        const sub = await submissions.create(
          { phaseId: phase.id, teamId, submittedById: organiserId, systemName: name, description: '', checksum: name, bypassLimits: true, outputs: [], now: new Date(Date.UTC(2026, 0, 1, 0, k)) },
          async () => undefined,
        );
        await submissions.saveScores(sub.id, [], []);
        latest.set(teamId, sub.id);
      }
    }
    return { phaseId: phase.id, latest };
  }

  it('freezes a phase whose closesAt passed once, even when two sweeps run at the same time', async () => {
    const { phaseId, latest } = await closedPhaseWith(3);
    const [a, b] = await Promise.all([lifecycle.freezeDuePhases(), lifecycle.freezeDuePhases()]);
    // At most one of the two reports it; neither may when another suite's api swept it first (the
    // database is shared). "Once" is proven by the single phase.closed entry and primaries below.
    expect([...a, ...b].filter((id) => id === phaseId).length).toBeLessThanOrEqual(1);
    const primaries = await db.submission.findMany({ where: { phaseId, isPrimary: true }, select: { id: true } });
    expect(primaries.map((p) => p.id).sort()).toEqual([...latest.values()].sort());
    // One audit entry per team, by the system (no actor).
    const audit = await db.auditEntry.findMany({ where: { action: 'submission.primary-auto', targetId: { in: [...latest.values()] } } });
    expect(audit).toHaveLength(3);
    expect(audit.every((e) => e.actorId === null)).toBe(true);
    expect(await db.auditEntry.count({ where: { action: 'phase.closed', targetId: phaseId, actorId: null } })).toBe(1);
  });

  it('refuses a primary switch once closesAt passed, before any sweep recorded the close', async () => {
    const { phaseId, latest } = await closedPhaseWith(1);
    const [submissionId] = [...latest.values()];
    await expect(lifecycle.markPrimary(submissionId ?? '', organiserId)).rejects.toThrow(PhaseTransitionError);
    // The refused switch stored nothing. The database is shared with suites whose api runs the
    // close sweep, which may close this phase meanwhile and pick the team's primary itself: such a
    // primary carries the system's audit entry, never the organiser's.
    const primaries = await db.submission.findMany({ where: { phaseId, isPrimary: true }, select: { id: true } });
    const ids = primaries.map((p) => p.id);
    expect(await db.auditEntry.count({ where: { action: 'submission.primary', targetId: submissionId ?? '' } })).toBe(0);
    const auto = await db.auditEntry.findMany({ where: { action: 'submission.primary-auto', targetId: { in: ids } }, select: { targetId: true, actorId: true } });
    expect(auto.map((e) => e.targetId).sort()).toEqual(ids.sort());
    expect(auto.every((e) => e.actorId === null)).toBe(true);
  });
});
