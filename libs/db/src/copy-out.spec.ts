import { BinaryCopyParser, sqlLiteral, uuidArrayLiteral, uuidLiteral, type CopyRow } from './copy-out';

/** A binary COPY stream as PostgreSQL writes it ("COPY … TO STDOUT (FORMAT binary)"). */
function stream(rows: (Buffer | null)[][], extension = Buffer.alloc(0)): Buffer {
  const parts: Buffer[] = [Buffer.from('PGCOPY\n\xff\r\n\0', 'latin1')];
  const int32 = (v: number) => {
    const b = Buffer.alloc(4);
    b.writeInt32BE(v);
    return b;
  };
  const int16 = (v: number) => {
    const b = Buffer.alloc(2);
    b.writeInt16BE(v);
    return b;
  };
  parts.push(int32(0), int32(extension.length), extension);
  for (const row of rows) {
    parts.push(int16(row.length));
    for (const f of row) parts.push(...(f === null ? [int32(-1)] : [int32(f.length), f]));
  }
  parts.push(int16(-1));
  return Buffer.concat(parts);
}

/** The rows the parser gives for `bytes` pushed in chunks of the sizes `sizes` cycles through. */
function parse(bytes: Buffer, sizes: number[]): string[][] {
  const out: string[][] = [];
  const parser = new BinaryCopyParser((row: CopyRow) => out.push(row.map((f) => (f === null ? '<null>' : f.toString('hex')))));
  for (let at = 0, i = 0; at < bytes.length; i++) {
    const size = sizes[i % sizes.length] ?? 1;
    parser.push(bytes.subarray(at, at + size));
    at += size;
  }
  parser.end();
  return out;
}

describe('BinaryCopyParser', () => {
  const big = Buffer.alloc(300_000, 7);
  const rows = [
    [Buffer.from('a'), null, Buffer.alloc(0)],
    [Buffer.from('second row'), big, Buffer.from([0, 1, 2])],
    [null, null, null],
    [Buffer.from('x')],
  ];
  const expected = rows.map((r) => r.map((f) => (f === null ? '<null>' : f.toString('hex'))));

  it.each([
    ['one chunk', [1 << 30]],
    ['byte by byte', [1]],
    ['chunks of 3 and 7 bytes', [3, 7]],
    ['the driver\'s 64 KiB chunks', [65_536]],
    ['chunks that split the header and the field lengths', [5, 2, 1, 11, 4096]],
  ])('reads every row, NULL and empty fields and a field of 300 kB, whatever the chunks: %s', (_, sizes) => {
    expect(parse(stream(rows), sizes)).toEqual(expected);
  });

  it('skips a header extension', () => {
    expect(parse(stream(rows, Buffer.from('extension bytes')), [2, 9])).toEqual(expected);
  });

  it('refuses a stream without the signature, one that stops mid-row, and data after the trailer', () => {
    expect(() => new BinaryCopyParser(() => undefined).push(Buffer.from('NOTCOPY\n\xff\r\n\0\0\0\0\0\0\0\0\0', 'latin1'))).toThrow(/PGCOPY signature/);
    const whole = stream(rows);
    const cut = new BinaryCopyParser(() => undefined);
    cut.push(whole.subarray(0, whole.length - 10));
    expect(() => cut.end()).toThrow(/stopped mid-row/);
    const after = new BinaryCopyParser(() => undefined);
    after.push(whole);
    expect(() => after.push(Buffer.from([0]))).toThrow(/after the end/);
  });
});

describe('literals written into a COPY statement', () => {
  it('quotes strings as escape strings, quotes and backslashes doubled, and refuses NUL', () => {
    expect(sqlLiteral("q'uote")).toBe("E'q''uote'");
    expect(sqlLiteral("'); DROP TABLE score_column; --")).toBe("E'''); DROP TABLE score_column; --'");
    expect(sqlLiteral("\\'); DROP TABLE t; --")).toBe("E'\\\\''); DROP TABLE t; --'");
    expect(() => sqlLiteral('a\u0000b')).toThrow(/NUL/);
  });

  it('takes only UUIDs as uuid literals', () => {
    const id = '0b6c3a36-2f4e-4f7e-9c1d-3a1f0e9b8c7d';
    expect(uuidLiteral(id)).toBe(`'${id}'::uuid`);
    expect(uuidArrayLiteral([id, id.toUpperCase()])).toBe(`ARRAY['${id}','${id.toUpperCase()}']::uuid[]`);
    expect(() => uuidLiteral(`${id}'`)).toThrow(/not a UUID/);
    expect(() => uuidArrayLiteral([id, "x'); DROP TABLE t; --"])).toThrow(/not a UUID/);
  });
});
