/**
 * Issue 49: the daily position snapshots' runs (`position_snapshot_run_rows`, 0046, 0058) stored each side's cost as
 * an 8-byte double where it has a fraction (47195.83553872): 2.6 of the runs' 9.3 bytes a fill on the 1,000,000-fill
 * world. The ledger computes a cost as shares × average price / 10^12 (micro-shares, micro-units), so here each cost
 * is stored as that price (at most 1,000,000: 3 bytes; a side without shares 0, none), in a column of its own beside
 * the cost, which keeps its value only where no price gives it back exactly (else null, which a SQLite record keeps
 * in its header alone): src/store/snapshot-costs.ts. The views `position_snapshots` and `position_snapshot_runs`
 * read every cost back as it was (shares × price / 10^12 in doubles, as the ledger computed it, on both stores), so
 * no reader changes; the staged rows of a day being written (`position_snapshot_rows`, empty between writes) store
 * their costs alike, so that the statements merging a day into the runs compare and copy the values as stored.
 * Measured on the 1,000,000-fill world (SQLite, dbstat): the runs were 9.31 bytes a fill (231,284 rows, 33.3 bytes
 * of record each), 8.29 after (28.2; 8.45 -> 7.24 after `migrate --compact`); every one of the 462,568 costs there is
 * stored as a price, and the views read all runs and day rows as before (each value's bits). The migration took 1.9 s
 * there. PostgreSQL's rows keep their size (72 bytes: the null bitmap takes what the prices save, aligned to 8).
 * Decision: docs/decisions.md, "Snapshot runs store their costs as average prices".
 * Both stores make each table again (SQLite cannot change a column in place; PostgreSQL would write every row again
 * to set its price): the old one set aside, the new one created, the rows copied in key order a page at a time,
 * coded in TypeScript by the derived tables' own code (`storedExactly`), the old table dropped and the views made
 * again.
 */
import { sql, type Kysely } from "kysely";
import { exactCodeColumns } from "../exact-codes.js";
import { ID_KEYED, idKeyedViewSql } from "../id-keyed.js";
import { snapshotViewSql } from "../position-snapshots.js";
import { SNAPSHOT_COST_CODES } from "../snapshot-costs.js";
import { columnTypes, type StoreKind, type StoreMigration } from "./column-types.js";
import { copyExactlyCoded } from "./copy-coded.js";

/** A column's type: `integer` on both stores (4 bytes on PostgreSQL), or by what it holds (`columnTypes`). */
type Type = "integer" | "int" | "real";

/** The values' columns as both tables store them from here on: the costs null where their prices hold them. */
const VALUE_COLUMNS: readonly (readonly [string, Type, "null"?])[] = [
  ["yes_shares", "int"],
  ["yes_cost", "real", "null"],
  ["no_shares", "int"],
  ["no_cost", "real", "null"],
  // A price in micro-units up to 2^31 - 1: a PostgreSQL `integer`.
  ...exactCodeColumns(SNAPSHOT_COST_CODES).map((column) => [column, "integer", "null"] as const),
];

/**
 * The two tables' columns before the values, as they stand (the runs' days as numbers since 0058): the first three
 * are the key.
 */
const LEADING: Readonly<Record<string, readonly (readonly [string, Type])[]>> = {
  [ID_KEYED.position_snapshot_runs.rows]: [
    ["wallet_id", "integer"],
    ["condition_ref", "integer"],
    ["from_day", "integer"],
    ["day_count", "integer"],
  ],
  [ID_KEYED.position_snapshots.rows]: [
    ["day", "int"],
    ["wallet_id", "integer"],
    ["condition_ref", "integer"],
  ],
};

export const compactSnapshotCosts: StoreMigration = {
  async up(db: Kysely<unknown>, kind: StoreKind) {
    const run = (text: string) => sql.raw(text).execute(db);
    await run("drop view position_snapshots");
    await run("drop view position_snapshot_runs");
    for (const table of Object.keys(LEADING)) await codeCosts(db, kind, table);
    await run(snapshotViewSql("day numbers", kind));
    await run(idKeyedViewSql("position_snapshot_runs", kind));
    if (kind === "postgres") for (const table of Object.keys(LEADING)) await run(`analyze ${table}`);
  },
};

/** The table made again with its costs coded: set aside, created, its rows copied coded in key order, dropped. */
async function codeCosts(db: Kysely<unknown>, kind: StoreKind, table: string): Promise<void> {
  const run = (text: string) => sql.raw(text).execute(db);
  const before = `${table}_before`;
  await run(`alter table ${table} rename to ${before}`);
  if (kind === "postgres") await run(`alter table ${before} rename constraint ${table}_pk to ${before}_pk`);
  const columns = [...LEADING[table]!, ...VALUE_COLUMNS];
  const key = columns.slice(0, 3).map(([name]) => name);
  const types = { ...columnTypes(kind), integer: "integer" as const };
  let create = db.schema.createTable(table);
  for (const [name, type, nullable] of columns)
    create = create.addColumn(name, types[type], (c) => (nullable ? c : c.notNull()));
  create = create.addPrimaryKeyConstraint(`${table}_pk`, key as never);
  await (kind === "sqlite" ? create.modifyEnd(sql`without rowid`) : create).execute();
  await copyExactlyCoded(db, before, table, {
    key,
    columns: columns.map(([name]) => name),
    codes: SNAPSHOT_COST_CODES,
  });
  await run(`drop table ${before}`);
}
