import { mkdtemp, open, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { copyOutputRowHead, ElementSpool, SpoolMemory } from './submission.repository';

/** A binary COPY array element as PostgreSQL's array_recv reads it: 4-byte big-endian length, then the UTF-8 bytes. */
function element(text: string): Buffer {
  const bytes = Buffer.from(text, 'utf8');
  const length = Buffer.alloc(4);
  length.writeInt32BE(bytes.length);
  return Buffer.concat([length, bytes]);
}

describe('ElementSpool', () => {
  let dir = '';
  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'element-spool-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('writes the outputs in position order whatever order they come in, each as a binary array element', async () => {
    // The long one outgrows the spool's buffer within one push; the multi-byte ones are longer in UTF-8 than in UTF-16.
    const texts = ['first', '', 'Grüße 😀 €', 'x'.repeat(700_000), 'tab\tand\nnewline \\ "quote"'];
    const file = await open(path.join(dir, 'spool'), 'w');
    const spool = new ElementSpool(file, texts.length);
    for (const p of [2, 0, 4]) spool.row(p, texts[p] ?? '');
    expect(spool.appended).toBe(1);
    await spool.flush();
    for (const p of [1, 3]) spool.row(p, texts[p] ?? '');
    await spool.flush(true);
    await file.close();
    const expected = Buffer.concat(texts.map(element));
    expect(spool.appended).toBe(texts.length);
    expect(spool.bytes).toBe(expected.length);
    expect((await readFile(path.join(dir, 'spool'))).equals(expected)).toBe(true);
  });

  it('refuses a position twice or beyond the test set', async () => {
    const file = await open(path.join(dir, 'spool'), 'w');
    const spool = new ElementSpool(file, 3);
    spool.row(0, 'a');
    expect(() => spool.row(0, 'again')).toThrow('output for position 0 out of place (next 1 of 3)');
    spool.row(2, 'c');
    expect(() => spool.row(2, 'again')).toThrow('output for position 2 out of place');
    expect(() => spool.row(3, 'beyond')).toThrow('output for position 3 out of place');
    await file.close();
  });
});

describe('ElementSpool in memory', () => {
  let dir = '';
  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'element-spool-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });
  const MiB = 1 << 20;
  /** Texts of `n` × 100 KiB: each 1 MiB buffer of the spool takes ten of them (with their 4-byte lengths, nine). */
  const texts = (n: number) => Array.from({ length: n }, (_, i) => String.fromCharCode(97 + (i % 26)).repeat(100 * 1024));
  async function spoolAll(all: string[], memory: SpoolMemory) {
    let opened = 0;
    const spool = new ElementSpool(
      async () => {
        opened++;
        return open(path.join(dir, 'spool'), 'w');
      },
      all.length,
      memory,
    );
    for (const [p, t] of all.entries()) {
      spool.row(p, t);
      await spool.flush();
    }
    await spool.flush(true);
    return { spool, opened };
  }

  it('keeps a small upload in memory (no file opened) and gives the memory back on release', async () => {
    const all = texts(20);
    const memory = new SpoolMemory(8 * MiB, 16 * MiB);
    const { spool, opened } = await spoolAll(all, memory);
    expect(opened).toBe(0);
    // 20 × (100 KiB + 4) bytes: 9 a buffer, so 3 buffers of 1 MiB are held.
    expect(memory.held).toBe(3 * MiB);
    expect(Buffer.concat(spool.inMemory ?? []).equals(Buffer.concat(all.map(element)))).toBe(true);
    spool.release();
    expect(memory.held).toBe(0);
  });

  it.each([
    ['its own limit', new SpoolMemory(2 * MiB, 16 * MiB)],
    ['the limit of all uploads together', new SpoolMemory(8 * MiB, 2 * MiB)],
  ])('goes to its file, what it kept first, once it would pass %s', async (_, memory) => {
    const all = texts(40);
    const { spool, opened } = await spoolAll(all, memory);
    expect(opened).toBe(1);
    expect(spool.inMemory).toBeNull();
    expect(memory.held).toBe(0);
    expect((await readFile(path.join(dir, 'spool'))).equals(Buffer.concat(all.map(element)))).toBe(true);
  });
});

describe('copyOutputRowHead', () => {
  it('frames one row of two uuids and a one-dimensional text array as binary COPY reads it', () => {
    const submissionId = '0f0e0d0c-0b0a-0908-0706-050403020100';
    const testSetId = 'ffeeddcc-bbaa-9988-7766-554433221100';
    const head = copyOutputRowHead(submissionId, testSetId, 7, 1234);
    // PostgreSQL's COPY "Binary Format": signature, flags, header extension length.
    expect(head.subarray(0, 11).equals(Buffer.from('PGCOPY\n\xff\r\n\0', 'latin1'))).toBe(true);
    expect([head.readInt32BE(11), head.readInt32BE(15), head.readInt16BE(19)]).toEqual([0, 0, 3]);
    expect([head.readInt32BE(21), head.subarray(25, 41).toString('hex'), head.readInt32BE(41), head.subarray(45, 61).toString('hex')]).toEqual([
      16, submissionId.replace(/-/g, ''), 16, testSetId.replace(/-/g, ''),
    ]);
    // The array field: its length (header 20 bytes + elements), then ndim 1, no nulls, element oid 25 (text), 7 elements from index 1.
    expect([61, 65, 69, 73, 77, 81].map((at) => head.readInt32BE(at))).toEqual([20 + 1234, 1, 0, 25, 7, 1]);
    expect(head.length).toBe(85);
  });

  it('refuses outputs beyond what PostgreSQL stores in one value', () => {
    expect(() => copyOutputRowHead('0f0e0d0c-0b0a-0908-0706-050403020100', '0f0e0d0c-0b0a-0908-0706-050403020100', 1, 0x3fff_ffff)).toThrow(/a submission may store at most/);
  });
});
