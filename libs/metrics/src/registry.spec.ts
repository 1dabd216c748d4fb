// The registry's facts are checked against the metrics' reference definitions, not against
// getMetric's output: directions and ranges as sacreBLEU 2.x (BLEU/chrF 0–100, TER counts edits,
// unbounded) and rouge-score (F-measure in [0, 1]).
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import {
  MetricOptionError,
  metricDefinition,
  createMetricRegistry,
  METRIC_PLUGINS,
  registeredMetrics,
  requireMetricDefinition,
  validateMetricOptions,
  type MetricName,
} from './index';
import { defined } from '../../../test/support/defined';

describe('metric registry', () => {
  it('holds the eight classical metrics with sacreBLEU / rouge-score directions and ranges', () => {
    const facts = Object.fromEntries(
      registeredMetrics()
        .filter((d) => d.capability === 'statistics' || d.capability === 'instance')
        .map((d) => [d.name, [d.kind, d.higherIsBetter, d.range[0], d.range[1]]]),
    );
    expect(facts).toEqual({
      bleu: ['corpus', true, 0, 100],
      chrf: ['corpus', true, 0, 100],
      'chrf++': ['corpus', true, 0, 100],
      ter: ['corpus', false, 0, Infinity],
      rouge1: ['sentence', true, 0, 1],
      rouge2: ['sentence', true, 0, 1],
      rougeL: ['sentence', true, 0, 1],
      rougeLsum: ['sentence', true, 0, 1],
    });
    expect(metricDefinition('chrf++')?.displayName).toBe('chrF++');
  });

  it("fills chrF++'s word order 2 and chrF's 0 (sacreBLEU CHRF word_order)", () => {
    expect(validateMetricOptions('chrf++', {})['wordOrder']).toBe(2);
    expect(validateMetricOptions('chrf', {})['wordOrder']).toBe(0);
  });

  it('names the metric and the option of a typo', () => {
    let caught: unknown;
    try {
      validateMetricOptions('bleu', { tokenise: 'intl' });
    } catch (e) {
      caught = e;
    }
    expect(caught).toBeInstanceOf(MetricOptionError);
    expect(caught).toMatchObject({ metric: 'bleu', option: 'tokenise' });
    expect((caught as Error).message).toMatch(/^option 'tokenise' does not apply to bleu \(allowed: tokenize, lowercase, smooth/);
  });

  it('rejects values outside the metric definition with the option named', () => {
    expect(() => validateMetricOptions('bleu', { maxNgramOrder: 2.5 })).toThrow("option 'maxNgramOrder' of bleu");
    expect(() => validateMetricOptions('chrf', { charOrder: 0, wordOrder: 0 })).toThrow('chrF needs a positive char or word order');
    expect(() => validateMetricOptions('ter', { lowercase: true, caseSensitive: true })).toThrow('contradict');
  });

  it('rejects an unknown metric and a second plugin under a taken name', () => {
    expect(() => requireMetricDefinition('meteor')).toThrow("unknown metric 'meteor' (expected one of bleu, chrf");
    const bleu = defined(METRIC_PLUGINS[0]);
    const twin = { ...bleu, definition: { ...bleu.definition, options: z.strictObject({}) } };
    expect(() => createMetricRegistry([...METRIC_PLUGINS, twin])).toThrow("metric 'bleu' is registered twice");
  });
});

describe('plugin folders (ADR 0033)', () => {
  const dir = path.join(__dirname, 'plugins');
  const folders = readdirSync(dir, { withFileTypes: true }).filter((e) => e.isDirectory() && existsSync(path.join(dir, e.name, 'index.ts')));

  it.each(folders.map((f) => f.name))('%s exports METRIC_FOLDER and adds itself to the MetricFolders type', (name) => {
    const source = readFileSync(path.join(dir, name, 'index.ts'), 'utf8');
    expect(source).toMatch(/export const METRIC_FOLDER = \{ order: \d+, plugins: \[/);
    expect(source).toMatch(new RegExp(`declare module '\\.\\./\\.\\./plugin' \\{\\s*interface MetricFolders \\{\\s*'?${name}'?: typeof METRIC_FOLDER;`));
  });

  it('keeps the display order the hand-written list had, and the names as literal types', () => {
    expect(METRIC_PLUGINS.map((p) => p.definition.name)).toEqual([
      'bleu', 'chrf', 'chrf++', 'ter', 'rouge1', 'rouge2', 'rougeL', 'rougeLsum', 'nli', 'bertscore', 'moverscore', 'xmoverscore', 'discoscore-focus', 'discoscore-sent', 'combined',
    ]);
    const known: MetricName = 'rougeLsum';
    // @ts-expect-error -- MetricName is the union of the folders' names, not string (npm run typecheck fails otherwise)
    const unknown: MetricName = 'not-a-metric';
    expect([known, unknown]).toHaveLength(2);
  });
});
