/**
 * `items[i]` for an index the caller has bounded (a position found in the same array, a loop over
 * it, a row of the same matrix); throws a RangeError instead of handing on `undefined` if that
 * reasoning is ever wrong (noUncheckedIndexedAccess).
 */
export function at<T>(items: ArrayLike<T>, i: number): T {
  const v = items[i];
  if (v === undefined) throw new RangeError(`index ${i} is outside 0..${items.length - 1}`);
  return v;
}
