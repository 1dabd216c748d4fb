import { useEffect, useId, useRef, useState, type ReactNode } from 'react';

interface Props {
  /** The button that asks first. */
  label: ReactNode;
  /** The consequence in words; computed when the button is pressed (e.g. with counts fetched then). */
  consequence: () => Promise<string> | string;
  /** The button that acts, saying what it does ("Close the phase"). */
  confirmLabel: string;
  onConfirm: () => void;
  disabled?: boolean;
  testId?: string;
}

/**
 * A button for an irreversible action: pressing it shows what will happen, with the real
 * counts, and acts only on a second, explicit press; Cancel (or Escape) leaves everything as it was.
 */
export function ConfirmAction({ label, consequence, confirmLabel, onConfirm, disabled, testId }: Props) {
  const [state, setState] = useState<{ kind: 'idle' } | { kind: 'loading' } | { kind: 'ask'; text: string } | { kind: 'error'; text: string }>({ kind: 'idle' });
  const titleId = useId();
  const confirmRef = useRef<HTMLButtonElement>(null);
  const open = state.kind !== 'idle';
  useEffect(() => {
    if (state.kind === 'ask') confirmRef.current?.focus();
  }, [state.kind]);
  async function ask() {
    setState({ kind: 'loading' });
    try {
      setState({ kind: 'ask', text: await consequence() });
    } catch (e) {
      setState({ kind: 'error', text: e instanceof Error ? e.message : String(e) });
    }
  }
  return (
    <>
      <button type="button" disabled={disabled || open} onClick={() => void ask()} data-testid={testId}>
        {label}
      </button>
      {open && (
        <div
          className="confirm"
          role="alertdialog"
          aria-labelledby={titleId}
          data-testid={testId ? `${testId}-confirm` : 'confirm'}
          onKeyDown={(e) => {
            if (e.key === 'Escape') setState({ kind: 'idle' });
          }}
        >
          <p id={titleId} className="confirm-text">
            {state.kind === 'loading' ? 'Counting what this touches…' : 'text' in state ? state.text : ''}
          </p>
          <div className="confirm-buttons">
            <button
              type="button"
              ref={confirmRef}
              className="danger"
              disabled={state.kind !== 'ask'}
              onClick={() => {
                setState({ kind: 'idle' });
                onConfirm();
              }}
            >
              {confirmLabel}
            </button>
            <button type="button" onClick={() => setState({ kind: 'idle' })}>
              Cancel
            </button>
          </div>
        </div>
      )}
    </>
  );
}
