import { parseArgs, type ParseArgsConfig } from 'node:util';
import { CliError } from './cli-error';

type Options = NonNullable<ParseArgsConfig['options']>;

/**
 * Joins `--name VALUE` into `--name=VALUE` for string options, so values that begin with `-`
 * (`--direction ->`, `--formula -c`, `--smooth-value -1`) are taken as values rather than
 * rejected as "ambiguous" by node:util parseArgs. A following `--word` (another flag) is left
 * alone, so a forgotten value still fails with "argument missing".
 */
export function joinDashValues(argv: readonly string[], options: Options): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === undefined) break; // i < argv.length
    if (a === '--') {
      out.push(...argv.slice(i));
      break;
    }
    const next = argv[i + 1];
    if (a.startsWith('--') && !a.includes('=') && next !== undefined && next.startsWith('-') && !/^--[A-Za-z]/.test(next)) {
      const opt = options[a.slice(2)];
      if (opt && opt.type === 'string') {
        out.push(`${a}=${next}`);
        i++;
        continue;
      }
    }
    out.push(a);
  }
  return out;
}

/** Parses a command's flags strictly (no positionals); a bad flag is a one-line CliError. */
export function parseFlags<const T extends Options>(argv: string[], options: T) {
  try {
    return parseArgs({ args: joinDashValues(argv, options), options, strict: true, allowPositionals: false }).values;
  } catch (err) {
    throw new CliError((err as Error).message.split('\n').join(' '));
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
