// How the service reads stored boards, with the repository stubbed (the database is
// stored-leaderboard.integration.spec.ts's): requests share reads in flight (issue #28).
import type { LeaderboardRepository, StoredLeaderboardCompressed, TaskRepository } from '@podium/db';
import { gzipSync } from 'node:zlib';
import { randomUUID } from 'node:crypto';
import type { LeaderboardJobs } from './leaderboard-jobs';
import { localWrites } from '../common/local-writes';
import { CURRENT_READ_REUSE_MS, LeaderboardService } from './leaderboard.service';
import type { PhaseMetricsService } from './phase-metrics.service';

const STAMP = 'stamp-1';

function service(): { service: LeaderboardService; reads: { bytes: number; current: number; facts: number } } {
  const reads = { bytes: 0, current: 0, facts: 0 };
  const facts = { name: 'p', closesAt: new Date('2099-01-01'), leaderboardBeforeClose: true, closedEarlyAt: null, publishedAt: null, taskId: randomUUID(), taskSlug: 't' };
  const row = { id: randomUUID(), stamp: STAMP, etag: '"etag-1"', computedAt: new Date('2026-11-28T10:00:00Z'), durationMs: 5 };
  const boards = {
    // A phase anyone may see (leaderboard before close), its current board stored.
    current: () => {
      reads.current++;
      return Promise.resolve({
        phase: facts,
        stamp: STAMP,
        board: row,
      });
    },
    phaseFacts: () => {
      reads.facts++;
      return Promise.resolve(facts);
    },
    compressed: async (): Promise<StoredLeaderboardCompressed> => {
      reads.bytes++;
      await new Promise((r) => setTimeout(r, 20));
      return { ...row, gzip: gzipSync('{"metric":"bleu","pairs":[]}'), brotli: new Uint8Array([2]) };
    },
  };
  const none = {};
  return {
    service: new LeaderboardService(none as TaskRepository, boards as unknown as LeaderboardRepository, none as LeaderboardJobs, none as PhaseMetricsService),
    reads,
  };
}

describe('stored board reads', () => {
  it('reads a new board once for the requests that arrive while it is read, then serves it from memory', async () => {
    const { service: s, reads } = service();
    const phaseId = randomUUID();
    const snapshots = await Promise.all(Array.from({ length: 20 }, () => s.snapshot(phaseId, {}, null)));
    expect(reads.bytes).toBe(1);
    expect(new Set(snapshots).size).toBe(1);
    expect(snapshots[0]?.etag).toBe('"etag-1"');
    // the identity bytes are the stored gzip's, inflated
    expect(snapshots[0]?.body.toString('utf8')).toBe('{"metric":"bleu","pairs":[]}');
    await s.snapshot(phaseId, {}, null);
    expect(reads.bytes).toBe(1);
  });
});

describe("a phase's stamp and board, read once for the requests that follow (issue #28)", () => {
  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

  it('answers the requests of the next moments from one read, then reads again', async () => {
    const { service: s, reads } = service();
    const phaseId = randomUUID();
    await s.snapshot(phaseId, {}, null); // the board's bytes read and kept
    await sleep(CURRENT_READ_REUSE_MS + 20);
    const t0 = performance.now();
    await s.snapshot(phaseId, {}, null);
    await s.snapshot(phaseId, {}, null);
    await s.snapshot(phaseId, {}, null);
    // another view of the same phase is a read of its own
    await s.snapshot(phaseId, { metric: 'chrf' }, null);
    // (three calls on memory take microseconds; a machine that stalled past the window reads again, rightly)
    if (performance.now() - t0 < CURRENT_READ_REUSE_MS) {
      expect(reads.current).toBe(3);
      // who may see the board is read for every request that takes the stamp from memory
      expect(reads.facts).toBe(2);
    }
    await sleep(CURRENT_READ_REUSE_MS + 20);
    const before = reads.current;
    await s.snapshot(phaseId, {}, null);
    expect(reads.current).toBe(before + 1);
  });

  it('reads again after a write of this process, and shares nothing while one runs', async () => {
    const { service: s, reads } = service();
    const phaseId = randomUUID();
    await s.snapshot(phaseId, {}, null);
    const end = localWrites.begin();
    await s.snapshot(phaseId, {}, null);
    await s.snapshot(phaseId, {}, null);
    expect(reads.current).toBe(3);
    end();
    await s.snapshot(phaseId, {}, null);
    await s.snapshot(phaseId, {}, null);
    expect(reads.current).toBe(4);
  });
});
