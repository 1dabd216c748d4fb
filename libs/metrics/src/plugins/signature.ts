/** Version field of the classical metrics' signature formats. */
export const VERSIONED = 'version:podium-<version>';

/** A signature body prefixed with the metric's name, as every stored signature starts. */
export function withName(name: string, body: string): string {
  return `${name}|${body}`;
}
