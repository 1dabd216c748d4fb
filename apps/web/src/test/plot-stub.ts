// Jest stand-in for @observablehq/plot (ESM-only): charts are checked in the browser test.
const mark = () => ({});
export const plot = () => {
  const svg = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
  svg.setAttribute('data-stub', 'plot');
  return svg;
};
export const cell = mark;
export const text = mark;
export const rectY = mark;
export const binX = (outputs: unknown, options: unknown) => ({ outputs, options });
export const ruleX = mark;
export const ruleY = mark;
export const barX = mark;
export const barY = mark;
export const line = mark;
export const dot = mark;
export const areaY = mark;
