-- Fencing tokens (docs/adr/0017-fencing-and-fast-leases.md): every claim of a lease takes the
-- next token, and a worker's final write lands only while the row still carries the token its
-- claim returned, so a worker that lost its lease (partitioned, paused) cannot write late.
ALTER TABLE "submission" ADD COLUMN "fencing_token" BIGINT NOT NULL DEFAULT 0;

-- Robustness-report jobs hold leases like scoring jobs: the worker running it, its pg-boss
-- job, when the lease lapses, the fencing token and the runs started for the current attempt.
ALTER TABLE "robustness_report" ADD COLUMN "lease_owner" TEXT,
ADD COLUMN "lease_job_id" TEXT,
ADD COLUMN "lease_expires_at" TIMESTAMP(3),
ADD COLUMN "fencing_token" BIGINT NOT NULL DEFAULT 0,
ADD COLUMN "runs" INTEGER NOT NULL DEFAULT 0;

-- CreateIndex
CREATE INDEX "robustness_report_status_lease_expires_at_idx" ON "robustness_report"("status", "lease_expires_at");

-- Leaderboard computations of a phase: the token taken by the worker that holds the phase's
-- lock, and who took it when.
CREATE TABLE "leaderboard_lease" (
    "phase_id" UUID NOT NULL,
    "fencing_token" BIGINT NOT NULL DEFAULT 0,
    "owner" TEXT,
    "taken_at" TIMESTAMP(3),

    CONSTRAINT "leaderboard_lease_pkey" PRIMARY KEY ("phase_id")
);

-- AddForeignKey
ALTER TABLE "leaderboard_lease" ADD CONSTRAINT "leaderboard_lease_phase_id_fkey" FOREIGN KEY ("phase_id") REFERENCES "phase"("id") ON DELETE CASCADE ON UPDATE CASCADE;
