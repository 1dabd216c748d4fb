import { useState } from 'react';
import { MarkPrimaryDocument, ModerateSubmissionDocument, SetBaselineDocument, type Moderation } from '../graphql/generated';
import { organises, useAuth } from '../lib/auth';
import { ApiError, request } from '../lib/graphql-client';
import { ErrorMessage } from './status';
import { ConfirmAction } from './confirm-action';
import { moderationConsequence } from '../lib/consequences';

interface Sub {
  id: string;
  isPrimary: boolean;
  isBaseline: boolean;
  moderation: Moderation;
  systemName?: string;
  team: { id: string; name?: string };
  /** The phase's state: primaries can be switched only while it is OPEN (ADR 0013). */
  phase?: { lifecycleState: string; stateDescription: string };
}

/** A member marks the primary submission; an organiser hides, disqualifies or marks a baseline. */
export function SubmissionActions({ sub, onChange }: { sub: Sub; onChange: () => void }) {
  const { me } = useAuth();
  const [reason, setReason] = useState('');
  const [reasonPublic, setReasonPublic] = useState(false);
  const [error, setError] = useState<ApiError | string | null>(null);
  const member = !!me?.teams.some((t) => t.id === sub.team.id);
  const organiser = organises(me);
  if (!member && !organiser) return null;
  // A member of a hidden or disqualified submission has nothing to do here: no empty box.
  if (!organiser && sub.moderation !== 'NONE') return null;
  async function act(action: () => Promise<unknown>) {
    setError(null);
    try {
      await action();
      onChange();
    } catch (e) {
      setError(e instanceof ApiError ? e : String(e));
    }
  }
  return (
    <section aria-labelledby="actions-heading" className="card">
      <h2 id="actions-heading">Actions</h2>
      {error && <ErrorMessage error={error} title="Refused" />}
      {(member || organiser) && sub.moderation === 'NONE' && (
        <p>
          {sub.isPrimary ? (
            <span data-testid="primary-mark">This is the team's primary submission: the leaderboard ranks it for the team.</span>
          ) : sub.phase && sub.phase.lifecycleState !== 'OPEN' ? (
            <span data-testid="primary-frozen">Primary submissions can be chosen only while the phase is open (phase: {sub.phase.stateDescription}).</span>
          ) : (
            <button type="button" data-testid="mark-primary" onClick={() => void act(() => request(MarkPrimaryDocument, { id: sub.id }))}>
              Mark as primary
            </button>
          )}
        </p>
      )}
      {organiser && (
        <div className="inline-form">
          <label>
            Reason shown to the team
            <input value={reason} onChange={(e) => setReason(e.target.value)} maxLength={2000} name="moderation-reason" />
          </label>
          <label>
            <input type="checkbox" checked={reasonPublic} onChange={(e) => setReasonPublic(e.target.checked)} name="moderation-reason-public" />
            Show the reason to everyone (otherwise only the team and organisers)
          </label>
          {(['HIDDEN', 'DISQUALIFIED'] as const)
            .filter((m) => m !== sub.moderation)
            .map((m) => (
              <ConfirmAction
                key={m}
                label={m === 'HIDDEN' ? 'Hide…' : 'Disqualify…'}
                testId={m === 'HIDDEN' ? 'hide' : 'disqualify'}
                confirmLabel={m === 'HIDDEN' ? 'Hide it' : 'Disqualify it'}
                consequence={() => {
                  if (!reason.trim()) throw new Error('Give the team a reason first (the box above).');
                  return moderationConsequence({ systemName: sub.systemName ?? 'This submission', teamName: sub.team.name ?? 'its team' }, m, reasonPublic);
                }}
                onConfirm={() => void act(() => request(ModerateSubmissionDocument, { id: sub.id, moderation: m, reason, reasonPublic }))}
              />
            ))}
          {sub.moderation !== 'NONE' && (
            <button type="button" onClick={() => void act(() => request(ModerateSubmissionDocument, { id: sub.id, moderation: 'NONE', reason: null }))}>
              Restore
            </button>
          )}
          <button type="button" onClick={() => void act(() => request(SetBaselineDocument, { id: sub.id, isBaseline: !sub.isBaseline }))}>
            {sub.isBaseline ? 'Not a baseline' : 'Mark as baseline'}
          </button>
        </div>
      )}
    </section>
  );
}
