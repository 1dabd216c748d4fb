// withHostFiles for XMoverScore's published mappings: the path the worker and `podium score`
// share. The mirror is a temporary folder laid out like the upstream repository, holding a
// generated 16×16 CLP matrix and a 16-vector UMD direction as .npy files (the registry pins
// their sizes and checksums on first download); the vectors are seeded random, 16-dimensional.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { getDataset, parseDataMirror } from '@podium/datasets';
import { mulberry32 } from '@podium/ranking';
import { runEmbeddingMetric, XMOVER_MAPPING_DATASET, XMOVERSCORE_PLUGIN, type EmbeddedText, type EncoderIdentity } from '@podium/metrics';
import { withHostFiles } from './score';

const tmp = mkdtempSync(join(tmpdir(), 'podium-host-files-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const D = 16;
const identity: EncoderIdentity = { name: 'bert-base-multilingual-cased', sha256: 'ab'.repeat(32), numLayers: 12, hiddenSize: D };

const rng = mulberry32(8);
const rand = (): number => rng.next();

/** np.save's format 1.0, little-endian float32 ('<f4'), C order. */
function npy(shape: number[], values: number[]): Buffer {
  const dict = `{'descr': '<f4', 'fortran_order': False, 'shape': (${shape.join(', ')}${shape.length === 1 ? ',' : ''}), }`;
  const header = dict + ' '.repeat((64 - ((10 + dict.length + 1) % 64)) % 64) + '\n';
  const head = Buffer.from([0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59, 1, 0, 0, 0]);
  head.writeUInt16LE(header.length, 8);
  const body = Buffer.alloc(4 * values.length);
  values.forEach((x, k) => body.writeFloatLE(x, 4 * k));
  return Buffer.concat([head, Buffer.from(header, 'latin1'), body]);
}

const projection = Array.from({ length: D }, () => Array.from({ length: D }, () => Math.fround(rand() * 2 - 1)));
const bias = Array.from({ length: D }, () => Math.fround(rand() * 2 - 1));

function text(len: number): EmbeddedText {
  const tokens = Array.from({ length: len }, (_, k) => `w${k}`);
  return {
    text: tokens.join(' '),
    tokens,
    ids: tokens.map((_, k) => 1000 + k),
    special: tokens.map(() => false),
    offsets: tokens.map(() => [0, 0] as const),
    layers: [tokens.map(() => Float32Array.from({ length: D }, () => rand() * 2 - 1))],
    layerIndices: [8],
  };
}

function mirrorWith(files: Record<string, Buffer | string>): string {
  const upstream = getDataset(XMOVER_MAPPING_DATASET).upstream;
  const root = mkdtempSync(join(tmp, 'mirror-'));
  for (const [path, content] of Object.entries(files)) {
    const file = join(root, upstream.repo, upstream.commit, path);
    mkdirSync(join(file, '..'), { recursive: true });
    writeFileSync(file, content);
  }
  return root;
}

describe('XMoverScore mapping files through the data set registry', () => {
  const instances = Array.from({ length: 6 }, () => ({ source: text(3 + Math.floor(rand() * 6)), hyp: text(3 + Math.floor(rand() * 6)), refs: [] }));

  it('fetches the published CLP and UMD files of a language pair and scores exactly as with the same numbers given inline', async () => {
    const mirror = mirrorWith({
      LICENSE: 'BSD licence text (test copy)\n',
      'mapping/layer-8/europarl-v7.de-en.8.BAM': npy([D, D], projection.flat()),
      'mapping/layer-8/europarl-v7.de-en.8.GBDD': npy([D], bias),
    });
    const data = { source: parseDataMirror(mirror), cacheDir: join(tmp, 'cache-ok') };
    for (const [mapping, inline] of [['CLP', { projection }], ['UMD', { bias }]] as const) {
      const options = await withHostFiles(XMOVERSCORE_PLUGIN, { mapping, languagePair: 'de-en' }, identity, data);
      expect(options['mappingFileName']).toBe(`xmoverscore-mappings: mapping/layer-8/europarl-v7.de-en.8.${mapping === 'CLP' ? 'BAM' : 'GBDD'}`);
      const fetched = runEmbeddingMetric(XMOVERSCORE_PLUGIN, instances, options, identity);
      const given = runEmbeddingMetric(XMOVERSCORE_PLUGIN, instances, { mapping, ...inline }, identity);
      expect(fetched.scores.map((s) => s.score)).toEqual(given.scores.map((s) => s.score));
      expect(fetched.signature).toBe(given.signature); // the fingerprint is of the numbers, not of where they came from
      const none = runEmbeddingMetric(XMOVERSCORE_PLUGIN, instances, {}, identity);
      expect(fetched.scores.map((s) => s.score)).not.toEqual(none.scores.map((s) => s.score));
    }
  });

  it('says which file is missing and how to fetch it when the mirror lacks it', async () => {
    const data = { source: parseDataMirror(mirrorWith({ LICENSE: 'x\n' })), cacheDir: join(tmp, 'cache-missing') };
    await expect(withHostFiles(XMOVERSCORE_PLUGIN, { mapping: 'UMD', languagePair: 'tr-en' }, identity, data)).rejects.toThrow(
      /^xmoverscore: XMoverScore's published UMD mapping for tr-en at hidden state 8 is missing: mapping\/layer-8\/europarl-v7\.tr-en\.8\.GBDD of data set xmoverscore-mappings could not be fetched \(.*\); fetch it with `podium data fetch xmoverscore-mappings`/,
    );
  });

  it('refuses a pair or hidden state the authors published no mapping for', async () => {
    const data = { source: parseDataMirror(mirrorWith({})), cacheDir: join(tmp, 'cache-none') };
    await expect(withHostFiles(XMOVERSCORE_PLUGIN, { mapping: 'CLP', languagePair: 'xx-en' }, identity, data)).rejects.toThrow(
      "xmoverscore: the data set registry has no XMoverScore's published CLP mapping for xx-en at hidden state 8 (xmoverscore-mappings: mapping/layer-8/europarl-v7.xx-en.8.BAM)",
    );
    await expect(withHostFiles(XMOVERSCORE_PLUGIN, { mapping: 'CLP', languagePair: 'de-en', layer: 12 }, identity, data)).rejects.toThrow(/has no .* at hidden state 12/);
  });

  it('without the file loaded, scoring names the file and the fetch command instead of scoring', () => {
    expect(() => runEmbeddingMetric(XMOVERSCORE_PLUGIN, instances, { mapping: 'CLP', languagePair: 'de-en' }, identity)).toThrow(
      'xmoverscore: the CLP mapping file mapping/layer-8/europarl-v7.de-en.8.BAM (data set xmoverscore-mappings) is not loaded; fetch it with `podium data fetch xmoverscore-mappings` (or give --mapping-file FILE)',
    );
  });
});
