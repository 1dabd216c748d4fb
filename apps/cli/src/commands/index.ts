import type { CliCommand } from '../command';

/** Registry of subcommands; each lives in its own `<name>.command.ts`. */
export const commands: CliCommand[] = [];
