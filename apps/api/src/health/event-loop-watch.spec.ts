import { Logger } from '@nestjs/common';
import { EVENT_LOOP_WARN_MS, EventLoopWatch, eventLoopReport } from './event-loop-watch';

describe('the api\'s event-loop watch (issue #28)', () => {
  it('reports a window only when its longest delay reaches the threshold', () => {
    expect(eventLoopReport(EVENT_LOOP_WARN_MS - 0.5, 12, 10_000)).toBeNull();
    expect(eventLoopReport(Number.NaN, Number.NaN, 10_000)).toBeNull();
    expect(eventLoopReport(412.4, 38.6, 10_000)).toEqual({ msg: 'event loop held up to 412 ms in the last 10 s (p99 39 ms): every request waited that long', maxMs: 412, p99Ms: 39 });
  });

  it('logs a warning for a window in which the loop was held, and nothing once shut down', async () => {
    const warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    const watch = new EventLoopWatch();
    watch.windowMs = 500;
    const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
    try {
      watch.onApplicationBootstrap();
      await sleep(50);
      // the loop held for 300 ms
      const until = Date.now() + 300;
      while (Date.now() < until) {
        /* busy */
      }
      await sleep(700);
      expect(warn).toHaveBeenCalledWith(expect.objectContaining({ event: 'event-loop-delay' }));
      const logged = warn.mock.calls[0]?.[0] as { maxMs: number };
      expect(logged.maxMs).toBeGreaterThanOrEqual(EVENT_LOOP_WARN_MS);
      warn.mockClear();
      watch.onApplicationShutdown();
      const after = Date.now() + 300;
      while (Date.now() < after) {
        /* busy again, unwatched */
      }
      await sleep(700);
      expect(warn).not.toHaveBeenCalled();
    } finally {
      watch.onApplicationShutdown();
      warn.mockRestore();
    }
  });
});
