import type { ReactNode } from 'react';
import { renderHook, waitFor } from '@testing-library/react';
import { GraphqlProvider } from './auth';
import { ApiError, request, resetGraphqlClient, toErrorDetails, useQuery } from './graphql-client';
import { LogoutDocument, MeDocument } from '../graphql/generated';
import { jsonResponse } from '../test/json-response';
import { defined } from '../../../../test/support/defined';

function answer(body: unknown) {
  const fetchMock = jest.fn(async (_url: string, _init: RequestInit) => jsonResponse(body));
  (globalThis as { fetch: unknown }).fetch = fetchMock;
  return fetchMock;
}

beforeEach(() => {
  resetGraphqlClient();
});

describe('toErrorDetails', () => {
  it('reads the code, field and line of GraphQL errors', () => {
    expect(toErrorDetails([{ message: 'line 3: missing "id"', extensions: { code: 'INVALID_INPUT', line: 3, field: 'content' } }])).toEqual([
      { message: 'line 3: missing "id"', code: 'INVALID_INPUT', field: 'content', line: 3 },
    ]);
  });

  it('reads the REST error body the upload endpoint sends', () => {
    expect(toErrorDetails({ error: 'line 7: not valid JSON', code: 'INVALID_INPUT', line: 7 })).toEqual([{ message: 'line 7: not valid JSON', code: 'INVALID_INPUT', field: null, line: 7 }]);
  });
});

describe('request', () => {
  it('POSTs to /graphql with the session cookie and no token (the page holds none)', async () => {
    const fetchMock = answer({ data: { me: null } });
    await request(MeDocument, {});
    const [url, init] = defined(fetchMock.mock.calls[0]);
    expect(url).toBe('/graphql');
    expect(init.method).toBe('POST');
    expect(init.credentials).toBe('same-origin');
    expect((init.headers as Record<string, string> | undefined)?.['authorization']).toBeUndefined();
    expect(JSON.parse(typeof init.body === 'string' ? init.body : '').query).toContain('query Me');
  });

  it("throws the API's message and extensions.code, without urql's prefix", async () => {
    answer({ data: null, errors: [{ message: 'phase is closed', extensions: { code: 'CONFLICT' } }] });
    const error = await request(LogoutDocument, {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).message).toBe('phase is closed');
    expect((error as ApiError).code).toBe('CONFLICT');
  });

  it('says the server cannot be reached when fetch fails', async () => {
    (globalThis as { fetch: unknown }).fetch = jest.fn(async () => {
      throw new TypeError('Failed to fetch');
    });
    const error = await request(MeDocument, {}).catch((e: unknown) => e);
    expect((error as ApiError).message).toMatch(/cannot be reached/);
  });
});

describe('useQuery', () => {
  const wrapper = ({ children }: { children: ReactNode }) => <GraphqlProvider>{children}</GraphqlProvider>;

  it('asks the network again when its key changes (a submission finished scoring)', async () => {
    const fetchMock = answer({ data: { me: null } });
    const { result, rerender } = renderHook(({ key }: { key: string }) => useQuery(MeDocument, {}, { key }), { wrapper, initialProps: { key: '0' } });
    await waitFor(() => expect(result.current.loading).toBe(false));
    expect(fetchMock).toHaveBeenCalledTimes(1);
    rerender({ key: '1' });
    await waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(2));
  });

  it('sends nothing while skipped', async () => {
    const fetchMock = answer({ data: { me: null } });
    const { result } = renderHook(() => useQuery(MeDocument, {}, { skip: true }), { wrapper });
    await new Promise((r) => setTimeout(r, 20));
    expect(result.current).toMatchObject({ data: null, error: null, loading: false });
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('shows the error code the API sent', async () => {
    answer({ data: null, errors: [{ message: 'no such token', extensions: { code: 'UNAUTHENTICATED' } }] });
    const { result } = renderHook(() => useQuery(MeDocument, {}), { wrapper });
    await waitFor(() => expect(result.current.error?.code).toBe('UNAUTHENTICATED'));
    expect(result.current.error?.message).toBe('no such token');
  });
});
