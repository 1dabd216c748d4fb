/**
 * The probes of issue #21 against a running api, as one list: each replays what an attacker sent
 * on loopback and says what the api answered, how fast, and its peak memory above idle. A row's
 * `finding` is null when the api held. Sizes are parameters: the e2e spec and bench:security send
 * the issue's full sizes (8 × 45 MB anonymous, 500 MB with a token).
 */
import { formatProbeTable, memoryOf, multipartPrefix, rawRequest, resetPeak, type ProbeRow, type RawAnswer, type RawRequest } from './edge-probes';

export interface EdgeProbeTarget {
  baseUrl: string;
  /** Process id of the api (its memory is read from /proc). */
  pid: number;
  phaseId: string;
  teamId: string;
  participantToken: string;
  /** The api's PODIUM_MAX_UPLOAD_BYTES and PODIUM_ANONYMOUS_BODY_BYTES. */
  maxUploadBytes: number;
  anonymousBodyBytes: number;
  /** The api's PODIUM_REQUEST_TIMEOUT_SECONDS and PODIUM_HEADERS_TIMEOUT_SECONDS. */
  requestTimeoutSeconds: number;
  headersTimeoutSeconds: number;
  /** Lines of a valid TEXT submission (one per instance). */
  validLines: number;
}

export interface EdgeProbeSizes {
  anonymousUploadBytes: number;
  anonymousParallel: number;
  overLimitBytes: number;
  /** Allowed growth of the api's peak RSS over idle while anonymous uploads are refused. */
  anonymousRssBudgetMiB: number;
}

export const ISSUE_SIZES: EdgeProbeSizes = { anonymousUploadBytes: 45 * 1024 * 1024, anonymousParallel: 8, overLimitBytes: 500 * 1024 * 1024, anonymousRssBudgetMiB: 50 };

const BOUNDARY = 'edgeprobeboundary';
const MULTIPART = `multipart/form-data; boundary=${BOUNDARY}`;

