import { assertTransition, canTransition, IllegalTransitionError, retryNote, sourcesOf } from './submission-state';

describe('submission state machine', () => {
  it('allows the scoring path and requeues, and nothing out of a settled state but a requeue', () => {
    expect(canTransition('QUEUED', 'SCORING')).toBe(true);
    expect(canTransition('SCORING', 'SCORED')).toBe(true);
    expect(canTransition('SCORING', 'QUEUED')).toBe(true);
    expect(canTransition('SCORED', 'QUEUED')).toBe(true);
    expect(canTransition('SCORED', 'SCORING')).toBe(false);
    expect(canTransition('SCORING', 'SCORING')).toBe(false);
    expect(canTransition('FAILED', 'SCORED')).toBe(false);
    expect(sourcesOf('SCORED')).toEqual(['SCORING']);
  });
  it('throws a CONFLICT domain error for an illegal transition', () => {
    expect(() => assertTransition('s1', 'SCORED', 'FAILED')).toThrow(IllegalTransitionError);
    expect(() => assertTransition('s1', 'SCORED', 'FAILED')).toThrow("submission 's1' cannot go from SCORED to FAILED");
  });
  it('says why and which attempt a requeued submission is on', () => {
    expect(retryNote({ status: 'QUEUED', retryReason: 'worker-stopped', attempt: 1 }, 4)).toBe('retrying after a worker stopped (attempt 2 of 4)');
    expect(retryNote({ status: 'SCORING', retryReason: 'worker-stopped', attempt: 2 }, 4)).toBe('retrying after a worker stopped (attempt 2 of 4)');
    expect(retryNote({ status: 'SCORED', retryReason: null, attempt: 1 }, 4)).toBeNull();
    expect(retryNote({ status: 'QUEUED', retryReason: null, attempt: 0 }, 4)).toBeNull();
  });
});
