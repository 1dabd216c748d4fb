import { createHash } from 'node:crypto';

/**
 * SHA-256 of a submission's outputs in test-set order, whatever the upload format: the same
 * outputs as plain lines or as JSONL in any order get the same checksum, so identical
 * submissions are flagged (`Submission.duplicateOf`).
 */
export function outputsChecksum(instanceOrder: readonly string[], outputs: readonly { instanceId: string; text: string }[]): string {
  const byId = new Map(outputs.map((o) => [o.instanceId, o.text]));
  const h = createHash('sha256');
  for (const id of instanceOrder) h.update(JSON.stringify(byId.get(id) ?? null)).update('\n');
  return h.digest('hex');
}
