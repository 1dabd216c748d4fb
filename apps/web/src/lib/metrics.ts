export type InstanceSort = 'worst' | 'best' | 'position';

/** The API's order for a sort in words: "worst first" is ascending unless lower is better. */
export function instanceOrder(sort: InstanceSort, higherIsBetter: boolean): 'ASC' | 'DESC' | 'POSITION' {
  if (sort === 'position') return 'POSITION';
  const worstFirst = sort === 'worst';
  return worstFirst === higherIsBetter ? 'ASC' : 'DESC';
}
