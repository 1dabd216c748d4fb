import { MAX_LINE_PROBLEMS, UploadRejection, UploadStream, decodeUtf8, detectFormat, firstInvalidUtf8Offset, parseUpload, splitLines } from './upload-parser';
import { outputsChecksum } from '../lifecycle/outputs-checksum';
import { defined } from '../../../../test/support/defined';

const IDS = ['s1', 's2', 's3'];
const utf8 = (s: string) => new TextEncoder().encode(s);
const jsonl = (...records: unknown[]) => records.map((r) => JSON.stringify(r)).join('\n') + '\n';

/** What JSON.parse itself says about `text` (its wording varies by Node version). */
function jsonError(text: string): string {
  try {
    JSON.parse(text);
  } catch (e) {
    return e instanceof Error ? e.message : String(e);
  }
  return '';
}

function rejection(fn: () => unknown): UploadRejection {
  try {
    fn();
  } catch (e) {
    if (e instanceof UploadRejection) return e;
    throw e;
  }
  throw new Error('expected an UploadRejection');
}

describe('parseUpload, JSONL', () => {
  it('returns outputs in test-set order whatever the line order', () => {
    const file = jsonl({ id: 's3', output: 'c' }, { id: 's1', output: 'a' }, { id: 's2', output: 'b' });
    expect(parseUpload(utf8(file), IDS)).toEqual({
      format: 'jsonl',
      outputs: [
        { instanceId: 's1', text: 'a' },
        { instanceId: 's2', text: 'b' },
        { instanceId: 's3', text: 'c' },
      ],
    });
  });

  it('detects JSONL from a leading { after blank space', () => {
    expect(parseUpload(utf8('\n  ' + jsonl({ id: 's1', output: 'a' }, { id: 's2', output: 'b' }, { id: 's3', output: 'c' })), IDS).format).toBe('jsonl');
  });

  it('accepts CRLF line endings, a missing final newline, blank lines and extra keys', () => {
    const file = '{"id":"s1","output":"a","score":1}\r\n\r\n{"id":"s2","output":"b"}\r\n{"id":"s3","output":""}';
    expect(parseUpload(file, IDS).outputs.map((o) => o.text)).toEqual(['a', 'b', '']);
  });

  it('accepts integer ids and matches them to string instance ids', () => {
    expect(parseUpload(jsonl({ id: 1, output: 'x' }, { id: 2, output: 'y' }), ['1', '2']).outputs).toEqual([
      { instanceId: '1', text: 'x' },
      { instanceId: '2', text: 'y' },
    ]);
  });

  it('keeps unicode, tabs and escaped newlines inside outputs', () => {
    const out = parseUpload(jsonl({ id: 's1', output: 'Grüße\tdu\nda 😀' }, { id: 's2', output: 'b' }, { id: 's3', output: 'c' }), IDS);
    expect(defined(out.outputs[0], 'out.outputs[0]').text).toBe('Grüße\tdu\nda 😀');
  });

  it('names the line and both occurrences of a duplicate id', () => {
    const e = rejection(() => parseUpload(jsonl({ id: 's1', output: 'a' }, { id: 's2', output: 'b' }, { id: 's1', output: 'c' }), IDS));
    expect(e.message).toBe("line 3: duplicate instance id 's1' (also on line 1)");
    expect(e.pointer).toEqual({ line: 3, instanceId: 's1' });
  });

  it('rejects an id that is not in the test set, naming line and id', () => {
    const e = rejection(() => parseUpload(jsonl({ id: 's1', output: 'a' }, { id: 'zz', output: 'b' }), IDS));
    expect(e.message).toMatch(/^line 2: unknown instance id 'zz'/);
    expect(e.pointer).toEqual({ line: 2, instanceId: 'zz' });
  });

  it('lists the instances without output and points at the first', () => {
    const e = rejection(() => parseUpload(jsonl({ id: 's2', output: 'b' }), IDS));
    expect(e.message).toBe("2 of 3 instances have no output: 's1', 's3'");
    expect(e.pointer).toEqual({ instanceId: 's1' });
  });

  it('caps the list of missing instances at five names', () => {
    const ids = Array.from({ length: 9 }, (_, k) => `i${k}`);
    const e = rejection(() => parseUpload(jsonl({ id: 'i0', output: 'x' }), ids));
    expect(e.message).toBe("8 of 9 instances have no output: 'i1', 'i2', 'i3', 'i4', 'i5', … (8 in all)");
  });

  it.each([
    [{ id: 's1', output: 42 }, 'line 1 (instance \'s1\'): "output" must be a string, got a number'],
    [{ id: 's1', output: null }, 'line 1 (instance \'s1\'): "output" must be a string, got null'],
    [{ id: 's1', output: ['a'] }, 'line 1 (instance \'s1\'): "output" must be a string, got an array'],
    [{ id: 's1' }, 'line 1 (instance \'s1\'): missing "output"'],
    [{ output: 'a' }, 'line 1: missing "id"'],
    [{ id: true, output: 'a' }, 'line 1: "id" must be a string, got a boolean'],
    [{ id: 1.5, output: 'a' }, 'line 1: "id" must be a string, got a number'],
  ])('rejects the record %j', (record, message) => {
    expect(rejection(() => parseUpload(jsonl(record), IDS)).message).toBe(message);
  });

  it('rejects malformed JSON, naming the line', () => {
    const e = rejection(() => parseUpload('{"id":"s1","output":"a"}\n{"id":"s2", output:"b"}\n', IDS));
    expect(e.message).toMatch(/^line 2: not valid JSON/);
    expect(e.pointer.line).toBe(2);
  });

  it('names every bad line in one refusal, pointing at the first', () => {
    const e = rejection(() => parseUpload('{"id":"s1","output":"a"}\nnot json\n{"id":"s9","output":"x"}\n{"id":"s3"}\n', IDS));
    expect(e.message).toBe(
      `3 lines are refused: line 2: not valid JSON (${jsonError('not json')}); line 3: unknown instance id 's9' (not in the phase's test set); line 4 (instance 's3'): missing "output"`,
    );
    expect(e.pointer.line).toBe(2);
  });

  it(`names at most ${MAX_LINE_PROBLEMS} bad lines and counts the rest`, () => {
    const ids = Array.from({ length: 30 }, (_, k) => `i${k}`);
    const e = rejection(() => parseUpload(ids.map((id) => `{"id":"${id}"}`).join('\n'), ids, 'jsonl'));
    expect(e.message.startsWith('30 lines are refused: line 1 (instance \'i0\'): missing "output"')).toBe(true);
    expect(e.message.match(/missing "output"/g)).toHaveLength(MAX_LINE_PROBLEMS);
    expect(e.message.endsWith('; and 10 more')).toBe(true);
  });

  it('rejects a line that is JSON but not an object', () => {
    expect(rejection(() => parseUpload('{"id":"s1","output":"a"}\n["s2","b"]\n', IDS)).message).toBe(
      'line 2: expected a JSON object {"id": …, "output": …}, got an array',
    );
  });

  it('reads a file as JSONL when told to, even if it starts otherwise', () => {
    expect(rejection(() => parseUpload('hello\n', IDS, 'jsonl')).message).toMatch(/^line 1: not valid JSON/);
  });
});

