/**
 * Issue 52, funding: where wallets' collateral came from.
 * - `funding_addresses`: every address whose incoming collateral transfers Pelagic reads: the wallets it sees (hop 0)
 *   and the accounts that funded them, up to `FUNDING_HOPS` - 1 transfers back; `traced_to_block` is the last block
 *   read for it (null: not read yet).
 * - `funding_transfers`: those transfers (the collateral tokens' `Transfer` logs), keyed by their place on chain.
 * - `funding_clusters`: the Deriver's grouping of wallets by a shared funder that is not a hub, rewritten whole.
 */
import { sql, type Kysely } from "kysely";
import { columnTypes, type StoreKind, type StoreMigration } from "./column-types.js";

export const funding: StoreMigration = {
  async up(db: Kysely<unknown>, kind: StoreKind) {
    const t = columnTypes(kind);
    await db.schema
      .createTable("funding_addresses")
      .addColumn("address", t.text, (c) => c.primaryKey())
      .addColumn("hop", t.int, (c) => c.notNull())
      .addColumn("traced_to_block", t.int)
      .addColumn("transfers", t.int, (c) => c.notNull().defaultTo(0))
      .execute();
    await sql
      .raw("create index funding_addresses_pending on funding_addresses (hop, address) where traced_to_block is null")
      .execute(db);
    await db.schema
      .createTable("funding_transfers")
      .addColumn("block_number", t.int, (c) => c.notNull())
      .addColumn("log_index", t.int, (c) => c.notNull())
      .addColumn("tx_hash", t.text, (c) => c.notNull())
      .addColumn("ts", t.int, (c) => c.notNull())
      .addColumn("token", t.text, (c) => c.notNull())
      .addColumn("from_address", t.text, (c) => c.notNull())
      .addColumn("to_address", t.text, (c) => c.notNull())
      .addColumn("amount_micro", t.int, (c) => c.notNull())
      .addPrimaryKeyConstraint("funding_transfers_pk", ["block_number", "log_index"])
      .execute();
    await db.schema
      .createIndex("funding_transfers_to")
      .on("funding_transfers")
      .columns(["to_address", "block_number"])
      .execute();
    await db.schema.createIndex("funding_transfers_from").on("funding_transfers").column("from_address").execute();
    await db.schema
      .createTable("funding_clusters")
      .addColumn("wallet", t.text, (c) => c.primaryKey())
      .addColumn("cluster_id", t.text, (c) => c.notNull())
      .addColumn("funder_hops", t.int)
      .execute();
    await db.schema.createIndex("funding_clusters_cluster").on("funding_clusters").column("cluster_id").execute();
  },
};
