import { readFileSync } from 'node:fs';
import { canonicaliseJsonl, COMMITMENT_SCHEME, isCommitmentHex, testSetCommitment } from '@podium/contracts';
import { CliError } from '../cli-error';
import type { CliCommand } from '../command';
import { parseFlags } from '../flags';
import { authHeaders, restError, serverUrl } from '../server';

const USAGE = `usage: podium verify-commitment --url URL --phase ID [--token T]
       podium verify-commitment --commitment HEX --salt HEX --test-set FILE.jsonl

  Checks that a phase's test set (ids, sources, references) is the one Podium committed to when
  it was attached: sha256(salt || canonical JSONL) must equal the published commitment.
  Online: fetches /api/phases/ID/commitment.json (the salt is revealed once the phase is
  published) and the published test set /api/phases/ID/test-set.jsonl.
  Offline: --test-set is JSONL with {"id","source","references"} per line in test-set order
  (any key order; it is canonicalised first).
  Prints {"match", "commitment", "computed", "instances", …}; exit code 0 on a match, 1 on a
  mismatch, 2 on a usage or server error.

  Canonical form: ${COMMITMENT_SCHEME}; one line per instance, JSON.stringify({id, source,
  references}) with the keys in that order and no spaces, each line ended by LF; the salt is
  32 bytes (64 hex digits) hashed as bytes before the UTF-8 text.`;

export interface VerificationResult {
  match: boolean;
  commitment: string;
  computed: string;
  instances: number;
  scheme: string;
  phaseId?: string;
}

/** Compares; a mismatch prints the result and exits 1. */
function verdict(result: VerificationResult): VerificationResult {
  if (result.match) return result;
  process.stdout.write(JSON.stringify(result) + '\n');
  throw new CliError(`the test set does not match its commitment (committed ${result.commitment}, computed ${result.computed}): it differs from what was committed`, 1);
}

export function verifyCommitment(commitment: string, salt: string, testSetJsonl: string): VerificationResult {
  if (!isCommitmentHex(commitment)) throw new CliError('the commitment must be 64 lower-case hex digits (sha256)');
  if (!isCommitmentHex(salt)) throw new CliError('the salt must be 64 lower-case hex digits (32 bytes)');
  let canonical;
  try {
    canonical = canonicaliseJsonl(testSetJsonl);
  } catch (e) {
    throw new CliError(`the test set is not valid JSONL: ${(e as Error).message}`);
  }
  const computed = testSetCommitment(salt, canonical.canonical);
  return { match: computed === commitment, commitment, computed, instances: canonical.instances, scheme: COMMITMENT_SCHEME };
}

export const verifyCommitmentCommand: CliCommand = {
  name: 'verify-commitment',
  summary: "check a published phase's test set against the commitment made when it was attached",
  usage: USAGE,
  async run(argv: string[]): Promise<unknown> {
    const flags = parseFlags(argv, {
      url: { type: 'string' },
      phase: { type: 'string' },
      token: { type: 'string' },
      commitment: { type: 'string' },
      salt: { type: 'string' },
      'test-set': { type: 'string' },
    });
    const offline = flags.commitment !== undefined || flags.salt !== undefined || flags['test-set'] !== undefined;
    if (offline) {
      if (flags.url !== undefined || flags.phase !== undefined) throw new CliError('give either --url and --phase, or --commitment, --salt and --test-set');
      if (!flags.commitment || !flags.salt || !flags['test-set']) throw new CliError('offline, --commitment, --salt and --test-set are all required');
      let text: string;
      try {
        text = readFileSync(flags['test-set'], 'utf8');
      } catch (e) {
        throw new CliError(`cannot read ${flags['test-set']}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
      }
      return verdict(verifyCommitment(flags.commitment, flags.salt, text));
    }
    const url = serverUrl(flags.url);
    if (!flags.phase) throw new CliError('--phase is required (the phase id)');
    const headers = authHeaders(flags.token ?? process.env['PODIUM_TOKEN']);
    const base = `${url}/api/phases/${encodeURIComponent(flags.phase)}`;
    const res = await fetch(`${base}/commitment.json`, { headers });
    if (!res.ok) throw await restError(res);
    const c = (await res.json()) as { commitment?: unknown; salt?: unknown };
    if (typeof c.commitment !== 'string') throw new CliError('the server sent no commitment');
    if (typeof c.salt !== 'string') throw new CliError('the phase is not published yet: its salt is revealed when the organisers publish the results');
    const set = await fetch(`${base}/test-set.jsonl`, { headers });
    if (!set.ok) throw await restError(set);
    return verdict({ ...verifyCommitment(c.commitment, c.salt, await set.text()), phaseId: flags.phase });
  },
};
