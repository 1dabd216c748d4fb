/** Number formatting shared by tables and charts; non-finite values read as an en dash. */
export function formatNumber(value: number | null | undefined, digits = 2): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return '–';
  const s = value.toFixed(digits);
  return /^-0\.?0*$/.test(s) ? s.slice(1) : s;
}

/** A 95% interval as "[a, b]"; an open end (unbounded BT strength) shows as ∞. */
export function formatInterval(interval: readonly [number | null, number | null] | null | undefined, digits = 2): string {
  if (!interval) return '–';
  const end = (v: number | null, sign: 1 | -1) => (v === null || !Number.isFinite(v) ? (sign > 0 ? '∞' : '−∞') : formatNumber(v, digits));
  return `[${end(interval[0], -1)}, ${end(interval[1], 1)}]`;
}

/** A rank interval: "3" when both ends agree, else "2–5". */
export function formatRankInterval(interval: readonly [number, number] | null | undefined): string {
  if (!interval) return '–';
  const [a, b] = interval;
  return a === b ? String(a) : `${a}–${b}`;
}

/** p-values: three significant digits, "< 0.001" below that. */
export function formatPValue(p: number | null | undefined): string {
  if (p === null || p === undefined || !Number.isFinite(p)) return '–';
  if (p < 0.001) return '< 0.001';
  return p.toFixed(3);
}

const DATE = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' });

/** An ISO date in UTC, e.g. "3 Mar 2026, 09:00 UTC". */
export function formatDate(iso: string | null | undefined): string {
  if (!iso) return '–';
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? '–' : `${DATE.format(d)} UTC`;
}

/** How far a deadline is from `now`: "closes in 3 days", "closed 2 hours ago". */
export function formatDeadline(opensAt: string, closesAt: string, now: Date = new Date()): string {
  const open = new Date(opensAt).getTime();
  const close = new Date(closesAt).getTime();
  const t = now.getTime();
  if (t < open) return `opens ${relative(open - t)}`;
  if (t < close) return `closes ${relative(close - t)}`;
  return `closed ${relative(close - t)}`;
}

function relative(ms: number): string {
  const future = ms >= 0;
  const abs = Math.abs(ms);
  const units: [number, string][] = [
    [365 * 86_400_000, 'year'],
    [30 * 86_400_000, 'month'],
    [86_400_000, 'day'],
    [3_600_000, 'hour'],
    [60_000, 'minute'],
  ];
  for (const [size, name] of units) {
    const n = Math.floor(abs / size);
    if (n >= 1) {
      const text = `${n} ${name}${n === 1 ? '' : 's'}`;
      return future ? `in ${text}` : `${text} ago`;
    }
  }
  return future ? 'in under a minute' : 'just now';
}

/** "de→en" */
export function formatLanguages(source: string, target: string): string {
  return `${source}→${target}`;
}

/** Progress as a whole percentage; 0 when nothing is known yet. */
export function progressPercent(done: number, total: number): number {
  if (!(total > 0)) return 0;
  return Math.max(0, Math.min(100, Math.round((100 * done) / total)));
}

/** The phase state machine's states (docs/adr/0013-phase-state-machine.md) as a short badge. */
export const LIFECYCLE_BADGE: Record<string, string> = { SCHEDULED: 'not open yet', OPEN: 'open', CLOSED: 'closed', PUBLISHED: 'published' };

/**
 * When a phase closes, or how it ended, from its state: "closes in 3 days" while it runs, and the
 * API's words once it closed ("closed early on 2026-11-25 by alice"): never a countdown to a
 * closesAt that an early close made moot.
 */
export function phaseTiming(
  phase: { opensAt: string; closesAt: string; lifecycleState: string; stateDescription: string },
  now: Date = new Date(),
): string {
  if (phase.lifecycleState === 'OPEN' || phase.lifecycleState === 'SCHEDULED') return formatDeadline(phase.opensAt, phase.closesAt, now);
  return phase.stateDescription;
}
