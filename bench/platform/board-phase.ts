/**
 * An embedded PostgreSQL of its own, migrated, with one task and one open phase whose board is
 * public before close: where `bench:serving` and `bench:arena` store the synthetic board they serve.
 * What it starts is stopped by `cleanup` (run in order).
 */
import { IdentityRepository, Role, TaskKind, TaskRepository, type Db } from '@podium/db';
import { benchDatabase } from './bench-db';

export async function boardPhase(name: string, phaseName: string, cleanup: (() => Promise<void>)[]): Promise<{ pgUrl: string; db: Db; phaseId: string; pgPid: number }> {
  const { pgUrl, db, pgPid } = await benchDatabase(name, cleanup);
  const organiser = await new IdentityRepository(db).createUser('bench-organiser', Role.ORGANISER);
  const tasks = new TaskRepository(db);
  const task = await tasks.createTask({ slug: `bench-${name}`, title: `bench:${name}`, kind: TaskKind.MT, sourceLang: 'de', targetLang: 'en', createdById: organiser.id, metrics: [{ key: 'bleu', name: 'bleu', options: {} }] });
  const phase = await tasks.createPhase({ taskId: task.id, name: phaseName, opensAt: new Date('2020-01-01'), closesAt: new Date('2099-01-01'), dailyLimit: 1, totalLimit: 1, leaderboardBeforeClose: true });
  return { pgUrl, db, phaseId: phase.id, pgPid };
}
