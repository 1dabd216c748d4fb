/* eslint-disable @typescript-eslint/no-non-null-assertion -- hot kernel: indices are bounded by the loops over these arrays */
/** Element-wise sum of statistics rows. Example: `sumStats([[1,2],[3,4]])` → `[4,6]`. */
export function sumStats(rows: readonly (readonly number[])[]): number[] {
  if (rows.length === 0) return [];
  const sum = new Array<number>(rows[0]!.length).fill(0);
  for (const row of rows) for (let i = 0; i < sum.length; i++) sum[i]! += row[i]!;
  return sum;
}

/**
 * `corpusFromStats` of a statistics metric: the corpus score of the rows' element-wise sum.
 * Example: `corpusFromSummedRows(terFromStats)([[1, 3], [0, 2]])` → TER of `[1, 5]`.
 */
export function corpusFromSummedRows(fromSum: (sum: readonly number[], count: number) => number): (rows: readonly (readonly number[])[]) => number {
  return (rows) => fromSum(sumStats(rows), rows.length);
}
