/**
 * Issue 49: the daily position snapshots' runs (`position_snapshot_run_rows`, migration 0046) stored both their days
 * as unix seconds of a midnight (1,792,195,200: 4 bytes in a SQLite record, 8 in a PostgreSQL `bigint`). Here a
 * run keeps its first day as its day number (days since 1970-01-01 UTC, about 20,700: 2 bytes) and, in place of
 * `until_day`, its length in days, `day_count` (1 for half the runs on the 1,000,000-fill world, which a SQLite
 * record keeps in its header alone; at most the days kept, 35 by default, in a byte), src/store/day-numbers.ts. Every read
 * finds a run by its key (wallet, market, `from_day`) and filters on its end, which no index holds, so the end as
 * a sum reads as fast (docs/decisions.md, "Snapshot runs store day numbers and their length"). Measured on the
 * 1,000,000-fill world (SQLite, dbstat): the runs were 10.57 bytes a fill (231,284 rows of 45.7 bytes), 9.63 after
 * (8.45 after `migrate --compact`); PostgreSQL's rows 8 bytes shorter. The migration took 0.2 s there.
 * The views `position_snapshots` and `position_snapshot_runs` read the days back as the seconds they were, so no
 * reader changes; the taken days (`position_snapshot_days`, one row a day) and the staged rows of a day being
 * written stay in seconds. `wallet_daily_fills` numbered its days so from the start (0021).
 * SQLite rebuilds the table, its rows converted and copied in key order; PostgreSQL changes both columns to
 * `integer` in one `alter table` (each `using` reads the row as it was) and renames `until_day`. The views depend
 * on the columns, so they are dropped first and made again after.
 */
import { sql, type Kysely } from "kysely";
import { RUN_DAY_CODES } from "../day-numbers.js";
import { idKeyedViewSql } from "../id-keyed.js";
import { SNAPSHOT_RUNS, snapshotViewSql } from "../position-snapshots.js";
import type { StoreKind, StoreMigration } from "./column-types.js";
import { rebuildSqliteTable, sqliteColumns } from "./sqlite-rebuild.js";

const { from_day: FROM_DAY, until_day: UNTIL_DAY } = RUN_DAY_CODES;

export const dayNumbers: StoreMigration = {
  async up(db: Kysely<unknown>, kind: StoreKind) {
    const run = (text: string) => sql.raw(text).execute(db);
    await run("drop view position_snapshots");
    await run("drop view position_snapshot_runs");
    if (kind === "sqlite") await rebuildSqlite(db);
    else {
      await run(`alter table ${SNAPSHOT_RUNS}
        alter column from_day type integer using ${FROM_DAY.codeSql()},
        alter column until_day type integer using ${UNTIL_DAY.codeSql()}`);
      await run(`alter table ${SNAPSHOT_RUNS} rename column until_day to ${UNTIL_DAY.storedAs}`);
    }
    await run(snapshotViewSql("day numbers"));
    // This layout's view: the costs as stored, until 0065 stores them as average prices.
    await run(idKeyedViewSql("position_snapshot_runs", kind, ["yes_cost", "no_cost"]));
    if (kind === "postgres") await run(`analyze ${SNAPSHOT_RUNS}`);
  },
};

/** The table made again with `day_count` for `until_day`, its rows converted on the way, in key order. */
async function rebuildSqlite(db: Kysely<unknown>): Promise<void> {
  const converted: Record<string, string> = {
    from_day: `${FROM_DAY.codeSql()} as from_day`,
    until_day: `${UNTIL_DAY.codeSql()} as ${UNTIL_DAY.storedAs}`,
  };
  const select = (await sqliteColumns(db, SNAPSHOT_RUNS)).map((c) => converted[c] ?? c).join(", ");
  const renamed = (definition: string) => definition.replace(/"until_day" integer/i, `"${UNTIL_DAY.storedAs}" integer`);
  // The key (wallet_id, condition_ref, from_day) is the select list's first three columns.
  await rebuildSqliteTable(db, SNAPSHOT_RUNS, renamed, { order: "1, 2, 3", select });
}
