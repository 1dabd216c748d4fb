import { Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { monitorEventLoopDelay, type IntervalHistogram } from 'node:perf_hooks';

/** How often the delays are read and the histogram reset. */
export const EVENT_LOOP_WINDOW_MS = 10_000;
/** A window whose longest delay reaches this is logged. */
export const EVENT_LOOP_WARN_MS = 200;

/** What one window of event-loop delays says, or null when its longest delay stayed below `warnMs`. */
export function eventLoopReport(maxMs: number, p99Ms: number, windowMs: number, warnMs = EVENT_LOOP_WARN_MS): { msg: string; maxMs: number; p99Ms: number } | null {
  if (!(maxMs >= warnMs)) return null;
  const max = Math.round(maxMs);
  const p99 = Math.round(p99Ms);
  return { msg: `event loop held up to ${max} ms in the last ${Math.round(windowMs / 1000)} s (p99 ${p99} ms): every request waited that long`, maxMs: max, p99Ms: p99 };
}

/**
 * Logs a warning (`event: 'event-loop-delay'`) for each 10 s window in which the api's event loop
 * was held 200 ms or more: work on the loop that held every request behind it (issue #28: a board's
 * `updating` variant parsed and compressed on the loop stalled all serving for 0.3–0.6 s; such
 * stalls showed in the bench's latencies only, not in the api's log).
 */
@Injectable()
export class EventLoopWatch implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly log = new Logger('EventLoop');
  /** The window (tests shorten it before the app starts). */
  windowMs = EVENT_LOOP_WINDOW_MS;
  private histogram: IntervalHistogram | undefined;
  private timer: NodeJS.Timeout | undefined;

  onApplicationBootstrap(): void {
    const histogram = monitorEventLoopDelay({ resolution: 10 });
    histogram.enable();
    this.histogram = histogram;
    this.timer = setInterval(() => {
      const report = eventLoopReport(histogram.max / 1e6, histogram.percentile(99) / 1e6, this.windowMs);
      histogram.reset();
      if (report) this.log.warn({ ...report, event: 'event-loop-delay' });
    }, this.windowMs);
    this.timer.unref();
  }

  onApplicationShutdown(): void {
    clearInterval(this.timer);
    this.histogram?.disable();
  }
}
