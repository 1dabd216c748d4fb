import { pinRowLabels, stickRows } from './pairwise-heatmap';

/** The groups Observable Plot draws for a heatmap's axes (their aria-labels), and one cell. */
function chart(): HTMLElement {
  const figure = document.createElement('figure');
  figure.innerHTML = `<svg width="400" height="300">
    <g aria-label="cell"><rect class="heat-cell" x="120" y="10" width="28" height="28"></rect></g>
    <g aria-label="y-axis tick"><path></path></g>
    <g aria-label="y-axis tick label"><text>system-a</text></g>
    <g aria-label="y-axis label"><text>row system</text></g>
    <g aria-label="x-axis tick label"><text>system-a</text></g>
  </svg>`;
  return figure;
}

describe('the heatmap row labels pinned while the frame scrolls', () => {
  it('moves the y axis (and only it) into one layer over the cells, on a background as wide as the margin and as tall as the rows', () => {
    const figure = chart();
    pinRowLabels(figure, 100, 290);
    const svg = figure.querySelector('svg');
    const layer = svg?.lastElementChild;
    expect(layer?.getAttribute('class')).toBe('sticky-rows');
    expect([...(layer?.querySelectorAll('g') ?? [])].map((g) => g.getAttribute('aria-label'))).toEqual(['y-axis tick', 'y-axis tick label', 'y-axis label']);
    const background = layer?.querySelector('rect');
    // The frame's 8 px left padding is covered too.
    expect([background?.getAttribute('x'), background?.getAttribute('width'), background?.getAttribute('height')]).toEqual(['-8', '108', '290']);
    expect(svg?.querySelector('g[aria-label="x-axis tick label"]')?.parentElement).toBe(svg);
  });

  it('shifts the layer by the scroll position', () => {
    const figure = chart();
    pinRowLabels(figure, 100, 290);
    stickRows(figure, 137);
    expect(figure.querySelector('g.sticky-rows')?.getAttribute('transform')).toBe('translate(137,0)');
  });
});
