// The score columns a worker's board threads read, kept between computations in memory the
// threads share (issue #28). A computation starts a fresh thread (and an overtaken one is
// terminated), so what a thread reads is kept by its creator: each column the thread reads goes
// into a SharedArrayBuffer it posts to the creator's BoardColumnCache, and the next thread of the
// phase is given those buffers. It then reads from PostgreSQL only the columns scored (or
// rescored) since: the row versions say which (ScoreRepository's ScoreColumnCache, libs/db).
import type { CachedScoreColumn, ScoreColumnCache } from '@podium/db';

/** One column as threads and their creator share it: the values' bytes are shared, not copied. */
export interface SharedScoreColumn {
  phaseId: string;
  submissionId: string;
  metric: string;
  testSetId: string;
  /** The row version the values were read at (CachedScoreColumn.version). */
  version: string;
  signature: string;
  /** Float64 values in position order. */
  values: SharedArrayBuffer;
}

const keyOf = (submissionId: string, metric: string, testSetId: string) => `${submissionId}\u0000${metric}\u0000${testSetId}`;

/**
 * The creator's side: columns by submission, metric and test set, at most `maxBytes` of values
 * (the least recently given or added go first). A column of a submission deleted since stays
 * until it is pushed out; a column rescored is replaced by the thread that reads it again.
 */
export class BoardColumnCache {
  private readonly columns = new Map<string, SharedScoreColumn>();
  private held = 0;

  constructor(readonly maxBytes: number) {}

  /** Bytes of values held. */
  get bytes(): number {
    return this.held;
  }

  get size(): number {
    return this.columns.size;
  }

  /** The columns of one phase, for a thread that computes its boards (each marked as just used). */
  forPhase(phaseId: string): SharedScoreColumn[] {
    const found = [...this.columns.entries()].filter(([, c]) => c.phaseId === phaseId);
    for (const [key, c] of found) {
      this.columns.delete(key);
      this.columns.set(key, c);
    }
    return found.map(([, c]) => c);
  }

  /** Keeps a column a thread read (replacing the one of the same key), then trims to `maxBytes`. */
  add(column: SharedScoreColumn): void {
    const key = keyOf(column.submissionId, column.metric, column.testSetId);
    const before = this.columns.get(key);
    if (before) {
      this.columns.delete(key);
      this.held -= before.values.byteLength;
    }
    if (column.values.byteLength > this.maxBytes) return;
    this.columns.set(key, column);
    this.held += column.values.byteLength;
    for (const [oldest, c] of this.columns) {
      if (this.held <= this.maxBytes) break;
      this.columns.delete(oldest);
      this.held -= c.values.byteLength;
    }
  }
}

/**
 * The thread's side, what its ScoreRepository reads through: the columns its creator gave it, and
 * each column it reads copied into shared memory and handed to `keep` (which posts it).
 */
export class ThreadColumnCache implements ScoreColumnCache {
  private readonly columns = new Map<string, CachedScoreColumn>();

  constructor(
    private readonly phaseId: string,
    given: readonly SharedScoreColumn[],
    private readonly keep: (column: SharedScoreColumn) => void,
  ) {
    for (const c of given) this.columns.set(keyOf(c.submissionId, c.metric, c.testSetId), { version: c.version, signature: c.signature, values: new Float64Array(c.values) });
  }

  get(submissionId: string, metric: string, testSetId: string): CachedScoreColumn | undefined {
    return this.columns.get(keyOf(submissionId, metric, testSetId));
  }

  set(submissionId: string, metric: string, testSetId: string, column: CachedScoreColumn): void {
    const values = new SharedArrayBuffer(column.values.byteLength);
    const kept = new Float64Array(values);
    kept.set(column.values);
    this.columns.set(keyOf(submissionId, metric, testSetId), { version: column.version, signature: column.signature, values: kept });
    this.keep({ phaseId: this.phaseId, submissionId, metric, testSetId, version: column.version, signature: column.signature, values });
  }
}
