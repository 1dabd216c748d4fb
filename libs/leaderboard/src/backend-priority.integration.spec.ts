/**
 * Issue #28: once a board thread yields, the PostgreSQL backend that serves its bulk reads yields
 * too, when the server runs on this machine (the embedded default): each backend is a session of
 * its own, which the kernel's autogroups weigh as much as the whole api.
 */
import { readFileSync } from 'node:fs';
import { getPriority } from 'node:os';
import { Client } from 'pg';
import { defined } from '../../../test/support/defined';
import { BOARD_THREAD_NICENESS, isLocalDatabase, lowerBackendPriority } from './thread-priority';

const url = process.env['DATABASE_URL'];
const describeDb = url && process.platform === 'linux' ? describe : describe.skip;

describe('isLocalDatabase', () => {
  it.each([
    ['postgresql://u:p@127.0.0.1:5432/db', true],
    ['postgres://u@localhost/db', true],
    ['postgresql://u@[::1]:5433/db', true],
    ['postgresql:///db?host=/var/run/postgresql', true],
    ['postgresql:///db', true],
    ['postgresql://u@db.example.org:5432/db', false],
    ['postgresql://u@10.0.0.5/db', false],
    ['not a url', false],
  ])('%s → %s', (u, local) => {
    expect(isLocalDatabase(u)).toBe(local);
  });
});

describeDb('a board thread\'s PostgreSQL backend (real PostgreSQL)', () => {
  it('is lowered to the board thread\'s nice value, its autogroup too, and a server elsewhere is left alone', async () => {
    const databaseUrl = defined(url, 'DATABASE_URL');
    const client = new Client({ connectionString: databaseUrl });
    await client.connect();
    try {
      const pid = Number((await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]?.pid);
      // the test database is the embedded one on this machine
      expect(isLocalDatabase(databaseUrl)).toBe(true);
      expect(getPriority(pid)).toBeLessThan(BOARD_THREAD_NICENESS);
      // named elsewhere, nothing is changed (its process ids are not this machine's)
      expect(await lowerBackendPriority(client, 'postgresql://u@db.example.org/db')).toBeNull();
      expect(getPriority(pid)).toBeLessThan(BOARD_THREAD_NICENESS);
      expect(await lowerBackendPriority(client, databaseUrl)).toBe(BOARD_THREAD_NICENESS);
      expect(getPriority(pid)).toBe(BOARD_THREAD_NICENESS);
      let autogroup: string | null = null;
      try {
        autogroup = readFileSync(`/proc/${pid}/autogroup`, 'utf8');
      } catch {
        // a kernel without autogroups
      }
      if (autogroup !== null) expect(autogroup).toMatch(new RegExp(`nice ${BOARD_THREAD_NICENESS}\\s*$`));
      // the connection still serves
      expect((await client.query<{ one: number }>('SELECT 1 AS one')).rows[0]?.one).toBe(1);
    } finally {
      await client.end();
    }
  });
});
