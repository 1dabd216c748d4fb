import { useCallback, useEffect, useRef, useState } from 'react';
import type { TypedDocumentString } from '../graphql/generated';

/** A GraphQL error as the API reports it: `extensions.code`, and for bad input a field or line. */
export interface ApiErrorDetail {
  message: string;
  code: string | null;
  field: string | null;
  line: number | null;
}

export class ApiError extends Error {
  constructor(
    message: string,
    readonly details: ApiErrorDetail[],
    readonly status: number | null = null,
  ) {
    super(message);
    this.name = 'ApiError';
  }

  get code(): string | null {
    return this.details[0]?.code ?? null;
  }
}

interface RawError {
  message?: unknown;
  error?: unknown;
  extensions?: Record<string, unknown>;
}

function asNumber(v: unknown): number | null {
  return typeof v === 'number' && Number.isFinite(v) ? v : null;
}

/** Reads the API's error shape (GraphQL `errors[]` or a REST `{ message, code, line }` body). */
export function toErrorDetails(raw: unknown): ApiErrorDetail[] {
  const list: RawError[] = Array.isArray(raw) ? (raw as RawError[]) : raw && typeof raw === 'object' ? [raw as RawError] : [];
  return list.map((e) => {
    const ext = e.extensions ?? (e as Record<string, unknown>);
    return {
      message: typeof e.message === 'string' ? e.message : typeof e.error === 'string' ? e.error : 'Unknown error',
      code: typeof ext['code'] === 'string' ? ext['code'] : null,
      field: typeof ext['field'] === 'string' ? ext['field'] : null,
      line: asNumber(ext['line']),
    };
  });
}

let currentToken: string | null = null;
/** The bearer token sent with every request (set by the auth context). */
export function setRequestToken(token: string | null): void {
  currentToken = token;
}
export function authHeaders(): Record<string, string> {
  return currentToken ? { authorization: `Bearer ${currentToken}` } : {};
}

/** Runs one operation against /graphql on this origin; throws {@link ApiError} on any error. */
export async function request<R, V>(doc: TypedDocumentString<R, V>, variables: V, signal?: AbortSignal): Promise<R> {
  let res: Response;
  try {
    res = await fetch('/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json', ...authHeaders() },
      body: JSON.stringify({ query: doc.toString(), variables }),
      signal,
    });
  } catch (e) {
    if (e instanceof DOMException && e.name === 'AbortError') throw e;
    throw new ApiError('The server cannot be reached. Check your connection and try again.', [], null);
  }
  let body: { data?: R | null; errors?: unknown[] };
  try {
    body = (await res.json()) as { data?: R | null; errors?: unknown[] };
  } catch {
    throw new ApiError(`The server answered ${res.status} without a readable body.`, [], res.status);
  }
  if (body.errors?.length) {
    const details = toErrorDetails(body.errors);
    throw new ApiError(details.map((d) => d.message).join('; '), details, res.status);
  }
  if (!body.data) throw new ApiError(`The server answered ${res.status} with no data.`, [], res.status);
  return body.data;
}

export interface QueryState<R> {
  data: R | null;
  error: ApiError | null;
  loading: boolean;
  refetch: () => void;
}

/**
 * Fetches an operation whenever its variables change; keeps the previous data while reloading
 * (so tables do not flash) and polls every `pollMs` while `poll` is true.
 */
export function useQuery<R, V>(doc: TypedDocumentString<R, V>, variables: V, options: { skip?: boolean; pollMs?: number; poll?: boolean; key?: string | null } = {}): QueryState<R> {
  // `key` refetches when something outside the variables changes (the signed-in token).
  const key = JSON.stringify(variables) + '|' + (options.key ?? '');
  const [state, setState] = useState<{ key: string | null; data: R | null; error: ApiError | null; loading: boolean }>({ key: null, data: null, error: null, loading: !options.skip });
  const [tick, setTick] = useState(0);
  const varsRef = useRef(variables);
  varsRef.current = variables;
  const refetch = useCallback(() => setTick((t) => t + 1), []);

  useEffect(() => {
    if (options.skip) {
      setState({ key, data: null, error: null, loading: false });
      return;
    }
    const ctl = new AbortController();
    setState((s) => ({ ...s, loading: true }));
    request(doc, varsRef.current, ctl.signal).then(
      (data) => setState({ key, data, error: null, loading: false }),
      (e: unknown) => {
        if (ctl.signal.aborted) return;
        const error = e instanceof ApiError ? e : new ApiError(e instanceof Error ? e.message : String(e), []);
        setState((s) => ({ key, data: s.key === key ? s.data : null, error, loading: false }));
      },
    );
    return () => ctl.abort();
  }, [doc, key, tick, options.skip]);

  useEffect(() => {
    if (!options.poll || !options.pollMs) return;
    const id = setInterval(refetch, options.pollMs);
    return () => clearInterval(id);
  }, [options.poll, options.pollMs, refetch]);

  return { data: state.data, error: state.error, loading: state.loading, refetch };
}
