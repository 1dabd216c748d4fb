-- Phase state machine (docs/adr/0013-phase-state-machine.md): who closed and published a phase,
-- when its primaries were frozen, one primary per team, disqualification reasons private by default.

-- AlterTable
ALTER TABLE "phase" ADD COLUMN "closed_by_id" UUID,
ADD COLUMN "published_by_id" UUID,
ADD COLUMN "primaries_frozen_at" TIMESTAMP(3);

-- A phase published before it closed counts as closed early when it was published (published implies closed)
UPDATE "phase" SET "closed_early_at" = "published_at"
WHERE "published_at" IS NOT NULL AND "closed_early_at" IS NULL AND "closes_at" > "published_at";

-- AddForeignKey
ALTER TABLE "phase" ADD CONSTRAINT "phase_closed_by_id_fkey" FOREIGN KEY ("closed_by_id") REFERENCES "user"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "phase" ADD CONSTRAINT "phase_published_by_id_fkey" FOREIGN KEY ("published_by_id") REFERENCES "user"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AlterTable: a null actor is the system (a phase that closed at its closesAt)
ALTER TABLE "audit_entry" ALTER COLUMN "actor_id" DROP NOT NULL;

-- AlterTable
ALTER TABLE "submission" ADD COLUMN "moderation_reason_public" BOOLEAN NOT NULL DEFAULT false;

-- Several primaries of one team (concurrent markPrimary before this index): keep the newest
UPDATE "submission" AS s SET "is_primary" = false
WHERE s."is_primary" AND EXISTS (
  SELECT 1 FROM "submission" AS o
  WHERE o."phase_id" = s."phase_id" AND o."team_id" = s."team_id" AND o."is_primary"
    AND (o."created_at" > s."created_at" OR (o."created_at" = s."created_at" AND o."id" > s."id"))
);

-- CreateIndex: at most one primary submission per team and phase
CREATE UNIQUE INDEX "submission_one_primary_per_team" ON "submission"("phase_id", "team_id") WHERE "is_primary";
