export interface TestInstance {
  id: string;
  source: string;
  references: string[];
  /** Optional context shown to participants with the source. */
  context?: Record<string, unknown>;
}

export type TestSetParse = { ok: true; instances: TestInstance[] } | { ok: false; line: number; message: string };

/**
 * Reads a test set in JSONL, one `{"id", "source", "references": [...]}` (or `"reference"`)
 * object per line, with an optional `"context"` object; blank lines are skipped. The first problem is reported with its line (1-based).
 */
export function parseTestSet(text: string): TestSetParse {
  const instances: TestInstance[] = [];
  const seen = new Set<string>();
  const lines = text.split('\n');
  for (const [i, text] of lines.entries()) {
    const raw = text.replace(/\r$/, '');
    if (raw.trim() === '') continue;
    const line = i + 1;
    let rec: unknown;
    try {
      rec = JSON.parse(raw);
    } catch {
      return { ok: false, line, message: 'not valid JSON' };
    }
    if (!rec || typeof rec !== 'object' || Array.isArray(rec)) return { ok: false, line, message: 'expected an object {"id", "source", "references"}' };
    const r = rec as Record<string, unknown>;
    const id = typeof r['id'] === 'number' ? String(r['id']) : r['id'];
    if (typeof id !== 'string' || id === '') return { ok: false, line, message: '"id" must be a non-empty string' };
    if (seen.has(id)) return { ok: false, line, message: `duplicate id "${id}"` };
    if (typeof r['source'] !== 'string') return { ok: false, line, message: '"source" must be a string' };
    const refs = Array.isArray(r['references']) ? r['references'] : typeof r['reference'] === 'string' ? [r['reference']] : null;
    if (!refs || refs.length === 0 || !refs.every((x): x is string => typeof x === 'string')) {
      return { ok: false, line, message: '"references" must be a non-empty list of strings' };
    }
    const context = r['context'];
    if (context !== undefined && context !== null && (typeof context !== 'object' || Array.isArray(context))) return { ok: false, line, message: '"context" must be an object' };
    seen.add(id);
    instances.push(context ? { id, source: r['source'], references: refs, context: context as Record<string, unknown> } : { id, source: r['source'], references: refs });
  }
  if (instances.length === 0) return { ok: false, line: 1, message: 'the file has no instances' };
  return { ok: true, instances };
}
