/**
 * The shared conformance checks every metric plugin passes (after torchmetrics' metric tester):
 * reference values, direction, range, batch invariance, determinism and a stable signature.
 * Pure functions that throw on failure, so a spec anywhere turns them into tests
 * (test/conformance/metric-plugins.spec.ts drives them from the registry: a new plugin folder
 * is tested without a new spec). Model plugins are checked through a runtime the host injects.
 */
import { tokenizedCorpusOf, type EmbeddedInstance, type EmbeddingConformanceCase, type EmbeddingMetricPlugin } from './embedding';
import type { ComputedMetricPlugin, ConformanceCase, DerivedMetricPlugin, MetricPlugin, ModelMetricPlugin } from './plugin';
import { parseOptionsWith } from './registry';

/** One named check; `run` rejects with a message saying what differs. */
export interface ConformanceCheck {
  readonly name: string;
  run(): Promise<void>;
}

/** Scores of a model plugin as its host computes them, with the host's reference vectors. */
export interface ModelRuntimeForConformance {
  score(hyps: readonly string[], refs: readonly (readonly string[])[], options: Readonly<Record<string, unknown>>): Promise<{ instances: number[]; corpus: number; signature: string }>;
  /** Reference vectors of this runtime (e.g. the test model's closed form). */
  readonly cases: readonly ConformanceCase[];
}

interface Scored {
  instances: number[];
  corpus: number;
  signature: string;
}

function fail(plugin: string, what: string): never {
  throw new Error(`metric '${plugin}': ${what}`);
}

function close(plugin: string, what: string, actual: number, expected: number, tolerance: number): void {
  if (!(Math.abs(actual - expected) <= tolerance)) fail(plugin, `${what} is ${actual}, expected ${expected} (±${tolerance})`);
}

function sameNumbers(plugin: string, what: string, a: readonly number[], b: readonly number[]): void {
  if (a.length !== b.length) fail(plugin, `${what}: ${a.length} values against ${b.length}`);
  a.forEach((x, i) => {
    if (!Object.is(x, b[i])) fail(plugin, `${what}: value ${i} is ${x} against ${String(b[i])}`);
  });
}

function transpose(refs: readonly (readonly string[])[], i: number): string[] {
  return refs.map((stream) => stream[i] ?? '');
}

/** Scores a batch with a computed plugin the way `score` does: one statistics row per instance. */
function scoreComputed(p: ComputedMetricPlugin, hyps: readonly string[], refs: readonly (readonly string[])[], options: Readonly<Record<string, unknown>>): Scored {
  const m = p.create(parseOptionsWith(p.definition, options), refs.length);
  const rows = hyps.map((h, i) => m.stats(h, transpose(refs, i)));
  const corpus = m.corpusFromStats(rows);
  if (p.capability === 'statistics') {
    const summed = m.corpusFromSum(rows.reduce<number[]>((s, r) => (s.length === 0 ? [...r] : s.map((x, k) => x + (r[k] ?? 0))), []), rows.length);
    if (!Object.is(summed, corpus)) fail(p.definition.name, `corpusFromSum of the summed rows (${summed}) differs from corpusFromStats (${corpus})`);
  }
  return { instances: rows.map((r) => m.sentenceFromStats(r)), corpus, signature: m.signature };
}

type Scorer = (hyps: readonly string[], refs: readonly (readonly string[])[], options: Readonly<Record<string, unknown>>) => Promise<Scored>;

function checkDefinition(p: MetricPlugin): ConformanceCheck {
  return {
    name: 'definition: capability, kind, range, options and signature format agree',
    run: async () => {
      const d = p.definition;
      if (d.capability !== p.capability) fail(d.name, `definition capability ${d.capability} differs from plugin ${p.capability}`);
      if (d.kind !== (p.capability === 'statistics' ? 'corpus' : 'sentence')) fail(d.name, `kind ${d.kind} does not follow from ${p.capability}`);
      if (!(d.range[0] < d.range[1])) fail(d.name, `range [${d.range[0]}, ${d.range[1]}] is empty`);
      if (d.displayName.trim() === '' || d.description.trim() === '') fail(d.name, 'has no display name or description');
      if (!d.signatureFormat.startsWith(`${d.name}|`)) fail(d.name, `signature format '${d.signatureFormat}' does not start with '${d.name}|'`);
      if (!d.options.safeParse({}).success) fail(d.name, 'rejects empty options (every option needs a default or must be optional)');
    },
  };
}

