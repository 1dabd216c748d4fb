-- Issue #20: per-phase team per-instance scores, a public/private split, test-set commitments
ALTER TABLE "phase" ADD COLUMN "team_instance_scores" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN "split" JSONB;

CREATE TABLE "test_set_commitment" (
    "test_set_id" UUID NOT NULL,
    "commitment" TEXT NOT NULL,
    "salt" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "test_set_commitment_pkey" PRIMARY KEY ("test_set_id")
);

ALTER TABLE "test_set_commitment" ADD CONSTRAINT "test_set_commitment_test_set_id_fkey" FOREIGN KEY ("test_set_id") REFERENCES "test_set"("id") ON DELETE CASCADE ON UPDATE CASCADE;
