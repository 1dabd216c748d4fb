/**
 * Checked reads for setup, option handling and result assembly (noUncheckedIndexedAccess without
 * `!`). Hot numeric kernels do not use these: they keep type-only `!` under a file-level disable
 * that gives the reason. An index past the end is a bug in this library; it is reported here,
 * naming `what`, instead of an `undefined` that would flow on as NaN.
 * @example at(Float64Array.of(1, 2), 1, 'strengths'); // 2
 */
export function at<T>(xs: ArrayLike<T>, i: number, what = 'array'): T {
  const v = xs[i];
  if (v === undefined) throw new RangeError(`${what}: index ${i} is out of range (length ${xs.length})`);
  return v;
}
