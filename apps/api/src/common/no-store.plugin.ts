import type { ApolloServerPlugin } from '@apollo/server';
import { ApolloServerPluginCacheControlDisabled } from '@apollo/server/plugin/disabled';

/**
 * GraphQL answers go out with `Cache-Control: no-store`, as Apollo's cache-control plugin sent
 * them (no field of the schema has a cache hint, and answers depend on the caller), without that
 * plugin: it is installed by default and hooks every field's resolution (a cache policy object and
 * a closure per field: a third of the CPU of a 100-system board query, issue #28), only to find
 * that nothing is cacheable. Both plugins go together: Apollo's is disabled by the first.
 */
export function noStorePlugins(): ApolloServerPlugin[] {
  return [
    ApolloServerPluginCacheControlDisabled(),
    {
      async requestDidStart() {
        return {
          async willSendResponse({ response }) {
            if (!response.http.headers.has('cache-control')) response.http.headers.set('cache-control', 'no-store');
          },
        };
      },
    },
  ];
}
