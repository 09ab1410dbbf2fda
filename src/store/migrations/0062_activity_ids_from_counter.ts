/**
 * Issue 49: on SQLite `activity_rows` (stored by wallet, time and id, WITHOUT ROWID) drops `activity_rows_id`, the
 * unique index on its ids (0.885 bytes a fill on the 1,000,000-fill world). It served two reads of the ids' end: the
 * writer numbered each new row as the largest id plus one, and the Deriver's watermarks (`storedWatermarks`,
 * src/derive/rebuild.ts) read the same end. Both read the last id handed out from `row_counters` instead
 * (src/store/row-counters.ts), which the writer moves in the transaction of its rows; here it starts at the largest
 * stored id (no row for an empty table: a counter's row comes with its table's first id). No read selects activity
 * by a range of ids: a wallet's rows are read under the table's key. PostgreSQL numbers its rows from the table's
 * sequence and keeps its primary key: nothing changes there.
 */
import { sql, type Kysely } from "kysely";
import { ACTIVITY_ROWS } from "../activity-layout.js";
import { ROW_COUNTERS, ROW_COUNTERS_TABLE } from "../row-counters.js";
import type { StoreKind, StoreMigration } from "./column-types.js";

export const activityIdsFromCounter: StoreMigration = {
  async up(db: Kysely<unknown>, kind: StoreKind) {
    if (kind !== "sqlite") return;
    await startActivityCounter(db);
    await sql.raw("drop index activity_rows_id").execute(db);
  },
};

/** SQLite: `row_counters`, holding the largest stored activity id as the last handed out (none if none is stored). */
export async function startActivityCounter(db: Kysely<unknown>): Promise<void> {
  await sql.raw(ROW_COUNTERS_TABLE).execute(db);
  await sql
    .raw(`insert into ${ROW_COUNTERS} (name, last_id)
      select '${ACTIVITY_ROWS}', id from (select max(id) as id from ${ACTIVITY_ROWS}) where id is not null`)
    .execute(db);
}
