import type { ReactNode } from 'react';
import { ApiError } from '../lib/graphql-client';

/** Refusals that trying again cannot change (a hidden board, a refused caller): no "Try again". */
const PERMANENT = new Set(['FORBIDDEN', 'UNAUTHENTICATED']);

export function isPermanent(error: ApiError | Error | string): boolean {
  return error instanceof ApiError && error.code !== null && PERMANENT.has(error.code);
}

export function Loading({ what }: { what: string }) {
  return (
    <p className="status status-loading" role="status" aria-live="polite">
      <span className="spinner" aria-hidden="true" /> Loading {what}…
    </p>
  );
}

/** An error with what the API said; a retry button when the caller can retry. */
export function ErrorMessage({ error, onRetry, title = 'Something went wrong' }: { error: ApiError | Error | string; onRetry?: () => void; title?: string }) {
  const message = typeof error === 'string' ? error : error.message;
  return (
    <div className="status status-error" role="alert">
      <strong>{title}:</strong> {message}
      {onRetry && !isPermanent(error) && (
        <button type="button" className="link-button" onClick={onRetry}>
          Try again
        </button>
      )}
    </div>
  );
}

export function Empty({ children }: { children: ReactNode }) {
  return <p className="status status-empty">{children}</p>;
}

/**
 * A page its caller may not see (yet): why, in the API's words, and what to do instead, with no
 * retry; e.g. a board hidden until the organisers publish the results.
 */
export function Forbidden({ error, instead }: { error: ApiError; instead: ReactNode }) {
  return (
    <div className="note" role="note" data-testid="forbidden">
      <p>
        <strong>Not visible to you yet.</strong> {error.message.charAt(0).toUpperCase() + error.message.slice(1)}.
      </p>
      <p>{instead}</p>
    </div>
  );
}
