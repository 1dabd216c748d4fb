import { interpolateCividis } from 'd3-scale-chromatic';
import { contrastRatio, labelColourOn } from './contrast';

describe('WCAG contrast', () => {
  it('gives the ratios of the WCAG definition: 21:1 black on white, 1:1 a colour on itself', () => {
    expect(contrastRatio('#000000', '#ffffff')).toBeCloseTo(21, 10);
    expect(contrastRatio('rgb(10, 20, 30)', '#0a141e')).toBeCloseTo(1, 10);
    // #767676 on white is the lightest grey at 4.5:1 (WebAIM's contrast checker: 4.54:1).
    expect(contrastRatio('#767676', '#ffffff')).toBeCloseTo(4.54, 2);
  });

  it('gives every label of the heatmap at least 4.5:1 on its cell, over the whole cividis scale', () => {
    // Every distinct colour the cells can take: 8-bit channels give at most a few hundred steps,
    // so 10,001 samples of P(row beats column) ∈ [0, 1] meet each of them.
    let worst = Infinity;
    let at = -1;
    const colours = new Set<string>();
    for (let k = 0; k <= 10_000; k++) {
      const cell = interpolateCividis(k / 10_000);
      colours.add(cell);
      const ratio = contrastRatio(labelColourOn(cell), cell);
      if (ratio < worst) [worst, at] = [ratio, k / 10_000];
    }
    expect(colours.size).toBeGreaterThan(200);
    console.log(`heatmap labels: ${colours.size} cividis colours, worst label contrast ${worst.toFixed(2)}:1 (at P = ${at})`);
    expect(worst).toBeGreaterThanOrEqual(4.5);
  });

  it('puts white on the dark end and black on the light end of cividis (a fixed cut-off left labels below 4.5:1 between)', () => {
    expect(labelColourOn(interpolateCividis(0))).toBe('#ffffff');
    expect(labelColourOn(interpolateCividis(1))).toBe('#000000');
    // Below the old cut-off the label was white; here white falls under 4.5:1 (issue #22 measured 3.69:1).
    const cell = interpolateCividis(0.5);
    expect(contrastRatio('#ffffff', cell)).toBeLessThan(4.5);
    expect(contrastRatio(labelColourOn(cell), cell)).toBeGreaterThanOrEqual(4.5);
  });
});
