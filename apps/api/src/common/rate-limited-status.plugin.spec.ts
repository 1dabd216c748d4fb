import { HeaderMap, type GraphQLRequestContextWillSendResponse, type GraphQLRequestListener } from '@apollo/server';
import { rateLimitedStatusPlugin } from './rate-limited-status.plugin';

/** The status and headers the plugin leaves on an executed answer whose errors carry `codes`. */
async function answer(codes: string[]): Promise<{ status: number | undefined; retryAfter: string | undefined }> {
  const listener = (await rateLimitedStatusPlugin().requestDidStart?.({} as never)) as GraphQLRequestListener<object>;
  const http = { status: 200 as number | undefined, headers: new HeaderMap() };
  const response = { http, body: { kind: 'single', singleResult: { errors: codes.map((code) => ({ message: code, extensions: { code } })) } } };
  await listener.willSendResponse?.({ response } as unknown as GraphQLRequestContextWillSendResponse<object>);
  return { status: http.status, retryAfter: http.headers.get('retry-after') };
}

describe('GraphQL answers whose errors ask for a retry', () => {
  it('go out as 503 with Retry-After when the database is unavailable (ADR 0019), 429 when rate limited', async () => {
    expect(await answer(['SERVICE_UNAVAILABLE'])).toEqual({ status: 503, retryAfter: '5' });
    expect((await answer(['RATE_LIMITED', 'SERVICE_UNAVAILABLE'])).status).toBe(429);
    expect(await answer(['NOT_FOUND'])).toEqual({ status: 200, retryAfter: undefined });
    expect(await answer([])).toEqual({ status: 200, retryAfter: undefined });
  });
});
