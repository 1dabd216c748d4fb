import { UnauthenticatedError } from '@podium/db';
import { bearerToken } from './auth.guard';

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
