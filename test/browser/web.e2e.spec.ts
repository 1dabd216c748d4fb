/**
 * The web app end to end in a real browser (issue #6): Debian's Chromium driven by
 * playwright-core against the api (serving apps/web/dist) and a scoring worker, on a database of
 * its own with the seeded WMT17 demo. Screenshots of each page go to test-artifacts/screenshots.
 *
 * Chromium must be at /usr/bin/chromium (`apt-get install chromium`; CI's .ci/run does it): this
 * test fails, it does not skip, when it is missing.
 */
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createDb, IdentityRepository, Role, type Db } from '@podium/db';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { createDatabase, databaseUrl, freePort, graphqlClient, repoRoot, startApp, waitFor, WEB_DIST, webBuildIsStale, type RunningApp } from '../e2e/support/processes';
import { defined } from '../support/defined';

// Real PostgreSQL, API and worker processes: minutes on a loaded 2-core machine, not Jest's 5 s.
jest.setTimeout(180_000);

const CHROMIUM = '/usr/bin/chromium';
const SHOTS = path.join(repoRoot, 'test-artifacts', 'screenshots');
const DEMO = 'wmt17-de-en';
const DEMO_SYSTEMS = 11;

function runOrThrow(what: string, cmd: string, args: string[], env: Record<string, string>): void {
  const r = spawnSync(cmd, args, { cwd: repoRoot, env: { ...process.env, ...env }, encoding: 'utf8', timeout: 240_000 });
  if (r.status !== 0) throw new Error(`${what} failed (exit ${r.status ?? r.signal}):\n${r.stdout}\n${r.stderr}`);
}

/** A database of our own on the server `npm test` started: no other suite's worker takes our jobs, ours takes none of theirs. */
/** Order of the rows the leaderboard shows, and the values of the column it claims to be ordered by. */
async function shownLeaderboard(page: Page): Promise<{ systems: string[]; values: number[] }> {
  const rows = page.getByTestId('leaderboard-row');
  const systems = await rows.evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-system') ?? ''));
  const values = await rows.evaluateAll((trs) => trs.map((tr) => Number(tr.getAttribute('data-value'))));
  return { systems, values };
}

const nonIncreasing = (xs: number[]) => xs.every((x, i) => i === 0 || defined(xs[i - 1]) >= x);

