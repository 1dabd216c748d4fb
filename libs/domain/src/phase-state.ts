import { ConflictError } from './errors';

/**
 * The one place that says what state a phase is in and which transitions it allows
 * (docs/adr/0013-phase-state-machine.md):
 *
 *   SCHEDULED ──opensAt passes──▶ OPEN ──closesAt passes (system) ──▶ CLOSED ──publish──▶ PUBLISHED
 *                                   └────── close early (organiser) ───┘
 *
 * PUBLISHED is final. A phase is CLOSED the moment closesAt passes, whether or not the system has
 * yet recorded it: every check below reads the clock, so submissions and primaries stop at once;
 * the recorded part of closing (freezing primaries) follows in the close transition.
 */
export const PHASE_LIFECYCLE_STATES = ['SCHEDULED', 'OPEN', 'CLOSED', 'PUBLISHED'] as const;
export type PhaseLifecycleState = (typeof PHASE_LIFECYCLE_STATES)[number];

/** What an actor asks of a phase; each is allowed in the states listed in {@link PHASE_TRANSITIONS}. */
export type PhaseEvent =
  /** A team submits (organisers' baselines: see `organiserSubmit`). */
  | 'submit'
  /** An organiser submits a baseline past the limits: allowed until the results are published. */
  | 'organiserSubmit'
  /** A team marks (switches) its primary submission. */
  | 'markPrimary'
  /** An organiser closes the phase before closesAt. */
  | 'close'
  /** The system records the close of a phase whose closesAt passed (freezes the primaries). */
  | 'freezePrimaries'
  /** An organiser publishes the results. */
  | 'publish'
  /** An organiser edits dates or limits. */
  | 'editSchedule'
  /** An organiser edits the name or the public flag. */
  | 'editDetails';

/** For each event, the states it is allowed in; anything else is refused with {@link PhaseTransitionError}. */
export const PHASE_TRANSITIONS: Readonly<Record<PhaseEvent, readonly PhaseLifecycleState[]>> = {
  submit: ['OPEN'],
  organiserSubmit: ['SCHEDULED', 'OPEN', 'CLOSED'],
  markPrimary: ['OPEN'],
  close: ['OPEN'],
  freezePrimaries: ['CLOSED', 'PUBLISHED'],
  publish: ['CLOSED'],
  editSchedule: ['SCHEDULED', 'OPEN'],
  editDetails: ['SCHEDULED', 'OPEN', 'CLOSED'],
};

/** The columns of a phase its state is made of. */
export interface PhaseClock {
  name: string;
  opensAt: Date;
  closesAt: Date;
  closedEarlyAt: Date | null;
  publishedAt: Date | null;
}

export function phaseLifecycleState(phase: PhaseClock, now: Date = new Date()): PhaseLifecycleState {
  if (phase.publishedAt) return 'PUBLISHED';
  if (phase.closedEarlyAt || now.getTime() >= phase.closesAt.getTime()) return 'CLOSED';
  if (now.getTime() < phase.opensAt.getTime()) return 'SCHEDULED';
  return 'OPEN';
}

/** When the phase closed (or closes): early, or at closesAt. */
export function phaseClosedAt(phase: Pick<PhaseClock, 'closesAt' | 'closedEarlyAt'>): Date {
  return phase.closedEarlyAt ?? phase.closesAt;
}

export function allows(state: PhaseLifecycleState, event: PhaseEvent): boolean {
  return PHASE_TRANSITIONS[event].includes(state);
}

const day = (d: Date) => d.toISOString().slice(0, 10);
const minute = (d: Date) => `${d.toISOString().slice(0, 16).replace('T', ' ')} UTC`;