function answerOf(answers: readonly RawAnswer[]): string {
  const counts = new Map<string, number>();
  for (const a of answers) {
    const key = a.status ? `${a.status}${a.cutOff ? ' cut' : ''}` : 'closed';
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return [...counts].map(([k, n]) => (answers.length > 1 ? `${n}×${k}` : k)).join(', ');
}

function codeOf(a: RawAnswer): string | undefined {
  try {
    return (JSON.parse(a.body) as { code?: string }).code;
  } catch {
    return undefined;
  }
}

/** A whole multipart upload of a valid TEXT submission. */
export function validUpload(target: EdgeProbeTarget, systemName: string): Buffer {
  const lines = Array.from({ length: target.validLines }, (_, i) => `output number ${i}`).join('\n');
  return Buffer.from(`${multipartPrefix(BOUNDARY, target.teamId, systemName)}${lines}\n\r\n--${BOUNDARY}--\r\n`);
}

export async function runEdgeProbes(target: EdgeProbeTarget, sizes: EdgeProbeSizes, extra: { sessionCookie: string; foreignOrigin: string; webPath?: string }): Promise<ProbeRow[]> {
  const rows: ProbeRow[] = [];
  const upload = `/api/phases/${target.phaseId}/submissions`;
  const bearer = { authorization: `Bearer ${target.participantToken}` };
  async function probe(name: string, run: () => Promise<RawAnswer[]>, judge: (answers: RawAnswer[], growthMiB: number) => string | null): Promise<RawAnswer[]> {
    resetPeak(target.pid);
    const idle = memoryOf(target.pid).rssMiB;
    const t0 = Date.now();
    const answers = await run();
    const ms = Date.now() - t0;
    const peak = memoryOf(target.pid).peakMiB;
    const answerMs = Math.max(0, ...answers.map((a) => (a.answerMs ?? a.ms) + (a.startedAt - t0)));
    const sentMiB = Math.max(0, ...answers.map((a) => a.sentBytes)) / (1024 * 1024);
    rows.push({ probe: name, answer: answerOf(answers), answerMs, ms, sentMiB, idleMiB: idle, peakMiB: peak, finding: judge(answers, peak - idle) });
    return answers;
  }
  const all = (n: number, r: RawRequest) => Promise.all(Array.from({ length: n }, () => rawRequest(target.baseUrl, r)));
  const expectAll = (status: number, more: (a: RawAnswer) => string | null = () => null) => (answers: RawAnswer[]) => {
    const wrong = answers.find((a) => a.status !== status);
    if (wrong) return `expected ${status}, got ${wrong.status} ${wrong.body.slice(0, 120)}`;
    for (const a of answers) {
      const m = more(a);
      if (m) return m;
    }
    return null;
  };
  const budget = (status: number) => (answers: RawAnswer[], growth: number) =>
    expectAll(status)(answers) ?? (growth > sizes.anonymousRssBudgetMiB ? `api RSS grew ${growth.toFixed(0)} MiB over idle (budget ${sizes.anonymousRssBudgetMiB})` : null);
  const mib = (b: number) => `${Math.round(b / (1024 * 1024))} MB`;

  // 1. Anonymous uploads are refused on the headers, declared or chunked, without growing memory.
  for (const declareLength of [true, false]) {
    await probe(
      `anonymous REST upload ${sizes.anonymousParallel} × ${mib(sizes.anonymousUploadBytes)} (${declareLength ? 'Content-Length' : 'chunked'})`,
      () => all(sizes.anonymousParallel, { method: 'POST', path: upload, headers: { 'content-type': MULTIPART }, bodyBytes: sizes.anonymousUploadBytes, declareLength, prefix: multipartPrefix(BOUNDARY, target.teamId, 'anon') }),
      budget(401),
    );
  }
  await probe(
    `anonymous GraphQL body ${sizes.anonymousParallel} × ${mib(sizes.anonymousUploadBytes)} (chunked)`,
    () => all(sizes.anonymousParallel, { method: 'POST', path: '/graphql', headers: { 'content-type': 'application/json' }, bodyBytes: sizes.anonymousUploadBytes, declareLength: false, prefix: '{"query":"mutation { submit(content: \\"' }),
    (answers, growth) =>
      budget(413)(answers, growth) ??
      (answers.some((a) => a.sentBytes > target.anonymousBodyBytes + 32 * 1024 * 1024) ? `an anonymous body was read far past ${target.anonymousBodyBytes} bytes` : null),
  );
  // 2. Over the limit with a token: refused on the declared length, cut off at the limit when chunked.
  await probe(
    `token upload ${mib(sizes.overLimitBytes)} (Content-Length)`,
    () => all(1, { method: 'POST', path: upload, headers: { ...bearer, 'content-type': MULTIPART }, bodyBytes: sizes.overLimitBytes, declareLength: true, prefix: multipartPrefix(BOUNDARY, target.teamId, 'big') }),
    (answers) => expectAll(413, (a) => ((a.answerMs ?? a.ms) > 1000 ? `answered after ${a.answerMs ?? a.ms} ms` : null))(answers),
  );
  await probe(
    `token upload ${mib(sizes.overLimitBytes)} (chunked)`,
    () => all(1, { method: 'POST', path: upload, headers: { ...bearer, 'content-type': MULTIPART }, bodyBytes: sizes.overLimitBytes, declareLength: false, prefix: multipartPrefix(BOUNDARY, target.teamId, 'big-chunked') }),
    (answers) =>
      expectAll(413, (a) =>
        !a.cutOff ? 'the whole body was read' : a.sentBytes > target.maxUploadBytes * 1.5 + 32 * 1024 * 1024 ? `${mib(a.sentBytes)} were taken before the cut-off` : null,
      )(answers),
  );
  await probe(
    `token GraphQL body ${mib(sizes.overLimitBytes)} (chunked)`,
    () => all(1, { method: 'POST', path: '/graphql', headers: { ...bearer, 'content-type': 'application/json' }, bodyBytes: sizes.overLimitBytes, declareLength: false, prefix: '{"query":"mutation { submit(content: \\"' }),
    (answers) => expectAll(413, (a) => (!a.cutOff ? 'the whole body was read' : null))(answers),
  );
  // 3. CSRF: a page on another origin of the same site posts with the user's cookie.
  const cookie = { cookie: extra.sessionCookie, 'content-type': MULTIPART };
  await probe(
    'CSRF: cookie upload from another origin (no-cors fetch)',
    () => all(1, { method: 'POST', path: upload, headers: { ...cookie, origin: extra.foreignOrigin, 'sec-fetch-site': 'same-site', 'sec-fetch-mode': 'no-cors' }, bodyBytes: 0, declareLength: true, body: validUpload(target, 'csrf-fetch') }),
    expectAll(403, (a) => (codeOf(a) === 'CSRF_REFUSED' ? null : `code ${codeOf(a)}`)),
  );
  await probe(
    'CSRF: cookie upload, foreign Origin only (no Sec-Fetch-Site)',
    () => all(1, { method: 'POST', path: upload, headers: { ...cookie, origin: extra.foreignOrigin }, bodyBytes: 0, declareLength: true, body: validUpload(target, 'csrf-origin') }),
    expectAll(403),
  );
  await probe(
    'CSRF: cookie upload, no Origin and no custom header',
    () => all(1, { method: 'POST', path: upload, headers: cookie, bodyBytes: 0, declareLength: true, body: validUpload(target, 'csrf-bare') }),
    expectAll(403),
  );
  await probe(
    'cookie upload from this origin (Sec-Fetch-Site: same-origin)',
    () => all(1, { method: 'POST', path: upload, headers: { ...cookie, origin: target.baseUrl, 'sec-fetch-site': 'same-origin' }, bodyBytes: 0, declareLength: true, body: validUpload(target, 'same-origin') }),
    expectAll(201),
  );
  await probe(
    'Bearer upload with a foreign Origin (not CSRF: no ambient credential)',
    () => all(1, { method: 'POST', path: upload, headers: { ...bearer, 'content-type': MULTIPART, origin: extra.foreignOrigin, 'sec-fetch-site': 'cross-site' }, bodyBytes: 0, declareLength: true, body: validUpload(target, 'bearer-foreign') }),
    expectAll(201),
  );
  // 4. GraphQL aliases: one anonymous query asking for the leaderboard 252 times.
  const aliases = Array.from({ length: 252 }, (_, i) => `a${i}: leaderboard(phaseId: "${target.phaseId}") { alpha }`).join(' ');
  const aliasBody = Buffer.from(JSON.stringify({ query: `{ ${aliases} }` }));
  await probe(
    'anonymous query with 252 leaderboard aliases',
    () => all(1, { method: 'POST', path: '/graphql', headers: { 'content-type': 'application/json' }, bodyBytes: 0, declareLength: true, body: aliasBody }),
    expectAll(400, (a) => (/Aliases limit/.test(a.body) ? null : a.body.slice(0, 200))),
  );
  // 5. Security headers on API answers, the GraphQL console and the web app.
  const headerCheck = (frameAncestors: boolean) => (a: RawAnswer) => {
    const csp = a.headers['content-security-policy'] ?? '';
    if (frameAncestors && !csp.includes("frame-ancestors 'none'")) return `CSP without frame-ancestors 'none': ${csp || 'none'}`;
    if (a.headers['x-frame-options'] !== 'DENY') return `X-Frame-Options ${a.headers['x-frame-options'] ?? 'absent'}`;
    if (a.headers['x-content-type-options'] !== 'nosniff') return 'no nosniff';
    if (!a.headers['referrer-policy']) return 'no Referrer-Policy';
    return null;
  };
  const get = (path: string, headers: Record<string, string> = {}) => all(1, { method: 'GET', path, headers, bodyBytes: 0, declareLength: true });
  await probe('headers: API answer (GET /api/health)', () => get('/api/health'), expectAll(200, headerCheck(true)));
  await probe('headers: GraphQL console (GET /graphql)', () => get('/graphql', { accept: 'text/html' }), expectAll(200, headerCheck(true)));
  if (extra.webPath) {
    await probe('headers: web app (GET /)', () => get(extra.webPath ?? '/', { accept: 'text/html' }), expectAll(200, (a) => headerCheck(true)(a) ?? (/script-src 'self'(;|$)/.test(a.headers['content-security-policy'] ?? '') ? null : 'script-src is not just self')));
  }
  // 6. Uploads in flight per identity: two slow ones hold their slots, a third is refused at once.
  await probe(
    'third concurrent upload of one token (2 allowed)',
    async () => {
      const slow: RawRequest = { method: 'POST', path: upload, headers: { ...bearer, 'content-type': MULTIPART }, bodyBytes: 4096, declareLength: true, delayMs: 500, slowChunkBytes: 16, timeoutMs: 2500, prefix: multipartPrefix(BOUNDARY, target.teamId, 'slow') };
      const holders = [rawRequest(target.baseUrl, slow), rawRequest(target.baseUrl, slow)];
      await new Promise((r) => setTimeout(r, 500));
      const third = await rawRequest(target.baseUrl, { ...slow, delayMs: 0, timeoutMs: 10_000 });
      await Promise.all(holders);
      return [third];
    },
    expectAll(429, (a) => (codeOf(a) === 'TOO_MANY_UPLOADS' ? null : `code ${codeOf(a)}`)),
  );
  // 7. Slow clients: a body that trickles in, headers that never end.
  const requestLimitMs = target.requestTimeoutSeconds * 1000;
  await probe(
    `slow upload (16 bytes every 500 ms; request deadline ${target.requestTimeoutSeconds} s)`,
    () => all(1, { method: 'POST', path: upload, headers: { ...bearer, 'content-type': MULTIPART }, bodyBytes: 1024 * 1024, declareLength: true, delayMs: 500, slowChunkBytes: 16, timeoutMs: requestLimitMs + 30_000, prefix: multipartPrefix(BOUNDARY, target.teamId, 'loris') }),
    (answers) => answers.map((a) => (!a.cutOff ? 'the slow body was read to its end' : a.ms > requestLimitMs + 5000 ? `closed only after ${a.ms} ms` : null)).find((f) => f) ?? null,
  );
  const headersLimitMs = target.headersTimeoutSeconds * 1000;
  await probe(
    `slow headers (one byte a second; headers deadline ${target.headersTimeoutSeconds} s)`,
    () => all(1, { method: 'POST', path: upload, headers: bearer, bodyBytes: 0, declareLength: true, stallInHeaders: true, timeoutMs: headersLimitMs + 30_000 }),
    (answers) => answers.map((a) => (a.ms > headersLimitMs + 5000 ? `closed only after ${a.ms} ms` : null)).find((f) => f) ?? null,
  );
  return rows;
}

export { formatProbeTable };
