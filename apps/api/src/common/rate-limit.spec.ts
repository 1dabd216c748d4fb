import type { Request } from 'express';
import { RateLimiter, identifyRequest } from './rate-limit';

describe('RateLimiter', () => {
  it('lets exactly `limit` requests through per window and says how long to wait after', () => {
    let t = 0;
    const limiter = new RateLimiter(3, 60_000, () => t);
    expect([1, 2, 3].map(() => limiter.hit('a'))).toEqual([0, 0, 0]);
    t = 15_000;
    expect(limiter.hit('a')).toBe(45);
    expect(limiter.hit('b')).toBe(0);
    t = 60_000;
    expect(limiter.hit('a')).toBe(0);
  });
  it('never limits when the limit is 0', () => {
    const limiter = new RateLimiter(0, 1000);
    for (let i = 0; i < 100; i++) expect(limiter.hit('a')).toBe(0);
  });
});

describe('identifyRequest (who a request counts against)', () => {
  const alice = { id: 'u-alice', name: 'alice', role: 'PARTICIPANT' as const, teamIds: [], organisedTaskIds: [] };
  // Two tokens of one user, one session; anything else is unknown.
  const lookup = {
    userByToken: (t: string) => Promise.resolve(t === 'tok-1' || t === 'tok-2' ? alice : null),
    userBySession: (s: string) => Promise.resolve(s === 'ses-1' ? alice : null),
  };
  const req = (headers: Record<string, string>) => ({ headers, ip: '10.0.0.7', socket: {} }) as unknown as Request;

  it.each(['Bearer tok-1', 'bearer tok-1', 'BEARER tok-1', 'Bearer    tok-1   ', 'Bearer tok-2'])('counts %j against the user', async (authorization) => {
    await expect(identifyRequest(req({ authorization }), lookup)).resolves.toEqual({ key: 'user:u-alice', user: alice });
  });

  it('counts a web session against the same user as their tokens', async () => {
    await expect(identifyRequest(req({ cookie: 'podium_session=ses-1' }), lookup)).resolves.toEqual({ key: 'user:u-alice', user: alice });
  });

  it.each(['Bearer invented', 'Basic abc', 'Bearer'])('counts %j against the address and leaves it for the guard to refuse', async (authorization) => {
    await expect(identifyRequest(req({ authorization }), lookup)).resolves.toEqual({ key: 'ip:10.0.0.7', user: undefined });
  });

  it('counts an anonymous request against the address', async () => {
    await expect(identifyRequest(req({ cookie: 'podium_session=expired' }), lookup)).resolves.toEqual({ key: 'ip:10.0.0.7', user: null });
  });
});
