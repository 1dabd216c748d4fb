import { existsSync, statSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { BUILTIN_SUITES, datasetBytes, DEMO_DATASET, getDataset, licenceNote, listDatasets, parseRegistry, REGISTRY, UnknownDatasetError } from './registry';
import { parseDataMirror, sourceLocation } from './locations';
import { TEST_MIRROR } from './testing/test-mirror';
import { defined } from '../../../test/support/defined';

const COMMIT = '911238d470288125d35cc950f69411bc619a2c4b';
const WMT_PAIRS = ['de-en', 'en-de', 'cs-en', 'fi-en', 'lv-en', 'ru-en', 'tr-en', 'zh-en', 'en-ru', 'en-zh'];
// Files whose size and checksum are not known here (not in the offline mirror): pinned on first fetch.
const XMOVER_PAIRS = ['cs-en', 'de-en', 'fi-en', 'lv-en', 'ru-en', 'tr-en', 'zh-en'];
const PIN_ON_FIRST_FETCH = [
  'experiments/datasets/adv_datasets/xpaws/fr/data.csv',
  'experiments/datasets/adv_datasets/xpaws/ja/data.csv',
  // XMoverScore's published mappings: no copy at hand when the entry was written (#24).
  'LICENSE',
  ...XMOVER_PAIRS.flatMap((p) => [`mapping/layer-8/europarl-v7.${p}.8.BAM`, `mapping/layer-8/europarl-v7.${p}.8.GBDD`]),
];

describe('dataset registry', () => {
  it('lists the ten WMT17 pairs, the five MENLI suites and the bert_score baselines, all from MENLI at the pinned commit under MIT, then SICK', () => {
    const names = listDatasets().map((d) => d.name);
    expect(names).toEqual([...WMT_PAIRS.map((p) => `wmt17-${p}`), 'menli-wmt20-de', 'menli-xpaws-de', 'menli-xpaws-zh', 'menli-xpaws-fr', 'menli-xpaws-ja', 'bertscore-baselines', 'sick', 'xmoverscore-mappings']);
    for (const d of listDatasets().filter((x) => x.name !== 'sick' && x.name !== 'xmoverscore-mappings')) {
      expect(d.upstream.repo).toBe('cyr19/MENLI');
      expect(d.upstream.commit).toBe(COMMIT);
      expect(d.upstream.licence).toBe('MIT');
      expect(d.upstream.copyright).toBe('Copyright (c) 2022 Yanran Chen');
      expect(d.files.map((f) => f.path)).toContain('LICENSE');
      expect(licenceNote(d)).toBe('MIT, Copyright (c) 2022 Yanran Chen; via https://github.com/cyr19/MENLI at 911238d');
    }
    expect(DEMO_DATASET).toBe('wmt17-de-en');
    // SICK: its own upstream, no licence file there (SOURCES of the mirror: CC BY-NC-SA 3.0)
    const sick = getDataset('sick');
    expect(sick.upstream).toMatchObject({ repo: 'kkalouli/SICK-processing', commit: '0848f4aec60870122a4ca18de08ba0e25f6f9a75', licence: 'CC BY-NC-SA 3.0', licenceFile: null });
    // XMoverScore's mappings: the authors' repository at the commit whose demo.py loads them, BSD (its README).
    const xm = getDataset('xmoverscore-mappings');
    expect(xm.upstream).toMatchObject({ repo: 'AIPHES/ACL20-Reference-Free-MT-Evaluation', commit: '0e82783e481a175a8a8c45826fc94f3c7d8cb62a', licence: 'BSD', licenceFile: 'LICENSE' });
  });

  it('gives every file a raw upstream URL, size and sha256, except the two pinned on first fetch', () => {
    const unpinned: string[] = [];
    for (const d of listDatasets()) {
      for (const f of d.files) {
        expect(sourceLocation(parseDataMirror(undefined), d.upstream, f.path)).toBe(`https://raw.githubusercontent.com/${d.upstream.repo}/${d.upstream.commit}/${f.path}`);
        if (f.sha256 === null) unpinned.push(f.path);
        else expect(f.bytes).toBeGreaterThan(0);
      }
    }
    expect(unpinned.sort()).toEqual([...PIN_ON_FIRST_FETCH].sort());
    expect(datasetBytes(getDataset('menli-xpaws-fr'))).toBeNull();
    // SOURCES.md: 289,198 (DA) + 374,670 + 336,817 + the 11 systems + 1,068 (LICENSE)
    expect(datasetBytes(getDataset('wmt17-de-en'))).toBe(4_654_672);
  });

  it('matches the bytes of the offline mirror for every file the mirror holds', () => {
    const mirror = parseDataMirror(TEST_MIRROR);
    expect(existsSync(TEST_MIRROR)).toBe(true);
    let checked = 0;
    for (const d of listDatasets()) {
      for (const f of d.files) {
        if (f.sha256 === null) continue;
        const local = sourceLocation(mirror, d.upstream, f.path);
        expect([f.path, statSync(local).size]).toEqual([f.path, f.bytes]);
        expect([f.path, createHash('sha256').update(readFileSync(local)).digest('hex')]).toEqual([f.path, f.sha256]);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(140);
  });

  it('describes each WMT pair as a test set with its systems and the DA file filtered by its pair', () => {
    const de = defined(getDataset('wmt17-de-en').testSet);
    expect(Object.keys(de.systems)).toHaveLength(11);
    expect(de.systems['online-B.0']).toBe('experiments/datasets/WMT17/system-outputs/newstest2017/de-en/newstest2017.online-B.0.de-en');
    expect(de.human).toEqual({ file: 'experiments/datasets/WMT17/DA-seglevel.csv', languagePair: 'de-en' });
    expect(defined(getDataset('wmt17-en-de').testSet).human).toBeNull(); // upstream has no en-de DA
    expect(Object.keys(defined(getDataset('wmt17-en-de').testSet).systems)).toHaveLength(16);
    expect(defined(defined(getDataset('wmt17-zh-en').testSet).human).systemAliases).toEqual({ 'CASICT-cons.5144': 'CASICT-DCU-NMT.5144' });
  });

  it('finds a suite by its id and lists the five built-in suites', () => {
    expect(BUILTIN_SUITES).toEqual({
      'builtin:wmt20-de': 'menli-wmt20-de',
      'builtin:xpaws-de': 'menli-xpaws-de',
      'builtin:xpaws-zh': 'menli-xpaws-zh',
      'builtin:xpaws-fr': 'menli-xpaws-fr',
      'builtin:xpaws-ja': 'menli-xpaws-ja',
    });
    expect(defined(getDataset('builtin:xpaws-zh').suite).file).toBe('experiments/datasets/adv_datasets/xpaws/zh/data.csv');
  });

  it('rejects an unknown name, listing the known ones', () => {
    expect(() => getDataset('wmt17-xx-en')).toThrow(UnknownDatasetError);
    expect(() => getDataset('wmt17-xx-en')).toThrow(/unknown data set 'wmt17-xx-en'; known: wmt17-de-en, wmt17-en-de/);
    expect(() => getDataset('toString')).toThrow(UnknownDatasetError);
  });

  it('rejects a registry whose test set uses a file it does not list, or with a size but no checksum', () => {
    const copy = () => JSON.parse(JSON.stringify(REGISTRY));
    const a = copy();
    a.datasets['wmt17-de-en'].files = a.datasets['wmt17-de-en'].files.filter((f: { path: string }) => !f.path.endsWith('online-B.0.de-en'));
    expect(() => parseRegistry(a)).toThrow(/wmt17-de-en uses .*online-B\.0\.de-en, which is not among its files/);
    const b = copy();
    b.datasets['menli-xpaws-de'].files[1].sha256 = null;
    expect(() => parseRegistry(b)).toThrow(/bytes and sha256 are both known or both null/);
    const c = copy();
    c.datasets['menli-xpaws-de'].upstream = 'nowhere';
    expect(() => parseRegistry(c)).toThrow(/unknown upstream 'nowhere'/);
    expect(() => parseRegistry(copy())).not.toThrow();
  });
});
