import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseDataMirror } from './locations';
import { suiteFile } from './suites';
import { loadWmtTestSet } from './wmt-test-set';
import { TEST_MIRROR } from './testing/test-mirror';
import { defined } from '../../../test/support/defined';

// Fetched from the offline mirror (cyr19/MENLI at 911238d) into one cache for this file.
const options = { source: parseDataMirror(TEST_MIRROR), cacheDir: mkdtempSync(join(tmpdir(), 'podium-wmt-spec-')) };
afterAll(() => rmSync(options.cacheDir, { recursive: true, force: true }));

describe('WMT17 test sets from the registry', () => {
  it('builds the demo: the 506 judged de-en segments, 622 per-system human scores and 11 systems (counts from DA-seglevel.csv)', async () => {
    const t = await loadWmtTestSet('wmt17-de-en', options);
    expect(t.segmentCount).toBe(3004);
    expect(t.instances).toHaveLength(506);
    // 560 judgements; 26 of them name several systems with identical outputs ("A+B"), one score each: 622
    expect(t.humanScores).toHaveLength(622);
    expect(t.droppedJudgements).toBe(0);
    expect(t.systems.map((s) => s.name)).toEqual([
      'C-3MA.4958', 'KIT.4951', 'LIUM-NMT.4733', 'RWTH-nmt-ensemble.4920', 'SYSTRAN.4846', 'TALP-UPC.4830',
      'online-A.0', 'online-B.0', 'online-F.0', 'online-G.0', 'uedin-nmt.4723',
    ]);
    // First DA row of de-en upstream: "de-en newstest2017 online-F.0 56 0.137062119452236"
    expect(t.humanScores[0]).toEqual({ externalId: '56', system: 'online-F.0', score: 0.137062119452236 });
    const ids = t.instances.map((i) => Number(i.externalId));
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    const at56 = ids.indexOf(56);
    expect(defined(t.instances[at56]).source.length).toBeGreaterThan(0);
    expect(t.systems.every((s) => s.outputs.length === 506)).toBe(true);
  });

  it('filters the all-pairs DA file by language pair and maps renamed WMT submissions (zh-en)', async () => {
    const t = await loadWmtTestSet('wmt17-zh-en', options);
    expect(t.segmentCount).toBe(2001);
    expect(t.systems).toHaveLength(16);
    expect(t.humanScores.some((h) => h.system === 'CASICT-DCU-NMT.5144')).toBe(true); // DA calls it CASICT-cons.5144
    expect(t.humanScores.some((h) => h.system === 'ROCMT.5183')).toBe(false);
    expect(t.droppedJudgements).toBeGreaterThan(0); // ROCMT.5167 has no output file upstream
    expect(t.humanScores.length + t.droppedJudgements).toBeGreaterThanOrEqual(560);
  });

  it('keeps every segment of a pair without DA judgements (en-de, for significance tests)', async () => {
    const t = await loadWmtTestSet('wmt17-en-de', options);
    expect(t.instances).toHaveLength(3004);
    expect(defined(t.instances[0]).externalId).toBe('1');
    expect(t.humanScores).toEqual([]);
    expect(t.systems).toHaveLength(16);
  });

  it('fetches a built-in suite by its id on first use', async () => {
    const file = await suiteFile('builtin:xpaws-zh', options);
    expect(file).toBe(join(options.cacheDir, 'datasets', 'cyr19', 'MENLI', '911238d470288125d35cc950f69411bc619a2c4b', 'experiments', 'datasets', 'adv_datasets', 'xpaws', 'zh', 'data.csv'));
    await expect(suiteFile('menli-xpaws-zh', options)).rejects.toThrow(/not a built-in suite id .*use builtin:xpaws-zh/);
  });
});
