export interface TestInstance {
  id: string;
  source: string;
  references: string[];
  /** Optional context shown to participants with the source. */
  context?: Record<string, unknown>;
}

/** Problems named one by one, at most this many (the rest are counted). */
export const MAX_PROBLEMS = 20;

export interface LineProblem {
  line: number;
  message: string;
}

export type TestSetParse =
  | { ok: true; instances: TestInstance[] }
  /** `line` and `message`: the first problem; `problems`: up to {@link MAX_PROBLEMS}; `more`: how many besides. */
  | { ok: false; line: number; message: string; problems: LineProblem[]; more: number };

/**
 * Reads a test set in JSONL, one `{"id", "source", "references": [...]}` (or `"reference"`)
 * object per line, with an optional `"context"` object; blank lines are skipped. Every bad line
 * is reported with its line number (1-based), the first {@link MAX_PROBLEMS} by name.
 */
export function parseTestSet(text: string): TestSetParse {
  const instances: TestInstance[] = [];
  const problems: LineProblem[] = [];
  let more = 0;
  const seen = new Set<string>();
  for (const [i, rawLine] of text.split('\n').entries()) {
    if (rawLine.replace(/\r$/, '').trim() === '') continue;
    const r = parseLine(rawLine.replace(/\r$/, ''), i + 1, seen);
    if ('instance' in r) instances.push(r.instance);
    else if (problems.length < MAX_PROBLEMS) problems.push(r);
    else more++;
  }
  const [first] = problems;
  if (first) return { ok: false, line: first.line, message: first.message, problems, more };
  if (instances.length === 0) return { ok: false, line: 1, message: 'the file has no instances', problems: [{ line: 1, message: 'the file has no instances' }], more: 0 };
  return { ok: true, instances };
}

function parseLine(raw: string, line: number, seen: Set<string>): { instance: TestInstance } | LineProblem {
  let rec: unknown;
  try {
    rec = JSON.parse(raw);
  } catch {
    return { line, message: 'not valid JSON' };
  }
  if (!rec || typeof rec !== 'object' || Array.isArray(rec)) return { line, message: 'expected an object {"id", "source", "references"}' };
  const r = rec as Record<string, unknown>;
  const id = typeof r['id'] === 'number' ? String(r['id']) : r['id'];
  if (typeof id !== 'string' || id === '') return { line, message: '"id" must be a non-empty string' };
  if (seen.has(id)) return { line, message: `duplicate id "${id}"` };
  if (typeof r['source'] !== 'string') return { line, message: '"source" must be a string' };
  const refs = Array.isArray(r['references']) ? r['references'] : typeof r['reference'] === 'string' ? [r['reference']] : null;
  if (!refs || refs.length === 0 || !refs.every((x): x is string => typeof x === 'string')) {
    return { line, message: '"references" must be a non-empty list of strings' };
  }
  const context = r['context'];
  if (context !== undefined && context !== null && (typeof context !== 'object' || Array.isArray(context))) return { line, message: '"context" must be an object' };
  seen.add(id);
  return { instance: context ? { id, source: r['source'], references: refs, context: context as Record<string, unknown> } : { id, source: r['source'], references: refs } };
}

/** "Line 2: not valid JSON. Line 5: …" with "and 3 more bad lines" past the bound. */
export function describeProblems(problems: readonly LineProblem[], more: number): string {
  const named = problems.map((p) => `Line ${p.line}: ${p.message}.`).join(' ');
  return more > 0 ? `${named} And ${more} more bad line${more === 1 ? '' : 's'}.` : named;
}
