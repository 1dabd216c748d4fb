-- Instance scores by column (docs/adr/0009-columnar-scores.md): one row per submission and
-- metric holding every score in test-set position order as float64 little-endian bytes, the
-- signature once and the corpus metrics' sufficient statistics, instead of one row per score.
-- No semicolon may appear inside a statement or comment here: the pg driver adapter that runs
-- migrations (prisma.config.ts) splits the script at every semicolon.

-- CreateTable
CREATE TABLE "score_column" (
    "submission_id" UUID NOT NULL,
    "metric" TEXT NOT NULL,
    "test_set_id" UUID NOT NULL,
    "signature" TEXT NOT NULL,
    "count" INTEGER NOT NULL,
    "scored" INTEGER NOT NULL,
    "values" BYTEA NOT NULL,
    "stats" BYTEA,

    CONSTRAINT "score_column_pkey" PRIMARY KEY ("submission_id","metric"),
    CONSTRAINT "score_column_values_length" CHECK (octet_length("values") = 8 * "count"),
    CONSTRAINT "score_column_scored_range" CHECK ("scored" BETWEEN 0 AND "count")
);

-- Statistics arrive deflated (libs/db/src/score-column.ts): stored out of line without a
-- second compression attempt. Values keep the default (pglz when it saves a quarter or more:
-- sentence BLEU and chrF scores do not compress, TER scores with their many repeated ratios do,
-- about 3 to 1), and a slice of a value still reads only the chunks before its end.
ALTER TABLE "score_column" ALTER COLUMN "stats" SET STORAGE EXTERNAL;

-- CreateIndex
CREATE INDEX "score_column_test_set_id_idx" ON "score_column"("test_set_id");

-- AddForeignKey
ALTER TABLE "score_column" ADD CONSTRAINT "score_column_submission_id_fkey" FOREIGN KEY ("submission_id") REFERENCES "submission"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "score_column" ADD CONSTRAINT "score_column_test_set_id_fkey" FOREIGN KEY ("test_set_id") REFERENCES "test_set"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Existing scores move over: every position of the test set in order, NaN where a position had
-- no score row. float8send gives big-endian bytes, reversed here to little-endian. A submission
-- is scored on the test set of its outputs, so one test set per submission and metric (should
-- rows ever span two, the one with most rows is kept). Statistics stay null: the leaderboard
-- recomputes them from the texts until the submission is scored again.
INSERT INTO "score_column" ("submission_id", "metric", "test_set_id", "signature", "count", "scored", "values")
SELECT g.submission_id, g.metric, g.test_set_id, g.signature, count(i.id)::int, g.scored,
       string_agg(
         substring(b.be FROM 8 FOR 1) || substring(b.be FROM 7 FOR 1) || substring(b.be FROM 6 FOR 1) || substring(b.be FROM 5 FOR 1) ||
         substring(b.be FROM 4 FOR 1) || substring(b.be FROM 3 FOR 1) || substring(b.be FROM 2 FOR 1) || substring(b.be FROM 1 FOR 1),
         ''::bytea ORDER BY i.position)
FROM (
  SELECT DISTINCT ON (sc.submission_id, sc.metric)
         sc.submission_id, sc.metric, si.test_set_id,
         (count(*) FILTER (WHERE sc.value <> 'NaN'::float8))::int AS scored,
         mode() WITHIN GROUP (ORDER BY sc.signature) AS signature
  FROM "instance_score" sc JOIN "instance" si ON si.id = sc.instance_id
  GROUP BY sc.submission_id, sc.metric, si.test_set_id
  ORDER BY sc.submission_id, sc.metric, count(*) DESC, si.test_set_id
) g
JOIN "instance" i ON i.test_set_id = g.test_set_id
LEFT JOIN "instance_score" sc ON sc.submission_id = g.submission_id AND sc.metric = g.metric AND sc.instance_id = i.id
CROSS JOIN LATERAL (SELECT float8send(coalesce(sc.value, 'NaN'::float8)) AS be) b
GROUP BY g.submission_id, g.metric, g.test_set_id, g.signature, g.scored;

-- DropForeignKey
ALTER TABLE "instance_score" DROP CONSTRAINT "instance_score_submission_id_fkey";

-- DropForeignKey
ALTER TABLE "instance_score" DROP CONSTRAINT "instance_score_instance_id_fkey";

-- DropTable
DROP TABLE "instance_score";
