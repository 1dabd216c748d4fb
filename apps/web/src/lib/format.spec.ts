import { formatDeadline, formatInterval, formatNumber, formatPValue, formatRankInterval, phaseTiming, progressPercent } from './format';

describe('formatNumber', () => {
  it('rounds to the given digits and shows missing or non-finite values as an en dash', () => {
    expect(formatNumber(28.8749, 2)).toBe('28.87');
    expect(formatNumber(0.14159, 3)).toBe('0.142');
    expect(formatNumber(null)).toBe('–');
    expect(formatNumber(Number.POSITIVE_INFINITY)).toBe('–');
  });

  it('does not print a negative zero', () => {
    expect(formatNumber(-0.001, 2)).toBe('0.00');
  });
});

describe('formatInterval', () => {
  it('prints both ends, and an unbounded end as infinity', () => {
    expect(formatInterval([0.1, 0.25], 2)).toBe('[0.10, 0.25]');
    expect(formatInterval([0.2, null], 1)).toBe('[0.2, ∞]');
    expect(formatInterval([null, 0.3], 1)).toBe('[−∞, 0.3]');
  });
});

describe('formatRankInterval', () => {
  it('collapses an interval with equal ends to one rank', () => {
    expect(formatRankInterval([3, 3])).toBe('3');
    expect(formatRankInterval([2, 5])).toBe('2–5');
  });
});

describe('formatPValue', () => {
  it('shows three decimals and "< 0.001" for tiny p-values', () => {
    expect(formatPValue(0.04567)).toBe('0.046');
    expect(formatPValue(0.0002)).toBe('< 0.001');
    expect(formatPValue(null)).toBe('–');
  });
});

describe('formatDeadline', () => {
  const now = new Date('2026-03-10T12:00:00Z');
  it('says when a phase opens, closes or closed, in the largest whole unit', () => {
    expect(formatDeadline('2026-03-13T12:00:00Z', '2026-04-01T00:00:00Z', now)).toBe('opens in 3 days');
    expect(formatDeadline('2026-03-01T00:00:00Z', '2026-03-10T17:30:00Z', now)).toBe('closes in 5 hours');
    expect(formatDeadline('2026-01-01T00:00:00Z', '2026-03-10T11:58:00Z', now)).toBe('closed 2 minutes ago');
  });
});

describe('phaseTiming', () => {
  const now = new Date('2026-11-25T12:00:00Z');
  const phase = { opensAt: '2026-11-01T00:00:00Z', closesAt: '2026-12-24T12:00:00Z' };

  it('counts down while the phase is open', () => {
    expect(phaseTiming({ ...phase, lifecycleState: 'OPEN', stateDescription: 'open until 2026-12-24 12:00 UTC' }, now)).toBe('closes in 29 days');
  });

  it("says how it closed once closed early, not 'closes in 29 days' (the closesAt an early close made moot)", () => {
    const closed = { ...phase, lifecycleState: 'CLOSED', stateDescription: 'closed early on 2026-11-25 by alice; results not yet published' };
    expect(phaseTiming(closed, now)).toBe('closed early on 2026-11-25 by alice; results not yet published');
  });
});

describe('progressPercent', () => {
  it('is a whole percentage clamped to 0–100, and 0 when the total is unknown', () => {
    expect(progressPercent(1, 3)).toBe(33);
    expect(progressPercent(5, 0)).toBe(0);
    expect(progressPercent(7, 5)).toBe(100);
  });
});
