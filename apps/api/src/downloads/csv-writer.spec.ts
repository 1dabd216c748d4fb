import { attachmentDisposition, csvField, csvRow, exportHeader, exportLine } from './csv-writer';

describe('CSV writer (RFC 4180)', () => {
  it('leaves plain fields unquoted', () => {
    expect(csvField('sys-a')).toBe('sys-a');
  });

  it.each([
    ['a,b', '"a,b"'],
    ['say "hi"', '"say ""hi"""'],
    ['two\nlines', '"two\nlines"'],
    ['cr\rhere', '"cr\rhere"'],
    ['"', '""""'],
  ])('quotes %j as %j', (input, expected) => {
    expect(csvField(input)).toBe(expected);
  });

  it('keeps leading and trailing spaces and empty fields as they are', () => {
    expect(csvRow([' a ', '', 'b'])).toBe(' a ,,b\r\n');
  });

  it('writes numbers in their shortest round-trip form', () => {
    expect(csvRow([0.1 + 0.2, -0, 1e-7, 100])).toBe('0.30000000000000004,0,1e-7,100\r\n');
    expect(Number(csvField(0.1 + 0.2))).toBe(0.1 + 0.2);
  });

  it('ends every record with CRLF', () => {
    expect(exportHeader('csv')).toBe('system,team,instance_id,metric,signature,score\r\n');
  });

  it('writes a long-form score row in column order for CSV and as one JSON object for JSONL', () => {
    const row = { system: 'A, B', team: 't', instance_id: 'i"1', metric: 'bleu', signature: 'bleu|nrefs:1', score: 12.5 };
    expect(exportLine('csv', row)).toBe('"A, B",t,"i""1",bleu,bleu|nrefs:1,12.5\r\n');
    expect(JSON.parse(exportLine('jsonl', row))).toEqual(row);
    expect(exportHeader('jsonl')).toBe('');
  });

  it('makes file names in Content-Disposition ASCII-safe', () => {
    expect(attachmentDisposition('wmt/de en "x".csv')).toBe('attachment; filename="wmt-de-en-x-.csv"');
  });
});
