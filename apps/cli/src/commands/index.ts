import type { CliCommand } from '../command';
import { rankCommand } from './rank.command';
import { scoreCommand } from './score.command';

/** Registry of subcommands; each lives in its own `<name>.command.ts`. */
export const commands: CliCommand[] = [scoreCommand, rankCommand];
