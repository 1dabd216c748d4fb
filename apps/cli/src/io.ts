import { readFileSync, statSync } from 'node:fs';
import { TextDecoder } from 'node:util';
import { CliError } from './cli-error';

/** Largest input file the CLI reads into memory. */
export const MAX_INPUT_BYTES = 512 * 1024 * 1024;

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** Reads a whole UTF-8 text file; missing, oversized or non-UTF-8 files are a CliError. */
export function readText(path: string, label: string): string {
  let size: number;
  try {
    size = statSync(path).size;
  } catch {
    throw new CliError(`${label} file not found: ${path}`);
  }
  if (size > MAX_INPUT_BYTES) throw new CliError(`${label} file ${path} is larger than ${MAX_INPUT_BYTES} bytes`);
  const bytes = readFileSync(path);
  try {
    return utf8.decode(bytes);
  } catch {
    throw new CliError(`${label} file ${path} is not valid UTF-8`);
  }
}

/** Lines of a text file, one segment per line; a single trailing newline does not add a line. */
export function readLines(path: string, label: string): string[] {
  const text = readText(path, label);
  if (text === '') return [];
  const body = text.endsWith('\n') ? text.slice(0, -1) : text;
  return body.split('\n').map((l) => (l.endsWith('\r') ? l.slice(0, -1) : l));
}
