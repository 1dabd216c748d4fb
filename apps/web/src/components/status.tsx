import type { ReactNode } from 'react';
import type { ApiError } from '../lib/graphql-client';

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
      {onRetry && (
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
