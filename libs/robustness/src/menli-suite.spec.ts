import { MenliSuiteError, formatMenliCsv, parseMenliCsv } from './menli-suite';
import { upstreamText } from '../../../test/support/test-data';

// Real files, data sets or ONNX sessions: seconds when idle, far longer on a loaded 2-core machine than Jest's 5 s.
jest.setTimeout(60_000);

const HEADER = 'error,id,source,ref,r,hyp_para,hyp_adv_based,hyp_adv_free';

describe('parseMenliCsv', () => {
  it('maps the MENLI columns whatever their order', () => {
    const text = 'id,error,ref,source,r,hyp_para,hyp_adv_free,hyp_adv_based\n7,num,R,S,G,P,AF,AB\n';
    expect(parseMenliCsv(text)).toEqual([
      { error: 'num', id: '7', source: 'S', ref: 'R', r: 'G', hypPara: 'P', hypAdvBased: 'AB', hypAdvFree: 'AF' },
    ]);
  });

  it('names the missing columns', () => {
    expect(() => parseMenliCsv('error,id,ref\nnum,1,x\n')).toThrow(/missing column\(s\) source, r, hyp_para/);
  });

  it('points at the record of a row with a wrong number of fields', () => {
    expect(() => parseMenliCsv(`${HEADER}\nnum,1,s,r,g,p,ab,af\nnum,2,s\n`)).toThrow(MenliSuiteError);
    expect(() => parseMenliCsv(`${HEADER}\nnum,1,s,r,g,p,ab,af\nnum,2,s\n`)).toThrow(/record 3/);
  });

  it('rejects a duplicate (error, id) pair but allows the same id across phenomena', () => {
    expect(parseMenliCsv(`${HEADER}\nnum,1,s,r,g,p,ab,af\nneg,1,s,r,g,p,ab,af\n`)).toHaveLength(2);
    expect(() => parseMenliCsv(`${HEADER}\nnum,1,s,r,g,p,ab,af\nnum,1,s,r,g,p,ab,af\n`)).toThrow(/duplicate/);
  });

  it('reads the built-in WMT20 de-en suite (upstream MENLI) as 12 phenomena of 200 rows', async () => {
    // Counts from the MENLI data card (M:406–408: WMT20_de has 200 examples per phenomenon).
    const text = await upstreamText('menli-wmt20-de', 'experiments/datasets/adv_datasets/wmt20_google/de/data.csv');
    const rows = parseMenliCsv(text);
    const counts: Record<string, number> = {};
    for (const r of rows) counts[r.error] = (counts[r.error] ?? 0) + 1;
    expect(Object.keys(counts).sort()).toEqual(
      ['add', 'drop', 'jumble', 'name', 'neg', 'num', 'pron', 'subject_verb_dis', 'typo', 'word_JJ', 'word_NN', 'word_VB'],
    );
    expect(Object.values(counts).every((c) => c === 200)).toBe(true);
    expect(rows[0]?.hypAdvBased).toBe(
      'Lately, with gold and generation prices up more than 300% over the last decade, it is harder than ever.',
    );
    expect(parseMenliCsv(formatMenliCsv(rows))).toEqual(rows);
  });
});
