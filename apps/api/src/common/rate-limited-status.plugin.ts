import type { ApolloServerPlugin } from '@apollo/server';

/**
 * A GraphQL answer whose errors include RATE_LIMITED (sign-in throttling, raised in a resolver)
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
          if (response.body.singleResult.errors?.some((e) => e.extensions?.['code'] === 'RATE_LIMITED')) response.http.status = 429;
        },
      };
    },
  };
}
