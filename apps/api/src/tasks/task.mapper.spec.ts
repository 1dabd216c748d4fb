import { TASK_KINDS, taskKindFromDb } from '@podium/contracts';
import { TaskKind } from '@podium/db';
import { kindFromDb, kindToDb } from './task.mapper';

describe('task kinds (one mapping, in @podium/contracts)', () => {
  it('maps every API kind to a distinct value of the Prisma enum TaskKind and back', () => {
    const db = TASK_KINDS.map(kindToDb);
    expect(new Set(db).size).toBe(TASK_KINDS.length);
    expect([...db].sort()).toEqual(Object.values(TaskKind).sort());
    for (const kind of TASK_KINDS) expect(kindFromDb(kindToDb(kind))).toBe(kind);
    expect(kindToDb('data-to-text')).toBe(TaskKind.DATA_TO_TEXT);
  });
  it('names nothing for an unknown database value', () => {
    expect(taskKindFromDb('POETRY')).toBeUndefined();
  });
});
