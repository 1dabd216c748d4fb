// d3-scale-chromatic ships no types; the one interpolator the heatmap's labels use (the same one
// Observable Plot's `scheme: 'cividis'` draws the cells with).
declare module 'd3-scale-chromatic' {
  /** The cividis colour of t ∈ [0, 1] as `rgb(r, g, b)`. */
  export function interpolateCividis(t: number): string;
}
