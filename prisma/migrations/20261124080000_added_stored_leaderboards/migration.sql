-- Leaderboards computed by workers and stored per phase, view and scoring stamp (issue #11).
-- CreateTable
CREATE TABLE "stored_leaderboard" (
    "id" UUID NOT NULL,
    "phase_id" UUID NOT NULL,
    "view_key" TEXT NOT NULL,
    "stamp" TEXT NOT NULL,
    "body" TEXT NOT NULL,
    "gzip" BYTEA NOT NULL,
    "brotli" BYTEA NOT NULL,
    "etag" TEXT NOT NULL,
    "computed_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "duration_ms" INTEGER NOT NULL,

    CONSTRAINT "stored_leaderboard_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "stored_leaderboard_phase_id_view_key_stamp_key" ON "stored_leaderboard"("phase_id", "view_key", "stamp");

-- CreateIndex
CREATE INDEX "stored_leaderboard_phase_id_view_key_computed_at_idx" ON "stored_leaderboard"("phase_id", "view_key", "computed_at");

-- AddForeignKey
ALTER TABLE "stored_leaderboard" ADD CONSTRAINT "stored_leaderboard_phase_id_fkey" FOREIGN KEY ("phase_id") REFERENCES "phase"("id") ON DELETE CASCADE ON UPDATE CASCADE;
