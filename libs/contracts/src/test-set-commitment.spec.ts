import { canonicalTestSetJsonl, canonicaliseJsonl, commitInstances, testSetCommitment } from './test-set-commitment';

const SALT = `${'00'.repeat(31)}01`;
const INSTANCES = [
  { id: 'i1', source: 'Das Haus ist klein.', references: ['The house is small.', 'A small house.'] },
  { id: 'i2', source: 'Er sagte "ja"\tund ging.\nDann \u0001 Ende – grüß', references: ['He said "yes" and left.'] },
];
// Computed outside the project with Python 3: json.dumps(i, ensure_ascii=False, separators=(',', ':'))
// + '\n' per instance, then hashlib.sha256(bytes.fromhex(SALT) + canonical.encode()).hexdigest().
const PYTHON_CANONICAL =
  '{"id":"i1","source":"Das Haus ist klein.","references":["The house is small.","A small house."]}\n' +
  '{"id":"i2","source":"Er sagte \\"ja\\"\\tund ging.\\nDann \\u0001 Ende – grüß","references":["He said \\"yes\\" and left."]}\n';
const PYTHON_COMMITMENT = 'b973ede4fd192c43968cb139b8bedbe61513dda5e7dce3481b60f1cf93cf4995';

describe('test-set commitment (ADR 0014)', () => {
  it('writes the canonical JSONL byte for byte as Python json.dumps with compact separators does', () => {
    expect(canonicalTestSetJsonl(INSTANCES)).toBe(PYTHON_CANONICAL);
  });

  it('hashes the salt bytes before the canonical text, as Python hashlib does', () => {
    expect(testSetCommitment(SALT, PYTHON_CANONICAL)).toBe(PYTHON_COMMITMENT);
    expect(commitInstances(SALT, INSTANCES)).toBe(PYTHON_COMMITMENT);
  });

  it('canonicalises JSONL in any key order, with CRLF and blank lines, to the same bytes', () => {
    const loose = `{"references":["The house is small.","A small house."],"source":"Das Haus ist klein.","id":"i1","extra":1}\r\n\n${PYTHON_CANONICAL.split('\n')[1] ?? ''}\n`;
    expect(canonicaliseJsonl(loose)).toEqual({ canonical: PYTHON_CANONICAL, instances: 2 });
  });

  it('changes the commitment when one reference changes by one character, or the salt does', () => {
    const tampered = INSTANCES.map((i) => (i.id === 'i2' ? { ...i, references: ['He said "yes" and left!'] } : i));
    expect(commitInstances(SALT, tampered)).not.toBe(PYTHON_COMMITMENT);
    expect(commitInstances(`${'00'.repeat(31)}02`, INSTANCES)).not.toBe(PYTHON_COMMITMENT);
  });

  it('refuses a salt that is not 32 bytes of hex and a line that is not an instance', () => {
    expect(() => testSetCommitment('abc', '')).toThrow(/64 lower-case hex/);
    expect(() => canonicaliseJsonl('{"id":"x","source":"s"}\n')).toThrow(/line 1/);
    expect(() => canonicaliseJsonl('\nnot json\n')).toThrow('line 2: not JSON');
  });
});
