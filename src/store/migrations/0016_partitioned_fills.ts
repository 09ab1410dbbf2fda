/**
 * Issue 29: PostgreSQL's `fills` becomes a table range-partitioned by `ts`, one partition a calendar month (UTC) and
 * a default one (src/store/fill-partitions.ts, docs/SCALING.md). Old months are then never written again (vacuum
 * and index maintenance touch the current month) and reads bounded in time read only their months.
 *
 * A unique constraint of a partitioned table must contain its partition key: the primary key becomes (id, ts) and
 * the natural key (fill_key, ts). The guarantee is unchanged, since a fill's `ts` is a function of its key (a chain
 * fill's key is its block and log, its `ts` the block's time; a Data API fill's key holds its transaction, its `ts`
 * that transaction's time): a replayed fill has the same pair and is refused.
 *
 * A stored table is converted with its rows (ids kept, the id sequence carried over): a new partitioned table with
 * the months from its first fill to its last, the rows copied, the old table dropped, then its indexes rebuilt as
 * they stood (a first sync's deferred indexes that were dropped stay dropped). Once, in the migration's transaction;
 * at 10,000,000 fills it rewrites several GB. SQLite's `fills` stays one table.
 */
import { sql, type Kysely } from "kysely";
import { defaultFillPartition, fillMonthsBetween } from "../fill-partitions.js";
import type { StoreKind, StoreMigration } from "./column-types.js";

export const partitionedFills: StoreMigration = {
  async up(db: Kysely<unknown>, kind: StoreKind) {
    if (kind !== "postgres") return;
    const run = (text: string) => sql.raw(text).execute(db);
    const partitioned = await sql`select 1 from pg_partitioned_table
      where partrelid = to_regclass(current_schema() || '.fills')`.execute(db);
    if (partitioned.rows.length > 0) return;

    // Indexes other than the two constraints', as they stand (`create index ... on <schema>.fills ...`).
    const indexes = await sql<{ definition: string }>`select indexdef as definition from pg_indexes
      where schemaname = current_schema() and tablename = 'fills' and indexname not in ('fills_pkey', 'fills_fill_key_key')
      order by indexname`.execute(db);
    const bounds = await sql<{ first: number | null; last: number | null }>`
      select min(ts) as first, max(ts) as last from fills`.execute(db);
    const { first, last } = bounds.rows[0] ?? { first: null, last: null };

    await run("create table fills_partitioned (like fills including defaults) partition by range (ts)");
    await run(`create table ${defaultFillPartition("fills")} partition of fills_partitioned default`);
    if (first !== null && last !== null)
      for (const month of fillMonthsBetween(Number(first), Number(last), "fills"))
        await run(
          `create table ${month.name} partition of fills_partitioned for values from (${month.from}) to (${month.to})`,
        );
    await run("insert into fills_partitioned select * from fills");
    await run("alter sequence fills_id_seq owned by none");
    await run("drop table fills");
    await run("alter table fills_partitioned rename to fills");
    await run("alter sequence fills_id_seq owned by fills.id");
    await run("alter table fills add constraint fills_pkey primary key (id, ts)");
    await run("alter table fills add constraint fills_fill_key_key unique (fill_key, ts)");
    for (const index of indexes.rows) await run(index.definition);
    await run("analyze fills");
  },
};
