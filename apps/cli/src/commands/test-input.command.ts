import { writeFileSync } from 'node:fs';
import { CliError } from '../cli-error';
import type { CliCommand } from '../command';
import { parseFlags } from '../flags';
import { authHeaders, phaseInWords, restError, serverUrl } from '../server';

const FORMATS = ['tsv', 'jsonl', 'txt'] as const;

const USAGE = `usage: podium test-input --url URL --phase ID [--format tsv|jsonl|txt] [--out FILE] [--token T]

  Downloads a phase's test input: instance ids and sources in test-set order, never references.
  --format    tsv (id<TAB>source, default), jsonl ({"id","source"}) or txt (one source a line);
              tab, newline and backslash inside a field are written \\t, \\n and \\\\
  --out FILE  write the file and print {"file","format","bytes","phase"} (phase: its state in words);
              without it the file goes to stdout and the phase's state to stderr
  --token T   an API token (default $PODIUM_TOKEN); the test input is public, so usually not needed`;

export const testInputCommand: CliCommand = {
  name: 'test-input',
  summary: "download a phase's test input (ids and sources) from a Podium server",
  usage: USAGE,
  async run(argv: string[]): Promise<unknown> {
    const flags = parseFlags(argv, { url: { type: 'string' }, phase: { type: 'string' }, format: { type: 'string' }, out: { type: 'string' }, token: { type: 'string' } });
    const url = serverUrl(flags.url);
    if (!flags.phase) throw new CliError('--phase is required (the phase id, shown on the Submit page)');
    const format = flags.format ?? 'tsv';
    if (!(FORMATS as readonly string[]).includes(format)) throw new CliError(`--format must be one of ${FORMATS.join(', ')}, got '${format}'`);
    const res = await fetch(`${url}/api/phases/${encodeURIComponent(flags.phase)}/test-input.${format}`, { headers: authHeaders(flags.token ?? process.env['PODIUM_TOKEN']) });
    if (!res.ok) throw await restError(res);
    const text = await res.text();
    const phase = await phaseInWords({ url, token: flags.token ?? process.env['PODIUM_TOKEN'] }, flags.phase);
    if (!flags.out) {
      process.stdout.write(text);
      if (phase) process.stderr.write(`${phase}\n`);
      return undefined;
    }
    writeFileSync(flags.out, text);
    return { file: flags.out, format, bytes: Buffer.byteLength(text), ...(phase ? { phase } : {}) };
  },
};
