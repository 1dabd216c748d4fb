-- The pairs of a large stored board, apart from its document, in tiles of the pairwise matrix
-- (docs/adr/0038-arena-boards-pairs-in-tiles.md). A tile goes with its board (pruned with it).
CREATE TABLE "leaderboard_pair_tile" (
    "board_id" UUID NOT NULL,
    "row" INTEGER NOT NULL,
    "col" INTEGER NOT NULL,
    "count" INTEGER NOT NULL,
    "gzip" BYTEA NOT NULL,
    "brotli" BYTEA NOT NULL,
    "etag" TEXT NOT NULL,

    CONSTRAINT "leaderboard_pair_tile_pkey" PRIMARY KEY ("board_id","row","col")
);

-- Compressed already: no pglz attempt on every write
ALTER TABLE "leaderboard_pair_tile" ALTER COLUMN "gzip" SET STORAGE EXTERNAL;
ALTER TABLE "leaderboard_pair_tile" ALTER COLUMN "brotli" SET STORAGE EXTERNAL;

-- AddForeignKey
ALTER TABLE "leaderboard_pair_tile" ADD CONSTRAINT "leaderboard_pair_tile_board_id_fkey" FOREIGN KEY ("board_id") REFERENCES "stored_leaderboard"("id") ON DELETE CASCADE ON UPDATE CASCADE;