function textChecks(name: string, higherIsBetter: boolean, range: readonly [number, number], cases: readonly ConformanceCase[], scoreWith: Scorer): ConformanceCheck[] {
  const inRange = (what: string, x: number) => {
    if (!(x >= range[0] && x <= range[1])) fail(name, `${what} ${x} lies outside [${range[0]}, ${range[1]}]`);
  };
  return [
    {
      name: 'reference values: matches the reference implementation',
      run: async () => {
        if (cases.length === 0) fail(name, 'has no reference vectors');
        for (const [k, c] of cases.entries()) {
          if (c.corpus === undefined && c.instances === undefined) fail(name, `case ${k} states neither a corpus score nor instance scores`);
          const s = await scoreWith(c.hyps, c.refs, c.options ?? {});
          if (c.corpus !== undefined) close(name, `case ${k} corpus (${c.source})`, s.corpus, c.corpus, c.tolerance);
          c.instances?.forEach((x, i) => close(name, `case ${k} instance ${i} (${c.source})`, s.instances[i] ?? Number.NaN, x, c.tolerance));
        }
      },
    },
    {
      name: 'direction: a hypothesis equal to its reference scores at least as well as the case hypothesis',
      run: async () => {
        for (const c of cases) {
          const hyp = await scoreWith(c.hyps, c.refs, c.options ?? {});
          const perfect = await scoreWith(c.refs[0] ?? [], c.refs, c.options ?? {});
          perfect.instances.forEach((p, i) => {
            const h = hyp.instances[i] ?? Number.NaN;
            if (higherIsBetter ? p < h : p > h) fail(name, `instance ${i}: the reference itself scores ${p}, the hypothesis ${h}, against higherIsBetter=${higherIsBetter}`);
          });
        }
      },
    },
    {
      name: 'range: every instance and corpus score lies in the declared range',
      run: async () => {
        for (const c of cases) {
          const s = await scoreWith(c.hyps, c.refs, c.options ?? {});
          inRange('corpus score', s.corpus);
          s.instances.forEach((x) => inRange('instance score', x));
        }
      },
    },
    {
      name: 'batch invariance: scoring the batch gives each instance the score it gets alone',
      run: async () => {
        for (const c of cases) {
          const batch = await scoreWith(c.hyps, c.refs, c.options ?? {});
          const alone: number[] = [];
          for (let i = 0; i < c.hyps.length; i++) {
            const one = await scoreWith([c.hyps[i] ?? ''], c.refs.map((r) => [r[i] ?? '']), c.options ?? {});
            alone.push(one.instances[0] ?? Number.NaN);
          }
          sameNumbers(name, 'batch against one by one', batch.instances, alone);
        }
      },
    },
    {
      name: 'determinism: scoring twice gives identical values and signatures',
      run: async () => {
        for (const c of cases) {
          const a = await scoreWith(c.hyps, c.refs, c.options ?? {});
          const b = await scoreWith(c.hyps, c.refs, c.options ?? {});
          sameNumbers(name, 'second run', b.instances, a.instances);
          if (!Object.is(a.corpus, b.corpus) || a.signature !== b.signature) fail(name, 'a second run gives another corpus score or signature');
        }
      },
    },
    {
      name: 'signature: present, names the metric, stable across runs',
      run: async () => {
        for (const c of cases) {
          const a = await scoreWith(c.hyps, c.refs, c.options ?? {});
          if (!a.signature.startsWith(`${name}|`)) fail(name, `signature '${a.signature}' does not start with '${name}|'`);
          const again = await scoreWith(c.hyps.slice(0, 1), c.refs.map((r) => r.slice(0, 1)), c.options ?? {});
          if (again.signature !== a.signature) fail(name, `signature depends on the texts: '${a.signature}' against '${again.signature}'`);
        }
      },
    },
  ];
}

