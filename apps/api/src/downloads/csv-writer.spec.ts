// Quoting rules themselves are specified once, in libs/contracts/src/csv.spec.ts.
import { PHASE_SCORE_COLUMNS, attachmentDisposition, exportHeader, exportLine } from './csv-writer';

describe('score export lines', () => {
  it('ends every record with CRLF', () => {
    expect(exportHeader('csv')).toBe('system,team,instance_id,metric,signature,score\r\n');
  });

  it('writes a long-form score row in column order for CSV and as one JSON object for JSONL', () => {
    const row = { system: 'A, B', team: 't', instance_id: 'i"1', metric: 'bleu', signature: 'bleu|nrefs:1', score: 12.5 };
    expect(exportLine('csv', row)).toBe('"A, B",t,"i""1",bleu,bleu|nrefs:1,12.5\r\n');
    expect(JSON.parse(exportLine('jsonl', row))).toEqual(row);
    expect(exportHeader('jsonl')).toBe('');
  });

  it("writes a phase's row with its submission id, primary, baseline and status first", () => {
    const row = { submission_id: 's-1', system: 'A', team: 't', primary: true, baseline: false, status: 'disqualified' as const, instance_id: 'i1', metric: 'bleu', signature: 'bleu|x', score: 3 };
    expect(exportHeader('csv', PHASE_SCORE_COLUMNS)).toBe('submission_id,system,team,primary,baseline,status,instance_id,metric,signature,score\r\n');
    expect(exportLine('csv', row, PHASE_SCORE_COLUMNS)).toBe('s-1,A,t,true,false,disqualified,i1,bleu,bleu|x,3\r\n');
    expect(JSON.parse(exportLine('jsonl', row, PHASE_SCORE_COLUMNS))).toEqual(row);
  });

  it('makes file names in Content-Disposition ASCII-safe', () => {
    expect(attachmentDisposition('wmt/de en "x".csv')).toBe('attachment; filename="wmt-de-en-x-.csv"');
  });
});
