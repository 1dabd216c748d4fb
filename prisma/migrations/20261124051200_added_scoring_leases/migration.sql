-- Scoring leases (docs/adr/0007-scoring-leases.md): the worker scoring a submission, its job,
-- when its lease lapses, attempts made and why a submission is queued again.
ALTER TABLE "submission" ADD COLUMN "attempt" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN "lease_owner" TEXT,
ADD COLUMN "lease_job_id" TEXT,
ADD COLUMN "lease_expires_at" TIMESTAMP(3),
ADD COLUMN "retry_reason" TEXT;

-- CreateIndex
CREATE INDEX "submission_status_lease_expires_at_idx" ON "submission"("status", "lease_expires_at");

-- CreateTable
CREATE TABLE "worker_heartbeat" (
    "name" TEXT NOT NULL,
    "host" TEXT NOT NULL,
    "pid" INTEGER NOT NULL,
    "active_jobs" INTEGER NOT NULL DEFAULT 0,
    "started_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "last_seen_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "worker_heartbeat_pkey" PRIMARY KEY ("name")
);
