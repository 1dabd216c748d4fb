/**
 * A shared task run through the web app in headless Chromium (issue #10): an organiser creates
 * a task, a hidden phase and its test set on the Organise page; a participant registers, creates
 * a team, a teammate joins with the invite code; the participant creates a token, downloads the
 * test input from the Submit page and submits with the exact `podium submit` command shown there,
 * watching the scoring progress; marks the submission primary; the organiser closes the phase and
 * publishes the results; an anonymous visitor then sees references and per-instance scores.
 * Screenshots go to test-artifacts/screenshots/journey-*.png.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { IdentityRepository, Role, type Db } from '@podium/db';
import type { Page } from 'playwright-core';
import { repoRoot } from '../e2e/support/processes';
import { SHOTS, startJourneyStack, type JourneyStack } from './support/journey-stack';
import { defined } from '../support/defined';

// Real PostgreSQL, API and worker processes: minutes on a loaded 2-core machine, not Jest's 5 s.
jest.setTimeout(180_000);

const INSTANCES = [
  { id: 'j1', source: 'Der Zug ist spät.', references: ['the train is late'] },
  { id: 'j2', source: 'Ich lese ein Buch.', references: ['i am reading a book'] },
  { id: 'j3', source: 'Das Wetter ist schön.', references: ['the weather is nice'] },
];

/** Runs a shell command line as a participant would, with `podium` on the PATH. */
function shell(command: string, cwd: string, env: Record<string, string>): Promise<{ status: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn('timeout', ['120', 'bash', '-c', command], { cwd, env: { ...process.env, ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('close', (code) => resolve({ status: code ?? -1, stdout, stderr }));
  });
}

describe('a shared task in the browser: organiser, participants, CLI, publishing', () => {
  let stack: JourneyStack | undefined;
  let db: Db;
  let base: string;
  let organiserToken: string;
  const suffix = randomBytes(3).toString('hex');
  const slug = `journey-${suffix}`;
  const work = mkdtempSync(path.join(tmpdir(), 'podium-journey-'));
  let phaseId = '';
  let submissionId = '';
  let participantToken = '';

  const logs = () => stack?.logs() ?? '';
  const shot = (p: Page, name: string) => p.screenshot({ path: path.join(SHOTS, `journey-${name}.png`), fullPage: true });
  async function newPage(): Promise<Page> {
    const context = await defined(stack).browser.newContext({ viewport: { width: 1280, height: 900 }, acceptDownloads: true });
    const page = await context.newPage();
    page.setDefaultTimeout(20_000);
    return page;
  }

  beforeAll(async () => {
    stack = await startJourneyStack('podium_journey', `journey-${suffix}`);
    ({ db, base } = stack);
    const identity = new IdentityRepository(db);
    const organiser = await identity.createUser(`olga-${suffix}`, Role.ADMIN);
    organiserToken = await identity.issueToken(organiser.id, 'journey');
    // `podium` on the PATH, as a participant would have it.
    const bin = path.join(work, 'bin');
    mkdirSync(bin);
    const shim = path.join(bin, 'podium');
    writeFileSync(shim, `#!/bin/sh\nSWC_NODE_PROJECT="${repoRoot}/tsconfig.base.json" exec "${process.execPath}" -r "${repoRoot}/node_modules/@swc-node/register" "${repoRoot}/apps/cli/src/main.ts" "$@"\n`);
    chmodSync(shim, 0o755);
  }, 300_000);

  afterAll(async () => {
    await stack?.stop();
    rmSync(work, { recursive: true, force: true });
  }, 60_000);

  let organiser: Page;

  it('an organiser creates a task, a hidden phase and its test set on the Organise page', async () => {
    organiser = await newPage();
    await organiser.goto(`${base}/`);
    await organiser.getByRole('button', { name: 'Use a token' }).click();
    await organiser.getByLabel('API token').fill(organiserToken);
    await organiser.getByRole('button', { name: 'Sign in' }).click();
    await organiser.getByTestId('who').filter({ hasText: `olga-${suffix}` }).waitFor();
    await organiser.goto(`${base}/organise`);
    const task = organiser.locator('form[aria-labelledby="create-task"]');
    await task.getByLabel('Slug (URL name)').fill(slug);
    await task.getByLabel('Title').fill('Journey MT');
    await task.getByLabel('Source language').fill('de');
    await task.getByLabel('Target language').fill('en');
    await task.getByRole('button', { name: /Create/ }).click();
    await organiser.getByText(`Created task ${slug}.`).waitFor();

    const phase = organiser.locator('form[aria-labelledby="create-phase"]');
    await phase.getByLabel('Name').fill('test');
    await phase.getByLabel('Show the leaderboard while the phase is open').uncheck();
    await phase.getByRole('button', { name: /Add|Create/ }).click();
    await organiser.getByText('Created phase test.').waitFor();

    const upload = organiser.locator('form[aria-labelledby="upload-testset"]');
    await upload.getByLabel('Name').fill('journey-test');
    await upload.getByLabel('File').setInputFiles({ name: 'test.jsonl', mimeType: 'application/jsonl', buffer: Buffer.from(INSTANCES.map((i) => JSON.stringify(i)).join('\n')) });
    await upload.getByRole('button', { name: /Upload/ }).click();
    await organiser.getByText(/Uploaded journey-test: 3 instances/).waitFor();
    const row = organiser.getByTestId('phase-row-test');
    await row.getByTestId('phase-state').filter({ hasText: 'open, board hidden' }).waitFor();
    phaseId = (await row.locator('code').innerText()).trim();
    await shot(organiser, '01-organise');
  }, 90_000);

  let participant: Page;

  it('a participant registers, creates a team, a teammate joins with the invite code, and a token is shown once', async () => {
    participant = await newPage();
    await participant.goto(`${base}/account`);
    const form = participant.getByTestId('register-form');
    await form.getByLabel('Name').fill(`ada-${suffix}`);
    await form.getByLabel('E-mail').fill(`ada-${suffix}@example.org`);
    await form.getByLabel(/Password/).fill('a long enough password');
    await shot(participant, '02-register');
    await form.getByRole('button', { name: 'Register' }).click();
    await participant.waitForURL(/\/team$/);
    await participant.getByLabel('Team name').fill(`Team Ada ${suffix}`);
    await participant.getByRole('button', { name: 'Create team' }).click();
    const code = (await participant.getByTestId('invite-code').innerText()).trim();

    const mate = await newPage();
    await mate.goto(`${base}/account`);
    const mateForm = mate.getByTestId('register-form');
    await mateForm.getByLabel('Name').fill(`bo-${suffix}`);
    await mateForm.getByLabel('E-mail').fill(`bo-${suffix}@example.org`);
    await mateForm.getByLabel(/Password/).fill('another long password');
    await mateForm.getByRole('button', { name: 'Register' }).click();
    await mate.waitForURL(/\/team$/);
    await mate.getByLabel('Invite code').fill(code);
    await mate.getByRole('button', { name: 'Join team' }).click();
    // The team card lists its members (the creator marked as owner).
    await mate.getByTestId('team-card').filter({ hasText: `ada-${suffix}` }).filter({ hasText: `bo-${suffix}` }).waitFor();
    await shot(mate, '03-team-joined');

    await participant.getByLabel('Name', { exact: true }).fill('laptop');
    await participant.getByRole('button', { name: 'Create token' }).click();
    participantToken = (await participant.getByTestId('new-token').innerText()).trim();
    expect(participantToken).toMatch(/^pod_/);
    await shot(participant, '04-team-token');
  }, 90_000);

  it('downloads the test input from the Submit page and submits with the podium command shown there, with progress', async () => {
    await participant.goto(`${base}/submit`);
    await participant.getByTestId('phase-id').filter({ hasText: phaseId }).waitFor();
    await participant.getByLabel('System name').fill('journey-system');
    const command = (await participant.getByTestId('cli-submit').innerText()).trim();
    expect(command).toBe(`node podium.cjs submit --url ${base} --phase ${phaseId} --token $PODIUM_TOKEN --system 'journey-system' outputs.txt`);
    // The standalone command the server offers, fetched as the page says (curl -fsSLO …/api/cli/podium.cjs).
    expect((await participant.getByTestId('cli-download-command').innerText()).trim()).toBe(`curl -fsSLO ${base}/api/cli/podium.cjs`);
    const cli = await fetch(`${base}/api/cli/podium.cjs`);
    expect(cli.status).toBe(200);
    writeFileSync(path.join(work, 'podium.cjs'), Buffer.from(await cli.arrayBuffer()));
    expect(await participant.getByTestId('curl-submit').innerText()).toContain(`${base}/api/phases/${phaseId}/submissions`);
    await shot(participant, '05-submit-page');

    const [download] = await Promise.all([participant.waitForEvent('download'), participant.getByTestId('test-input-tsv').click()]);
    const input = readFileSync(defined((await download.path())), 'utf8');
    expect(input).toBe(`id\tsource\n${INSTANCES.map((i) => `${i.id}\t${i.source}`).join('\n')}\n`);
    expect(input).not.toContain('the train');

    // The participant's system: one output per line, in the order of the test input.
    writeFileSync(path.join(work, 'outputs.txt'), 'the train is late\ni read a book\nthe weather is fine\n');
    const run = await shell(command, work, { PODIUM_TOKEN: participantToken, PATH: `${path.join(work, 'bin')}:${process.env['PATH']}` });
    if (run.status !== 0) throw new Error(`podium submit exited ${run.status}:\n${run.stderr}\n${run.stdout}\n${logs()}`);
    expect(run.stderr).toMatch(/submitted journey-system/);
    expect(run.stderr).toMatch(/scored 3\/3/);
    expect(run.status).toBe(0);
    submissionId = (JSON.parse(run.stdout) as { submissionId: string }).submissionId;
    writeFileSync(path.join(SHOTS, 'journey-06-cli-output.txt'), `$ ${command}\n${run.stderr}${run.stdout}`);

    await participant.goto(`${base}/submissions/${submissionId}`);
    await participant.getByTestId('submission-status').filter({ hasText: /scored/i }).waitFor();
    await participant.getByTestId('corpus-scores').waitFor();
    // Before publishing the team sees its outputs and scores, never the references.
    await participant.getByText('hidden until published').first().waitFor();
    await participant.getByTestId('mark-primary').click();
    await participant.getByTestId('primary-mark').waitFor();
    await shot(participant, '07-submission-primary');
  }, 180_000);

  it('the organiser closes the phase and publishes; an anonymous visitor then sees references and per-instance scores', async () => {
    const anonymous = await newPage();
    await anonymous.goto(`${base}/submissions/${submissionId}`);
    await anonymous.getByText(/hidden until the organisers publish/).waitFor();
    await shot(anonymous, '08-anonymous-before');

    await organiser.goto(`${base}/organise`);
    const row = organiser.getByTestId('phase-row-test');
    // Irreversible: each asks first, stating what it does with the real counts.
    await row.getByRole('button', { name: 'Close now' }).click();
    await row.getByRole('alertdialog').filter({ hasText: /\d+ submissions? from \d+ teams? stay as they are/ }).waitFor();
    await row.getByRole('button', { name: 'Close test now' }).click();
    await row.getByTestId('phase-state').filter({ hasText: 'closed, not published' }).waitFor();
    await row.getByRole('button', { name: 'Publish results' }).click();
    await row.getByRole('alertdialog').filter({ hasText: /\d+ submissions? from \d+ teams? will become public, with references/ }).waitFor();
    await shot(organiser, '09a-publish-confirmation');
    await row.getByRole('button', { name: 'Publish test (final)' }).click();
    await row.getByTestId('phase-state').filter({ hasText: /^published/ }).waitFor();
    await organiser.getByTestId('audit-log').filter({ hasText: 'phase.publish' }).waitFor();
    await shot(organiser, '09-organise-published');

    await anonymous.goto(`${base}/submissions/${submissionId}`);
    await anonymous.getByTestId('corpus-scores').waitFor();
    await anonymous.getByText('the weather is nice').waitFor();
    await anonymous.getByText('i am reading a book').waitFor();
    await shot(anonymous, '10-anonymous-published');
    await anonymous.goto(`${base}/tasks/${slug}`);
    await anonymous.getByTestId('leaderboard-row').first().waitFor();
    await shot(anonymous, '11-leaderboard-published');
  }, 120_000);
});
