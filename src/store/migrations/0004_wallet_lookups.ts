/**
 * Issue 7, wallet endpoints: community lookups (overview lookups counted per wallet and hour, shared by every API
 * process through the store) and indexes to find a wallet by its venue username or pseudonym.
 */
import type { Kysely } from "kysely";
import { columnTypes, type StoreKind, type StoreMigration } from "./column-types.js";

export const walletLookups: StoreMigration = {
  async up(db: Kysely<unknown>, kind: StoreKind) {
    const t = columnTypes(kind);
    const s = db.schema;
    await s
      .createTable("wallet_lookups")
      .addColumn("wallet", t.text, (c) => c.notNull())
      .addColumn("hour", t.int, (c) => c.notNull())
      .addColumn("count", t.int, (c) => c.notNull().defaultTo(0))
      .addPrimaryKeyConstraint("wallet_lookups_pk", ["wallet", "hour"])
      .execute();
    await s.createIndex("wallet_lookups_hour").on("wallet_lookups").column("hour").execute();
    await s.createIndex("wallets_name_lookup").on("wallets").column("name").execute();
    await s.createIndex("wallets_pseudonym_lookup").on("wallets").column("pseudonym").execute();
  },
};
