import type { CliCommand } from '../command';
import { dataCommand } from './data.command';
import { embedCommand } from './embed.command';
import { adminCommand } from './admin.command';
import { generateSuiteCommand } from './generate-suite.command';
import { modelsCommand } from './models.command';
import { rankCommand } from './rank.command';
import { reportCardCommand } from './report-card.command';
import { scoreCommand } from './score.command';
import { robustnessCommand } from './robustness.command';
import { submitCommand } from './submit.command';
import { taskCommand } from './task.command';
import { testInputCommand } from './test-input.command';
import { verifyCommitmentCommand } from './verify-commitment.command';

/** Registry of subcommands; each lives in its own `<name>.command.ts`. */
export const commands: CliCommand[] = [scoreCommand, rankCommand, robustnessCommand, generateSuiteCommand, reportCardCommand, embedCommand, modelsCommand, dataCommand, adminCommand, testInputCommand, submitCommand, taskCommand, verifyCommitmentCommand];
