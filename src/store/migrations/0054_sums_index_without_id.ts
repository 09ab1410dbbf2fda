/**
 * Issue 49: on SQLite, `fills_wallet_condition_sums` stops holding a fill's `id` as a column of its own. Every entry
 * of a SQLite index ends with its row's id already (`fill_rows.id` is the row id), so the explicit column held each
 * id twice: 4.0 of the index's 35.2 bytes a fill on the 1,000,000-fill world. The entries still give a wallet's
 * fills in one market in time order, covered, and their id; only the order of fills of one second is no longer the
 * index's, so the two reads that need it (src/analytics/wallet/wallet-market.ts) break the tie with `+id`, which
 * SQLite sorts within each second (`USE TEMP B-TREE FOR LAST TERM OF ORDER BY`). PostgreSQL keeps the column: its
 * index entries point at a heap tuple, not at an id, and an index-only scan reads the id from the index alone.
 */
import { sql, type Kysely } from "kysely";
import { FILL_ROWS } from "../fill-layout.js";
import type { StoreKind, StoreMigration } from "./column-types.js";
import { createFillIndex, type FillIndex, indexPresent } from "./0014_drilldown_fill_indexes.js";

const SUMS_INDEX = "fills_wallet_condition_sums";

/** SQLite's covering index of a wallet's fills by market, from this migration to 0059 (which packs its codes). */
export const SQLITE_SUMS_INDEX: FillIndex = {
  name: SUMS_INDEX,
  columns: ["wallet_id", "condition_ref", "ts", "outcome_index", "side", "size", "usd", "entry_type"],
};

export const sumsIndexWithoutId: StoreMigration = {
  async up(db: Kysely<unknown>, kind: StoreKind) {
    // A first sync under way has none of the deferred indexes yet: it builds this one as it now stands.
    if (kind === "postgres" || !(await indexPresent(db, kind, SUMS_INDEX))) return;
    await sql.raw(`drop index ${SUMS_INDEX}`).execute(db);
    await createFillIndex(db, SQLITE_SUMS_INDEX, FILL_ROWS);
  },
};
