/**
 * Issue 49, SQLite: four more tables keyed by one text become WITHOUT ROWID, as 0030 made the derived tables keyed
 * by text. A rowid table keeps its text key a second time in the key's automatic unique index; stored in the key's
 * b-tree, a row holds it once and a read by key is one search instead of two. Chosen by the rule of 0030: no other
 * index, or only indexes that hold the key already (`funding_addresses_pending` is on (hop, address): its entries
 * lose the rowid and gain nothing), and nothing reads or keys on their rowid (no trigger, view or query names it;
 * the change counters' triggers on the markets' two tables are made again as they were). The other rowid tables
 * keyed by text stay: their other indexes would hold the text instead of a rowid (rebuilt so, `wallet_stats`,
 * `markets` and `funding_clusters` measured larger, `market_tokens` and `events` a page smaller), the wallets' name
 * index is keyed by their rowids, and the rest are a page or none whatever the store's size. Rows are copied in key order; readers and writers are unchanged.
 * PostgreSQL keeps its heaps: nothing to do there. Measured on the 1,000,000-fill world (SQLite, dbstat), the four
 * tables with their key indexes took 1.72 bytes a fill (`wallet_sync` 0.41 + 0.30, `funding_addresses` 0.39 + 0.34,
 * `market_stats` 0.08 + 0.07, `market_resolutions` 0.07 + 0.05), 0.98 after (0.44, 0.38, 0.08, 0.07); the store's
 * b-trees 197.56 -> 196.82 (192.36 -> 191.64 vacuumed), in 0.14 s.
 * Decision: docs/decisions.md, "More tables keyed by text are WITHOUT ROWID".
 */
import type { Kysely } from "kysely";
import type { StoreKind, StoreMigration } from "./column-types.js";
import { rebuildSqliteTable, withoutRowidDefinition } from "./sqlite-rebuild.js";

/** Each table and its key. */
export const TEXT_KEYED = {
  wallet_sync: "wallet",
  funding_addresses: "address",
  market_stats: "condition_id",
  market_resolutions: "condition_id",
} as const;

export const textKeyedWithoutRowid: StoreMigration = {
  async up(db: Kysely<unknown>, kind: StoreKind) {
    if (kind !== "sqlite") return;
    for (const [table, key] of Object.entries(TEXT_KEYED))
      await rebuildSqliteTable(db, table, withoutRowidDefinition, { order: key });
  },
};
