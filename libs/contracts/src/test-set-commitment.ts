// A salted hash commitment of a test set (docs/adr/0014-no-oracles-split-commitment.md): Podium
// publishes the commitment when the test set is attached and reveals the salt when the phase is
// published, so anyone can check that the references were not changed after the submissions.
import { createHash, randomBytes } from 'node:crypto';
import { z } from 'zod';

/** Names the canonical form and the hash; served with every commitment. */
export const COMMITMENT_SCHEME = 'podium-test-set-commitment/v1: sha256(salt || canonical JSONL)';

/** What a commitment covers of one instance. */
export interface CommittedInstance {
  id: string;
  source: string;
  references: readonly string[];
}

/**
 * One line of the canonical form: `JSON.stringify({ id, source, references })` with the keys in
 * exactly that order, no whitespace between tokens (ECMAScript JSON.stringify: `"` `\` and
 * U+0000–U+001F escaped, \b \f \n \r \t short, others `\u00xx` lower-case; nothing else escaped;
 * strings as stored, no Unicode normalisation), followed by one LF.
 */
export function canonicalInstanceLine(i: CommittedInstance): string {
  return `${JSON.stringify({ id: i.id, source: i.source, references: [...i.references] })}\n`;
}

/** The canonical JSONL of a test set: one {@link canonicalInstanceLine} per instance, in test-set order, UTF-8. */
export function canonicalTestSetJsonl(instances: readonly CommittedInstance[]): string {
  let out = '';
  for (const i of instances) out += canonicalInstanceLine(i);
  return out;
}

/** A fresh salt: 32 random bytes as 64 lower-case hex digits. */
export function newCommitmentSalt(): string {
  return randomBytes(32).toString('hex');
}

const HEX_64 = /^[0-9a-f]{64}$/;

/**
 * sha256 over the salt's 32 bytes (decoded from hex) followed by the UTF-8 bytes of the
 * canonical JSONL; lower-case hex. Equivalent shell:
 * `(printf %s "$SALT" | xxd -r -p; cat canonical.jsonl) | sha256sum`.
 */
export function testSetCommitment(saltHex: string, canonicalJsonl: string): string {
  if (!HEX_64.test(saltHex)) throw new Error('a commitment salt is 64 lower-case hex digits (32 bytes)');
  return createHash('sha256').update(Buffer.from(saltHex, 'hex')).update(canonicalJsonl, 'utf8').digest('hex');
}

/** The commitment of instances given one by one (large test sets are hashed without one big string). */
export function commitInstances(saltHex: string, instances: Iterable<CommittedInstance>): string {
  if (!HEX_64.test(saltHex)) throw new Error('a commitment salt is 64 lower-case hex digits (32 bytes)');
  const h = createHash('sha256').update(Buffer.from(saltHex, 'hex'));
  for (const i of instances) h.update(canonicalInstanceLine(i), 'utf8');
  return h.digest('hex');
}

const committedLineSchema = z.object({ id: z.string(), source: z.string(), references: z.array(z.string()) });

/**
 * Parses a test set as JSONL ({"id","source","references"} per line, any key order, other keys
 * ignored, blank lines skipped) and returns its canonical form; throws naming the line.
 */
export function canonicaliseJsonl(text: string): { canonical: string; instances: number } {
  let canonical = '';
  let instances = 0;
  const lines = text.split('\n');
  for (const [k, raw] of lines.entries()) {
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    if (line.trim() === '') continue;
    let parsed: unknown;
    try {
      parsed = JSON.parse(line);
    } catch {
      throw new Error(`line ${k + 1}: not JSON`);
    }
    const r = committedLineSchema.safeParse(parsed);
    if (!r.success) throw new Error(`line ${k + 1}: expected {"id": string, "source": string, "references": [string, …]}`);
    canonical += canonicalInstanceLine(r.data);
    instances++;
  }
  return { canonical, instances };
}

/** Whether a string is a well-formed commitment or salt (64 lower-case hex digits). */
export function isCommitmentHex(value: string): boolean {
  return HEX_64.test(value);
}
