/**
 * For tests under noUncheckedIndexedAccess: returns `value`, or fails the test with a message
 * naming `what` when it is undefined (an index past the end, a missing row), instead of a `!`
 * that would let `undefined` flow on into the assertion.
 */
export function defined<T>(value: T | undefined, what = 'value'): T {
  if (value === undefined) throw new Error(`expected ${what} to be defined`);
  return value;
}
