-- CreateEnum
CREATE TYPE "Registration" AS ENUM ('OPEN', 'APPROVAL');

-- CreateEnum
CREATE TYPE "RegistrationStatus" AS ENUM ('PENDING', 'APPROVED');

-- CreateEnum
CREATE TYPE "Moderation" AS ENUM ('NONE', 'HIDDEN', 'DISQUALIFIED');

-- AlterTable
ALTER TABLE "user" ADD COLUMN "email" TEXT,
ADD COLUMN "password_hash" TEXT;

-- AlterTable
ALTER TABLE "team" ADD COLUMN "invite_code" TEXT NOT NULL DEFAULT md5(random()::text);

-- AlterTable
ALTER TABLE "task" ADD COLUMN "registration" "Registration" NOT NULL DEFAULT 'OPEN';

-- AlterTable
ALTER TABLE "phase" ADD COLUMN "closed_early_at" TIMESTAMP(3),
ADD COLUMN "published_at" TIMESTAMP(3);

-- AlterTable
ALTER TABLE "instance" ADD COLUMN "context" JSONB;

-- AlterTable
ALTER TABLE "submission" ADD COLUMN "is_primary" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN "moderation" "Moderation" NOT NULL DEFAULT 'NONE',
ADD COLUMN "moderation_reason" TEXT;

-- CreateTable
CREATE TABLE "session" (
    "id" UUID NOT NULL,
    "user_id" UUID NOT NULL,
    "token_hash" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expires_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "session_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "task_registration" (
    "task_id" UUID NOT NULL,
    "team_id" UUID NOT NULL,
    "status" "RegistrationStatus" NOT NULL DEFAULT 'PENDING',
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "task_registration_pkey" PRIMARY KEY ("task_id","team_id")
);

-- CreateTable
CREATE TABLE "audit_entry" (
    "id" UUID NOT NULL,
    "actor_id" UUID NOT NULL,
    "action" TEXT NOT NULL,
    "target_type" TEXT NOT NULL,
    "target_id" TEXT NOT NULL,
    "details" JSONB NOT NULL DEFAULT '{}',
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "audit_entry_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "score_history" (
    "id" UUID NOT NULL,
    "submission_id" UUID NOT NULL,
    "metric" TEXT NOT NULL,
    "signature" TEXT NOT NULL,
    "value" DOUBLE PRECISION NOT NULL,
    "replaced_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "score_history_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "user_email_key" ON "user"("email");

-- CreateIndex
CREATE UNIQUE INDEX "team_invite_code_key" ON "team"("invite_code");

-- CreateIndex
CREATE UNIQUE INDEX "session_token_hash_key" ON "session"("token_hash");

-- CreateIndex
CREATE INDEX "session_user_id_idx" ON "session"("user_id");

-- CreateIndex
CREATE INDEX "audit_entry_created_at_idx" ON "audit_entry"("created_at");

-- CreateIndex
CREATE INDEX "score_history_submission_id_idx" ON "score_history"("submission_id");

-- AddForeignKey
ALTER TABLE "session" ADD CONSTRAINT "session_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "user"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "task_registration" ADD CONSTRAINT "task_registration_task_id_fkey" FOREIGN KEY ("task_id") REFERENCES "task"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "task_registration" ADD CONSTRAINT "task_registration_team_id_fkey" FOREIGN KEY ("team_id") REFERENCES "team"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "audit_entry" ADD CONSTRAINT "audit_entry_actor_id_fkey" FOREIGN KEY ("actor_id") REFERENCES "user"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "score_history" ADD CONSTRAINT "score_history_submission_id_fkey" FOREIGN KEY ("submission_id") REFERENCES "submission"("id") ON DELETE CASCADE ON UPDATE CASCADE;
