-- CreateEnum
CREATE TYPE "RobustnessStatus" AS ENUM ('QUEUED', 'RUNNING', 'DONE', 'FAILED');

-- CreateTable
CREATE TABLE "robustness_report" (
    "id" UUID NOT NULL,
    "task_id" UUID NOT NULL,
    "metric" TEXT NOT NULL,
    "signature" TEXT NOT NULL DEFAULT '',
    "suite" TEXT NOT NULL,
    "mode" TEXT NOT NULL,
    "status" "RobustnessStatus" NOT NULL DEFAULT 'QUEUED',
    "attempt" INTEGER NOT NULL DEFAULT 1,
    "error" TEXT,
    "result" JSONB,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "started_at" TIMESTAMP(3),
    "finished_at" TIMESTAMP(3),

    CONSTRAINT "robustness_report_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "robustness_report_task_id_metric_suite_mode_key" ON "robustness_report"("task_id", "metric", "suite", "mode");

-- AddForeignKey
ALTER TABLE "robustness_report" ADD CONSTRAINT "robustness_report_task_id_fkey" FOREIGN KEY ("task_id") REFERENCES "task"("id") ON DELETE CASCADE ON UPDATE CASCADE;
