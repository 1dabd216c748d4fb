/**
 * @jest-environment <rootDir>/../libs/nli/jest-environment.js
 */
// onnxruntime-node needs the host's typed arrays inside Jest: see libs/nli/jest-environment.js.
// The shared conformance test of the metric plugins (ADR 0022), driven by the registry: every
// plugin in libs/metrics/src/plugins/index.ts runs the checks of `conformanceChecks`, so a new
// plugin folder is tested without a new spec. Reference values are the plugins' own vectors
// (each names its source: sacreBLEU 2.6.0 golden sentence scores, the rouge-score README, MENLI's
// formula by hand); the NLI plugin is checked through the committed tiny test model, whose
// expected values come from its closed form (models/make-test-model.ts).
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import {
  conformanceChecks,
  configurableMetricNames,
  createMetricRegistry,
  metricPlugins,
  METRIC_PLUGINS,
  parseOptionsWith,
  validateMetricOptions,
  type ModelRuntimeForConformance,
} from '@podium/metrics';
import { defaultNliOptions, loadNliModel, scoreNli, type NliMetricOptions, type NliModel } from '@podium/nli';
import { defined } from '../support/defined';
import { FOLDERS } from '../../libs/metrics/src/plugins';
import { UNIGRAM_F1_PLUGIN } from './fixtures/plugins/unigram-f1';

const ROOT = join(__dirname, '..', '..');

/** The test model's closed form (models/make-test-model.ts) with no negation or number mismatch. */
function entailment(r: number): number {
  const c = Math.exp(-1.5);
  const e = Math.exp(4 * r - 2);
  const n = Math.exp(-2 * r + 1);
  return e / (c + e + n);
}

let model: NliModel | undefined;
afterAll(async () => model?.close());

/** Model runtimes the hosts inject, by plugin name; a model plugin missing here fails its check. */
const RUNTIMES: Record<string, ModelRuntimeForConformance> = {
  nli: {
    async score(hyps, refs, options) {
      model ??= await loadNliModel(join(ROOT, 'models', 'test-nli-tiny'), { log: () => undefined });
      const o = validateMetricOptions('nli', options) as Partial<NliMetricOptions>;
      const r = await scoreNli(model, { hyps, refStreams: refs }, { ...defaultNliOptions('mt', 'ref'), ...o });
      return { instances: r.instances, corpus: r.corpus, signature: r.signature };
    },
    cases: [
      {
        // MT default: formula e, ref<->hyp. "The cat sat." against the reference: forward r = 1
        // (every hypothesis type is in the premise), backward r = 3/7 (nli-metric.spec.ts).
        hyps: ['The cat sat.', 'The cat sat on the mat in the garden.'],
        refs: [['The cat sat on the mat in the garden.', 'The cat sat on the mat in the garden.']],
        instances: [(entailment(1) + entailment(3 / 7)) / 2, entailment(1)],
        tolerance: 1e-5,
        source: 'closed form of models/test-nli-tiny (models/make-test-model.ts)',
      },
    ],
  },
};

describe.each(metricPlugins().map((p) => [p.definition.name, p] as const))('metric plugin %s', (name, plugin) => {
  for (const check of conformanceChecks(plugin, RUNTIMES[name])) {
    it(check.name, async () => {
      await check.run();
    });
  }
});

