/** Accounts, their plans, and API keys (stored only as hashes). Issue 3. */
import type { Kysely } from "kysely";
import { columnTypes, serialKey, type StoreKind, type StoreMigration } from "./column-types.js";

export const accounts: StoreMigration = {
  async up(db: Kysely<unknown>, kind: StoreKind) {
    const t = columnTypes(kind);
    const serial = serialKey(kind);
    await db.schema
      .createTable("accounts")
      .addColumn("id", t.serial, serial)
      .addColumn("name", t.text, (c) => c.notNull().unique())
      .addColumn("plan", t.text, (c) => c.notNull())
      .addColumn("created_at", t.int, (c) => c.notNull())
      .execute();

    await db.schema
      .createTable("api_keys")
      .addColumn("id", t.serial, serial)
      .addColumn("account_id", t.int, (c) => c.notNull())
      .addColumn("lookup_id", t.text, (c) => c.notNull().unique())
      .addColumn("secret_hash", t.text, (c) => c.notNull())
      .addColumn("status", t.text, (c) => c.notNull())
      .addColumn("rate_limit_per_minute", t.int)
      .addColumn("created_at", t.int, (c) => c.notNull())
      .addColumn("ended_at", t.int)
      .execute();
    await db.schema.createIndex("api_keys_account").on("api_keys").column("account_id").execute();
  },
};
