import { join } from 'node:path';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { getDataset, licenceNote } from './registry';
import { loadNliSet, parseSick } from './nli-set';
import { TEST_MIRROR } from './testing/test-mirror';

jest.setTimeout(60_000);

describe('labelled NLI sets', () => {
  it('reads SICK.txt rows: premise sentence_A, hypothesis sentence_B, lower-case label, SemEval split', () => {
    const text = 'pair_ID\tsentence_A\tsentence_B\tentailment_label\trelatedness_score\tSemEval_set\n7\tA man sings\tA person sings\tENTAILMENT\t4.5\tTEST\n';
    expect(parseSick(text)).toEqual([{ id: '7', premise: 'A man sings', hypothesis: 'A person sings', label: 'entailment', split: 'TEST' }]);
    expect(() => parseSick('pair_ID\tsentence_A\tsentence_B\tentailment_label\n1\ta\tb\tMAYBE\n')).toThrow(/line 2: unknown label 'MAYBE'/);
    expect(() => parseSick('id\tA\tB\n')).toThrow(/lacks the column pair_ID/);
  });

  it('registers SICK with its licence (CC BY-NC-SA 3.0) and checksums', () => {
    const d = getDataset('sick');
    expect(d.nliSet).toEqual({ file: 'SICK.txt', format: 'sick' });
    expect(licenceNote(d)).toMatch(/^CC BY-NC-SA 3\.0, SICK: Marelli/);
    expect(d.files.find((f) => f.path === 'SICK.txt')?.sha256).toBe('1539c2d059809b5bd40694e26d8121cc85b6b496f91c7b40f2fc83bbd7dcd957');
  });

  it('fetches SICK from the mirror: 9,840 pairs, TRAIN 4,439 / TRIAL 495 / TEST 4,906 (the SemEval 2014 task 1 split sizes)', async () => {
    const cacheDir = mkdtempSync(join(tmpdir(), 'podium-sick-'));
    const { examples } = await loadNliSet('sick', { cacheDir, source: { kind: 'directory', dir: TEST_MIRROR } });
    expect(examples).toHaveLength(9840);
    const count = (s: string) => examples.filter((e) => e.split === s).length;
    expect([count('TRAIN'), count('TRIAL'), count('TEST')]).toEqual([4439, 495, 4906]);
    expect(examples[0]).toMatchObject({ id: '1', label: 'neutral', premise: 'A group of kids is playing in a yard and an old man is standing in the background' });
  });
});
