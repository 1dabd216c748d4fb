import { ByteReader, RowDigest, orderedSelect } from './backup-format';
import { dependencyOrder } from './catalogue';

async function* chunks(...parts: string[]): AsyncGenerator<Buffer> {
  for (const p of parts) yield Buffer.from(p);
}

describe('backup file pieces', () => {
  it('reads lines and exact lengths across chunk boundaries, and says when bytes run out', async () => {
    const reader = new ByteReader(chunks('PODIUM-BA', 'CKUP 1\n{"a"', ':1}\nab\tc\nd', 'ef\n'));
    expect(await reader.readLine(100)).toBe('PODIUM-BACKUP 1');
    expect(await reader.readLine(100)).toBe('{"a":1}');
    const got: string[] = [];
    expect(await reader.readExact(5, (c) => void got.push(c.toString()))).toBe(5);
    expect(got.join('')).toBe('ab\tc\n');
    expect(await reader.readExact(10, () => undefined)).toBe(4);
    expect(await reader.atEnd()).toBe(true);
  });

  it('refuses a header line longer than its limit', async () => {
    await expect(new ByteReader(chunks('x'.repeat(50), 'y'.repeat(50))).readLine(60)).rejects.toThrow('longer than 60 bytes');
  });

  it('counts COPY rows by newline (escaped newlines inside values are two characters) and hashes the bytes', () => {
    const d = new RowDigest();
    d.add(Buffer.from('1\ta\\nb\n2\t\\N\n'));
    expect([d.rows, d.bytes]).toEqual([2, 12]);
    // sha256 of the same 12 bytes, from `printf '1\ta\\nb\n2\t\\N\n' | sha256sum`.
    expect(d.digest()).toBe('9818caf41c66fe20e6c25a7aaac13b30f85b82c6c61fe3d7d5f304cf4a5fa7b4');
  });

  it('orders tables after the tables they reference, ties by name, and names a cycle', () => {
    const t = (name: string, ...references: string[]) => ({ name, references: new Set(references) });
    expect(dependencyOrder([t('output', 'submission', 'instance'), t('submission', 'user'), t('instance'), t('user')]).map((x) => x.name)).toEqual(['instance', 'user', 'submission', 'output']);
    expect(() => dependencyOrder([t('a', 'b'), t('b', 'a'), t('c')])).toThrow('tables a, b form a cycle');
  });

  it('selects by primary key, text keys under collation "C"; a table without a key by its whole row', () => {
    const cols = [{ name: 'id' }, { name: 'name' }];
    expect(orderedSelect({ name: 'user', columns: cols, orderBy: ['name'] }, new Set(['name']))).toBe('SELECT "id", "name" FROM public."user" ORDER BY "name" COLLATE "C"');
    expect(orderedSelect({ name: 't', columns: cols, orderBy: [] }, new Set())).toBe('SELECT "id", "name" FROM public."t" ORDER BY ROW("id", "name")::text COLLATE "C"');
  });
});
