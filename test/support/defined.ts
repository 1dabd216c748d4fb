/**
 * For tests: returns `value`, or fails the test with a message naming `what` when it is undefined
 * or null (an index past the end, a missing row, an absent header) — a `!` that is checked at run
 * time instead of letting `undefined` flow on into the assertion (noUncheckedIndexedAccess,
 * @typescript-eslint/no-non-null-assertion).
 */
export function defined<T>(value: T | null | undefined, what = 'value'): T {
  if (value === undefined || value === null) throw new Error(`expected ${what} to be present, got ${String(value)}`);
  return value;
}
