// `podium admin requeue` through a listening API on a real PostgreSQL: the command sends the
// organiser's token, the API requeues stuck submissions (SCORING without a live lease) and
// refuses a participant.
import type { INestApplication } from '@nestjs/common';
import { loadApiConfig } from '@podium/config';
import { IdentityRepository, Role, SubmissionRepository, TaskKind, TaskRepository, createDb, type Db } from '@podium/db';
import { randomUUID } from 'node:crypto';
import { adminCommand } from '../../apps/cli/src/commands/admin.command';
import { createApp } from '../../apps/api/src/app';
import { defined } from '../support/defined';

const DATABASE_URL = process.env['DATABASE_URL'];
const suite = DATABASE_URL ? describe : describe.skip;

suite('requeue (API + podium admin requeue)', () => {
  let app: INestApplication;
  let db: Db;
  let url: string;
  let organiserToken: string;
  let participantToken: string;
  let stuckId: string;
  let liveId: string;

  beforeAll(async () => {
    app = await createApp(loadApiConfig({ DATABASE_URL, PODIUM_WEB_DIST: '/nonexistent' }), { logger: false, queueSchema: 'pgboss_requeue_it' });
    await app.listen(0, '127.0.0.1');
    url = await app.getUrl();
    db = createDb(defined(DATABASE_URL), { maxConnections: 2 });
    const identity = new IdentityRepository(db);
    const tasks = new TaskRepository(db);
    const submissions = new SubmissionRepository(db);
    const s = randomUUID().slice(0, 8);
    const organiser = await identity.createUser(`org-rq-${s}`, Role.ORGANISER);
    organiserToken = await identity.issueToken(organiser.id, 't');
    const participant = await identity.createUser(`p-rq-${s}`, Role.PARTICIPANT);
    participantToken = await identity.issueToken(participant.id, 't');
    const team = await identity.createTeam(`team-rq-${s}`, []);
    const task = await tasks.createTask({ slug: `rq-${s}`, title: 't', kind: TaskKind.MT, sourceLang: 'de', targetLang: 'en', createdById: organiser.id, metrics: [{ key: 'chrf', name: 'chrf', options: {} }] as never });
    const phase = await tasks.createPhase({ taskId: task.id, name: 'p', opensAt: new Date('2020-01-01'), closesAt: new Date('2099-01-01'), dailyLimit: 9, totalLimit: 9, leaderboardBeforeClose: true });
    await tasks.uploadTestSet(phase.id, 'ts', [{ externalId: 'a', source: 's', references: ['r'] }]);
    const [inst] = await tasks.instanceIdsOf(defined(defined((await tasks.phaseById(phase.id))).testSetId));
    const make = async (name: string) =>
      (await submissions.create({ phaseId: phase.id, teamId: team.id, submittedById: organiser.id, systemName: name, description: '', checksum: 'x', outputs: [{ instanceId: defined(inst).id, text: 'o' }] }, async () => undefined)).id;
    stuckId = await make('stuck');
    liveId = await make('live');
    await submissions.acquireLease(stuckId, 'dead-worker', null, 0.01);
    await submissions.acquireLease(liveId, 'live-worker', null, 300);
    await new Promise((r) => setTimeout(r, 50));
  }, 60_000);
  afterAll(async () => {
    await app?.close();
    await db?.$disconnect();
  });

  it('requeues the stuck submission (not the live one) for an organiser, by --stuck and by id', async () => {
    const out = (await adminCommand.run(['requeue', '--url', url, '--token', organiserToken, '--stuck'])) as { requeued: string[] };
    expect(out.requeued).toContain(stuckId);
    expect(out.requeued).not.toContain(liveId);
    expect(await db.submission.findUniqueOrThrow({ where: { id: stuckId } })).toMatchObject({ status: 'QUEUED', retryReason: 'requeued', attempt: 0 });
    await expect(adminCommand.run(['requeue', '--url', url, '--token', organiserToken, '--submission', liveId])).rejects.toThrow(/is being scored by live-worker/);
  });

  it('refuses a participant', async () => {
    await expect(adminCommand.run(['requeue', '--url', url, '--token', participantToken, '--stuck'])).rejects.toThrow(/organiser/i);
  });
});