describe('web app in headless Chromium', () => {
  let db: Db;
  let dropDatabase: (() => Promise<void>) | undefined;
  let api: RunningApp | undefined;
  let worker: RunningApp | undefined;
  let context: BrowserContext | undefined;
  let userDataDir: string | undefined;
  let page: Page;
  let base: string;
  let organiserToken: string;
  let teamToken: string;
  let phaseId: string;
  let metricKeys: string[];

  const logs = () => `api:\n${api?.logs.join('').slice(-4000)}\nworker:\n${worker?.logs.join('').slice(-4000)}`;
  const shot = (name: string, p: Page = page) => p.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: true });

  beforeAll(async () => {
    if (!existsSync(CHROMIUM)) {
      throw new Error(`Chromium is not installed at ${CHROMIUM}: run \`apt-get update && apt-get install -y --no-install-recommends chromium\` (never \`npx playwright install\`)`);
    }
    mkdirSync(SHOTS, { recursive: true });
    const created = await createDatabase(databaseUrl(), 'podium_web_e2e');
    dropDatabase = created.drop;
    const url = created.url;
    runOrThrow('prisma migrate deploy', path.join(repoRoot, 'node_modules', '.bin', 'prisma'), ['migrate', 'deploy'], { DATABASE_URL: url });
    // Without PODIUM_ORGANISER_TOKEN_FILE the seed writes no token file.
    runOrThrow('seeding the demo', process.execPath, ['-r', '@swc-node/register', 'prisma/seed.ts'], { DATABASE_URL: url });
    if (webBuildIsStale()) {
      runOrThrow('building the web app', process.execPath, [path.join(repoRoot, 'node_modules', 'vite', 'bin', 'vite.js'), 'build', '--config', 'apps/web/vite.config.ts'], {});
    }

    db = createDb(url, { maxConnections: 2 });
    const identity = new IdentityRepository(db);
    const suffix = randomBytes(3).toString('hex');
    const organiser = await identity.createUser(`web-org-${suffix}`, Role.ADMIN);
    organiserToken = await identity.issueToken(organiser.id, 'browser test');

    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    api = startApp('apps/api/src/main.ts', { DATABASE_URL: url, PORT: String(port), HOST: '127.0.0.1', PODIUM_WEB_DIST: WEB_DIST });
    worker = startApp('apps/worker/src/main.ts', { DATABASE_URL: url, PODIUM_WORKER_NAME: 'web-e2e', PODIUM_WORKER_POLL_SECONDS: '0.5' });
    await waitFor('the api', async () => (await fetch(`${base}/api/health`)).ok, 90_000).catch((e: unknown) => {
      throw new Error(`${String(e)}\n${logs()}`);
    });
    await waitFor('all demo submissions scored', async () => (await db.submission.count({ where: { status: 'SCORED' } })) === DEMO_SYSTEMS, 170_000).catch((e: unknown) => {
      throw new Error(`${String(e)}\n${logs()}`);
    });

    const gql = graphqlClient(base, organiserToken);
    const participant = `web-participant-${suffix}`;
    await gql.request(`mutation($n: String!, $m: [String!]!) { createTeam(name: $n, members: $m) { id } }`, { n: `web-team-${suffix}`, m: [participant] });
    teamToken = (await gql.request<{ issueToken: string }>(`mutation($u: String!) { issueToken(userName: $u, label: "browser test") }`, { u: participant })).issueToken;
    const demo = (await gql.request<{ task: { phases: { id: string }[]; metrics: { key: string }[] } }>(`query($s: String!) { task(slug: $s) { phases { id } metrics { key } } }`, { s: DEMO })).task;
    phaseId = defined(demo.phases[0]).id;
    metricKeys = demo.metrics.map((m) => m.key);
    // Workers compute and store the boards after the last score (ADR 0011); until then the api
    // serves the previous board marked `updating`. The cases read the final boards.
    const current = async (metric: string) => {
      const { leaderboard } = await gql.request<{ leaderboard: { updating: boolean; systems: unknown[] } }>(
        `query($p: ID!, $m: String) { leaderboard(phaseId: $p, metric: $m) { updating systems { system } } }`,
        { p: phaseId, m: metric },
      );
      return !leaderboard.updating && leaderboard.systems.length === DEMO_SYSTEMS;
    };
    await waitFor('the demo boards stored for the last scores', async () => (await Promise.all(metricKeys.map(current))).every(Boolean), 300_000).catch((e: unknown) => {
      throw new Error(`${String(e)}\n${logs()}`);
    });
    // A view other than the defaults is computed when an organiser opens it (ADR 0016); the
    // anonymous cases below read BLEU under the paired bootstrap.
    const bootstrap = async () => {
      const { leaderboard } = await gql.request<{ leaderboard: { updating: boolean; systems: unknown[] } }>(
        `query($p: ID!) { leaderboard(phaseId: $p, metric: "bleu", test: BOOTSTRAP) { updating systems { system } } }`,
        { p: phaseId },
      );
      return !leaderboard.updating && leaderboard.systems.length === DEMO_SYSTEMS;
    };
    await waitFor('the BLEU paired-bootstrap board an organiser opened', bootstrap, 300_000).catch((e: unknown) => {
      throw new Error(`${String(e)}\n${logs()}`);
    });

    userDataDir = mkdtempSync(path.join(tmpdir(), 'podium-chromium-'));
    context = await chromium.launchPersistentContext(userDataDir, {
      executablePath: CHROMIUM,
      headless: true,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
      viewport: { width: 1280, height: 900 },
      acceptDownloads: true,
    });
    page = context.pages()[0] ?? (await context.newPage());
    page.setDefaultTimeout(20_000);
  }, 720_000);

  afterAll(async () => {
    await context?.close();
    await Promise.all([api?.stop(), worker?.stop()]);
    await db?.$disconnect();
    await dropDatabase?.();
    if (userDataDir) rmSync(userDataDir, { recursive: true, force: true });
  }, 60_000);

  it('lists the demo task with its language pair, phase deadline and 11 scored systems', async () => {
    await page.goto(`${base}/`);
    const row = page.locator('tr', { has: page.getByRole('link', { name: /WMT17 news translation/ }) });
    await row.waitFor();
    const cells = await row.locator('td').allTextContents();
    expect(cells[1]).toBe('mt');
    expect(cells[2]).toBe('de→en');
    expect(cells[3]).toMatch(/test.*open.*closes in .*31 Dec 2030/);
    expect(cells[4]).toBe(String(DEMO_SYSTEMS));
    await shot('tasks');
  }, 60_000);

  it('orders the leaderboard by the chosen aggregation: mean and Bradley–Terry order the BLEU systems differently', async () => {
    await page.goto(`${base}/tasks/${DEMO}?metric=bleu`);
    // The first corpus-BLEU board resamples 11,000 times (55 pairs, Holm): allow for a busy machine.
    await page.getByTestId('leaderboard-row').first().waitFor({ timeout: 60_000 });
    const byMean = await shownLeaderboard(page);
    expect(byMean.systems).toHaveLength(DEMO_SYSTEMS);
    expect(nonIncreasing(byMean.values)).toBe(true);
    await shot('leaderboard');

    await page.getByLabel('Rank by').selectOption('bt');
    await page.waitForURL(/agg=bt/);
    const byBt = await shownLeaderboard(page);
    expect(nonIncreasing(byBt.values)).toBe(true);
    expect(byBt.systems).not.toEqual(byMean.systems);
    expect([...byBt.systems].sort()).toEqual([...byMean.systems].sort());
    await shot('leaderboard-bt');

    // The URL is the state: opening the link again shows the same leaderboard.
    const link = page.url();
    await page.goto('about:blank');
    await page.goto(link);
    await page.getByTestId('leaderboard-row').first().waitFor();
    expect((await shownLeaderboard(page)).systems).toEqual(byBt.systems);
    expect(await page.getByLabel('Rank by').inputValue()).toBe('bt');
    expect(await page.getByLabel('Metric').inputValue()).toBe('bleu');
  }, 60_000);

  it('notes when aggregations disagree about the top system (TER: mean and Elo put different systems first)', async () => {
    await page.goto(`${base}/tasks/${DEMO}?metric=ter&agg=mean`);
    await page.getByTestId('leaderboard-row').first().waitFor();
    const byMean = defined((await shownLeaderboard(page)).systems[0]);
    await page.getByLabel('Rank by').selectOption('elo');
    const byElo = defined((await shownLeaderboard(page)).systems[0]);
    // The demo's TER leaderboard has different leaders under mean and Elo; the note must name both.
    expect(byElo).not.toBe(byMean);
    const note = await page.getByTestId('disagreement-note').innerText();
    expect(note).toContain(`${byMean} first`);
    expect(note).toContain(`${byElo} first`);
    await shot('leaderboard-disagreement');
  }, 60_000);

  it('shows an error, not a blank page, for a submission that does not exist', async () => {
    await page.goto(`${base}/submissions/00000000-0000-0000-0000-000000000000`);
    const alert = page.getByRole('alert');
    await alert.waitFor();
    expect(await alert.innerText()).toMatch(/Could not load the submission/);
    await page.goto(`${base}/no/such/page`);
    await page.getByRole('heading', { name: 'Page not found' }).waitFor();
  }, 60_000);

  it('fits a phone-width screen without horizontal page scrolling', async () => {
    const phone = await defined(context).newPage();
    await phone.setViewportSize({ width: 390, height: 844 });
    await phone.goto(`${base}/tasks/${DEMO}`);
    await phone.getByTestId('leaderboard-row').first().waitFor();
    const overflow = Number(await phone.evaluate('document.documentElement.scrollWidth - window.innerWidth'));
    expect(overflow).toBeLessThanOrEqual(0);
    await shot('leaderboard-phone', phone);
    await phone.close();
  }, 60_000);

  it('opens the paired view of two systems from a heatmap cell, with counts that add up to the test set', async () => {
    await page.goto(`${base}/tasks/${DEMO}?metric=bleu`);
    await page.getByRole('link', { name: 'Pairwise comparison' }).click();
    await page.waitForURL(/\/pairwise/);
    const cells = page.locator('rect.heat-cell');
    await cells.first().waitFor();
    expect(await cells.count()).toBe(DEMO_SYSTEMS * (DEMO_SYSTEMS - 1));
    await shot('pairwise');

    const label = (await cells.nth(0).getAttribute('aria-label')) ?? '';
    const [, rowSystem, colSystem] = /^(.+) beats (.+) with probability/.exec(label) ?? [];
    await cells.nth(0).focus();
    await page.keyboard.press('Enter');
    await page.waitForURL(/a=.*&b=/);
    const view = page.getByTestId('paired-view');
    await expect(view.getByRole('heading', { level: 2 }).textContent()).resolves.toBe(`${rowSystem} vs ${colSystem}`);
    const n = (s: string) => Number(s);
    const wins = n(await view.getByTestId('wins').innerText());
    const ties = n(await view.getByTestId('ties').innerText());
    const losses = n(await view.getByTestId('losses').innerText());
    const instances = (await db.instance.count({ where: { testSet: { phases: { some: { id: phaseId } } } } }));
    expect(wins + ties + losses).toBe(instances);
    await view.getByTestId('largest-differences').locator('li').first().waitFor();
    expect(await view.getByTestId('largest-differences').locator('li').count()).toBe(10);
    expect(await view.getByTestId('difference-histogram').locator('svg rect').count()).toBeGreaterThan(5);
    // six sentence-level tests plus paired-bs on corpus BLEU (paired-ar runs only when AR is chosen)
    expect(await view.getByTestId('paired-tests').locator('tbody tr').count()).toBe(7);
    await view.screenshot({ path: path.join(SHOTS, 'paired.png') });
  }, 60_000);

  it('ranks BLEU by the corpus score with paired-bs and Holm into several clusters that agree with the heatmap stars (WMT-style rule)', async () => {
    await page.goto(`${base}/tasks/${DEMO}?metric=bleu&test=bootstrap`);
    await page.getByTestId('leaderboard-row').first().waitFor({ timeout: 60_000 });
    const rows = page.getByTestId('leaderboard-row');
    const clusters = await rows.evaluateAll((trs) => trs.map((tr) => [tr.getAttribute('data-system') ?? '', Number(tr.getAttribute('data-cluster'))] as const));
    const clusterOf = new Map(clusters);
    expect(clusters).toHaveLength(DEMO_SYSTEMS);
    expect(new Set(clusters.map(([, c]) => c)).size).toBeGreaterThan(1);
    // corpus BLEU is the main column, in order; clusters are contiguous and non-decreasing down the table
    expect(nonIncreasing((await shownLeaderboard(page)).values)).toBe(true);
    expect(clusters.every(([, c], i) => i === 0 || defined(clusters[i - 1])[1] <= c)).toBe(true);
    expect(await page.getByTestId('cluster-definition').innerText()).toMatch(/every system above is significantly better than every system below/);
    expect(await page.getByTestId('board-tests').innerText()).toMatch(/Corpus score — paired bootstrap resampling of the corpus score \(sacreBLEU paired-bs\)/);
    expect(await page.getByTestId('significance-warning').count()).toBe(0); // resamples chosen so Holm over 55 pairs can reach α
    await shot('leaderboard-corpus-clusters');

    await page.getByRole('link', { name: 'Pairwise comparison' }).click();
    await page.waitForURL(/\/pairwise.*test=bootstrap/);
    const cells = page.locator('rect.heat-cell');
    await cells.first().waitFor({ timeout: 60_000 });
    const pairwiseClusters = await page.getByTestId('pairwise-cluster').evaluateAll((els) => els.map((e) => [e.getAttribute('data-system') ?? '', Number(e.getAttribute('data-cluster'))] as const));
    expect(new Map(pairwiseClusters)).toEqual(clusterOf);
    const stars = await cells.evaluateAll((rects) =>
      rects.map((r) => {
        const m = /^(.+) beats (.+) with probability/.exec(r.getAttribute('aria-label') ?? '');
        return { row: m?.[1] ?? '', col: m?.[2] ?? '', significant: r.getAttribute('data-significant') === 'true' };
      }),
    );
    expect(stars).toHaveLength(DEMO_SYSTEMS * (DEMO_SYSTEMS - 1));
    // The stated definition: systems in different clusters always differ significantly (a star);
    // stars inside one cluster are allowed and marked ◆ on the leaderboard.
    for (const c of stars) {
      if (clusterOf.get(c.row) !== clusterOf.get(c.col)) expect([c.row, c.col, c.significant]).toEqual([c.row, c.col, true]);
    }
    await shot('pairwise-corpus-clusters');
  }, 180_000);

  it('downloads a submission’s scores as CSV with one row per instance and metric', async () => {
    await page.goto(`${base}/tasks/${DEMO}?metric=bleu`);
    const first = page.getByTestId('leaderboard-row').first();
    const system = defined((await first.getAttribute('data-system')));
    await first.getByRole('link', { name: system }).click();
    await page.getByTestId('corpus-scores').waitFor();
    expect(await page.getByTestId('submission-status').innerText()).toContain('scored');
    await page.getByTestId('instance-row').first().waitFor();
    await shot('submission');

    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('download-csv').click()]);
    const file = await download.path();
    const lines = readFileSync(file, 'utf8').trimEnd().split(/\r?\n/);
    expect(lines[0]).toBe('system,team,instance_id,metric,signature,score');
    const instances = await db.instance.count({ where: { testSet: { phases: { some: { id: phaseId } } } } });
    const rows = lines.slice(1).map((l) => l.split(','));
    expect(rows).toHaveLength(instances * metricKeys.length);
    expect(new Set(rows.map((r) => r[0]))).toEqual(new Set([system]));
    expect(new Set(rows.map((r) => r[3]))).toEqual(new Set(metricKeys));
    expect(rows.every((r) => Number.isFinite(Number(r[5])))).toBe(true);
  }, 60_000);

  it('lets a team submit: shows the line of a bad file and the quota, then scores a good file', async () => {
    await page.goto(`${base}/submit`);
    await page.getByRole('button', { name: 'Use a token' }).click();
    await page.getByLabel('API token').fill(teamToken);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.getByTestId('quota').innerText()).resolves.toBeDefined();
    await page.getByTestId('quota').getByText(/5 submissions left/).waitFor();

    // A file whose second line is not JSON: refused, pointing at line 2.
    const dir = mkdtempSync(path.join(tmpdir(), 'podium-upload-'));
    const bad = path.join(dir, 'bad.jsonl');
    writeFileSync(bad, '{"id": "7", "output": "fine"}\n{"id": "8", "output": \n');
    await page.getByLabel('System name').fill('browser-bad');
    await page.getByLabel('Outputs file').setInputFiles(bad);
    await page.getByRole('button', { name: 'Submit' }).click();
    const error = page.getByTestId('submit-error');
    await error.waitFor();
    expect(await error.innerText()).toMatch(/line 2/);
    await shot('submit-error');

    // A good file: every instance of the test set, lower-cased outputs of a demo system.
    const gql = graphqlClient(base, organiserToken);
    const subs = await gql.request<{ submissions: { id: string }[] }>(`query($p: ID!) { submissions(phaseId: $p) { id } }`, { p: phaseId });
    const rows = (
      await gql.request<{ instanceScores: { rows: { instanceId: string; output: string }[] } }>(
        `query($s: ID!) { instanceScores(submissionId: $s, metric: "bleu", order: POSITION, limit: 1000) { rows { instanceId output } } }`,
        { s: defined(subs.submissions[0]).id },
      )
    ).instanceScores.rows;
    const good = path.join(dir, 'good.jsonl');
    writeFileSync(good, rows.map((r) => JSON.stringify({ id: r.instanceId, output: r.output.toLowerCase() })).join('\n') + '\n');
    await page.getByLabel('System name').fill('browser-lowercase');
    await page.getByLabel('Outputs file').setInputFiles(good);
    await page.getByRole('button', { name: 'Submit' }).click();
    await page.waitForURL(/\/submissions\//);
    await page.getByTestId('submission-status').waitFor();
    await shot('submission-queued');
    await page.getByTestId('submission-status').getByText('scored').waitFor({ timeout: 120_000 }).catch((e: unknown) => {
      throw new Error(`${String(e)}\n${logs()}`);
    });
    await page.getByTestId('corpus-scores').waitFor();
    expect(await page.getByTestId('corpus-scores').locator('tbody tr').count()).toBe(metricKeys.length);
    await shot('submission-scored');

    // Signed in, the download goes through fetch with the team's token.
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('download-jsonl').click()]);
    expect(download.suggestedFilename()).toMatch(/browser-lowercase.*\.jsonl$/);
    const records = readFileSync(await download.path(), 'utf8').trimEnd().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(records).toHaveLength(rows.length * metricKeys.length);
    expect(new Set(records.map((r) => r['system']))).toEqual(new Set(['browser-lowercase']));
    rmSync(dir, { recursive: true, force: true });

    await page.goto(`${base}/submit`);
    await page.getByTestId('quota').getByText(/4 submissions left/).waitFor();
    await shot('submit');
  }, 240_000);

  it('charts a metric’s adversarial accuracy per phenomenon once its robustness report is done', async () => {
    const gql = graphqlClient(base, organiserToken);
    await gql.request(`mutation($s: String!) { runRobustness(taskSlug: $s, metric: "chrf") { id } }`, { s: DEMO });
    await waitFor('the chrF robustness report', async () => {
      const r = await gql.request<{ robustness: { metric: string; status: string }[] }>(`query($s: String!) { robustness(taskSlug: $s) { metric status } }`, { s: DEMO });
      const chrf = r.robustness.find((x) => x.metric === 'chrf');
      if (chrf?.status === 'FAILED') throw new Error('robustness run failed');
      return chrf?.status === 'DONE';
    }, 150_000).catch((e: unknown) => {
      throw new Error(`${String(e)}\n${logs()}`);
    });
    await page.goto(`${base}/tasks/${DEMO}`);
    await page.getByRole('link', { name: /Metric robustness/ }).click();
    await page.getByTestId('robustness-chart').locator('svg').first().waitFor();
    const rows = page.getByTestId('robustness-table').locator('tbody tr');
    expect(await rows.count()).toBe(12); // MENLI's twelve phenomena
    const accuracies = (await rows.locator('td:nth-child(2)').allInnerTexts()).map((t) => Number(t.split(' ')[0]));
    expect(accuracies.every((a) => a >= 0 && a <= 1)).toBe(true);
    expect([...accuracies].sort((a, b) => a - b)).toEqual(accuracies); // weakest phenomenon first
    await shot('robustness');
  }, 200_000);

  it('draws the NLI report’s trade-off curve: accuracy and segment Pearson against w, each line labelled', async () => {
    const gql = graphqlClient(base, organiserToken);
    await waitFor('the NLI robustness report', async () => {
      const r = await gql.request<{ robustness: { metric: string; status: string; tradeoff: { w: number }[] | null }[] }>(
        `query($s: String!) { robustness(taskSlug: $s) { metric status tradeoff { w } } }`,
        { s: DEMO },
      );
      const nli = r.robustness.find((x) => x.metric === 'nli');
      if (nli?.status === 'FAILED') throw new Error('NLI robustness run failed');
      return nli?.status === 'DONE';
    }, 150_000).catch((e: unknown) => {
      throw new Error(`${String(e)}\n${logs()}`);
    });
    await page.goto(`${base}/tasks/${DEMO}/robustness?metric=nli&with=chrf`);
    const chart = page.getByTestId('tradeoff-chart');
    await chart.locator('svg').first().waitFor();
    await chart.getByText('segment Pearson with humans').waitFor();
    expect(await chart.getByText('adversarial accuracy').count()).toBe(1);
    await shot('robustness-tradeoff');
  }, 200_000);

  it('refuses a page on another origin of the same site that posts a submission with the session cookie (CSRF, issue #21)', async () => {
    // Signed in by the previous case: the team's token was exchanged for a session cookie, and
    // nothing of it is in the page's storage.
    await page.goto(`${base}/submit`);
    await page.getByTestId('quota').waitFor();
    expect(await page.evaluate<string[]>('Object.keys(window.localStorage)')).not.toContain('podium-token');
    // The attacking page: 127.0.0.1 on another port, as in the issue (SameSite=Strict does not
    // separate the two origins, so the browser sends the cookie).
    const before = await db.submission.count({ where: { phaseId } });
    const attacker = createServer((_req, res) => {
      res.setHeader('content-type', 'text/html');
      res.end(`<!doctype html><title>attacker</title><script>
        const form = new FormData();
        form.set('teamId', 'x');
        form.set('systemName', 'csrf-probe');
        form.set('file', new Blob(['a\\n']), 'o.txt');
        fetch(${JSON.stringify(`${base}/api/phases/${phaseId}/submissions`)}, { method: 'POST', body: form, credentials: 'include', mode: 'no-cors' })
          .then(() => { document.title = 'sent'; }, () => { document.title = 'failed'; });
      </script>`);
    });
    await new Promise<void>((resolve) => attacker.listen(0, '127.0.0.1', resolve));
    const address = attacker.address();
    const attackerPort = typeof address === 'object' && address ? address.port : 0;
    const answered = () => (api?.logs.join('') ?? '').includes(`POST /api/phases/${phaseId}/submissions 403`);
    try {
      await page.goto(`http://127.0.0.1:${attackerPort}/`);
      await waitFor('the attacking page to send', async () => ['sent', 'failed'].includes(await page.title()), 10_000);
      // The api's access log: the forged upload reached it and was answered 403.
      await waitFor('the api to refuse the forged upload', async () => answered(), 10_000);
    } finally {
      attacker.closeAllConnections();
      await new Promise<void>((resolve) => attacker.close(() => resolve()));
      await page.goto(`${base}/submit`);
    }
    expect(await db.submission.count({ where: { phaseId } })).toBe(before);
  }, 60_000);

  it('lets an organiser create a task and shows it on the tasks page', async () => {
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.goto(`${base}/organise`);
    await page.getByRole('button', { name: 'Use a token' }).click();
    await page.getByLabel('API token').fill(organiserToken);
    await page.getByRole('button', { name: 'Sign in' }).click();
    const form = page.locator('form', { has: page.getByRole('heading', { name: 'Create a task' }) });
    await form.waitFor();
    await form.getByLabel('Slug (URL name)').fill('browser-summ');
    await form.getByLabel('Title').fill('Browser summarisation task');
    await form.getByLabel('Kind').selectOption('summarization');
    await form.getByLabel('Source language').fill('en');
    await form.getByLabel('Target language').fill('en');
    await form.getByLabel('ROUGE-1').check();
    await form.getByRole('button', { name: 'Create task' }).click();
    await form.getByText('Created task browser-summ.').waitFor();
    await shot('organise');
    await page.getByRole('link', { name: 'Tasks' }).click();
    await page.getByRole('link', { name: 'Browser summarisation task' }).waitFor();
  }, 60_000);
});
