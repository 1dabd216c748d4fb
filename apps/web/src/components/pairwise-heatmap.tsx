import * as Plot from '@observablehq/plot';
import { interpolateCividis } from 'd3-scale-chromatic';
import { useEffect, useMemo, useRef, type KeyboardEvent, type MouseEvent } from 'react';
import { labelColourOn } from '../lib/contrast';
import { formatNumber, formatPValue } from '../lib/format';
import type { PairCell } from '../lib/leaderboard';
import { PlotFigure } from './plot-figure';

interface Props {
  cells: readonly PairCell[];
  /** Systems in leaderboard order (rows top to bottom, columns left to right). */
  order: readonly string[];
  /** Columns when they are another block of systems than the rows (large boards); default `order`. */
  cols?: readonly string[];
  onSelect: (rowId: string, colId: string) => void;
}

export function cellLabel(c: PairCell): string {
  return `${c.row} beats ${c.col} with probability ${formatNumber(c.pBeats)}; wins ${c.wins}, ties ${c.ties}, losses ${c.losses}; adjusted p ${formatPValue(c.pAdjusted)}${c.significant ? ', significant' : ', not significant'}`;
}

/** The row labels' layer (y axis), kept at the frame's left edge while the heatmap scrolls sideways. */
const STICKY_ROWS = 'sticky-rows';

/**
 * Moves the y axis of a Plot chart (ticks, tick labels, axis label) into one layer drawn over the
 * cells, on a background as wide as the left margin and as tall as the rows, so that cells
 * scrolled under it do not show through. {@link stickRows} shifts the layer as the frame scrolls.
 */
export function pinRowLabels(chart: Element, margin: number, rowsBottom: number): void {
  const axis = [...chart.querySelectorAll('g[aria-label^="y-axis"]')];
  const svg = axis[0]?.closest('svg');
  if (!svg) return;
  const ns = 'http://www.w3.org/2000/svg';
  const layer = document.createElementNS(ns, 'g');
  layer.setAttribute('class', STICKY_ROWS);
  const background = document.createElementNS(ns, 'rect');
  background.setAttribute('x', '-8'); // the frame's left padding
  background.setAttribute('y', '0');
  background.setAttribute('width', String(margin + 8));
  background.setAttribute('height', String(rowsBottom));
  background.setAttribute('fill', '#ffffff');
  background.setAttribute('aria-hidden', 'true');
  layer.append(background, ...axis);
  svg.append(layer);
}

/** Keeps the row labels of every heatmap in `frame` at its left edge (scroll position `left`). */
export function stickRows(frame: Element, left: number): void {
  for (const layer of frame.querySelectorAll(`g.${STICKY_ROWS}`)) layer.setAttribute('transform', `translate(${left},0)`);
}

/**
 * P(row beats column) under Bradley–Terry as a cividis heatmap (readable with colour-vision
 * deficiencies); each cell also prints the probability, and significant pairs carry a star and
 * a black outline, so nothing depends on colour alone. Cells are buttons: click, Enter or Space
 * opens the paired view.
 */
