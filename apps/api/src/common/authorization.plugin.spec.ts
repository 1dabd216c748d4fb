import { ApolloServer } from '@apollo/server';
import type { AuthUser } from '@podium/domain';
import { buildSchema } from 'graphql';
import { authorizationPlugin } from './authorization.plugin';

// A schema with classified fields (Query.tasks: public, Query.myTokens: signedIn,
// Mutation.issueToken: admin, Mutation.createPhase: taskOrganiser) and one the classification
// does not know (Query.secret), served by Apollo with the plugin as the api serves its own.
const schema = buildSchema(`
  type Query { tasks: [String!]! myTokens: [String!]! secret: String }
  type Mutation { issueToken(userName: String!): String createPhase: String }
`);
const rootValue = { tasks: () => ['t'], myTokens: () => ['k'], secret: () => 'leaked', issueToken: () => 'pod_x', createPhase: () => 'p' };

const participant: AuthUser = { id: 'p', name: 'pia', role: 'PARTICIPANT', teamIds: [], organisedTaskIds: [] };
const organiser: AuthUser = { id: 'o', name: 'olga', role: 'ORGANISER', teamIds: [], organisedTaskIds: ['task-x'] };
const admin: AuthUser = { id: 'a', name: 'ada', role: 'ADMIN', teamIds: [], organisedTaskIds: [] };

async function run(query: string, user: AuthUser | null): Promise<{ data: unknown; code: unknown; authenticated: number }> {
  let authenticated = 0;
  const server = new ApolloServer<{ req?: unknown }>({
    schema,
    rootValue,
    plugins: [
      authorizationPlugin(() => {
        authenticated++;
        return Promise.resolve(user);
      }),
    ],
  });
  await server.start();
  try {
    const res = await server.executeOperation({ query }, { contextValue: { req: {} } });
    if (res.body.kind !== 'single') throw new Error('expected a single result');
    return { data: res.body.singleResult.data, code: res.body.singleResult.errors?.[0]?.extensions?.['code'], authenticated };
  } finally {
    await server.stop();
  }
}

describe('authorizationPlugin', () => {
  it('refuses a field the classification does not list, even for an administrator, before it resolves', async () => {
    const r = await run('{ tasks secret }', admin);
    expect(r.code).toBe('FORBIDDEN');
    expect(r.data).toBeUndefined();
  });

  it('serves public fields without authenticating the caller', async () => {
    const r = await run('{ tasks }', null);
    expect(r).toEqual({ data: { tasks: ['t'] }, code: undefined, authenticated: 0 });
  });

  it('refuses a signed-in field to anonymous callers with UNAUTHENTICATED', async () => {
    expect((await run('{ myTokens }', null)).code).toBe('UNAUTHENTICATED');
    expect((await run('{ myTokens }', participant)).data).toEqual({ myTokens: ['k'] });
  });

  it('refuses administrator operations to organisers and organiser operations to participants', async () => {
    expect((await run('mutation { issueToken(userName: "pia") }', organiser)).code).toBe('FORBIDDEN');
    expect((await run('mutation { issueToken(userName: "pia") }', admin)).data).toEqual({ issueToken: 'pod_x' });
    expect((await run('mutation { createPhase }', participant)).code).toBe('FORBIDDEN');
    expect((await run('mutation { createPhase }', organiser)).data).toEqual({ createPhase: 'p' });
  });

  it('finds fields inside fragments', async () => {
    expect((await run('query { ...F } fragment F on Query { secret }', admin)).code).toBe('FORBIDDEN');
    expect((await run('query { ... on Query { myTokens } }', null)).code).toBe('UNAUTHENTICATED');
  });
});
