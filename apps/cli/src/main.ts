#!/usr/bin/env node
/**
 * `podium` — score and rank system outputs offline, no server or database; `submit` and
 * `test-input` talk to a Podium server. stdout carries JSON only (except `test-input` without
 * --out, which writes the file there); errors are one line on stderr with exit code 2.
 */
import { CliError } from './cli-error';
import type { CliCommand } from './command';
import { commands } from './commands';

function usage(): string {
  const lines = ['usage: podium <command> [options]', '', 'commands:'];
  const width = Math.max(...commands.map((c) => c.name.length)) + 2;
  for (const c of commands) lines.push(`  ${c.name.padEnd(width)}${c.summary}`);
  lines.push('', "run 'podium <command> --help' for its options");
  return lines.join('\n');
}

export async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === '--help' || name === '-h') {
    process.stderr.write(usage() + '\n');
    return name ? 0 : 2;
  }
  const command: CliCommand | undefined = commands.find((c) => c.name === name);
  if (!command) {
    process.stderr.write(`podium: unknown command '${name}'\n${usage()}\n`);
    return 2;
  }
  if (rest.includes('--help') || rest.includes('-h')) {
    process.stderr.write(command.usage + '\n');
    return 0;
  }
  try {
    const result = await command.run(rest);
    if (result !== undefined) process.stdout.write(JSON.stringify(result) + '\n');
    return 0;
  } catch (err) {
    if (err instanceof CliError) {
      process.stderr.write(`podium ${name}: ${err.message}\n`);
      return err.exitCode;
    }
    const message = err instanceof Error ? err.message : String(err);
    process.stderr.write(`podium ${name}: internal error: ${message}\n`);
    return 1;
  }
}

if (require.main === module) {
  main(process.argv.slice(2)).then(
    (code) => {
      process.exitCode = code;
    },
    (err: unknown) => {
      process.stderr.write(`podium: ${String(err)}\n`);
      process.exitCode = 1;
    },
  );
}
