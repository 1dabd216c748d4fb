import { BoardThreadPool, type PooledThread } from './thread-runner';

/** A stand-in for a worker thread that records what the pool did to it. */
function thread(threadId: number) {
  const seen: string[] = [];
  const t: PooledThread & { seen: string[] } = {
    threadId,
    seen,
    ref: () => void seen.push('ref'),
    unref: () => void seen.push('unref'),
    terminate: async () => {
      seen.push('terminate');
      return 0;
    },
  };
  return t;
}

describe('BoardThreadPool', () => {
  afterEach(() => jest.useRealTimers());

  it('gives back an idle thread, unreferenced while idle and referenced again when taken', () => {
    const pool = new BoardThreadPool<ReturnType<typeof thread>>();
    expect(pool.take(false)).toBeNull();
    const a = thread(1);
    pool.give(a, false);
    expect(pool.size).toBe(1);
    expect(pool.take(false)).toBe(a);
    expect(a.seen).toEqual(['unref', 'ref']);
    expect(pool.size).toBe(0);
    void pool.close();
  });

  it('a thread that lowered its priority serves only work that yields from the start, and such work takes lowered threads first', () => {
    const pool = new BoardThreadPool<ReturnType<typeof thread>>();
    const full = thread(1);
    const lowered = thread(2);
    pool.give(lowered, true);
    // work that keeps pace with scoring needs a thread at its creator's priority: a new one
    expect(pool.take(false)).toBeNull();
    pool.give(full, false);
    expect(pool.take(true)).toBe(lowered);
    // none lowered left: a full-priority thread serves (it lowers itself)
    expect(pool.take(true)).toBe(full);
    expect(pool.take(true)).toBeNull();
    void pool.close();
  });

  it('ends a thread idle for idleMs, and the oldest idle one past maxIdle', () => {
    jest.useFakeTimers();
    const pool = new BoardThreadPool<ReturnType<typeof thread>>(1_000, 2);
    const [a, b, c] = [thread(1), thread(2), thread(3)];
    pool.give(a, false);
    pool.give(b, false);
    pool.give(c, false);
    expect(a.seen).toContain('terminate');
    expect(pool.size).toBe(2);
    jest.advanceTimersByTime(999);
    expect(b.seen).not.toContain('terminate');
    jest.advanceTimersByTime(1);
    expect(b.seen).toContain('terminate');
    expect(c.seen).toContain('terminate');
    expect(pool.size).toBe(0);
    expect(pool.take(false)).toBeNull();
  });

  it('once closed, ends its idle threads and every thread given back', async () => {
    const pool = new BoardThreadPool<ReturnType<typeof thread>>();
    const [a, b] = [thread(1), thread(2)];
    pool.give(a, false);
    await pool.close();
    expect(a.seen).toContain('terminate');
    pool.give(b, false);
    expect(b.seen).toEqual(['terminate']);
    expect(pool.take(false)).toBeNull();
  });
});
