import { ensureQueue, startQueue } from './queue';

describe('startQueue', () => {
  it('retries a start that fails (a schema-creation deadlock) and succeeds on a later attempt', async () => {
    let calls = 0;
    const boss = { start: async () => { if (++calls < 3) throw new Error('deadlock detected'); } };
    await startQueue(boss, 5, 1);
    expect(calls).toBe(3);
  });
  it('gives up after the last attempt with the last error', async () => {
    let calls = 0;
    const boss = { start: async () => { calls++; throw new Error('no database'); } };
    await expect(startQueue(boss, 3, 1)).rejects.toThrow('no database');
    expect(calls).toBe(3);
  });
});

describe('ensureQueue', () => {
  it('retries a queue creation that deadlocks with another process creating it', async () => {
    const names: string[] = [];
    const boss = { createQueue: async (name: string) => { names.push(name); if (names.length < 2) throw new Error('deadlock detected'); } };
    await ensureQueue(boss, 'score-submission', 5, 1);
    expect(names).toEqual(['score-submission', 'score-submission']);
  });
});