describe('adding a classical metric is one folder', () => {
  // The fixture folder test/conformance/fixtures/plugins/unigram-f1 is written as a plugin folder
  // under libs/metrics/src/plugins/ would be. Dropped into a copy of the library, it is registered
  // by the generator (ADR 0036) with no other edit; here it is also given to a registry directly.
  describe('dropped into plugins/ of a copy of libs/metrics', () => {
    let root: string;
    let copy: string;
    let touched: string[] = [];
    beforeAll(() => {
      // Inside the repository (tmp/ is ignored) so that the copy resolves zod and @podium/* as the library does.
      mkdirSync(join(ROOT, 'tmp'), { recursive: true });
      root = mkdtempSync(join(ROOT, 'tmp', 'metrics-copy-'));
      copy = join(root, 'libs', 'metrics', 'src');
      mkdirSync(copy, { recursive: true });
      cpSync(join(ROOT, 'libs', 'metrics', 'src'), copy, { recursive: true, filter: (src) => !src.endsWith('.spec.ts') });
      const before = snapshot(copy);
      cpSync(join(__dirname, 'fixtures', 'plugins', 'unigram-f1'), join(copy, 'plugins', 'unigram-f1'), { recursive: true });
      const r = spawnSync(process.execPath, [join(ROOT, 'scripts', 'generate-plugin-index.mjs'), '--root', root], { encoding: 'utf8' });
      if (r.status !== 0) throw new Error(`the generator failed: ${r.stderr}`);
      const after = snapshot(copy);
      touched = [...new Set([...before.keys(), ...after.keys()])].filter((f) => before.get(f) !== after.get(f)).sort();
    });
    afterAll(() => rmSync(root, { recursive: true, force: true }));

    it('touches the new folder and the generated index, nothing else', () => {
      const folder = readdirSync(join(__dirname, 'fixtures', 'plugins', 'unigram-f1')).map((f) => `plugins/unigram-f1/${f}`);
      expect(touched).toEqual([...folder, 'plugins/folders.generated.ts'].sort());
    });

    it('is registered, configurable and scored by name, after the shipped folders (its order, 110)', () => {
      type Lib = typeof import('@podium/metrics');
      let lib: Lib | undefined;
      jest.isolateModules(() => {
        // eslint-disable-next-line @typescript-eslint/no-require-imports -- the copy, loaded fresh: its registry lists its own plugins/ folders
        lib = require(join(copy, 'index')) as Lib;
      });
      const copied = defined(lib);
      expect(copied.metricPlugins().map((p) => p.definition.name)).toEqual([...metricPlugins().map((p) => p.definition.name), 'unigram-f1']);
      expect(copied.configurableMetricNames()).toContain('unigram-f1');
      expect(copied.metricHigherIsBetter('unigram-f1')).toBe(true);
      // The same numbers as the fixture's hand-worked conformance case: corpus 80, instances 100·4/6 and 100.
      const scored = copied.score('unigram-f1' as Parameters<Lib['score']>[0], {}, ['the cat sat', 'a b'], [['the cat ran', 'a b']]);
      expect(scored.corpus).toBeCloseTo(80, 12);
      expect(scored.instances[0]).toBeCloseTo((100 * 4) / 6, 12);
    });
  });

  it('imports every plugin folder of libs/metrics/src/plugins (one with an index.ts) through the generated index', () => {
    const dir = join(ROOT, 'libs', 'metrics', 'src', 'plugins');
    const folders = readdirSync(dir).filter((f) => statSync(join(dir, f)).isDirectory() && readdirSync(join(dir, f)).includes('index.ts'));
    const listed = Object.keys(FOLDERS);
    const problems = [
      ...folders.filter((f) => !listed.includes(f)).map((f) => `metric plugin folder '${f}' is not in it`),
      ...listed.filter((f) => !folders.includes(f)).map((f) => `it lists '${f}', which is no plugin folder`),
    ];
    if (problems.length > 0) throw new Error(`libs/metrics/src/plugins/folders.generated.ts is stale: ${problems.join('; ')}. Run \`npm run generate\` (node scripts/generate-plugin-index.mjs).`);
  });

  const registry = createMetricRegistry([...METRIC_PLUGINS, UNIGRAM_F1_PLUGIN]);

  it('registers the folder next to the shipped plugins, configurable and with its options', () => {
    expect(registry.plugin('unigram-f1')?.capability).toBe('statistics');
    expect(registry.plugins().map((p) => p.definition.name)).toEqual([...METRIC_PLUGINS.map((p) => p.definition.name), 'unigram-f1']);
    expect(parseOptionsWith(UNIGRAM_F1_PLUGIN.definition, {})).toEqual({ lowercase: false });
    expect(() => parseOptionsWith(UNIGRAM_F1_PLUGIN.definition, { stem: true })).toThrow("option 'stem' does not apply to unigram-f1 (allowed: lowercase)");
  });

  for (const check of conformanceChecks(UNIGRAM_F1_PLUGIN)) {
    it(`passes the shared conformance check — ${check.name}`, async () => {
      await check.run();
    });
  }

  it('fails the shared check when its reference value is wrong (the check has teeth)', async () => {
    const wrong = { ...UNIGRAM_F1_PLUGIN, conformance: [{ ...defined(UNIGRAM_F1_PLUGIN.conformance[0]), corpus: 81 }] };
    const check = conformanceChecks(wrong).find((c) => c.name.startsWith('reference values'));
    await expect(check?.run()).rejects.toThrow("metric 'unigram-f1': case 0 corpus");
  });

  it('refuses a model plugin without a runtime instead of skipping it', async () => {
    const nli = metricPlugins().find((p) => p.capability === 'model');
    const checks = conformanceChecks(defined(nli, 'a model plugin'));
    await expect(defined(checks[checks.length - 1]).run()).rejects.toThrow('give the conformance spec a runtime (an NLI model)');
  });

  it('lists every registered metric but the derived one as configurable', () => {
    expect(configurableMetricNames().slice(0, 10)).toEqual(['bleu', 'chrf', 'chrf++', 'ter', 'rouge1', 'rouge2', 'rougeL', 'rougeLsum', 'nli', 'bertscore']);
    expect(configurableMetricNames()).toEqual(metricPlugins().filter((p) => p.capability !== 'derived').map((p) => p.definition.name));
  });

  it('checks an embedding plugin on hand-made vectors, and fails it when a reference value is wrong', async () => {
    const embedding = metricPlugins().find((p) => p.capability === 'embedding');
    if (embedding?.capability !== 'embedding') throw new Error('no embedding plugin registered');
    const [first, ...rest] = embedding.conformance ?? [];
    const wrong = { ...embedding, conformance: [{ ...defined(first), scores: defined(first).scores.map((x) => x + 0.01) }, ...rest] };
    const check = conformanceChecks(wrong).find((c) => c.name.startsWith('reference values'));
    await expect(check?.run()).rejects.toThrow(`metric '${embedding.definition.name}': case 0 instance 0`);
  });
});

