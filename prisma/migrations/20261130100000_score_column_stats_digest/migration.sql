-- The MD5 of a score column's sufficient statistics, computed by PostgreSQL when the column is
-- written (issue #28): an analysis names each system's statistics by it
-- (ScoreRepository.statisticsDigests), which hashed every system's stored bytes, about 0.35 s
-- of the board after the last score per metric at 100 × 100,000. The same value as md5(stats),
-- so the keys of analysis memos stored before stay valid. Not in schema.prisma: Prisma never
-- writes it, and only that raw query reads it.
ALTER TABLE "score_column" ADD COLUMN "stats_md5" TEXT GENERATED ALWAYS AS (md5("stats")) STORED;
