import type { CliCommand } from '../command';
import { rankCommand } from './rank.command';

/** Registry of subcommands; each lives in its own `<name>.command.ts`. */
export const commands: CliCommand[] = [rankCommand];
