import type { ApolloServerPlugin } from '@apollo/server';

/**
 * A GraphQL answer whose errors include SERVICE_UNAVAILABLE (the database is unreachable) goes
 * out as HTTP 503 with `Retry-After: 5`, and one whose errors include RATE_LIMITED (sign-in throttling, raised in a resolver)
 * goes out as HTTP 429 with its `Retry-After`, like the request limiter's. @nestjs/apollo's
 * "preserve HTTP status" plugin, registered after this one, resets the status of every answer
 * that executed to 200 in its own willSendResponse; this hook therefore yields once first, so it
 * sets the status after that reset (the hooks run together under one Promise.all).
 */
export function rateLimitedStatusPlugin(): ApolloServerPlugin {
  return {
    async requestDidStart() {
      return {
        async willSendResponse({ response }) {
          await Promise.resolve();
          if (response.body.kind !== 'single') return;
          const errors = response.body.singleResult.errors ?? [];
          if (errors.some((e) => e.extensions?.['code'] === 'RATE_LIMITED')) response.http.status = 429;
          // The database could not be reached (ADR 0019): 503 with a hint to retry, as REST answers.
          else if (errors.some((e) => e.extensions?.['code'] === 'SERVICE_UNAVAILABLE')) {
            response.http.status = 503;
            response.http.headers.set('retry-after', '5');
          }
        },
      };
    },
  };
}
