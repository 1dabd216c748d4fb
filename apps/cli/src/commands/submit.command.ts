import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { CliError } from '../cli-error';
import type { CliCommand } from '../command';
import { parseArgs } from 'node:util';
import { authHeaders, graphql, phaseInWords, restError, serverUrl } from '../server';

const USAGE = `usage: podium submit --url URL --phase ID --token T --system NAME [--team ID] [--format jsonl|text] [--no-wait] FILE

  Uploads FILE (plain lines in test-input order, or JSONL {"id","output"}) to a phase, then
  shows the scoring progress on stderr until it is done and prints the corpus scores as JSON.
  --token T        an API token (default $PODIUM_TOKEN); create one on your team page
  --team ID        the team to submit for (default: your only team)
  --format         jsonl or text (detected from the content when left out)
  --description D  a note shown with the submission
  --no-wait        print the submission id without waiting for the scores`;

interface SubmissionState {
  id: string;
  status: 'QUEUED' | 'SCORING' | 'SCORED' | 'FAILED';
  error: string | null;
  progressDone: number;
  progressTotal: number;
  corpusScores: { metric: string; value: number; signature: string }[];
}

export const submitCommand: CliCommand = {
  name: 'submit',
  summary: 'submit system outputs to a Podium server and follow the scoring',
  usage: USAGE,
  async run(argv: string[]): Promise<unknown> {
    let parsed;
    try {
      parsed = parseArgs({
        args: argv,
        options: {
          url: { type: 'string' },
          phase: { type: 'string' },
          token: { type: 'string' },
          system: { type: 'string' },
          team: { type: 'string' },
          format: { type: 'string' },
          description: { type: 'string' },
          'no-wait': { type: 'boolean' },
          'poll-ms': { type: 'string' },
        },
        allowPositionals: true,
        strict: true,
      });
    } catch (err) {
      throw new CliError((err as Error).message);
    }
    const { values: flags, positionals } = parsed;
    const url = serverUrl(flags.url);
    const token = flags.token ?? process.env['PODIUM_TOKEN'];
    if (!flags.phase) throw new CliError('--phase is required (the phase id, shown on the Submit page)');
    if (!token) throw new CliError('--token is required (or $PODIUM_TOKEN); create one on your team page');
    if (!flags.system) throw new CliError('--system is required (a name for your system)');
    const [file] = positionals;
    if (positionals.length !== 1 || file === undefined) throw new CliError('give exactly one FILE with the outputs');
    let content: Buffer;
    try {
      content = readFileSync(file);
    } catch (err) {
      throw new CliError(`cannot read ${file}: ${(err as Error).message}`);
    }
    const server = { url, token };
    let teamId = flags.team;
    if (!teamId) {
      const { me } = await graphql<{ me: { teams: { id: string; name: string }[] } | null }>(server, `{ me { teams { id name } } }`, {});
      if (!me) throw new CliError('the token is unknown or revoked');
      const [only] = me.teams;
      if (me.teams.length !== 1 || !only) throw new CliError(`you are in ${me.teams.length} teams; choose one with --team (${me.teams.map((t) => `${t.id} ${t.name}`).join(', ')})`);
      teamId = only.id;
    }
    // The phase's state in words first: a refused upload below then reads in context.
    const phase = await phaseInWords(server, flags.phase);
    if (phase) process.stderr.write(`${phase}\n`);
    const form = new FormData();
    form.set('teamId', teamId);
    form.set('systemName', flags.system);
    if (flags.description) form.set('description', flags.description);
    if (flags.format) form.set('format', flags.format);
    form.set('file', new Blob([new Uint8Array(content)]), basename(file));
    const res = await fetch(`${url}/api/phases/${encodeURIComponent(flags.phase)}/submissions`, { method: 'POST', headers: authHeaders(token), body: form });
    if (!res.ok) throw await restError(res);
    const created = (await res.json()) as { submissionId: string; status: string };
    process.stderr.write(`submitted ${flags.system}: ${created.submissionId}\n`);
    if (flags['no-wait']) return { ...created, ...(phase ? { phase } : {}) };
    const pollMs = Number(flags['poll-ms'] ?? 1000);
    let last = '';
    for (;;) {
      const { submission: s } = await graphql<{ submission: SubmissionState }>(
        server,
        `query($id: ID!) { submission(id: $id) { id status error progressDone progressTotal corpusScores { metric value signature } } }`,
        { id: created.submissionId },
      );
      const line = `${s.status.toLowerCase()} ${s.progressDone}/${s.progressTotal}`;
      if (line !== last) process.stderr.write(`${line}\n`);
      last = line;
      if (s.status === 'FAILED') throw new CliError(`scoring failed: ${s.error ?? 'unknown error'}`);
      if (s.status === 'SCORED') return { submissionId: s.id, status: s.status, corpusScores: s.corpusScores, ...(phase ? { phase } : {}) };
      await new Promise((r) => setTimeout(r, pollMs));
    }
  },
};
