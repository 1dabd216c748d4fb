import { parseArgs, type ParseArgsConfig } from 'node:util';
import { CliError } from './cli-error';

type Options = NonNullable<ParseArgsConfig['options']>;

/** Parses a command's flags strictly (no positionals); a bad flag is a one-line CliError. */
export function parseFlags<const T extends Options>(argv: string[], options: T) {
  try {
    return parseArgs({ args: argv, options, strict: true, allowPositionals: false }).values;
  } catch (err) {
    throw new CliError((err as Error).message);
  }
}

/** {@link parseFlags} for commands with positional arguments (`podium data fetch NAME`). */
export function parseFlagsAndPositionals<const T extends Options>(argv: string[], options: T) {
  try {
    const { values, positionals } = parseArgs({ args: argv, options, strict: true, allowPositionals: true });
    return { values, positionals };
  } catch (err) {
    throw new CliError((err as Error).message);
  }
}
