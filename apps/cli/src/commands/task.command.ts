import { readFileSync, writeFileSync } from 'node:fs';
import { taskBundleProblems } from '@podium/contracts';
import { CliError } from '../cli-error';
import type { CliCommand } from '../command';
import { parseFlags, parseFlagsAndPositionals } from '../flags';
import { authHeaders, restError, serverUrl } from '../server';

const USAGE = `usage: podium task export --url URL --task SLUG --out FILE [--with-submissions] [--token T]
       podium task import FILE --url URL [--slug NEW-SLUG] [--token T]

Task bundles: one JSON file with a task's settings, metrics, phases and test sets (with their
references), and with --with-submissions every submission (but failed ones) with its outputs.
Scores are not in it: the Podium that imports the file scores the outputs itself.
  export   the task's organisers (and administrators); writes FILE and prints
           {"file","bytes","task","phases","testSets","instances","submissions"}
  import   users who may create tasks (ORGANISER or ADMIN); checks FILE here first and names
           every problem, then the server creates the task, its phases, test sets, teams it
           lacks (by name, without members) and submissions in one transaction, and queues the
           submissions for scoring; refuses a slug the server already has (--slug picks another).
           Prints {"taskId","slug","phases":[{"id","name"}],"submissions","teamsCreated"}
  --token T  an API token (default $PODIUM_TOKEN)`;

type Fetch = typeof fetch;

async function exportTask(argv: string[], fetchImpl: Fetch): Promise<unknown> {
  const flags = parseFlags(argv, { url: { type: 'string' }, task: { type: 'string' }, out: { type: 'string' }, 'with-submissions': { type: 'boolean' }, token: { type: 'string' } });
  const url = serverUrl(flags.url);
  if (!flags.task) throw new CliError('--task is required (the task slug, as in its address /tasks/SLUG)');
  if (!flags.out) throw new CliError('--out FILE is required (where the bundle is written)');
  const token = flags.token ?? process.env['PODIUM_TOKEN'];
  if (!token) throw new CliError("--token is required (or $PODIUM_TOKEN): the bundle holds the references, so only the task's organisers may export it");
  const res = await fetchImpl(`${url}/api/tasks/${encodeURIComponent(flags.task)}/bundle.json${flags['with-submissions'] ? '?submissions=1' : ''}`, { headers: authHeaders(token) });
  if (!res.ok) throw await restError(res);
  const text = await res.text();
  const { bundle, problems } = taskBundleProblems(JSON.parse(text) as unknown);
  if (!bundle) throw new CliError(`the server sent a bundle this podium cannot read: ${problems.join('; ')}`);
  writeFileSync(flags.out, text);
  return {
    file: flags.out,
    bytes: Buffer.byteLength(text),
    task: bundle.task.slug,
    phases: bundle.phases.length,
    testSets: bundle.testSets.length,
    instances: bundle.testSets.reduce((n, t) => n + t.instances.length, 0),
    submissions: bundle.submissions.length,
  };
}

async function importTask(argv: string[], fetchImpl: Fetch): Promise<unknown> {
  const { values: flags, positionals } = parseFlagsAndPositionals(argv, { url: { type: 'string' }, slug: { type: 'string' }, token: { type: 'string' } });
  const [file] = positionals;
  if (positionals.length !== 1 || file === undefined) throw new CliError('give exactly one FILE (a task bundle written by podium task export)');
  const url = serverUrl(flags.url);
  const token = flags.token ?? process.env['PODIUM_TOKEN'];
  if (!token) throw new CliError('--token is required (or $PODIUM_TOKEN): an organiser or administrator creates the task');
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    throw new CliError(`cannot read ${file}: ${(e as Error).message}`);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    throw new CliError(`${file} is not JSON: ${(e as Error).message}`);
  }
  const { problems } = taskBundleProblems(value);
  if (problems.length > 0) throw new CliError(`${file} is not a task bundle this podium can import:\n  ${problems.join('\n  ')}`);
  const res = await fetchImpl(`${url}/api/tasks/import${flags.slug ? `?slug=${encodeURIComponent(flags.slug)}` : ''}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...authHeaders(token) },
    body: text,
  });
  if (!res.ok) throw await restError(res);
  return (await res.json());
}

export function makeTaskCommand(fetchImpl: Fetch = fetch): CliCommand {
  return {
    name: 'task',
    summary: 'export a task to one bundle file, or import a bundle into a Podium server',
    usage: USAGE,
    async run(argv) {
      const [action, ...rest] = argv;
      if (action === 'export') return exportTask(rest, fetchImpl);
      if (action === 'import') return importTask(rest, fetchImpl);
      throw new CliError(`unknown task action '${action ?? ''}' (expected: export, import)`);
    },
  };
}

export const taskCommand = makeTaskCommand();
