/**
 * The row loop of a phase's scores.csv (issue #28): `npm run bench:score-csv -- [--rows N]`.
 * Makes N long score rows a stored column at a time (as ScoreRepository.longRows pages them),
 * formats them and encodes them as the download does, and prints rows per CPU-second of:
 *  - csv-stringify per row (formatCsv of the row's cells: how every row was written before);
 *  - scoreCsvLines (a column's shared fields formatted once, csvField for the instance id);
 *  - scoreCsvColumns (bytes straight from the stored column: no row object, no string per row
 *    but the score's), which must write the same bytes.
 * CPU time, not wall time, so a busy machine changes the figures less; the database's reads and
 * the socket are bench:platform's. 3 × 10⁷ rows at each rate is printed beside them.
 */
import { cpus, loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { formatCsv } from '@podium/contracts';
import type { LongScoreColumn, LongScoreRow } from '@podium/db';
import { ChunkPool, PHASE_SCORE_COLUMNS, scoreCsvColumns, scoreCsvLines, type PhaseScoreExportRow } from '../apps/api/src/downloads/csv-writer';

const TARGET_ROWS = 30_000_000;
const WRITE_CHUNK_CHARS = 32 * 1024;

function main(): void {
  const { values } = parseArgs({ options: { rows: { type: 'string' } }, strict: true });
  const n = Number(values.rows ?? 600_000);
  if (!Number.isInteger(n) || n < 1000 || n > 50_000_000) throw new Error(`--rows must be an integer from 1,000 to 50,000,000, got '${values.rows}'`);
  const instances = 100_000;
  const ids = Array.from({ length: instances }, (_, i) => `doc${i % 997}-seg${i}`);
  const scores = Float64Array.from({ length: n }, (_, i) => ((i * 7919) % 10007) / 100.07 + i / n);
  const about = { primary: true, baseline: false, status: 'scored' as const };
  const row = (r: LongScoreRow): PhaseScoreExportRow => ({ submission_id: r.submissionId, system: r.systemName, team: r.teamName, instance_id: r.instanceId, metric: r.metric, signature: r.signature, score: r.score, ...about });
  function* pages(): Generator<LongScoreRow[]> {
    let page: LongScoreRow[] = [];
    for (let i = 0; i < n; i++) {
      const column = Math.floor(i / instances);
      page.push({
        submissionId: `0f8b6f1e-8a1d-4c1b-9d3e-${String(column).padStart(12, '0')}`, systemName: `sys-${column}`, teamName: `team-${column}`,
        instanceId: ids[i % instances] ?? '', position: i % instances, metric: 'bleu', signature: 'nrefs:1|case:mixed|eff:yes|tok:13a|smooth:exp|version:2.4.2', score: scores[i] ?? 0,
      });
      if (page.length >= 5000) {
        yield page;
        page = [];
      }
    }
    if (page.length > 0) yield page;
  }
  const stringify = (r: LongScoreRow) => {
    const v = row(r) as unknown as Record<string, string | number | boolean>;
    return formatCsv([PHASE_SCORE_COLUMNS.map((c) => (typeof v[c] === 'boolean' ? String(v[c]) : (v[c] as string | number)))]);
  };
  // Columns as ScoreRepository.longColumns reads them: the ids array shared, the values decoded.
  function* storedColumns(): Generator<LongScoreColumn> {
    for (let at = 0; at < n; at += instances) {
      const column = at / instances;
      const values = scores.slice(at, Math.min(n, at + instances));
      yield {
        submissionId: `0f8b6f1e-8a1d-4c1b-9d3e-${String(column).padStart(12, '0')}`, systemName: `sys-${column}`, teamName: `team-${column}`,
        metric: 'bleu', signature: 'nrefs:1|case:mixed|eff:yes|tok:13a|smooth:exp|version:2.4.2', instanceIds: ids, values,
      };
    }
  }
  const COLUMNS = 'scoreCsvColumns (bytes)';
  const ways: [string, (r: LongScoreRow) => string][] = [
    ['csv-stringify per row (before)', stringify],
    ['scoreCsvLines', scoreCsvLines(PHASE_SCORE_COLUMNS, row)],
    [COLUMNS, () => ''],
  ];
  const rates = new Map<string, number[]>();
  let check = '';
  let bytesPerRow = 0;
  for (let round = 0; round < 2; round++) {
    for (const [name, line] of ways) {
      const c0 = process.cpuUsage();
      let bytes = 0;
      let first = '';
      if (name === COLUMNS) {
        const write = scoreCsvColumns(PHASE_SCORE_COLUMNS, row);
        const pool = new ChunkPool();
        for (const column of storedColumns()) {
          for (const chunk of write(column, null, pool)) {
            first ||= chunk.subarray(0, 2000).toString('utf8');
            bytes += chunk.length;
            pool.give(chunk);
          }
        }
      } else for (const page of pages()) {
        let chunk = '';
        for (const r of page) {
          chunk += line(r);
          if (chunk.length >= WRITE_CHUNK_CHARS) {
            first ||= chunk.slice(0, 2000);
            bytes += Buffer.byteLength(chunk);
            chunk = '';
          }
        }
        if (chunk) bytes += Buffer.byteLength(chunk);
      }
      const used = process.cpuUsage(c0);
      rates.set(name, [...(rates.get(name) ?? []), n / ((used.user + used.system) / 1e6)]);
      if (check && first !== check) throw new Error(`${name} wrote other text than the rows before it`);
      check ||= first;
      bytesPerRow = bytes / n;
    }
  }
  const fmt = (x: number) => x.toLocaleString('en-US', { maximumFractionDigits: 0 });
  const best = (name: string) => Math.max(...(rates.get(name) ?? [NaN]));
  const before = best(ways[0]?.[0] ?? '');
  process.stdout.write(`bench:score-csv — ${fmt(n)} rows (${fmt(instances)} per column), ${cpus().length} cores, load ${loadavg()[0]?.toFixed(1)}; best of 2 rounds, rows per CPU-second of making, formatting and encoding (${bytesPerRow.toFixed(0)} B a row)\n`);
  for (const [name] of ways) {
    const r = best(name);
    process.stdout.write(`${name.padEnd(32)} ${fmt(r).padStart(10)} rows/CPU-s  ×${(r / before).toFixed(2)}  3 × 10⁷ rows ≈ ${fmt(TARGET_ROWS / r)} CPU-s\n`);
  }
}

main();
