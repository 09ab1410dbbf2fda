/**
 * Issue 49 (bytes per fill): an insider score keeps the facts its components are computed from (a short JSON array,
 * src/store/insider-scores.ts) instead of the components in words (640 bytes a bet, 36 of the 1,000,000-fill world's
 * 444 bytes per fill); the reads compute the components again with the ledger's rule. The scores are derived: the
 * rows are dropped here and written again by the Deriver's first refresh.
 */
import type { Kysely } from "kysely";
import { columnTypes, type StoreKind, type StoreMigration } from "./column-types.js";

export const insiderFacts: StoreMigration = {
  async up(db: Kysely<unknown>, kind: StoreKind) {
    const t = columnTypes(kind);
    await db.deleteFrom("insider_scores" as never).execute();
    await db.schema.alterTable("insider_scores").dropColumn("components").execute();
    await db.schema
      .alterTable("insider_scores")
      .addColumn("facts", t.text, (c) => c.notNull().defaultTo("[]"))
      .execute();
  },
};
