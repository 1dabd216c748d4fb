-- AlterTable
ALTER TABLE "phase" ADD COLUMN     "significance_resamples" INTEGER,
ADD COLUMN     "significance_seed" INTEGER NOT NULL DEFAULT 12345;