/** Why an event is refused in a state, in words that say what to do instead. */
function refusal(phase: PhaseClock, state: PhaseLifecycleState, event: PhaseEvent): string {
  const name = `phase '${phase.name}'`;
  const when: Record<PhaseLifecycleState, string> = {
    SCHEDULED: `${name} opens at ${minute(phase.opensAt)}`,
    OPEN: `${name} is open until ${minute(phase.closesAt)}`,
    CLOSED: `${name} closed at ${minute(phaseClosedAt(phase))}`,
    PUBLISHED: `${name} was published${phase.publishedAt ? ` at ${minute(phase.publishedAt)}` : ''}`,
  };
  switch (event) {
    case 'submit':
      return state === 'SCHEDULED' ? `${when[state]}; submissions are accepted from then` : `${when[state]}; it accepts no more submissions`;
    case 'organiserSubmit':
      return `${when[state]}; its results are final and take no more submissions`;
    case 'markPrimary':
      return state === 'SCHEDULED' ? `${when[state]}; primaries are chosen while it is open` : `${when[state]}; primary submissions are frozen`;
    case 'close':
      return state === 'SCHEDULED' ? `${when[state]}; change its dates instead of closing it` : `${when[state]}; it cannot be closed again`;
    case 'freezePrimaries':
      return `${when[state]}; primaries are frozen only once it has closed`;
    case 'publish':
      return state === 'PUBLISHED' ? `${when[state]} already` : `${when[state]}; close it before publishing the results`;
    case 'editSchedule':
      return state === 'PUBLISHED'
        ? `${when[state]}; published results are final: create a new phase instead`
        : `${when[state]}; its dates and limits are final (closing froze the primaries): create a new phase instead`;
    case 'editDetails':
      return `${when[state]}; published results are final: create a new phase instead`;
  }
}

/** A transition the phase's state does not allow (a domain error: CONFLICT). */
export class PhaseTransitionError extends ConflictError {
  constructor(
    message: string,
    readonly state: PhaseLifecycleState,
    readonly event: PhaseEvent,
  ) {
    super(message, { field: 'phaseId', state, event });
  }
}

/** Why the phase's state refuses the event now, in words; null when it allows it. */
export function phaseRefusal(phase: PhaseClock, event: PhaseEvent, now: Date = new Date()): string | null {
  const state = phaseLifecycleState(phase, now);
  return allows(state, event) ? null : refusal(phase, state, event);
}

/** Throws {@link PhaseTransitionError} unless the phase's state allows the event now. Returns the state. */
export function assertPhaseAllows(phase: PhaseClock, event: PhaseEvent, now: Date = new Date()): PhaseLifecycleState {
  const state = phaseLifecycleState(phase, now);
  if (!allows(state, event)) throw new PhaseTransitionError(refusal(phase, state, event), state, event);
  return state;
}

/** The state in words: "closed early on 2026-11-25 by alice, published on 2026-11-26 by bob". */
export function describePhaseState(
  phase: PhaseClock & { closedBy?: string | null; publishedBy?: string | null },
  now: Date = new Date(),
): string {
  const state = phaseLifecycleState(phase, now);
  const by = (name: string | null | undefined) => (name ? ` by ${name}` : '');
  if (state === 'SCHEDULED') return `opens on ${minute(phase.opensAt)}, closes on ${minute(phase.closesAt)}`;
  if (state === 'OPEN') return `open until ${minute(phase.closesAt)}`;
  const closed = phase.closedEarlyAt ? `closed early on ${day(phase.closedEarlyAt)}${by(phase.closedBy)}` : `closed on ${day(phase.closesAt)}`;
  if (state === 'CLOSED') return `${closed}; results not yet published`;
  return `${closed}, published on ${day(phase.publishedAt ?? now)}${by(phase.publishedBy)}`;
}

/**
 * Dates may change only while the phase is scheduled or open, and a change may not move it to
 * another state except opening it now: closing goes through the close transition (who and when
 * recorded), and a closed phase is never reopened.
 */
export function assertScheduleEdit(before: PhaseClock, after: PhaseClock, now: Date = new Date()): void {
  const from = assertPhaseAllows(before, 'editSchedule', now);
  const to = phaseLifecycleState(after, now);
  if (to === from || (from === 'SCHEDULED' && to === 'OPEN')) return;
  const message =
    to === 'CLOSED'
      ? `a closesAt in the past would close phase '${before.name}' without recording who closed it; use closePhase to close it now`
      : `phase '${before.name}' is already open; opensAt cannot move past now`;
  throw new PhaseTransitionError(message, from, 'editSchedule');
}