describe('parseUpload, TEXT', () => {
  it('maps line k to the k-th instance of the test set', () => {
    expect(parseUpload(utf8('a\nb\nc\n'), IDS)).toEqual({
      format: 'text',
      outputs: [
        { instanceId: 's1', text: 'a' },
        { instanceId: 's2', text: 'b' },
        { instanceId: 's3', text: 'c' },
      ],
    });
  });

  it('tolerates CRLF and a missing final newline, and keeps empty lines as empty outputs', () => {
    expect(parseUpload('a\r\n\r\nc', IDS).outputs.map((o) => o.text)).toEqual(['a', '', 'c']);
  });

  it('treats only one trailing newline as a terminator', () => {
    expect(parseUpload('a\nb\n\n', ['x', 'y', 'z']).outputs.map((o) => o.text)).toEqual(['a', 'b', '']);
  });

  it('names expected and actual line counts when lines are missing', () => {
    const e = rejection(() => parseUpload('a\nb\n', IDS));
    expect(e.message).toBe('expected 3 lines (one per instance, in test-set order), got 2');
    expect(e.pointer).toEqual({ instanceId: 's3' });
  });

  it('points at the first extra line when there are too many', () => {
    const e = rejection(() => parseUpload('a\nb\nc\nd\n', IDS));
    expect(e.message).toBe('expected 3 lines (one per instance, in test-set order), got 4 (line 4 is the first extra one)');
    expect(e.pointer).toEqual({ line: 4 });
  });

  it('reads lines starting with { as text when told the format is TEXT', () => {
    expect(parseUpload('{x}\n{y}\n{z}\n', IDS, 'text').outputs.map((o) => o.text)).toEqual(['{x}', '{y}', '{z}']);
  });
});

