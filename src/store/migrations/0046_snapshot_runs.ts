/**
 * Issue 49: the daily position snapshots stored as runs of days (src/store/position-snapshots.ts). On the
 * 1,000,000-fill world the 35 kept days were 666,207 rows, 27 bytes a fill on SQLite, and 65% of them equal to the
 * same wallet's and market's row of the day before: 231,284 runs hold them. The days taken move to
 * `position_snapshot_days`; each (wallet, market) and run of consecutive taken days with the same values becomes one
 * row of `position_snapshot_run_rows` (a run ends the day after its last day); `position_snapshot_rows` is emptied
 * (it now holds only the rows of a day being written) and `position_snapshots` reads the runs as before.
 */
import { sql, type Kysely } from "kysely";
import { idKeyedViewSql } from "../id-keyed.js";
import { SNAPSHOT_DAYS, SNAPSHOT_RUNS, SNAPSHOT_STAGE, snapshotViewSql } from "../position-snapshots.js";
import { columnTypes, type StoreKind, type StoreMigration } from "./column-types.js";

const VALUES = "yes_shares, yes_cost, no_shares, no_cost";

export const snapshotRuns: StoreMigration = {
  async up(db: Kysely<unknown>, kind: StoreKind) {
    const run = (text: string) => sql.raw(text).execute(db);
    const t = columnTypes(kind);
    const runs = db.schema
      .createTable(SNAPSHOT_RUNS)
      .addColumn("wallet_id", "integer", (c) => c.notNull())
      .addColumn("condition_ref", "integer", (c) => c.notNull())
      .addColumn("from_day", t.int, (c) => c.notNull())
      .addColumn("until_day", t.int, (c) => c.notNull())
      .addColumn("yes_shares", t.int, (c) => c.notNull())
      .addColumn("yes_cost", t.real, (c) => c.notNull())
      .addColumn("no_shares", t.int, (c) => c.notNull())
      .addColumn("no_cost", t.real, (c) => c.notNull())
      .addPrimaryKeyConstraint(`${SNAPSHOT_RUNS}_pk`, ["wallet_id", "condition_ref", "from_day"] as never);
    await (kind === "sqlite" ? runs.modifyEnd(sql`without rowid`) : runs).execute();
    await db.schema
      .createTable(SNAPSHOT_DAYS)
      .addColumn("day", kind === "sqlite" ? "integer" : t.int, (c) => c.primaryKey())
      .execute();
    await run(`insert into ${SNAPSHOT_DAYS} (day) select distinct day from ${SNAPSHOT_STAGE} order by day`);
    // A run: a (wallet, market) with the same values on consecutive taken days (the days' ranks minus the row's
    // rank among the same values is constant along a run).
    await run(`insert into ${SNAPSHOT_RUNS} (wallet_id, condition_ref, from_day, until_day, ${VALUES})
      select wallet_id, condition_ref, min(day), max(day) + 86400, ${VALUES} from (
        select s.wallet_id, s.condition_ref, s.day, s.yes_shares, s.yes_cost, s.no_shares, s.no_cost,
          d.n - row_number() over (partition by s.wallet_id, s.condition_ref, ${VALUES} order by s.day) as island
        from ${SNAPSHOT_STAGE} s join (select day, row_number() over (order by day) as n from ${SNAPSHOT_DAYS}) d
          on d.day = s.day
      ) t group by wallet_id, condition_ref, ${VALUES}, island
      order by wallet_id, condition_ref, min(day)`);
    await run(`delete from ${SNAPSHOT_STAGE}`);
    await run("drop view position_snapshots");
    await run(snapshotViewSql());
    await run(idKeyedViewSql("position_snapshot_runs"));
    if (kind === "postgres") await run(`analyze ${SNAPSHOT_RUNS}`);
  },
};
