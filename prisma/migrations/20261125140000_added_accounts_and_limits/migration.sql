-- Accounts and limits (issue #21, docs/adr/0016-accounts-and-limits.md).

-- Look-alike names: existing names that collide under lower(NFKC) get their id's first 8
-- characters appended (all but the oldest), so the unique expression indexes below can exist.
UPDATE "user" AS u SET "name" = u."name" || ' (' || left(u."id"::text, 8) || ')'
FROM (SELECT "id", row_number() OVER (PARTITION BY lower(normalize("name", NFKC)) ORDER BY "created_at", "id") AS rn FROM "user") AS d
WHERE d."id" = u."id" AND d.rn > 1;

CREATE UNIQUE INDEX "user_name_key_unique" ON "user" (lower(normalize("name", NFKC)));

UPDATE "team" AS t SET "name" = t."name" || ' (' || left(t."id"::text, 8) || ')'
FROM (SELECT "id", row_number() OVER (PARTITION BY lower(normalize("name", NFKC)) ORDER BY "created_at", "id") AS rn FROM "team") AS d
WHERE d."id" = t."id" AND d.rn > 1;

CREATE UNIQUE INDEX "team_name_key_unique" ON "team" (lower(normalize("name", NFKC)));

-- System names: one live (not FAILED) system per name and team in a phase, under lower(NFKC).
UPDATE "submission" AS s SET "system_name" = s."system_name" || ' (' || left(s."id"::text, 8) || ')'
FROM (SELECT "id", row_number() OVER (PARTITION BY "phase_id", "team_id", lower(normalize("system_name", NFKC)) ORDER BY "created_at", "id") AS rn FROM "submission" WHERE "status" <> 'FAILED') AS d
WHERE d."id" = s."id" AND d.rn > 1;

CREATE UNIQUE INDEX "submission_system_name_key_unique" ON "submission" ("phase_id", "team_id", lower(normalize("system_name", NFKC))) WHERE "status" <> 'FAILED';

-- Invite codes: set by the repository from randomBytes(16), and every md5(random()) code is
-- replaced by 244 random bits from two gen_random_uuid() (PostgreSQL 13+, a CSPRNG).
ALTER TABLE "team" ALTER COLUMN "invite_code" DROP DEFAULT;

UPDATE "team" SET "invite_code" = replace(gen_random_uuid()::text || gen_random_uuid()::text, '-', '');

-- Team owners (the creator) and when members joined (ownership passes to the longest-standing).
ALTER TABLE "team" ADD COLUMN "owner_id" UUID;

ALTER TABLE "team" ADD CONSTRAINT "team_owner_id_fkey" FOREIGN KEY ("owner_id") REFERENCES "user"("id") ON DELETE SET NULL ON UPDATE CASCADE;

ALTER TABLE "membership" ADD COLUMN "joined_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP;

-- Tasks: one team per person (and per-person submission limits) when an organiser turns it on.
ALTER TABLE "task" ADD COLUMN "one_team_per_person" BOOLEAN NOT NULL DEFAULT false;
