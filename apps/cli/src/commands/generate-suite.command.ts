import { writeFileSync } from 'node:fs';
import { UnsupportedLanguageError, formatMenliCsv, generateSuite } from '@podium/robustness';
import { CliError } from '../cli-error';
import { parseFlags } from '../flags';
import type { CliCommand } from '../command';
import { readLines } from '../io';

const USAGE = `usage: podium generate-suite --refs FILE [--refs FILE2] [--paraphrases FILE] --out FILE.csv [options]

Builds a MENLI-format adversarial suite from a task's own (English) references, for
'podium robustness --suite FILE.csv'. Each phenomenon perturbs the first --refs file; the
good side is --paraphrases, else the second --refs file; the number phenomenon uses the
reference with its numbers spelled out.

  --refs FILE            references, one segment per line (give twice for a second reference)
  --paraphrases FILE     paraphrases of the first references, line-aligned
  --source FILE          source segments, copied to the source column
  --lang CODE            language of the references (default en; only en is supported)
  --seed N               seed of every random choice (default 12345)
  --per-phenomenon N     most rows per phenomenon (default 200)
  --out FILE.csv         where to write the suite

stdout: {"out","rows","counts":{"<error>":n},"seed","goodSide"}`;

/** `podium generate-suite`: an adversarial suite generated from a task's references. */
export const generateSuiteCommand: CliCommand = {
  name: 'generate-suite',
  summary: 'generate a MENLI-format adversarial suite from references',
  usage: USAGE,
  async run(argv: string[]): Promise<unknown> {
    const values = parseFlags(argv, {
      refs: { type: 'string', multiple: true },
      paraphrases: { type: 'string' },
      source: { type: 'string' },
      lang: { type: 'string', default: 'en' },
      seed: { type: 'string' },
      'per-phenomenon': { type: 'string' },
      out: { type: 'string' },
    });
    const refFiles = values.refs ?? [];
    const [refFile, secondRefFile] = refFiles;
    if (refFile === undefined) throw new CliError('--refs is required');
    if (refFiles.length > 2) throw new CliError('--refs may be given at most twice');
    if (!values.out) throw new CliError('--out is required');
    const seed = values.seed === undefined ? 12345 : Number(values.seed);
    if (!Number.isInteger(seed) || seed < 0) throw new CliError(`--seed must be a non-negative integer, got '${values.seed}'`);
    const perPhenomenon = values['per-phenomenon'] === undefined ? 200 : Number(values['per-phenomenon']);
    if (!Number.isInteger(perPhenomenon) || perPhenomenon < 1) {
      throw new CliError(`--per-phenomenon must be a positive integer, got '${values['per-phenomenon']}'`);
    }
    const references = readLines(refFile, 'references');
    const secondReferences = secondRefFile ? readLines(secondRefFile, 'second references') : undefined;
    const paraphrases = values.paraphrases ? readLines(values.paraphrases, 'paraphrases') : undefined;
    const sources = values.source ? readLines(values.source, 'source') : undefined;
    let suite;
    try {
      suite = generateSuite({ references, secondReferences, paraphrases, sources, language: values.lang, seed, perPhenomenon });
    } catch (err) {
      if (err instanceof UnsupportedLanguageError || err instanceof RangeError) throw new CliError(err.message);
      throw err;
    }
    if (suite.rows.length === 0) throw new CliError('no row could be generated from these references');
    try {
      writeFileSync(values.out, formatMenliCsv(suite.rows));
    } catch (err) {
      throw new CliError(`cannot write ${values.out}: ${(err as Error).message}`);
    }
    return {
      out: values.out,
      rows: suite.rows.length,
      counts: suite.counts,
      seed: suite.seed,
      goodSide: suite.goodSide,
      ...(suite.goodSide === 'none'
        ? { warning: 'no --paraphrases or second --refs: only the number phenomenon has a good side' }
        : {}),
    };
  },
};
