-- What a leaderboard computation of one view keeps for the next (docs/adr/0027-incremental-boards.md):
-- a v8-serialised analysis memo per phase and view, a cache checked against the rows before use.
CREATE TABLE "leaderboard_memo" (
    "phase_id" UUID NOT NULL,
    "memo_key" TEXT NOT NULL,
    "body" BYTEA NOT NULL,
    "updated_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "leaderboard_memo_pkey" PRIMARY KEY ("phase_id","memo_key")
);

-- Resampled float columns do not compress: no pglz attempt on every write
ALTER TABLE "leaderboard_memo" ALTER COLUMN "body" SET STORAGE EXTERNAL;

-- AddForeignKey
ALTER TABLE "leaderboard_memo" ADD CONSTRAINT "leaderboard_memo_phase_id_fkey" FOREIGN KEY ("phase_id") REFERENCES "phase"("id") ON DELETE CASCADE ON UPDATE CASCADE;
