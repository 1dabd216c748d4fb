/**
 * The arithmetic of bench:platform's open-loop measurement (wrk2's constant arrival rate,
 * https://github.com/giltene/wrk2): request i is scheduled at i ÷ rate seconds after the start,
 * whatever happened to the others, and its latency is counted from that scheduled time, not from
 * when it could be sent. A closed loop (each client waiting for its answer before the next
 * request) sends less while the server stalls, so a stall shows in few samples ("coordinated
 * omission"); here every request that should have been sent during the stall waits and counts.
 */
import { percentile, type LatencySummary } from './stats';

/** Requests scheduled in `seconds` at `rate` per second: round(rate · seconds), at least 1. */
export function scheduledCount(rate: number, seconds: number): number {
  if (!(rate > 0 && seconds > 0)) throw new RangeError(`rate and seconds must be positive, got ${rate} and ${seconds}`);
  return Math.max(1, Math.round(rate * seconds));
}

/** Milliseconds after the start at which request `i` (from 0) is scheduled. */
export function scheduledAtMs(i: number, rate: number): number {
  return (i * 1000) / rate;
}

/**
 * How many of `total` requests are due `elapsedMs` after the start: those with
 * scheduledAtMs(i) ≤ elapsedMs, i.e. floor(elapsedMs · rate / 1000) + 1, at most `total`
 * (request 0 is due at once). A sender that wakes up late sends every request due by then.
 */
export function dueCount(elapsedMs: number, rate: number, total: number): number {
  if (elapsedMs < 0) return 0;
  // The small epsilon keeps 1000 / rate · k (a float) from falling just below the k-th slot.
  return Math.min(total, Math.floor((elapsedMs * rate) / 1000 + 1e-9) + 1);
}

/** One request of an open-loop run: when it was scheduled, sent and answered (ms from the start). */
export interface OpenLoopSample {
  scheduledMs: number;
  /** When it went out (a socket free and the sender awake); undefined if it never did. */
  sentMs?: number;
  /** When its answer's last byte came; undefined if it had none (error, or not by the end). */
  answeredMs?: number;
  /** A 200 or 304 answer. */
  ok: boolean;
}

export interface OpenLoopSummary extends LatencySummary {
  /** Requests per second offered (the schedule). */
  offered: number;
  scheduled: number;
  /** Good (200/304) answers ÷ seconds from the start to the last answer. */
  achievedPerSecond: number;
  /** Requests that went out more than `lateMs` after their scheduled time (no free socket, or the sender late). */
  lateSends: number;
  /** Requests without an answer by the end (never sent, network error, or still waiting): counted as infinitely slow. */
  unanswered: number;
  /** Answers other than 200/304. */
  badAnswers: number;
  /**
   * The longest time without an answer while requests were due (ms), and when it began (ms from
   * the start): a server that stalls mid-round shows here as a gap beginning after the start; one
   * that is slow throughout only as its latency before the first answer, at 0 ms (at 500 req/s
   * answers are otherwise 2 ms apart).
   */
  longestGapMs: number;
  longestGapAtMs: number;
}

/**
 * Sums up an open-loop run. Latency of each request = answeredMs − scheduledMs (coordinated
 * omission corrected); a request without an answer is +∞, so that it can only raise the
 * percentiles; `perSecond` and `requests` count every answer, good or bad.
 */
export function summariseOpenLoop(samples: readonly OpenLoopSample[], rate: number, lateMs: number): OpenLoopSummary {
  const latencies = new Float64Array(samples.length);
  let lastAnswer = 0;
  let good = 0;
  let answered = 0;
  let lateSends = 0;
  let badAnswers = 0;
  samples.forEach((s, i) => {
    if (s.sentMs === undefined || s.sentMs - s.scheduledMs > lateMs) lateSends++;
    if (s.answeredMs === undefined) {
      latencies[i] = Infinity;
      return;
    }
    answered++;
    latencies[i] = s.answeredMs - s.scheduledMs;
    lastAnswer = Math.max(lastAnswer, s.answeredMs);
    if (s.ok) good++;
    else badAnswers++;
  });
  const seconds = lastAnswer / 1000;
  const gap = longestAnswerGap(samples);
  return {
    requests: answered,
    perSecond: seconds > 0 ? answered / seconds : NaN,
    p50: percentile(latencies, 50),
    p95: percentile(latencies, 95),
    p99: percentile(latencies, 99),
    offered: rate,
    scheduled: samples.length,
    achievedPerSecond: seconds > 0 ? good / seconds : NaN,
    lateSends,
    unanswered: samples.length - answered,
    badAnswers,
    longestGapMs: gap.ms,
    longestGapAtMs: gap.atMs,
  };
}

/**
 * The longest stretch with no answer from the first scheduled request to the last answer (a
 * request unanswered by the end leaves the stretch open to its last answer); 0 without answers.
 */
export function longestAnswerGap(samples: readonly OpenLoopSample[]): { ms: number; atMs: number } {
  const answers = samples.flatMap((s) => (s.answeredMs === undefined ? [] : [s.answeredMs])).sort((a, b) => a - b);
  let prev = samples.reduce((m, s) => Math.min(m, s.scheduledMs), Infinity);
  let best = { ms: 0, atMs: 0 };
  for (const a of answers) {
    if (a - prev > best.ms) best = { ms: a - prev, atMs: prev };
    prev = Math.max(prev, a);
  }
  return best;
}

/**
 * Whether a run reached its offered rate: achieved ≥ offered × (1 − tolerance). The good answers
 * are divided by the time to the last answer, which runs one latency past the schedule, so a run
 * that kept up exactly achieves offered × D ÷ (D + latency): 0.3 % short at 15 s and 50 ms.
 */
export function reachedRate(achievedPerSecond: number, offered: number, tolerance: number): boolean {
  return achievedPerSecond >= offered * (1 - tolerance);
}
