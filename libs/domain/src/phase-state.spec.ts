import {
  PHASE_LIFECYCLE_STATES,
  PHASE_TRANSITIONS,
  PhaseTransitionError,
  assertPhaseAllows,
  assertScheduleEdit,
  describePhaseState,
  phaseLifecycleState,
  type PhaseClock,
  type PhaseEvent,
  type PhaseLifecycleState,
} from './phase-state';

// A fixed clock: the phase runs 2026-11-01 … 2026-12-01; "now" is chosen per case.
const phase = (more: Partial<PhaseClock> = {}): PhaseClock => ({
  name: 'test',
  opensAt: new Date('2026-11-01T00:00:00Z'),
  closesAt: new Date('2026-12-01T00:00:00Z'),
  closedEarlyAt: null,
  publishedAt: null,
  ...more,
});
const before = new Date('2026-10-15T00:00:00Z');
const during = new Date('2026-11-15T00:00:00Z');
const after = new Date('2026-12-15T00:00:00Z');

/** One phase in each state, with the clock that puts it there. */
const inState: Record<PhaseLifecycleState, [PhaseClock, Date]> = {
  SCHEDULED: [phase(), before],
  OPEN: [phase(), during],
  CLOSED: [phase({ closedEarlyAt: new Date('2026-11-10T00:00:00Z') }), during],
  PUBLISHED: [phase({ closedEarlyAt: new Date('2026-11-10T00:00:00Z'), publishedAt: new Date('2026-11-12T00:00:00Z') }), during],
};

describe('phaseLifecycleState', () => {
  it('is SCHEDULED before opensAt, OPEN until closesAt, CLOSED from closesAt on', () => {
    expect(phaseLifecycleState(phase(), before)).toBe('SCHEDULED');
    expect(phaseLifecycleState(phase(), during)).toBe('OPEN');
    expect(phaseLifecycleState(phase(), new Date('2026-12-01T00:00:00Z'))).toBe('CLOSED');
    expect(phaseLifecycleState(phase(), after)).toBe('CLOSED');
  });

  it('is CLOSED from an early close on, even though closesAt lies ahead', () => {
    expect(phaseLifecycleState(phase({ closedEarlyAt: new Date('2026-11-10T00:00:00Z') }), during)).toBe('CLOSED');
  });

  it('is PUBLISHED once published, whatever the dates say', () => {
    expect(phaseLifecycleState(phase({ publishedAt: new Date('2026-12-02T00:00:00Z') }), during)).toBe('PUBLISHED');
  });
});

describe('the transition table', () => {
  // The table written out by hand from ADR 0013: rows are events, columns the states that allow them.
  const expected: Record<PhaseEvent, PhaseLifecycleState[]> = {
    submit: ['OPEN'],
    organiserSubmit: ['SCHEDULED', 'OPEN', 'CLOSED'],
    markPrimary: ['OPEN'],
    close: ['OPEN'],
    freezePrimaries: ['CLOSED', 'PUBLISHED'],
    publish: ['CLOSED'],
    editSchedule: ['SCHEDULED', 'OPEN'],
    editDetails: ['SCHEDULED', 'OPEN', 'CLOSED'],
  };

  for (const event of Object.keys(expected) as PhaseEvent[]) {
    for (const state of PHASE_LIFECYCLE_STATES) {
      const allowed = expected[event].includes(state);
      it(`${allowed ? 'allows' : 'refuses'} ${event} when ${state}`, () => {
        const [p, now] = inState[state];
        if (allowed) expect(assertPhaseAllows(p, event, now)).toBe(state);
        else expect(() => assertPhaseAllows(p, event, now)).toThrow(PhaseTransitionError);
      });
    }
  }

  it('lists exactly the events of the ADR', () => {
    expect(PHASE_TRANSITIONS).toEqual(expected);
  });

  it('refuses publishing an open phase, saying to close it first', () => {
    const [p, now] = inState.OPEN;
    expect(() => assertPhaseAllows(p, 'publish', now)).toThrow("phase 'test' is open until 2026-12-01 00:00 UTC; close it before publishing the results");
  });

  it('refuses any edit of a published phase, saying to create a new phase', () => {
    const [p, now] = inState.PUBLISHED;
    expect(() => assertPhaseAllows(p, 'editSchedule', now)).toThrow(/published results are final: create a new phase instead/);
    expect(() => assertPhaseAllows(p, 'editDetails', now)).toThrow(/create a new phase instead/);
  });

  it('refuses a primary switch once closesAt passed, before anything was recorded', () => {
    expect(() => assertPhaseAllows(phase(), 'markPrimary', after)).toThrow("phase 'test' closed at 2026-12-01 00:00 UTC; primary submissions are frozen");
  });
});

describe('assertScheduleEdit', () => {
  it('lets an open phase be extended', () => {
    expect(() => assertScheduleEdit(phase(), phase({ closesAt: new Date('2026-12-20T00:00:00Z') }), during)).not.toThrow();
  });

  it('refuses a closesAt in the past, which would close the phase without recording who closed it', () => {
    expect(() => assertScheduleEdit(phase(), phase({ closesAt: new Date('2026-11-14T00:00:00Z') }), during)).toThrow(/use closePhase/);
  });

  it('refuses to reopen a phase closed at closesAt by moving closesAt later', () => {
    expect(() => assertScheduleEdit(phase(), phase({ closesAt: new Date('2027-01-01T00:00:00Z') }), after)).toThrow(/create a new phase instead/);
  });

  it('refuses to reopen a published phase', () => {
    const [p, now] = inState.PUBLISHED;
    expect(() => assertScheduleEdit(p, { ...p, closesAt: new Date('2027-01-01T00:00:00Z') }, now)).toThrow(/published results are final/);
  });

  it('lets a scheduled phase open now by moving opensAt earlier', () => {
    expect(() => assertScheduleEdit(phase(), phase({ opensAt: new Date('2026-10-01T00:00:00Z') }), before)).not.toThrow();
  });

  it('refuses to move opensAt of an open phase into the future', () => {
    expect(() => assertScheduleEdit(phase(), phase({ opensAt: new Date('2026-11-20T00:00:00Z') }), during)).toThrow(/already open/);
  });
});

describe('describePhaseState', () => {
  it('says who closed a phase early and who published it, and when', () => {
    const [p, now] = inState.PUBLISHED;
    expect(describePhaseState({ ...p, closedBy: 'alice', publishedBy: 'bob' }, now)).toBe('closed early on 2026-11-10 by alice, published on 2026-11-12 by bob');
  });

  it('says a phase past its closesAt is closed, with nothing recorded yet', () => {
    expect(describePhaseState(phase(), after)).toBe('closed on 2026-12-01; results not yet published');
  });

  it('says until when an open phase runs', () => {
    expect(describePhaseState(phase(), during)).toBe('open until 2026-12-01 00:00 UTC');
  });
});