export function PairwiseHeatmap({ cells, order, cols = order, onSelect }: Props) {
  const data = useMemo(() => cells.filter((c) => c.pBeats !== null), [cells]);
  function build() {
    // Phones: smaller cells and system names cut to 12 characters, start and end (names often share
    // a prefix; each cell's label and title keep the full names), so most columns are in view;
    // the frame scrolls for the rest.
    const narrow = typeof window !== 'undefined' && typeof window.matchMedia === 'function' && window.matchMedia('(max-width: 600px)').matches;
    const size = Math.max(narrow ? 26 : 28, Math.min(56, Math.floor((narrow ? 300 : 640) / Math.max(order.length, cols.length, 1))));
    const short = (s: string) => (narrow && s.length > 12 ? `${s.slice(0, 5)}…${s.slice(-6)}` : s);
    const longest = Math.max(...order.map((s) => short(s).length), ...cols.map((s) => short(s).length), 4);
    const margin = Math.min(220, 20 + longest * 8);
    const chart = Plot.plot({
      width: margin + size * cols.length + 20,
      height: Math.round(margin * 0.8) + size * order.length + 10,
      marginLeft: margin,
      marginBottom: Math.round(margin * 0.8),
      marginTop: 10,
      x: { domain: [...cols], label: 'column system', tickRotate: -40, tickFormat: short },
      y: { domain: [...order], label: 'row system', tickFormat: short },
      color: { type: 'linear', scheme: 'cividis', domain: [0, 1], legend: true, label: 'P(row beats column)' },
      style: { fontSize: '12px' },
      marks: [
        Plot.cell(data, {
          x: 'col',
          y: 'row',
          fill: 'pBeats',
          inset: 0.5,
          render: (index, scales, values, dimensions, context, next) => {
            const g = next?.(index, scales, values, dimensions, context);
            if (!g) return null; // Plot always passes the default renderer, which draws the cells
            // Plot labels the mark's group; a labelled <g> needs a role (axe: aria-prohibited-attr).
            g.setAttribute('role', 'group');
            const rects = g.querySelectorAll('rect');
            index.forEach((i, k) => {
              const rect = rects[k];
              const c = data[i];
              if (!rect || !c) return;
              rect.setAttribute('tabindex', '0');
              rect.setAttribute('role', 'button');
              rect.setAttribute('aria-label', cellLabel(c));
              rect.setAttribute('data-row-id', c.rowId);
              rect.setAttribute('data-col-id', c.colId);
              rect.setAttribute('data-significant', String(c.significant));
              rect.setAttribute('class', 'heat-cell');
              const title = document.createElementNS('http://www.w3.org/2000/svg', 'title');
              title.textContent = cellLabel(c);
              rect.append(title);
            });
            return g;
          },
        }),
        Plot.cell(
          data.filter((c) => c.significant),
          // Decoration: each cell's own label says whether the pair is significant.
          { x: 'col', y: 'row', fill: 'none', stroke: 'black', strokeWidth: 2, inset: 2, pointerEvents: 'none', ariaHidden: 'true' },
        ),
        Plot.text(data, {
          x: 'col',
          y: 'row',
          text: (c: PairCell) => `${formatNumber(c.pBeats)}${c.significant ? '*' : ''}`,
          // Black or white by the cell's luminance: at least 4.5:1 on every colour of the scale (lib/contrast.spec.ts).
          fill: (c: PairCell) => labelColourOn(interpolateCividis(c.pBeats ?? 0)),
          fontSize: size < 36 ? 9 : 11,
          pointerEvents: 'none',
          // The cells' labels say the same in words.
          ariaHidden: 'true',
        }),
      ],
    });
    // Phones show a few columns at a time: the row labels stay in view while the frame scrolls.
    pinRowLabels(chart, margin, 10 + size * order.length);
    return chart;
  }
  const wrap = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = wrap.current;
    if (!el) return;
    // Scroll events do not bubble: listen in the capture phase for the frame inside.
    const onScroll = (e: Event) => {
      if (e.target instanceof Element) stickRows(e.target, e.target.scrollLeft);
    };
    el.addEventListener('scroll', onScroll, true);
    return () => el.removeEventListener('scroll', onScroll, true);
  }, []);
  function target(e: { target: EventTarget }): [string, string] | null {
    const el = e.target instanceof Element ? e.target.closest('[data-row-id]') : null;
    const row = el?.getAttribute('data-row-id');
    const col = el?.getAttribute('data-col-id');
    return row && col ? [row, col] : null;
  }
  function click(e: MouseEvent) {
    const t = target(e);
    if (t) onSelect(t[0], t[1]);
  }
  function key(e: KeyboardEvent) {
    if (e.key !== 'Enter' && e.key !== ' ') return;
    const t = target(e);
    if (!t) return;
    e.preventDefault();
    onSelect(t[0], t[1]);
  }
  return (
    // The SVG cells are the interactive elements (role=button, tabindex=0); this wrapper only delegates their events.
    <div onClick={click} onKeyDown={key} className="heatmap-wrap" ref={wrap}>
      <PlotFigure build={build} deps={[data, order, cols]} label="Heatmap of P(row beats column)" testId="pairwise-heatmap" />
    </div>
  );
}