describe('no code outside a plugin folder dispatches on a metric name', () => {
  /** Non-spec TypeScript sources of the apps and libs (generated code excluded). */
  function sources(dir: string): string[] {
    return readdirSync(dir).flatMap((entry) => {
      const path = join(dir, entry);
      if (statSync(path).isDirectory()) return ['node_modules', 'generated', 'plugins', 'test'].includes(entry) ? [] : sources(path);
      return /\.tsx?$/.test(entry) && !/\.spec\.tsx?$/.test(entry) ? [path] : [];
    });
  }
  it("finds no `=== '<metric>'` or `!== '<metric>'` for any registered metric", () => {
    const names = metricPlugins().map((p) => p.definition.name.replace(/[+]/g, '\\+'));
    const pattern = new RegExp(`[!=]==\\s*'(${names.join('|')})'`);
    // The web reads the registry over GraphQL and is out of scope here; api, worker, CLI and libs dispatch.
    const files = [...['api', 'worker', 'cli'].map((a) => join(ROOT, 'apps', a, 'src')), ...readdirSync(join(ROOT, 'libs')).map((p) => join(ROOT, 'libs', p, 'src'))].filter((d) => {
      try {
        return statSync(d).isDirectory();
      } catch {
        return false;
      }
    });
    const hits = files.flatMap(sources).flatMap((file) =>
      readFileSync(file, 'utf8')
        .split('\n')
        .map((line, i) => [line, i] as const)
        .filter(([line]) => pattern.test(line))
        .map(([line, i]) => `${relative(ROOT, file)}:${i + 1}: ${line.trim()}`),
    );
    expect(hits).toEqual([]);
  });
});

/** Every file below a folder (relative path → content). */
function snapshot(top: string): Map<string, string> {
  const files = new Map<string, string>();
  const walk = (d: string): void => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const full = join(d, e.name);
      if (e.isDirectory()) walk(full);
      else files.set(relative(top, full).split('\\').join('/'), readFileSync(full, 'utf8'));
    }
  };
  walk(top);
  return files;
}
