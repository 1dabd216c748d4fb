-- A submission's paper and code links, given and edited by its team (issue #22)
ALTER TABLE "submission" ADD COLUMN "paper_url" TEXT, ADD COLUMN "code_url" TEXT
