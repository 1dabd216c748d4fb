import { scryptSync } from 'node:crypto';
import { hashPassword, verifyPassword } from './credentials';
import { defined } from '../../../test/support/defined';

describe('passwords (node:crypto scrypt)', () => {
  it('stores scrypt$N$r$p$salt$hash with a fresh salt each time', async () => {
    const a = await hashPassword('correct horse battery');
    const b = await hashPassword('correct horse battery');
    expect(a).toMatch(/^scrypt\$16384\$8\$1\$[\w-]{22}\$[\w-]{43}$/);
    expect(a).not.toBe(b);
  });

  it('verifies the password it hashed and nothing else', async () => {
    const stored = await hashPassword('correct horse battery');
    await expect(verifyPassword('correct horse battery', stored)).resolves.toBe(true);
    await expect(verifyPassword('correct horse batterx', stored)).resolves.toBe(false);
    await expect(verifyPassword('anything', 'sha1$abc')).resolves.toBe(false);
  });

  it('matches scrypt as node:crypto computes it directly (RFC 7914 parameters N=16384, r=8, p=1)', async () => {
    const stored = await hashPassword('pw-1234567890');
    const [, , , , salt, hash] = stored.split('$');
    const direct = scryptSync('pw-1234567890', Buffer.from(defined(salt), 'base64url'), 32, { N: 16384, r: 8, p: 1 }).toString('base64url');
    expect(hash).toBe(direct);
  });
});
