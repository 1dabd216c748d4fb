import { useCallback, useEffect, useRef } from 'react';
import { Client, CombinedError, cacheExchange, fetchExchange, useQuery as useUrqlQuery, type AnyVariables, type OperationResult, type TypedDocumentNode } from 'urql';

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
  const list: RawError[] = Array.isArray(raw) ? (raw as RawError[]) : raw && typeof raw === 'object' ? [raw] : [];
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

/** What the pages say when a request gets no answer at all. */
export const UNREACHABLE = 'The server cannot be reached. Check your connection and try again.';

/** urql's combined error as the pages show it: the API's messages and `extensions.code`, not urql's "[GraphQL]" prefix. */
export function toApiError(error: CombinedError): ApiError {
  const status = error.response && typeof (error.response as { status?: unknown }).status === 'number' ? (error.response as { status: number }).status : null;
  if (error.graphQLErrors.length) {
    const details = toErrorDetails(error.graphQLErrors.map((e) => ({ message: e.message, extensions: e.extensions })));
    return new ApiError(details.map((d) => d.message).join('; '), details, status);
  }
  return new ApiError(status ? `The server answered ${status} without a readable body.` : UNREACHABLE, [], status);
}

/**
 * A client for /graphql on this origin: the session cookie goes with every request (the page
 * holds no token); POST only (the API refuses GET queries as a CSRF guard). The document cache
 * re-runs watched queries whose result types a mutation returns, so e.g. marking a primary
 * submission refreshes that submission's page.
 */
export function createGraphqlClient(): Client {
  return new Client({
    url: '/graphql',
    exchanges: [cacheExchange, fetchExchange],
    preferGetMethod: false,
    requestPolicy: 'cache-and-network',
    fetchOptions: () => ({ credentials: 'same-origin' }),
  });
}

let sharedClient = createGraphqlClient();
/** The client the app's Provider holds; replaced on sign-in and sign-out so nothing cached under another identity shows. */
export function graphqlClient(): Client {
  return sharedClient;
}
export function resetGraphqlClient(): Client {
  sharedClient = createGraphqlClient();
  return sharedClient;
}

function settle<R>(result: OperationResult<R>): R {
  if (result.error) throw toApiError(result.error);
  if (!result.data) throw new ApiError('The server answered with no data.', []);
  return result.data;
}

/** Runs one operation outside a component (forms, buttons); throws {@link ApiError} on any error. */
export function request<R, V extends AnyVariables>(doc: TypedDocumentNode<R, V>, variables: V, signal?: AbortSignal): Promise<R> {
  const client = sharedClient;
  // eslint-disable-next-line @typescript-eslint/no-unsafe-enum-comparison -- graphql's Kind and OperationTypeNode are string enums; comparing with their values keeps graphql out of the bundle
  const isMutation = doc.definitions.some((d) => d.kind === 'OperationDefinition' && d.operation === 'mutation');
  const source = isMutation ? client.mutation(doc, variables) : client.query(doc, variables, { requestPolicy: 'network-only' });
  if (!signal) return source.toPromise().then(settle);
  return new Promise<R>((resolve, reject) => {
    if (signal.aborted) { reject(new DOMException('Aborted', 'AbortError')); return; }
    const sub = source.subscribe((result) => {
      if (result.stale || result.hasNext) return;
      sub.unsubscribe();
      try {
        resolve(settle(result));
      } catch (e) {
        reject(e instanceof Error ? e : new Error(String(e))); // settle() throws ApiError
      }
    });
    signal.addEventListener('abort', () => {
      sub.unsubscribe();
      reject(new DOMException('Aborted', 'AbortError'));
    });
  });
}

export interface QueryState<R> {
  data: R | null;
  error: ApiError | null;
  loading: boolean;
  refetch: () => void;
}

/**
 * urql's query hook as the pages use it: keeps the previous data while new variables load (so
 * tables do not flash), polls from the network every `pollMs` while `poll` is true, and refetches
 * when `key` changes (something the variables do not show, e.g. a submission finished scoring).
 */
export function useQuery<R, V extends AnyVariables>(doc: TypedDocumentNode<R, V>, variables: V, options: { skip?: boolean; pollMs?: number; poll?: boolean; key?: string | null } = {}): QueryState<R> {
  const [result, reexecute] = useUrqlQuery<R, V>({ query: doc, variables, pause: options.skip });
  const refetch = useCallback(() => reexecute({ requestPolicy: 'network-only' }), [reexecute]);
  const last = useRef<R | null>(null);
  if (result.data) last.current = result.data;

  const key = options.key ?? null;
  const seenKey = useRef(key);
  useEffect(() => {
    if (seenKey.current === key) return;
    seenKey.current = key;
    refetch();
  }, [key, refetch]);

  useEffect(() => {
    if (!options.poll || !options.pollMs || options.skip) return;
    const id = setInterval(refetch, options.pollMs);
    return () => clearInterval(id);
  }, [options.poll, options.pollMs, options.skip, refetch]);

  if (options.skip) return { data: null, error: null, loading: false, refetch };
  const error = result.error ? toApiError(result.error) : null;
  const data = result.data ?? (result.fetching ? last.current : null);
  return { data, error, loading: result.fetching, refetch };
}
