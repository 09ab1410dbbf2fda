/**
 * Issue 31, hardening: community lookups count distinct clients, not requests. A row per wallet, UTC hour and
 * client (a hash of its IPv4 address or IPv6 /64) records that the client looked the wallet up in that hour;
 * `wallet_lookups.count` then counts those rows, so one client adds at most one lookup per wallet and hour.
 */
import type { Kysely } from "kysely";
import { columnTypes, type StoreKind, type StoreMigration } from "./column-types.js";

export const lookupClients: StoreMigration = {
  async up(db: Kysely<unknown>, kind: StoreKind) {
    const t = columnTypes(kind);
    await db.schema
      .createTable("wallet_lookup_clients")
      .addColumn("wallet", t.text, (c) => c.notNull())
      .addColumn("hour", t.int, (c) => c.notNull())
      .addColumn("client", t.text, (c) => c.notNull())
      .addPrimaryKeyConstraint("wallet_lookup_clients_pk", ["wallet", "hour", "client"])
      .execute();
    await db.schema.createIndex("wallet_lookup_clients_hour").on("wallet_lookup_clients").column("hour").execute();
  },
};
