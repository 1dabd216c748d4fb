import type { Request } from 'express';
import { csrfRefusal } from './csrf.middleware';

function req(method: string, headers: Record<string, string>): Request {
  return { method, headers: { host: '127.0.0.1:3917', ...headers }, protocol: 'http' } as unknown as Request;
}
const COOKIE = { cookie: 'podium_session=ses_abc' };

describe('csrfRefusal', () => {
  it('refuses a cookie POST from another origin of the same site (the issue: :3918 → :3917, no-cors)', () => {
    expect(csrfRefusal(req('POST', { ...COOKIE, origin: 'http://127.0.0.1:3918', 'sec-fetch-site': 'same-site' }))).toMatch(/same-site page/);
    expect(csrfRefusal(req('POST', { ...COOKIE, origin: 'http://127.0.0.1:3918' }))).toMatch(/must come from this origin/);
    expect(csrfRefusal(req('POST', { ...COOKIE, origin: 'null' }))).not.toBeNull();
  });

  it('refuses a cookie POST that says nothing of where it comes from, unless it carries the custom header', () => {
    expect(csrfRefusal(req('POST', COOKIE))).not.toBeNull();
    expect(csrfRefusal(req('POST', { ...COOKIE, 'x-podium-request': 'web' }))).toBeNull();
  });

  it('lets a cookie POST from this origin through (Sec-Fetch-Site, or Origin where browsers send no Sec-Fetch-Site)', () => {
    expect(csrfRefusal(req('POST', { ...COOKIE, 'sec-fetch-site': 'same-origin' }))).toBeNull();
    expect(csrfRefusal(req('POST', { ...COOKIE, origin: 'http://127.0.0.1:3917' }))).toBeNull();
  });

  it('leaves Bearer tokens, anonymous requests and safe methods alone', () => {
    expect(csrfRefusal(req('POST', { authorization: 'Bearer pod_x', origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' }))).toBeNull();
    expect(csrfRefusal(req('POST', { origin: 'https://evil.example' }))).toBeNull();
    expect(csrfRefusal(req('GET', { ...COOKIE, 'sec-fetch-site': 'cross-site' }))).toBeNull();
  });
});
