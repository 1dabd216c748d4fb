import { CliError } from '../cli-error';
import { adminCommandWith } from './admin.command';
import { defined } from '../../../../test/support/defined';

function fakeApi(answer: unknown, status = 200) {
  const calls: { url: string; init: RequestInit }[] = [];
  const impl = (async (url: string, init: RequestInit) => {
    calls.push({ url, init });
    return new Response(JSON.stringify(answer), { status, headers: { 'content-type': 'application/json' } });
  }) as unknown as typeof fetch;
  return { calls, impl };
}

describe('podium admin requeue', () => {
  it('sends the requeueSubmissions mutation with the bearer token and prints the ids', async () => {
    const api = fakeApi({ data: { requeueSubmissions: ['a', 'b'] } });
    const out = await adminCommandWith(api.impl, {}).run(['requeue', '--url', 'http://127.0.0.1:3000/', '--token', 't0k', '--stuck']);
    expect(out).toEqual({ requeued: ['a', 'b'] });
    expect(defined(api.calls[0]).url).toBe('http://127.0.0.1:3000/graphql');
    expect((defined(api.calls[0]).init.headers as Record<string, string>)['authorization']).toBe('Bearer t0k');
    expect(JSON.parse(defined(api.calls[0]).init.body as string).variables).toEqual({ stuck: true });
  });
  it('takes the token from PODIUM_TOKEN and passes one submission id', async () => {
    const api = fakeApi({ data: { requeueSubmissions: ['s1'] } });
    await adminCommandWith(api.impl, { PODIUM_TOKEN: 'env' }).run(['requeue', '--url', 'http://x', '--submission', 's1']);
    expect(JSON.parse(defined(api.calls[0]).init.body as string).variables).toEqual({ id: 's1' });
  });
  it('fails with the API message (e.g. not an organiser) and on bad flags', async () => {
    const api = fakeApi({ errors: [{ message: 'organisers only' }] });
    await expect(adminCommandWith(api.impl, {}).run(['requeue', '--url', 'http://x', '--token', 't', '--stuck'])).rejects.toThrow('organisers only');
    await expect(adminCommandWith(api.impl, {}).run(['requeue', '--url', 'http://x', '--token', 't'])).rejects.toBeInstanceOf(CliError);
    await expect(adminCommandWith(api.impl, {}).run(['requeue', '--token', 't', '--stuck'])).rejects.toThrow('--url is required');
  });
});

describe('podium admin backup / restore / verify-backup (flags; the database work is in test/e2e/backup-restore.e2e.spec.ts)', () => {
  const admin = adminCommandWith(fakeApi({}).impl, {});
  it('asks for --out on backup and for exactly one FILE on restore and verify-backup', async () => {
    await expect(admin.run(['backup'])).rejects.toThrow('--out FILE is required');
    await expect(admin.run(['restore'])).rejects.toThrow('give exactly one backup FILE');
    await expect(admin.run(['verify-backup', 'a', 'b'])).rejects.toThrow('give exactly one backup FILE');
  });
  it('names a missing file without touching a database', async () => {
    await expect(admin.run(['restore', '/nonexistent/podium.backup', '--database-url', 'postgresql://nobody:x@127.0.0.1:1/none'])).rejects.toThrow('/nonexistent/podium.backup does not exist');
  });
});
