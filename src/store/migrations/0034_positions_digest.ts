/**
 * A wallet's positions as last written, in one number (`wallet_stats.positions_digest`), so that the stamp of its
 * kept answers moves with every write of its positions. The statistics row's figures alone did not: a redemption of a
 * resolved market's winner rewrites the position (its shares paid out, closed) and leaves the totals, trades and
 * open count as they were, and within the same second the row's `computed_at` too. Stores derived before it hold 0
 * until the Deriver next writes the wallet; the kept answers live in a process, which the migration restarts.
 */
import type { Kysely } from "kysely";
import { columnTypes, type StoreKind, type StoreMigration } from "./column-types.js";

export const positionsDigest: StoreMigration = {
  async up(db: Kysely<unknown>, kind: StoreKind) {
    const t = columnTypes(kind);
    await db.schema
      .alterTable("wallet_stats")
      .addColumn("positions_digest", t.int, (c) => c.notNull().defaultTo(0))
      .execute();
  },
};
