/**
 * What PostgreSQL alone spends storing one submission's outputs, by layout (ADR 0037):
 * `node -r @swc-node/register bench/output-storage.bench.ts [--instances N]`.
 * One row of N synthetic outputs is COPYed from a server-side file (no network, no api) into:
 * `text[]` with STORAGE EXTERNAL (what the migration chose), in COPY's binary format and in its
 * text format (an array literal, every element quoted and escaped); `text[]` with the default
 * EXTENDED (pglz; this build has no lz4), binary; and the same bytes as one `bytea` (EXTERNAL). Server CPU (the PostgreSQL process tree) per line and bytes stored per line,
 * three COPYs each after a CHECKPOINT, in two rounds; on an embedded PostgreSQL of its own.
 */
import { randomUUID } from 'node:crypto';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { Client } from 'pg';
import { copyOutputRowHead } from '@podium/db';
import { startOwnPostgres } from '../test/e2e/support/postgres';
import { freePort } from '../test/e2e/support/processes';
import { defined } from '../test/support/defined';
import { treeCpuSeconds } from './platform/cpu-profile';
import { syntheticTestSet, systemOutputs, systemQualities } from './platform/synthetic';

const { values } = parseArgs({ options: { instances: { type: 'string' } }, strict: true });
const N = Number(values.instances ?? 100_000);
const ROUNDS = 2;
const REPEATS = 3;

async function main(): Promise<void> {
  const instances = syntheticTestSet(N, 1);
  const texts = systemOutputs(instances, defined(systemQualities(2, 1)[0]), 0, 1);
  const elements = Buffer.concat(
    texts.map((t) => {
      const b = Buffer.from(t);
      const len = Buffer.alloc(4);
      len.writeInt32BE(b.length);
      return Buffer.concat([len, b]);
    }),
  );
  const dir = mkdtempSync(path.join(tmpdir(), 'podium-output-storage-'));
  chmodSync(dir, 0o755); // the server may run as its own user and must read the files
  const pg = await startOwnPostgres(`output-storage-${process.pid}`, await freePort(), false);
  const client = new Client({ connectionString: pg.url });
  await client.connect();
  try {
    const pid = defined(pg.child.pid, 'the PostgreSQL process id');
    const layouts = [
      { table: 'texts_external', column: 'texts text[]', storage: 'EXTERNAL', kind: 'array' },
      { table: 'texts_as_text', column: 'texts text[]', storage: 'EXTERNAL', kind: 'text' },
      { table: 'texts_extended', column: 'texts text[]', storage: 'EXTENDED', kind: 'array' },
      { table: 'bytes_external', column: 'texts bytea', storage: 'EXTERNAL', kind: 'bytea' },
    ] as const;
    for (const l of layouts) {
      await client.query(`CREATE TABLE ${l.table} (id uuid PRIMARY KEY, test_set_id uuid NOT NULL, ${l.column} NOT NULL)`);
      await client.query(`ALTER TABLE ${l.table} ALTER COLUMN texts SET STORAGE ${l.storage}`);
    }
    const files = { array: path.join(dir, 'array.bin'), bytea: path.join(dir, 'bytea.bin'), text: path.join(dir, 'array.txt') };
    // COPY text: the array literal (each element quoted, " and \ escaped), then COPY's own escaping of \ and control characters.
    const literal = `{${texts.map((t) => `"${t.replace(/[\\"]/g, (c) => `\\${c}`)}"`).join(',')}}`;
    const copyField = literal.replace(/[\\\t\n\r]/g, (c) => ({ '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r' })[c] ?? c);
    writeFileSync(files.text, `${randomUUID()}\t${randomUUID()}\t${copyField}\n`);
    const id = randomUUID();
    const head = copyOutputRowHead(id, id, N, elements.length);
    writeFileSync(files.array, Buffer.concat([head, elements, Buffer.from([0xff, 0xff])]));
    // The same row with one bytea in place of the array: the head up to the array's length field, then the bytes.
    const byteaLength = Buffer.alloc(4);
    byteaLength.writeInt32BE(elements.length);
    writeFileSync(files.bytea, Buffer.concat([head.subarray(0, head.length - 24), byteaLength, elements, Buffer.from([0xff, 0xff])]));
    for (const f of Object.values(files)) chmodSync(f, 0o644);
    process.stdout.write(`bench:output-storage  one row of ${N.toLocaleString('en-US')} outputs (${(elements.length / 1e6).toFixed(1)} MB), load ${loadavg().map((x) => x.toFixed(2)).join(' ')}\n`);
    for (let round = 1; round <= ROUNDS; round++) {
      for (const l of layouts) {
        let cpu = 0;
        let wall = 0;
        let bytes = 0;
        for (let k = 0; k < REPEATS; k++) {
          await client.query('CHECKPOINT');
          const c0 = treeCpuSeconds(pid);
          const t0 = process.hrtime.bigint();
          await client.query(`COPY ${l.table} FROM '${files[l.kind]}' (FORMAT ${l.kind === 'text' ? 'text' : 'binary'})`);
          wall += Number(process.hrtime.bigint() - t0) / 1e9;
          cpu += treeCpuSeconds(pid) - c0;
          bytes = Number((await client.query<{ n: string }>(`SELECT pg_total_relation_size('${l.table}') AS n`)).rows[0]?.n ?? 0);
          await client.query(`TRUNCATE ${l.table}`);
        }
        process.stdout.write(
          `  round ${round}  ${l.table.padEnd(15)} ${((cpu / REPEATS / N) * 1e6).toFixed(2)} server CPU-µs per line  ${((wall / REPEATS) * 1000).toFixed(0)} ms a row  ${(bytes / N).toFixed(1)} bytes stored per line\n`,
        );
      }
    }
  } finally {
    await client.end();
    await pg.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((e: unknown) => {
  process.stderr.write(`${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
  process.exit(1);
});
