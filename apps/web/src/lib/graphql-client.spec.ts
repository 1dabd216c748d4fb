import { ApiError, request, resetGraphqlClient, setRequestToken, toErrorDetails } from './graphql-client';
import { LogoutDocument, MeDocument } from '../graphql/generated';
import { jsonResponse } from '../test/json-response';

function answer(body: unknown) {
  const fetchMock = jest.fn(async (_url: string, _init: RequestInit) => jsonResponse(body));
  (globalThis as { fetch: unknown }).fetch = fetchMock;
  return fetchMock;
}

beforeEach(() => {
  setRequestToken(null);
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
  it('POSTs to /graphql with the session cookie and the bearer token', async () => {
    const fetchMock = answer({ data: { me: null } });
    setRequestToken('tok-1');
    await request(MeDocument, {});
    const [url, init] = fetchMock.mock.calls[0]!;
    expect(url).toBe('/graphql');
    expect(init.method).toBe('POST');
    expect(init.credentials).toBe('same-origin');
    expect((init.headers as Record<string, string>)['authorization']).toBe('Bearer tok-1');
    expect(JSON.parse(String(init.body)).query).toContain('query Me');
  });

  it('sends no authorization header when no token is set (the cookie alone signs in)', async () => {
    const fetchMock = answer({ data: { me: null } });
    await request(MeDocument, {});
    expect((fetchMock.mock.calls[0]![1].headers as Record<string, string>)['authorization']).toBeUndefined();
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
