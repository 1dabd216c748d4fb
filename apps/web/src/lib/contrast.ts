/**
 * WCAG 2.x contrast (https://www.w3.org/TR/WCAG21/#dfn-contrast-ratio): the relative luminance
 * L = 0.2126 R + 0.7152 G + 0.0722 B of linearised sRGB channels (c ≤ 0.04045 ? c/12.92 :
 * ((c + 0.055)/1.055)^2.4), and the ratio (L1 + 0.05)/(L2 + 0.05) of the lighter to the darker.
 * Text needs 4.5:1 (success criterion 1.4.3, level AA).
 */

export type Rgb = readonly [number, number, number];

/** `rgb(r, g, b)` or `#rrggbb` as 0–255 channels; throws on anything else. */
export function parseColour(colour: string): Rgb {
  const hex = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(colour.trim());
  if (hex) return [parseInt(hex[1] ?? '0', 16), parseInt(hex[2] ?? '0', 16), parseInt(hex[3] ?? '0', 16)];
  const rgb = /^rgb\(\s*(\d{1,3})\s*,\s*(\d{1,3})\s*,\s*(\d{1,3})\s*\)$/i.exec(colour.trim());
  if (rgb) return [Number(rgb[1]), Number(rgb[2]), Number(rgb[3])];
  throw new Error(`not a colour this reads (rgb(r, g, b) or #rrggbb): '${colour}'`);
}

export function relativeLuminance([r, g, b]: Rgb): number {
  const lin = (v: number) => {
    const c = v / 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
}

export function contrastRatio(a: string, b: string): number {
  const la = relativeLuminance(parseColour(a));
  const lb = relativeLuminance(parseColour(b));
  return (Math.max(la, lb) + 0.05) / (Math.min(la, lb) + 0.05);
}

export const LABEL_DARK = '#000000';
export const LABEL_LIGHT = '#ffffff';

/** Black or white, whichever contrasts more with `background`: at least 4.58:1 on any colour. */
export function labelColourOn(background: string): string {
  return contrastRatio(LABEL_DARK, background) >= contrastRatio(LABEL_LIGHT, background) ? LABEL_DARK : LABEL_LIGHT;
}
