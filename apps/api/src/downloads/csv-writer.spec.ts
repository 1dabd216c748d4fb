// Quoting rules themselves are specified once, in libs/contracts/src/csv.spec.ts.
import type { LongScoreRow } from '@podium/db';
import { defined } from '../../../../test/support/defined';
import { PHASE_SCORE_COLUMNS, SCORE_COLUMNS, attachmentDisposition, exportHeader, exportLine, scoreCsvLines } from './csv-writer';

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

  it('refuses columns without instance_id before score', () => {
    expect(() => scoreCsvLines(['score', 'instance_id'], () => ({ system: '', team: '', instance_id: '', metric: '', signature: '', score: 0 }))).toThrow(/instance_id before score/);
  });

  it('makes file names in Content-Disposition ASCII-safe', () => {
    expect(attachmentDisposition('wmt/de en "x".csv')).toBe('attachment; filename="wmt-de-en-x-.csv"');
  });
});
