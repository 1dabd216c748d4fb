// How the service reads stored boards, with the repository stubbed (the database is
// stored-leaderboard.integration.spec.ts's): requests share reads in flight (issue #28).
import type { LeaderboardRepository, StoredLeaderboardCompressed, TaskRepository } from '@podium/db';
import { gzipSync } from 'node:zlib';
import { randomUUID } from 'node:crypto';
import type { LeaderboardJobs } from './leaderboard-jobs';
import { LeaderboardService } from './leaderboard.service';
import type { PhaseMetricsService } from './phase-metrics.service';

const STAMP = 'stamp-1';

function service(): { service: LeaderboardService; reads: { bytes: number } } {
  const reads = { bytes: 0 };
  const row = { id: randomUUID(), stamp: STAMP, etag: '"etag-1"', computedAt: new Date('2026-11-28T10:00:00Z'), durationMs: 5 };
  const boards = {
    // A phase anyone may see (leaderboard before close), its current board stored.
    current: () =>
      Promise.resolve({
        phase: { name: 'p', closesAt: new Date('2099-01-01'), leaderboardBeforeClose: true, closedEarlyAt: null, publishedAt: null, taskId: randomUUID(), taskSlug: 't' },
        stamp: STAMP,
        board: row,
      }),
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
