/**
 * Generated malformed requests for the fault tests and bench:faults: fuzzed bytes, broken and
 * foreign encodings, sizes past the limits, wrong JSON shapes, text PostgreSQL cannot store
 * (NUL, lone surrogates) in every field, broken multipart and GraphQL bodies. Each one must
 * be refused with a 4xx that says why, never a 5xx, and write nothing.
 */
import { mulberry32 } from '@podium/ranking';
import { defined } from '../../support/defined';
import type { FaultTask } from './faults';

export interface MalformedCase {
  name: string;
  request(baseUrl: string): Promise<Response>;
}

const BAD_TEXT = ['\u0000', 'a\u0000b', '\ud800', '\udc00', 'x\ud83d', '\udfff\ud800', 'line1\nli\u0000ne2'];
/** Multipart fields travel as UTF-8, where a lone surrogate cannot exist (clients send U+FFFD): NUL only. */
const BAD_FIELD_TEXT = ['\u0000', 'a\u0000b', 'line1\nli\u0000ne2', '\u0000\u0000'];
const enc = new TextEncoder();

function multipart(task: FaultTask, token: string, file: Uint8Array | null, fields: Record<string, string>, fileName = 'out.jsonl'): MalformedCase['request'] {
  return (baseUrl) => {
    const form = new FormData();
    for (const [k, v] of Object.entries(fields)) form.append(k, v);
    if (file) form.append('file', new Blob([file]), fileName);
    return fetch(`${baseUrl}/api/phases/${task.phaseId}/submissions`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form });
  };
}

function raw(path: string, token: string, contentType: string, body: Uint8Array | string): MalformedCase['request'] {
  return (baseUrl) => fetch(`${baseUrl}${path}`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': contentType }, body });
}

function graphql(token: string, query: string, variables: unknown): MalformedCase['request'] {
  return (baseUrl) =>
    fetch(`${baseUrl}/graphql`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify({ query, variables }) });
}

/** A valid JSONL upload, as records, for mutation into malformed ones. */
function validRecords(task: FaultTask): { id: unknown; output: unknown }[] {
  return task.instanceIds.map((id, i) => ({ id, output: `output ${i}` }));
}

const jsonl = (records: unknown[]) => records.map((r) => JSON.stringify(r)).join('\n') + '\n';

/**
 * `count` cases drawn from the families below with a seeded PRNG. `maxUploadBytes` is the
 * api's PODIUM_MAX_UPLOAD_BYTES (cases past it expect 413).
 */
