import { ensureQueue, LEASE, QUEUE_POLICY, SCORE_SUBMISSION_QUEUE, sendScoreJob, startQueue } from './queue';

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

describe('sendScoreJob', () => {
  it('sends every scoring job with the one policy: retries, backoff and expiry from QUEUE_POLICY', async () => {
    const sent: unknown[] = [];
    const boss = { send: async (...args: unknown[]) => (sent.push(args), 'id') };
    const id = '6f1c1c8e-8f0a-4a43-9d5e-0c8f4f8f7c11';
    await sendScoreJob(boss, id, 'submitted');
    expect(sent).toEqual([[SCORE_SUBMISSION_QUEUE, { v: 1, submissionId: id, reason: 'submitted' }, { retryLimit: 3, retryDelay: 1, retryBackoff: true, expireInSeconds: 3600 }]]);
    await expect(sendScoreJob(boss, 'not-a-uuid', 'submitted')).rejects.toThrow();
  });
  it('detects a stopped worker well inside a minute: lease ttl + reaper period + first retry delay', () => {
    expect(LEASE.ttlSeconds + LEASE.reapSeconds + 2 * QUEUE_POLICY[SCORE_SUBMISSION_QUEUE].retryDelaySeconds).toBeLessThanOrEqual(45);
    expect(LEASE.renewSeconds * 3).toBeLessThan(LEASE.ttlSeconds);
  });
});

describe('ensureQueue', () => {
  it('retries a queue creation that deadlocks with another process creating it', async () => {
    let calls = 0;
    await ensureQueue({ createQueue: async () => { if (++calls < 2) throw new Error('deadlock detected'); } }, 'q', 3, 1);
    expect(calls).toBe(2);
  });
});