describe('parseUpload, encoding and emptiness', () => {
  it.each([[''], ['\n'], ['  \r\n\t\n']])('rejects an empty file %j', (content) => {
    expect(rejection(() => parseUpload(utf8(content), IDS)).message).toBe('the file is empty');
  });

  it('strips a UTF-8 byte order mark before detecting the format', () => {
    const bytes = new Uint8Array([0xef, 0xbb, 0xbf, ...utf8(jsonl({ id: 's1', output: 'a' }, { id: 's2', output: 'b' }, { id: 's3', output: 'c' }))]);
    expect(parseUpload(bytes, IDS).format).toBe('jsonl');
  });

  it('rejects invalid UTF-8 with the byte offset and line of the bad byte', () => {
    const bytes = new Uint8Array([...utf8('ok\nfine\nbad '), 0xff, ...utf8('\n')]);
    const e = rejection(() => parseUpload(bytes, IDS));
    expect(e.message).toBe('the file is not valid UTF-8: malformed byte at offset 12 (line 3)');
    expect(e.pointer).toEqual({ line: 3, byteOffset: 12 });
  });

  it('rejects a file when the test set is empty', () => {
    expect(rejection(() => parseUpload('a\n', [])).message).toMatch(/no test set/);
  });
});

describe('UTF-8 helpers', () => {
  it.each([
    [[0x61, 0x62], -1],
    [[0xc3, 0xa4], -1], // ä
    [[0xf0, 0x9f, 0x98, 0x80], -1], // 😀
    [[0x61, 0x80], 1], // stray continuation byte
    [[0xc0, 0xaf], 0], // overlong '/'
    [[0xe0, 0x80, 0xaf], 0], // overlong 3-byte form
    [[0xed, 0xa0, 0x80], 0], // UTF-16 surrogate
    [[0x61, 0xe2, 0x82], 1], // truncated sequence at the end
    [[0xf4, 0x90, 0x80, 0x80], 0], // beyond U+10FFFF
  ])('finds the first malformed byte in %j at %d', (bytes, offset) => {
    expect(firstInvalidUtf8Offset(new Uint8Array(bytes))).toBe(offset);
  });

  it('agrees with the fatal TextDecoder on what is valid', () => {
    expect(decodeUtf8(new Uint8Array([0xe2, 0x82, 0xac]))).toBe('€');
    expect(() => decodeUtf8(new Uint8Array([0xe2, 0x82]))).toThrow(UploadRejection);
  });

  it('splits lines on LF and CRLF, dropping one final newline', () => {
    expect(splitLines('a\r\nb\n')).toEqual(['a', 'b']);
    expect(splitLines('a')).toEqual(['a']);
    expect(splitLines('\n')).toEqual(['']);
  });

  it('detects the format from the first non-blank character', () => {
    expect(detectFormat(' \n{"id":1}')).toBe('jsonl');
    expect(detectFormat('[1]')).toBe('text');
  });
});