function derivedChecks(p: DerivedMetricPlugin): ConformanceCheck[] {
  const name = p.definition.name;
  const [lo, hi] = p.definition.range;
  return [
    {
      name: 'reference values: matches the formula worked by hand',
      run: async () => {
        if (p.conformance.length === 0) fail(name, 'has no reference vectors');
        for (const [k, c] of p.conformance.entries()) {
          const v = p.derive(c.weighted, c.other, c.w, c.otherHigherIsBetter);
          c.values.forEach((x, i) => close(name, `case ${k} value ${i} (${c.source})`, v[i] ?? Number.NaN, x, c.tolerance));
        }
      },
    },
    {
      name: 'direction and range: a better weighted component never lowers a value; values stay in range',
      run: async () => {
        for (const c of p.conformance) {
          const v = p.derive(c.weighted, c.other, c.w, c.otherHigherIsBetter);
          v.forEach((x) => {
            if (!(x >= lo && x <= hi)) fail(name, `value ${x} lies outside [${lo}, ${hi}]`);
          });
          const better = c.weighted.map((x, i) => (i === 0 ? x + (p.definition.higherIsBetter ? 0.01 : -0.01) : x));
          const after = p.derive(better, c.other, c.w, c.otherHigherIsBetter);
          if ((after[0] ?? Number.NaN) < (v[0] ?? Number.NaN) - 1e-12 && c.w > 0) fail(name, 'raising the weighted component lowered the value');
        }
      },
    },
    {
      name: 'batch invariance: permuting the normalisation set permutes the values',
      run: async () => {
        for (const c of p.conformance) {
          const v = p.derive(c.weighted, c.other, c.w, c.otherHigherIsBetter);
          const order = c.weighted.map((_, i) => c.weighted.length - 1 - i);
          const r = p.derive(order.map((i) => c.weighted[i] ?? 0), order.map((i) => c.other[i] ?? 0), c.w, c.otherHigherIsBetter);
          sameNumbers(name, 'reversed set', r, order.map((i) => v[i] ?? Number.NaN));
        }
      },
    },
    {
      name: 'determinism: deriving twice gives identical values',
      run: async () => {
        for (const c of p.conformance) sameNumbers(name, 'second run', p.derive(c.weighted, c.other, c.w, c.otherHigherIsBetter), p.derive(c.weighted, c.other, c.w, c.otherHigherIsBetter));
      },
    },
  ];
}

/** Scores embedded instances the way a host does: options validated, `prepare` once, then each instance. */
function scoreEmbedded(p: EmbeddingMetricPlugin, c: EmbeddingConformanceCase, instances: readonly EmbeddedInstance[]): Scored {
  const options = parseOptionsWith(p.definition, c.options ?? {});
  const state = p.prepare(tokenizedCorpusOf(instances), options, c.encoder);
  const scores = instances.map((inst, i) => p.scoreInstance(i, inst, state, options, c.encoder).score);
  const nrefs = Math.max(1, ...instances.map((i) => i.refs.length));
  return { instances: scores, corpus: scores.reduce((a, b) => a + b, 0) / Math.max(1, scores.length), signature: p.signature(options, c.encoder, nrefs) };
}

