-- Per-task organisers, an instance administrator role and tokens issued on a user's behalf (issue #20).
-- Existing organisers keep the ORGANISER role and organise the tasks they created (backfilled below)
-- AlterEnum
ALTER TYPE "Role" ADD VALUE 'ADMIN' BEFORE 'ORGANISER';

-- AlterTable
ALTER TABLE "api_token" ADD COLUMN "issued_by_id" UUID;

-- CreateTable
CREATE TABLE "task_organiser" (
    "task_id" UUID NOT NULL,
    "user_id" UUID NOT NULL,
    "added_by_id" UUID,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "task_organiser_pkey" PRIMARY KEY ("task_id","user_id")
);

-- CreateIndex
CREATE INDEX "task_organiser_user_id_idx" ON "task_organiser"("user_id");

-- AddForeignKey
ALTER TABLE "api_token" ADD CONSTRAINT "api_token_issued_by_id_fkey" FOREIGN KEY ("issued_by_id") REFERENCES "user"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "task_organiser" ADD CONSTRAINT "task_organiser_task_id_fkey" FOREIGN KEY ("task_id") REFERENCES "task"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "task_organiser" ADD CONSTRAINT "task_organiser_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "user"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "task_organiser" ADD CONSTRAINT "task_organiser_added_by_id_fkey" FOREIGN KEY ("added_by_id") REFERENCES "user"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- Every task's creator organises it
INSERT INTO "task_organiser" ("task_id", "user_id") SELECT "id", "created_by_id" FROM "task";