export function malformedCases(task: FaultTask, count: number, seed: number, maxUploadBytes: number): MalformedCase[] {
  // The project's one seeded PRNG, so a failing case can be replayed from its seed and index.
  const rng = mulberry32(seed);
  const rnd = () => rng.next();
  // Elements may be null or undefined (JSON values), so the index is checked, not the element.
  const pick = <T>(xs: readonly T[]): T => {
    const i = Math.floor(rnd() * xs.length);
    for (const [j, x] of xs.entries()) if (j === i) return x;
    throw new RangeError(`cannot pick from an empty list`);
  };
  const int = (n: number) => Math.floor(rnd() * n);
  const token = task.participantToken;
  const fields = () => ({ teamId: task.teamId, systemName: `m-${int(1e9)}` });
  const path = `/api/phases/${task.phaseId}/submissions`;
  const families: ((k: number) => MalformedCase)[] = [
    // Random bytes as the file.
    (k) => {
      const bytes = new Uint8Array(int(3000));
      for (let i = 0; i < bytes.length; i++) bytes[i] = int(256);
      return { name: `random bytes #${k} (${bytes.length} B)`, request: multipart(task, token, bytes, fields()) };
    },
    // A valid file with one output made unstorable: raw NUL, JSON-escaped \u0000 or a lone surrogate.
    (k) => {
      const records = validRecords(task);
      const at = int(records.length);
      const bad = pick(BAD_TEXT);
      records[at] = { id: defined(records[at], `record ${at}`).id, output: `before${bad}after` };
      return { name: `unstorable output on line ${at + 1} #${k}`, request: multipart(task, token, enc.encode(jsonl(records)), fields()) };
    },
    // The same in text format, with a raw NUL byte.
    (k) => {
      const lines = task.instanceIds.map((_, i) => `output ${i}`);
      const nul = int(lines.length);
      lines[nul] = `${defined(lines[nul], `line ${nul}`)}\u0000`;
      return { name: `NUL in a text line #${k}`, request: multipart(task, token, enc.encode(lines.join('\n') + '\n'), { ...fields(), format: 'text' }, 'out.txt') };
    },
    // Invalid UTF-8: stray continuation, overlong, truncated, encoded surrogates, 0xFF.
    (k) => {
      const bad = pick([[0x80], [0xc0, 0xaf], [0xe2, 0x82], [0xed, 0xa0, 0x80], [0xff], [0xf8, 0x88, 0x80, 0x80, 0x80]]);
      const text = enc.encode(jsonl(validRecords(task)));
      const at = int(text.length);
      const bytes = new Uint8Array([...text.slice(0, at), ...bad, ...text.slice(at)]);
      return { name: `invalid UTF-8 at byte ${at} #${k}`, request: multipart(task, token, bytes, fields()) };
    },
    // Foreign encodings: UTF-16 LE/BE with a BOM.
    (k) => {
      const text = jsonl(validRecords(task));
      const le = rnd() < 0.5;
      const bytes = new Uint8Array(2 + text.length * 2);
      bytes.set(le ? [0xff, 0xfe] : [0xfe, 0xff]);
      for (let i = 0; i < text.length; i++) {
        const c = text.charCodeAt(i);
        bytes[2 + 2 * i] = le ? c & 0xff : c >> 8;
        bytes[3 + 2 * i] = le ? c >> 8 : c & 0xff;
      }
      return { name: `UTF-16${le ? 'LE' : 'BE'} file #${k}`, request: multipart(task, token, bytes, fields()) };
    },
    // Wrong JSON shapes.
    (k) => {
      const records: unknown[] = validRecords(task);
      const at = int(records.length);
      const shape = pick<unknown>([[1, 2], 42, null, 'text', { id: { nested: true }, output: 'x' }, { id: task.instanceIds[at], output: 7 }, { id: task.instanceIds[at] }, { output: 'x' }, { id: 'no-such-id', output: 'x' }, { id: task.instanceIds[(at + 1) % task.instanceIds.length], output: 'duplicate' }, { id: 1.5, output: 'x' }, { id: task.instanceIds[at], output: ['a'] }]);
      records[at] = shape;
      if (rnd() < 0.3) records.pop();
      // format=jsonl: a first line that is not an object would otherwise read as a (valid) text upload.
      return { name: `JSON shape ${JSON.stringify(shape).slice(0, 40)} on line ${at + 1} #${k}`, request: multipart(task, token, enc.encode(jsonl(records)), { ...fields(), format: 'jsonl' }) };
    },
    // Truncated or unparsable JSON lines.
    (k) => {
      const text = jsonl(validRecords(task));
      const cut = 1 + int(text.length - 2);
      return { name: `truncated JSONL at ${cut} #${k}`, request: multipart(task, token, enc.encode(text.slice(0, cut).replace(/\n$/, '') + pick(['{', '"', ',', '}', '\\'])), fields()) };
    },
    // Sizes: empty, whitespace, past the upload limit (413), too many/too few lines.
    (k) => {
      const kind = pick(['empty', 'blank', 'huge', 'extra', 'short'] as const);
      const body =
        kind === 'empty' ? new Uint8Array(0)
        : kind === 'blank' ? enc.encode('\n \n\t\n')
        : kind === 'huge' ? new Uint8Array(maxUploadBytes + 1 + int(4096)).fill(0x61)
        : kind === 'extra' ? enc.encode(task.instanceIds.map((_, i) => `o${i}`).concat(['extra']).join('\n'))
        : enc.encode(task.instanceIds.slice(1).map((_, i) => `o${i}`).join('\n'));
      return { name: `size: ${kind} #${k}`, request: multipart(task, token, body, { ...fields(), ...(kind === 'extra' || kind === 'short' ? { format: 'text' } : {}) }) };
    },
    // Unstorable or invalid form fields around a valid file.
    (k) => {
      const field = pick(['systemName', 'description', 'team', 'format', 'teamId']);
      const value = field === 'teamId' ? pick(['not-a-uuid', '00000000-0000-0000-0000-000000000000', `${task.teamId}\u0000`]) : field === 'format' ? pick(['csv', 'JSONL\u0000', 'xml', 'text\u0000', '\u0000']) : `x${pick(BAD_FIELD_TEXT)}`;
      const f: Record<string, string> = { ...fields(), [field]: value };
      if (field === 'team') delete f['teamId'];
      return { name: `form field ${field}=${JSON.stringify(value)} #${k}`, request: multipart(task, token, enc.encode(jsonl(validRecords(task))), f) };
    },
    // Broken multipart bodies and wrong content types.
    (k) => {
      const kind = pick(['no-boundary', 'truncated', 'garbage', 'json', 'no-file', 'two-files', 'urlencoded'] as const);
      if (kind === 'no-file') return { name: `multipart without a file #${k}`, request: multipart(task, token, null, fields()) };
      if (kind === 'two-files') {
        return {
          name: `two files #${k}`,
          request: (baseUrl) => {
            const form = new FormData();
            form.append('teamId', task.teamId);
            form.append('systemName', `m-${k}`);
            form.append('file', new Blob([jsonl(validRecords(task))]), 'a.jsonl');
            form.append('file', new Blob([jsonl(validRecords(task))]), 'b.jsonl');
            return fetch(`${baseUrl}${path}`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form });
          },
        };
      }
      const bodies = {
        'no-boundary': ['multipart/form-data', '--x\r\nContent-Disposition: form-data; name="file"\r\n\r\nabc\r\n--x--'],
        truncated: ['multipart/form-data; boundary=x', `--x\r\nContent-Disposition: form-data; name="teamId"\r\n\r\n${task.teamId}\r\n--x\r\nContent-Disposition: form-data; name="file"; filename="a"\r\n\r\n{"id":`],
        garbage: ['multipart/form-data; boundary=zz', String.fromCharCode(...Array.from({ length: 200 }, () => int(256)))],
        json: ['application/json', JSON.stringify({ teamId: task.teamId, systemName: 'x', file: 'abc' })],
        urlencoded: ['application/x-www-form-urlencoded', `teamId=${task.teamId}&systemName=%00`],
      } as const;
      const [type, body] = bodies[kind];
      return { name: `multipart: ${kind} #${k}`, request: raw(path, token, type, body) };
    },
    // GraphQL: unstorable text in each string argument of submit, through variables.
    (k) => {
      const arg = pick(['content', 'systemName', 'description']);
      const vars: Record<string, unknown> = { p: task.phaseId, t: task.teamId, s: `g-${int(1e9)}`, c: jsonl(validRecords(task)), d: 'ok' };
      const bad = pick(BAD_TEXT);
      if (arg === 'content') {
        const lines = (vars['c'] as string).split('\n');
        const at = int(task.instanceIds.length);
        lines[at] = JSON.stringify({ id: task.instanceIds[at], output: `x${bad}` });
        vars['c'] = rnd() < 0.5 ? lines.join('\n') : lines.join('\n').replace('output', `out${bad}put`);
      } else vars[arg === 'systemName' ? 's' : 'd'] = `v${bad}`;
      return {
        name: `graphql submit ${arg} with ${JSON.stringify(bad)} #${k}`,
        request: graphql(token, 'mutation($p: ID!, $t: ID!, $s: String!, $c: String!, $d: String) { submit(phaseId: $p, teamId: $t, systemName: $s, content: $c, description: $d) { id } }', vars),
      };
    },
    // GraphQL: inline literals with escapes, wrong variable types, deep and wide queries, bad bodies.
    (k) => {
      const kind = pick(['inline-nul', 'inline-surrogate', 'wrong-type', 'deep', 'wide', 'syntax', 'not-json', 'array-body', 'huge', 'team-name'] as const);
      if (kind === 'not-json') return { name: `graphql: not JSON #${k}`, request: raw('/graphql', token, 'application/json', '{"query": "{ tasks { slug } }"') };
      if (kind === 'array-body') return { name: `graphql: array body #${k}`, request: raw('/graphql', token, 'application/json', '[1, {"query": 2}]') };
      if (kind === 'huge') return { name: `graphql: body past the limit #${k}`, request: raw('/graphql', token, 'application/json', JSON.stringify({ query: '{ tasks { slug } }', variables: { x: 'a'.repeat(maxUploadBytes + 10) } })) };
      const queries = {
        'inline-nul': `mutation { submit(phaseId: "${task.phaseId}", teamId: "${task.teamId}", systemName: "bad\\u0000name", content: "x") { id } }`,
        'inline-surrogate': `mutation { submit(phaseId: "${task.phaseId}", teamId: "${task.teamId}", systemName: "ok", content: "{\\"id\\":\\"i0\\",\\"output\\":\\"\\ud800\\"}") { id } }`,
        'wrong-type': `mutation { submit(phaseId: 12, teamId: true, systemName: ["x"], content: null) { id } }`,
        deep: `{ tasks { phases { task { phases { task { phases { task { phases { task { phases { task { phases { task { slug } } } } } } } } } } } } } }`,
        wide: `{ ${Array.from({ length: 3000 }, (_, i) => `a${i}: tasks { slug }`).join(' ')} }`,
        syntax: `mutation { submit(phaseId: "x" teamId: ) {`,
        'team-name': `mutation { createTeam(name: "t\\u0000eam", members: ["m\\ud800"]) { id } }`,
      } as const;
      return { name: `graphql: ${kind} #${k}`, request: graphql(token, queries[kind], {}) };
    },
  ];
  return Array.from({ length: count }, (_, k) => defined(families[k % families.length], 'a case family')(k));
}

