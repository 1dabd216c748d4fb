import type { ExecutionContext } from '@nestjs/common';
import { type IdentityRepository } from '@podium/db';
import { ForbiddenError, UnauthenticatedError, type AuthUser } from '@podium/domain';
import { AuthGuard, authenticate, bearerToken, routeKey } from './auth.guard';

/** An HTTP request that matched Express route `path`, by `user` (already authenticated). */
function http(method: string, path: string, user: AuthUser | null): ExecutionContext {
  const req = { method, route: { path }, path, headers: {}, podiumUser: user };
  return { getType: () => 'http', switchToHttp: () => ({ getRequest: () => req }) } as unknown as ExecutionContext;
}

const guard = new AuthGuard({} as IdentityRepository);
const alice: AuthUser = { id: 'a', name: 'alice', role: 'PARTICIPANT', teamIds: ['t'], organisedTaskIds: [] };

describe('AuthGuard on REST routes (deny by default)', () => {
  it('refuses a route the classification does not list, whoever calls', async () => {
    await expect(guard.canActivate(http('GET', '/api/secret', { ...alice, role: 'ADMIN' }))).rejects.toThrow(ForbiddenError);
  });

  it('serves a public route anonymously and HEAD as GET', async () => {
    await expect(guard.canActivate(http('GET', '/api/health', null))).resolves.toBe(true);
    await expect(guard.canActivate(http('HEAD', '/api/phases/:id/leaderboard.json', null))).resolves.toBe(true);
    expect(routeKey({ method: 'HEAD', route: { path: '/api/health' } })).toBe('GET /api/health');
  });

  it('refuses the upload route to anonymous callers and lets a signed-in one on to the team check', async () => {
    await expect(guard.canActivate(http('POST', '/api/phases/:phaseId/submissions', null))).rejects.toThrow(UnauthenticatedError);
    await expect(guard.canActivate(http('POST', '/api/phases/:phaseId/submissions', alice))).resolves.toBe(true);
  });
});

describe('bearerToken', () => {
  it('is undefined without an Authorization header (anonymous reads)', () => {
    expect(bearerToken(undefined)).toBeUndefined();
  });

  it('extracts the token, whatever the case of "Bearer"', () => {
    expect(bearerToken('Bearer pod_abc')).toBe('pod_abc');
    expect(bearerToken('bearer  pod_abc ')).toBe('pod_abc');
  });

  it.each(['Basic dXNlcjpwYXNz', 'Bearer', 'pod_abc', 'Bearer a b'])('rejects the header %j as UNAUTHENTICATED', (header) => {
    expect(() => bearerToken(header)).toThrow(UnauthenticatedError);
  });
});

describe('authenticate while the database is unreachable', () => {
  it('rethrows the identify middleware\'s database error instead of waiting for a second look-up (ADR 0019)', async () => {
    const lookups: string[] = [];
    const identity = { userByToken: async (t: string) => (lookups.push(t), null) } as unknown as IdentityRepository;
    const outage = new Error('timeout exceeded when trying to connect');
    const req = { headers: { authorization: 'Bearer abc' }, podiumIdentityError: outage } as unknown as Parameters<typeof authenticate>[1];
    await expect(authenticate(identity, req)).rejects.toBe(outage);
    expect(lookups).toEqual([]);
    // Without a recorded outage the look-up runs (an unknown token: refused).
    await expect(authenticate(identity, { headers: { authorization: 'Bearer abc' } } as unknown as Parameters<typeof authenticate>[1])).rejects.toThrow(UnauthenticatedError);
    expect(lookups).toEqual(['abc']);
  });
});
