-- Outputs stored one row per submission (docs/adr/0037-outputs-one-row-per-submission.md):
-- texts[p + 1] is the output for the instance at position p of the test set, a null element
-- where there is none. One row per submission instead of one per output: an upload stores one
-- row (no per-row primary key and foreign-key checks), readers read one value.
CREATE TABLE "submission_output" (
    "submission_id" UUID NOT NULL,
    "test_set_id" UUID NOT NULL,
    "texts" TEXT[] NOT NULL,

    CONSTRAINT "submission_output_pkey" PRIMARY KEY ("submission_id")
);

-- Out of line and uncompressed: pglz (this PostgreSQL build has no lz4) cost more CPU per stored
-- line than it saved, and readers that take a slice detoast the whole value each time.
ALTER TABLE "submission_output" ALTER COLUMN "texts" SET STORAGE EXTERNAL;

CREATE INDEX "submission_output_test_set_id_idx" ON "submission_output"("test_set_id");

ALTER TABLE "submission_output" ADD CONSTRAINT "submission_output_submission_id_fkey" FOREIGN KEY ("submission_id") REFERENCES "submission"("id") ON DELETE CASCADE ON UPDATE CASCADE;

ALTER TABLE "submission_output" ADD CONSTRAINT "submission_output_test_set_id_fkey" FOREIGN KEY ("test_set_id") REFERENCES "test_set"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Existing outputs move over: every position of the submission's test set in order (positions
-- run 0 to n - 1), null where a position had no output row. A submission's outputs belong to
-- one test set (should they ever span two, the one with most rows is kept).
INSERT INTO "submission_output" ("submission_id", "test_set_id", "texts")
SELECT g.submission_id, g.test_set_id, array_agg(o.text ORDER BY i.position)
FROM (
  SELECT DISTINCT ON (o.submission_id) o.submission_id, si.test_set_id
  FROM "output" o JOIN "instance" si ON si.id = o.instance_id
  GROUP BY o.submission_id, si.test_set_id
  ORDER BY o.submission_id, count(*) DESC, si.test_set_id
) g
JOIN "instance" i ON i.test_set_id = g.test_set_id
LEFT JOIN "output" o ON o.submission_id = g.submission_id AND o.instance_id = i.id
GROUP BY g.submission_id, g.test_set_id;

DROP TABLE "output";