describe('text PostgreSQL cannot store', () => {
  const ids = ['a', 'b'];
  it('refuses a NUL byte in a text line, naming the line and instance', () => {
    expect(() => parseUpload(new Uint8Array([0x78, 0x0a, 0x79, 0x00, 0x0a]), ids, 'text')).toThrow("line 2 (instance 'b') contains a NUL character (U+0000), which cannot be stored (character 2)");
  });
  it('refuses a JSON-escaped \\u0000 and a lone \\ud800 in a JSONL output', () => {
    expect(() => parseUpload('{"id":"a","output":"x"}\n{"id":"b","output":"bad\\u0000"}\n', ids)).toThrow(/^line 2 \(instance 'b'\): "output" contains a NUL character/);
    expect(() => parseUpload('{"id":"a","output":"\\ud800"}\n{"id":"b","output":"y"}\n', ids)).toThrow(/^line 1 \(instance 'a'\): "output" contains a lone UTF-16 surrogate \(\\ud800\)/);
  });
  it('accepts a surrogate pair written as JSON escapes (an emoji)', () => {
    expect(parseUpload('{"id":"a","output":"\\ud83d\\ude00"}\n{"id":"b","output":"y"}\n', ids).outputs[0]?.text).toBe('😀');
  });
});

describe('UploadStream', () => {
  const ids = ['a', 'b', 'c', 'd'];
  /** Feeds `bytes` cut at every pair of points; each cut must give the one-chunk answer, and the checksum outputsChecksum gives for it. */
  function everyCut(bytes: Uint8Array, instanceIds: readonly string[], format?: 'jsonl' | 'text'): void {
    const whole = (() => {
      try {
        const parsed = parseUpload(bytes, instanceIds, format);
        return { ...parsed, checksum: outputsChecksum(instanceIds, parsed.outputs) };
      } catch (e) {
        return e instanceof Error ? e.message : String(e);
      }
    })();
    const differs: unknown[] = [];
    for (let i = 0; i <= bytes.length; i++) {
      for (let j = i; j <= bytes.length; j++) {
        const texts: string[] = [];
        const s = new UploadStream(instanceIds, format, (p, t) => (texts[p] = t));
        let got: unknown;
        try {
          s.pushBytes(bytes.subarray(0, i));
          s.pushBytes(bytes.subarray(i, j));
          s.pushBytes(bytes.subarray(j));
          const summary = s.end();
          got = { format: summary.format, outputs: instanceIds.map((instanceId, p) => ({ instanceId, text: texts[p] ?? '' })), checksum: summary.checksum };
        } catch (e) {
          got = e instanceof Error ? e.message : String(e);
        }
        if (JSON.stringify(got) !== JSON.stringify(whole)) differs.push([i, j, got]);
      }
    }
    expect(differs).toEqual([]);
  }

  it('gives the same outputs and refusals however the bytes are chunked (multi-byte characters, CRLF, BOM)', () => {
    everyCut(utf8('\uFEFFGrüße\r\n😀 x\n\nlast'), ids);
    everyCut(utf8('\n {"id":"b","output":"ß"}\n{"id":"a","output":"1"}\r\n{"id":"d","output":"4"}\n{"id":"c","output":"€"}'), ids);
    everyCut(utf8('{"id":"b","output":"x"}\n{"id":"q","output":"1"}\nnot json\n'), ids);
    everyCut(new Uint8Array([0x61, 0x0a, 0x62, 0xe2, 0x82, 0x0a, 0x63, 0x0a, 0x64]), ids);
    everyCut(utf8('a\nb\nc\n'), ids, 'text');
    // Runs of lines checksummed at once, and lines that need JSON escaping, a CR or a NUL among them.
    everyCut(utf8('plain one\nzwei ü€\n\nlast 😀\n'), ids, 'text');
    everyCut(utf8('plain\n"quoted"\ttab\nback\\slash\r\nend\n'), ids, 'text');
    everyCut(utf8('a\nb\u0000\nc\nd\n'), ids, 'text');
    everyCut(utf8('a\nb\nc\nd\ne\n'), ids, 'text');
  });

  it('sums the outputs as outputsChecksum does, in test-set order whatever the line order', () => {
    const file = jsonl({ id: 'c', output: 'three' }, { id: 'a', output: 'one "1"' }, { id: 'd', output: '' }, { id: 'b', output: 'two\ttabs' });
    const s = new UploadStream(ids, undefined);
    s.pushBytes(utf8(file));
    const summary = s.end();
    // The checksum the api stored before streaming (apps/api/src/lifecycle/outputs-checksum.ts).
    expect(summary).toEqual({ format: 'jsonl', count: 4, checksum: outputsChecksum(ids, parseUpload(file, ids).outputs) });
    const text = new UploadStream(ids, undefined);
    text.pushText('one "1"\ntwo\ttabs\nthree\n\n');
    expect(text.end().checksum).toBe(outputsChecksum(ids, [{ instanceId: 'a', text: 'one "1"' }, { instanceId: 'b', text: 'two\ttabs' }, { instanceId: 'c', text: 'three' }, { instanceId: 'd', text: '' }]));
  });

  // The checksum's text is gathered as UTF-8 in a 64 KiB buffer (issue #28): lines that fill it
  // over and over, lines longer than it, two-byte text, escapes, and runs that skip it.
  it('sums a long upload as outputsChecksum does, whatever its characters and chunking', () => {
    const n = 3000;
    const many = Array.from({ length: n }, (_, i) => `id${i}`);
    const texts = many.map((_, i) =>
      i === 1500 ? '日"本\\'.repeat(30_000) // ~90,000 UTF-16 units: more than the buffer takes at 3 bytes each
      : i % 3 === 0 ? `Zürich — "${i}" said\tthe "naïve" café ☕ ${'日'.repeat(i % 211)}`
      : i % 3 === 1 ? `plain ascii line ${i} \\ back\tslash`
      : `plain ${i}`,
    );
    const expected = outputsChecksum(many, many.map((instanceId, p) => ({ instanceId, text: defined(texts[p]) })));
    const bytes = utf8(texts.join('\n') + '\n');
    for (const size of [bytes.length, 65_536, 4099, 777]) {
      const s = new UploadStream(many, 'text');
      for (let at = 0; at < bytes.length; at += size) s.pushBytes(bytes.subarray(at, at + size)); // cuts inside characters too
      expect(s.end()).toEqual({ format: 'text', count: n, checksum: expected });
    }
    // Runs without anything to escape, and lines one at a time, in one upload.
    const plain = many.map((_, i) => (i % 500 < 250 ? `run ${i} ünïcode` : `"quoted" ${i}`));
    const s = new UploadStream(many, 'text');
    const body = utf8(plain.join('\n') + '\n');
    for (let at = 0; at < body.length; at += 1000) s.pushBytes(body.subarray(at, at + 1000));
    expect(s.end().checksum).toBe(outputsChecksum(many, many.map((instanceId, p) => ({ instanceId, text: defined(plain[p]) }))));
  });

  it('stops handing outputs on at the first bad line, and still names every bad line at the end', () => {
    const seen: number[] = [];
    const s = new UploadStream(ids, 'text', (p) => seen.push(p));
    s.pushText('a\nb\u0000\nc\nd\u0000\n');
    expect(() => s.end()).toThrow("2 lines are refused: line 2 (instance 'b') contains a NUL character (U+0000), which cannot be stored (character 2); line 4 (instance 'd') contains a NUL character (U+0000), which cannot be stored (character 2)");
    expect(seen).toEqual([0]);
  });
});
