// Golden vectors: test/golden/sacrebleu-wmt17-de-en.json holds sacreBLEU 2.6.0's corpus scores,
// signatures and first-100 sentence scores for the 11 WMT17 de-en systems (data set wmt17-de-en
// of @podium/datasets, fetched from the offline mirror: PODIUM_DATA_MIRROR, else
// <repo>/../shared/data/mirror) with default options unless the key says otherwise. Reading
// files happens only in this spec; the library itself stays free of Node I/O.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fetchDataset, getDataset, parseDataMirror } from '@podium/datasets';
import { defined } from '../../../test/support/defined';
import { PODIUM_METRICS_VERSION, score, type MetricName, type MetricOptions } from './index';

interface GoldenEntry {
  corpus: number;
  signature: string;
  sentence_first100?: number[];
}
interface Golden {
  systems: Record<string, Record<string, GoldenEntry>>;
}

const root = join(__dirname, '..', '..', '..');
const golden = JSON.parse(readFileSync(join(root, 'test/golden/sacrebleu-wmt17-de-en.json'), 'utf8')) as Golden;
const lines = (file: string): string[] => readFileSync(file, 'utf8').replace(/\n$/, '').split('\n');
const mirror = process.env['PODIUM_DATA_MIRROR']?.trim() || join(root, '..', 'shared', 'data', 'mirror');
let reference: string[];
/** System name → its cached output file. */
let systemFile: Record<string, string>;

const cacheDir = mkdtempSync(join(tmpdir(), 'podium-golden-'));
afterAll(() => rmSync(cacheDir, { recursive: true, force: true }));

beforeAll(async () => {
  const spec = defined(getDataset('wmt17-de-en').testSet);
  const fetched = await fetchDataset('wmt17-de-en', { source: parseDataMirror(mirror), cacheDir });
  const at = (p: string) => defined(fetched.files.find((f) => f.path === p)).localPath;
  reference = lines(at(spec.reference));
  systemFile = Object.fromEntries(Object.entries(spec.systems).map(([name, p]) => [name, at(p)]));
});

// Golden key → our metric and options (the sacreBLEU options the file names).
const CASES: ReadonlyArray<[key: string, metric: MetricName, options: MetricOptions]> = [
  ['bleu', 'bleu', {}],
  ['bleu_lowercase', 'bleu', { lowercase: true }],
  ['bleu_intl', 'bleu', { tokenize: 'intl' }],
  ['chrf', 'chrf', {}],
  ['chrf++', 'chrf++', {}],
  ['ter', 'ter', {}],
];

/** sacreBLEU's signature with our version and the metric-name prefix. */
const expectedSignature = (metric: MetricName, sacre: string) =>
  `${metric}|${sacre.replace(/\|version:[^|]*$/, `|version:${PODIUM_METRICS_VERSION}`)}`;

const systems = Object.keys(golden.systems);

describe('sacreBLEU 2.6.0 golden vectors on WMT17 de-en', () => {
  it('covers all 11 systems and every metric key', () => {
    expect(systems).toHaveLength(11);
    expect(Object.keys(systemFile).sort()).toEqual([...systems].sort());
    for (const s of systems) expect(Object.keys(defined(golden.systems[s], s)).sort()).toEqual(CASES.map((c) => c[0]).sort());
  });

  for (const [key, metric, options] of CASES) {
    describe(key, () => {
      it.each(systems)(`reproduces the corpus score, signature and sentence scores of %s within 0.01`, (system) => {
        const expected = defined(golden.systems[system]?.[key], `golden ${system} ${key}`);
        const hyps = lines(defined(systemFile[system]));
        const result = score(metric, options, hyps, [reference]);
        expect(Math.abs(result.corpus - expected.corpus)).toBeLessThanOrEqual(0.01);
        expect(result.signature).toBe(expectedSignature(metric, expected.signature));
        expect(result.instances).toHaveLength(hyps.length);
        const sentences = expected.sentence_first100 ?? [];
        sentences.forEach((value, i) => {
          if (Math.abs(defined(result.instances[i], `sentence ${i}`) - value) > 0.01) {
            throw new Error(`${system} ${key} sentence ${i}: got ${result.instances[i]}, sacreBLEU ${value}`);
          }
        });
      }, 60_000);
    });
  }

  it('uses sentence BLEU with effective order for instances, as sacreBLEU sentence_bleu', () => {
    const result = score('bleu', {}, lines(defined(systemFile['online-B.0'])), [reference]);
    expect(result.sentenceSignature).toBe(`bleu|nrefs:1|case:mixed|eff:yes|tok:13a|smooth:exp|version:${PODIUM_METRICS_VERSION}`);
    // golden online-B.0 bleu sentence 0 (sacreBLEU 2.6.0)
    expect(result.instances[0]).toBeCloseTo(golden.systems['online-B.0']?.['bleu']?.sentence_first100?.[0] ?? NaN, 6);
  });
});