function embeddingChecks(p: EmbeddingMetricPlugin): ConformanceCheck[] {
  const d = p.definition;
  const name = d.name;
  const cases = p.conformance ?? [];
  const defaults = (c: EmbeddingConformanceCase) => Object.keys(c.options ?? {}).length === 0;
  return [
    {
      name: 'reference values: matches scores worked from hand-made vectors',
      run: async () => {
        if (cases.length === 0) fail(name, 'has no reference vectors (conformance cases on hand-made EmbeddedText)');
        for (const [k, c] of cases.entries()) {
          const s = scoreEmbedded(p, c, c.instances);
          c.scores.forEach((x, i) => close(name, `case ${k} instance ${i} (${c.source})`, s.instances[i] ?? Number.NaN, x, c.tolerance));
        }
      },
    },
    {
      name: 'direction: a hypothesis equal to its first reference scores at least as well as the case hypothesis',
      run: async () => {
        for (const c of cases) {
          const hyp = scoreEmbedded(p, c, c.instances);
          const perfect = scoreEmbedded(p, c, c.instances.map((i) => ({ ...i, hyp: i.refs[0] ?? i.hyp })));
          perfect.instances.forEach((x, i) => {
            const h = hyp.instances[i] ?? Number.NaN;
            if (d.higherIsBetter ? x < h - 1e-12 : x > h + 1e-12) fail(name, `instance ${i}: the reference itself scores ${x}, the hypothesis ${h}, against higherIsBetter=${d.higherIsBetter}`);
          });
        }
      },
    },
    {
      name: 'range: scores with the default options lie in the declared range',
      run: async () => {
        for (const c of cases.filter(defaults)) {
          const s = scoreEmbedded(p, c, c.instances);
          [s.corpus, ...s.instances].forEach((x) => {
            if (!(x >= d.range[0] && x <= d.range[1])) fail(name, `score ${x} lies outside [${d.range[0]}, ${d.range[1]}]`);
          });
        }
      },
    },
    {
      name: 'determinism: scoring twice gives identical values and signatures; the layers asked for are stable',
      run: async () => {
        for (const c of cases) {
          const a = scoreEmbedded(p, c, c.instances);
          const b = scoreEmbedded(p, c, c.instances);
          sameNumbers(name, 'second run', b.instances, a.instances);
          if (a.signature !== b.signature) fail(name, 'a second run gives another signature');
          const o = parseOptionsWith(d, c.options ?? {});
          if (JSON.stringify(p.layers(o, c.encoder)) !== JSON.stringify(p.layers(o, c.encoder))) fail(name, 'layers() is not stable');
        }
      },
    },
    {
      name: 'signature: names the metric and the encoder, does not depend on the texts',
      run: async () => {
        for (const c of cases) {
          const a = scoreEmbedded(p, c, c.instances);
          if (!a.signature.startsWith(`${name}|`)) fail(name, `signature '${a.signature}' does not start with '${name}|'`);
          if (!a.signature.includes(c.encoder.name) || !a.signature.includes(c.encoder.sha256.slice(0, 12))) fail(name, `signature '${a.signature}' does not name the encoder and its sha256 prefix`);
          const again = scoreEmbedded(p, c, c.instances.slice(0, 1));
          if (again.signature !== a.signature && c.instances.every((i) => i.refs.length === c.instances[0]?.refs.length)) fail(name, `signature depends on the texts: '${a.signature}' against '${again.signature}'`);
        }
      },
    },
  ];
}

/**
 * The checks of one plugin. A `model` plugin needs its host's runtime: without one the list
 * holds a single failing check naming what is missing.
 * Example: `for (const c of conformanceChecks(BLEU_PLUGIN)) it(c.name, () => c.run())`.
 */
export function conformanceChecks(plugin: MetricPlugin, runtime?: ModelRuntimeForConformance): ConformanceCheck[] {
  const d = plugin.definition;
  const head = checkDefinition(plugin);
  switch (plugin.capability) {
    case 'statistics':
    case 'instance': {
      const p: ComputedMetricPlugin = plugin;
      return [head, ...textChecks(d.name, d.higherIsBetter, d.range, p.conformance, async (h, r, o) => scoreComputed(p, h, r, o))];
    }
    case 'model': {
      const p: ModelMetricPlugin = plugin;
      if (!runtime) {
        return [head, { name: 'model runtime: the conformance spec provides one', run: async () => fail(d.name, `is a model metric; give the conformance spec a runtime (${p.requirement})`) }];
      }
      return [head, ...textChecks(d.name, d.higherIsBetter, d.range, runtime.cases, (h, r, o) => runtime.score(h, r, o))];
    }
    case 'derived':
      return [head, ...derivedChecks(plugin)];
    case 'embedding':
      return [head, ...embeddingChecks(plugin)];
  }
}