export interface MalformedReport {
  tried: number;
  fiveXX: number;
  accepted: number;
  statuses: Record<string, number>;
  failures: string[];
}

/**
 * Sends every case (a few at a time) and counts statuses. A GraphQL answer with 200 counts as
 * refused when it carries errors and no data. `accepted` counts cases that stored something.
 */
export async function sendMalformed(baseUrl: string, cases: MalformedCase[], concurrency = 8): Promise<MalformedReport> {
  const report: MalformedReport = { tried: 0, fiveXX: 0, accepted: 0, statuses: {}, failures: [] };
  let next = 0;
  const worker = async () => {
    while (next < cases.length) {
      const c = defined(cases[next++], 'a case');
      let status: number;
      let body = '';
      try {
        const res = await c.request(baseUrl);
        status = res.status;
        body = await res.text();
      } catch (e) {
        status = 599; // the connection broke: as bad as a 5xx
        body = String(e);
      }
      report.tried++;
      report.statuses[status] = (report.statuses[status] ?? 0) + 1;
      if (status >= 500) {
        report.fiveXX++;
        report.failures.push(`${status} ${c.name}: ${body.slice(0, 200)}`);
      } else if (status < 300) {
        const refused = /"errors"\s*:/.test(body) && !/"data"\s*:\s*\{\s*"submit"\s*:\s*\{/.test(body);
        if (!refused) {
          report.accepted++;
          report.failures.push(`accepted ${status} ${c.name}: ${body.slice(0, 200)}`);
        }
      }
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return report;
}

/** `n` simultaneous valid uploads by one team member: how many the api accepted and stored. */
export async function concurrentSubmits(baseUrl: string, task: FaultTask, n: number): Promise<{ sent: number; accepted: number; refused: number; other: number[] }> {
  const body = jsonl(validRecords(task));
  const results = await Promise.all(
    Array.from({ length: n }, (_, k) => multipart(task, task.participantToken, enc.encode(body), { teamId: task.teamId, systemName: `concurrent-${k}` })(baseUrl).then(async (r) => ({ status: r.status, text: await r.text() }))),
  );
  const accepted = results.filter((r) => r.status === 201).length;
  const refused = results.filter((r) => r.status === 403 && /used all|submissions of the last 24 hours/.test(r.text)).length;
  return { sent: n, accepted, refused, other: results.filter((r) => r.status !== 201 && r.status !== 403).map((r) => r.status) };
}
