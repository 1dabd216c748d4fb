// Quoting rules themselves are specified once, in libs/contracts/src/csv.spec.ts.
import { createHash } from 'node:crypto';
import { longRowsOf, type LongScoreColumn, type LongScoreRow } from '@podium/db';
import { defined } from '../../../../test/support/defined';
import { ChunkPool, PHASE_SCORE_COLUMNS, SCORE_COLUMNS, attachmentDisposition, exportHeader, exportLine, scoreCsvColumns, scoreCsvLines } from './csv-writer';

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

  // scoreCsvLines formats a column's shared fields once (issue #28); exportLine is the reference.
  it('writes every row of a column-ordered stream as exportLine does, shared fields formatted per column', () => {
    const columns: Pick<LongScoreRow, 'submissionId' | 'systemName' | 'teamName' | 'metric' | 'signature'>[] = [
      { submissionId: 's-1', systemName: 'A, B', teamName: '=team', metric: 'bleu', signature: 'bleu|nrefs:1' },
      { submissionId: 's-1', systemName: 'A, B', teamName: '=team', metric: 'chrf', signature: 'chrF2|"x"' },
      { submissionId: 's-2', systemName: 'plain', teamName: 't', metric: 'chrf', signature: 'chrF2|"x"' },
      { submissionId: 's-3', systemName: 'two\nlines', teamName: '-1.5', metric: 'ter', signature: 'ter' },
    ];
    const ids = ['i1', 'i"2', 'a,b', '@x', '-3', ''];
    const scores = [12.5, -0, 0.1 + 0.2, -3, 1e-7, 100];
    const rows: LongScoreRow[] = columns.flatMap((c, k) => ids.map((instanceId, position) => ({ ...c, instanceId, position, score: defined(scores[(position + k) % scores.length]) })));
    const about = new Map([
      ['s-1', { primary: true, baseline: false, status: 'scored' as const }],
      ['s-2', { primary: false, baseline: true, status: 'hidden' as const }],
      ['s-3', { primary: false, baseline: false, status: 'disqualified' as const }],
    ]);
    const phaseRow = (r: LongScoreRow) => ({ submission_id: r.submissionId, system: r.systemName, team: r.teamName, instance_id: r.instanceId, metric: r.metric, signature: r.signature, score: r.score, ...defined(about.get(r.submissionId)) });
    const plainRow = (r: LongScoreRow) => ({ system: r.systemName, team: r.teamName, instance_id: r.instanceId, metric: r.metric, signature: r.signature, score: r.score });
    const phaseLine = scoreCsvLines(PHASE_SCORE_COLUMNS, phaseRow);
    const plainLine = scoreCsvLines(SCORE_COLUMNS, plainRow);
    for (const r of rows) {
      expect(phaseLine(r)).toBe(exportLine('csv', phaseRow(r), PHASE_SCORE_COLUMNS));
      expect(plainLine(r)).toBe(exportLine('csv', plainRow(r), SCORE_COLUMNS));
    }
    // By hand: quoted system, neutralised team, the signature's quotes doubled.
    expect(phaseLine(defined(rows[6]))).toBe(`s-1,"A, B",'=team,true,false,scored,i1,chrf,"chrF2|""x""",0\r\n`);
  });

  // scoreCsvColumns writes a stored column's rows as bytes (issue #28); exportLine is the reference.
  it("writes a stored column's rows as the same UTF-8 bytes as exportLine, skipping unscored and hidden positions, across chunks of a reused pool", () => {
    // Ids and names that need quoting, neutralising or more than one byte in UTF-8; scores whose
    // shortest text is exponential, negative zero, or 17 digits.
    const ids = ['i1', 'i"2', 'a,b', '@x', '-3', '', 'Zürich–1', '日本語', 'line\nbreak'];
    const scores = [12.5, -0, 0.1 + 0.2, -3, 1e-7, 100, 1e21, 123456789.12345679, Number.NaN, 5e-324, -1.7976931348623157e308];
    const n = 5000; // × ~100 bytes: several 64 KiB chunks per column
    const instanceIds = Array.from({ length: n }, (_, p) => `${ids[p % ids.length] ?? ''}${p % 7 === 0 ? '' : p}`);
    const values = Float64Array.from({ length: n + 3 }, (_, p) => scores[p % scores.length] ?? 0); // longer than its test set: the rest names no instance
    const columns: LongScoreColumn[] = [
      { submissionId: 's-1', systemName: 'A, B', teamName: '=team', metric: 'bleu', signature: 'bleu|nrefs:1', instanceIds, values },
      { submissionId: 's-2', systemName: 'Ünïcode', teamName: 't', metric: 'chrf', signature: 'chrF2|"x"', instanceIds, values: values.map((v) => v / 3) },
    ];
    const about = new Map([
      ['s-1', { primary: true, baseline: false, status: 'scored' as const }],
      ['s-2', { primary: false, baseline: true, status: 'hidden' as const }],
    ]);
    const phaseRow = (r: LongScoreRow) => ({ submission_id: r.submissionId, system: r.systemName, team: r.teamName, instance_id: r.instanceId, metric: r.metric, signature: r.signature, score: r.score, ...defined(about.get(r.submissionId)) });
    const visible = Uint8Array.from({ length: n - 10 }, (_, p) => (p % 5 === 3 ? 0 : 1)); // shorter than the column: the rest hidden
    const write = scoreCsvColumns(PHASE_SCORE_COLUMNS, phaseRow);
    const pool = new ChunkPool();
    for (const mask of [null, visible]) {
      for (const column of columns) {
        const expected = [...longRowsOf(column, 1000, mask)].flat().map((r) => exportLine('csv', phaseRow(r), PHASE_SCORE_COLUMNS)).join('');
        const chunks: Buffer[] = [];
        for (const chunk of write(column, mask, pool)) {
          expect(chunk.length).toBeLessThanOrEqual(pool.size);
          chunks.push(Buffer.from(chunk)); // a copy: the chunk's buffer goes back to the pool for the next chunks
          pool.give(chunk);
        }
        expect(chunks.length).toBeGreaterThan(2);
        expect(Buffer.concat(chunks).toString('utf8')).toBe(expected);
      }
    }
    // By hand: a row of each column.
    const [first] = write(defined(columns[1]), null, new ChunkPool());
    expect(defined(first).toString('utf8').split('\r\n').slice(0, 3)).toEqual([
      `s-2,Ünïcode,t,false,true,hidden,i1,chrf,"chrF2|""x""",${12.5 / 3}`,
      `s-2,Ünïcode,t,false,true,hidden,"i""21",chrf,"chrF2|""x""",0`,
      `s-2,Ünïcode,t,false,true,hidden,"a,b2",chrf,"chrF2|""x""",${(0.1 + 0.2) / 3}`,
    ]);
  });

  it("writes the same bytes as before the per-row work was cut (issue #28): a phase's columns of three metrics with quoting, NaN and hidden positions", () => {
    // The expected digest is that of the bytes written by scoreCsvColumns at commit a6abae1,
    // before its row loop changed; the text is also compared with exportLine's row by row above.
    const ids = ['i1', 'i"2', 'a,b', '=x', '+1', '', 'Zürich–1', '日本語', 'cr\rlf\n', ' pad '];
    const scores = [12.5, -0, 0.1 + 0.2, -3, 1e-7, 100, 1e21, 123456789.12345679, Number.NaN, 5e-324, -1.7976931348623157e308, 1 / 3, 99.99999999999999, 2 ** 53];
    const n = 3000;
    const instanceIds = Array.from({ length: n }, (_, p) => `${ids[p % ids.length] ?? ''}${p % 11 === 0 ? '' : p}`);
    const columns: LongScoreColumn[] = ['bleu', 'chrf', 'ter'].flatMap((metric, m) =>
      [
        { submissionId: 'a0000000-0000-4000-8000-000000000001', systemName: 'A, "B"', teamName: '=team' },
        { submissionId: 'a0000000-0000-4000-8000-000000000002', systemName: 'Ünïcode\nsys', teamName: '-t' },
      ].map((s, k) => ({
        ...s,
        metric,
        signature: `${metric}|nrefs:1|"v"`,
        instanceIds,
        // absent scores (NaN) at some positions, and a column longer than its test set
        values: Float64Array.from({ length: n + 2 }, (_, p) => (p % 13 === 5 + m ? Number.NaN : (scores[(p + k + m) % scores.length] ?? 0) * (m + 1))),
      })),
    );
    const about = { primary: true, baseline: false, status: 'scored' as const };
    const phaseRow = (r: LongScoreRow) => ({ submission_id: r.submissionId, system: r.systemName, team: r.teamName, instance_id: r.instanceId, metric: r.metric, signature: r.signature, score: r.score, ...about });
    const visible = Uint8Array.from({ length: n - 7 }, (_, p) => (p % 9 === 4 ? 0 : 1));
    const hash = createHash('sha256');
    let bytes = 0;
    const write = scoreCsvColumns(PHASE_SCORE_COLUMNS, phaseRow);
    const pool = new ChunkPool(4096);
    for (const mask of [null, visible]) {
      for (const column of columns) {
        for (const chunk of write(column, mask, pool)) {
          hash.update(chunk);
          bytes += chunk.length;
          pool.give(chunk);
        }
      }
    }
    expect({ bytes, sha256: hash.digest('hex') }).toEqual({ bytes: 3_496_126, sha256: '0e27bba5a9bfc8b5ced4dad21471a1470992a8fbd6f3dbb1b246fd262efa5a08' });
  });

  it('writes a row longer than a pooled chunk into a chunk of its own size', () => {
    const long = 'x'.repeat(100_000);
    const column: LongScoreColumn = { submissionId: 's', systemName: long, teamName: 't', metric: 'm', signature: 's', instanceIds: ['a', 'b'], values: Float64Array.of(1, 2) };
    const row = (r: LongScoreRow) => ({ system: r.systemName, team: r.teamName, instance_id: r.instanceId, metric: r.metric, signature: r.signature, score: r.score });
    const text = [...scoreCsvColumns(SCORE_COLUMNS, row)(column, null, new ChunkPool())].map((c) => c.toString('utf8')).join('');
    expect(text).toBe(`${long},t,a,m,s,1\r\n${long},t,b,m,s,2\r\n`);
  });

  it('refuses columns without instance_id before score', () => {
    expect(() => scoreCsvLines(['score', 'instance_id'], () => ({ system: '', team: '', instance_id: '', metric: '', signature: '', score: 0 }))).toThrow(/instance_id before score/);
  });

  it('makes file names in Content-Disposition ASCII-safe', () => {
    expect(attachmentDisposition('wmt/de en "x".csv')).toBe('attachment; filename="wmt-de-en-x-.csv"');
  });
});
