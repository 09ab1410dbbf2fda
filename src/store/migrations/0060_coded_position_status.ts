/**
 * Issue 49: `position_rows` stored a position's status as text ('open' or 'closed') in every row, and both of its
 * indexes held it again after the market or the wallet (`positions_condition_holders`, `positions_wallet_closed`).
 * On the 1,000,000-fill world (SQLite, dbstat) the rows took 5.36 bytes a fill, the holders' index 2.82 and the closed
 * positions' 2.28. Here the status is stored as a code (closed 0, open 1: `POSITION_STATUS_CODES`, which sort as the
 * texts did), which a SQLite record keeps in its header alone; the view `positions` reads it back as the text
 * (`storeCodedColumns`, as 0056 coded the fees and last moves). SQLite rebuilds the table in key order and makes both
 * indexes again on the integer column; PostgreSQL changes it to `smallint`, which makes the indexes again, and
 * analyzes the table (the column's statistics go with its type). The reads that filter on the status filter on the
 * code (src/store/position-status.ts): a filter on the view's computed text reaches no index. Migrated, the 1M world's
 * rows take 4.88 bytes a fill, the holders' index 2.10 and the closed positions' 1.57 (10.46 -> 8.55; the store 201.05
 * -> 199.15), in 0.15 s (peak RSS 147 MB); the 10M world's 11.13 -> 9.14 (205.90 -> 203.91) in 0.94 s. On PostgreSQL
 * only the closed positions' index shrinks (3.97 -> 3.25), the `smallint` elsewhere padded to its neighbours'
 * alignment as the text was.
 * Decision: docs/decisions.md, "Positions code their status".
 */
import { sql, type Kysely } from "kysely";
import { ID_KEYED } from "../id-keyed.js";
import { storeCodedColumns } from "./code-columns.js";
import type { StoreKind, StoreMigration } from "./column-types.js";

export const codedPositionStatus: StoreMigration = {
  async up(db: Kysely<unknown>, kind: StoreKind) {
    await storeCodedColumns(db, kind, "positions", ["wallet_id", "token_ref"]);
    if (kind === "postgres") await sql.raw(`analyze ${ID_KEYED.positions.rows}`).execute(db);
  },
};
