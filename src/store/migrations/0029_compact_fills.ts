/**
 * Issue 49: fills move to the compact layout of src/store/fill-layout.ts. `fills` was 802 of the 1,184 bytes a fill
 * cost the 1,000,000-fill world's SQLite store (the row 400, its six indexes the rest), most of it ids written as
 * text in the row and again in each index. Now:
 * - `address_ids`, `condition_ids`, `token_ids`: each address, market and token once, with a small integer id;
 * - `fill_rows`: the fills by those ids, hashes as 32-byte blobs, the natural key stored only where it does not
 *   follow from block and log; its indexes on the ids (same names and columns as before, ids for texts);
 * - the view `fills`: the rows as readers always had them, text for text.
 * A stored table is converted with its rows (ids kept), once, in the migration's transaction; the fills indexes a
 * first sync deferred stay deferred. PostgreSQL's `fill_rows` is partitioned by month as `fills` was (0016), its
 * unique keys holding `ts` as a partitioned table's must.
 */
import { sql, type Kysely } from "kysely";
import { FILL_DICTIONARIES, FILL_ROWS, chainFillKeySql, fillsViewSql, storedHashSql } from "../fill-layout.js";
import { defaultFillPartition, fillMonthsBetween } from "../fill-partitions.js";
import { whaleSizeMakerFills } from "../schema.js";
import { columnTypes, type StoreKind, type StoreMigration } from "./column-types.js";
import { createFillIndex, type FillIndex } from "./0014_drilldown_fill_indexes.js";

/** `fill_rows`' indexes that every store has: time order, and the two halves of the natural key. */
export function keyFillIndexes(kind: StoreKind): FillIndex[] {
  const ts = kind === "postgres" ? ["ts"] : [];
  return [
    { name: "fills_ts", columns: ["ts"] },
    {
      name: "fill_rows_chain_key",
      columns: ["block_number", "log_index", ...ts],
      where: "key_text is null",
      unique: true,
    },
    { name: "fill_rows_text_key", columns: ["key_text", ...ts], where: "key_text is not null", unique: true },
  ];
}

/** The indexes a first sync defers (src/store/fills.ts): those of 0001, 0014 and 0024, on ids. */
export const COMPACT_DEFERRED_FILL_INDEXES: readonly FillIndex[] = [
  { name: "fills_wallet_ts", columns: ["wallet_id", "ts"] },
  { name: "fills_condition_ts", columns: ["condition_ref", "ts"] },
  {
    name: "fills_wallet_condition_sums",
    columns: ["wallet_id", "condition_ref", "ts", "id", "outcome_index", "side", "size", "usd", "entry_type"],
  },
  {
    name: "fills_whale_size_makers",
    columns: [
      "condition_ref",
      "ts",
      "id",
      "usd",
      "role",
      "wallet_id",
      "counterparty_id",
      "side",
      "outcome_index",
      "price",
      "size",
      "entry_type",
      "tx_hash",
      "tx_text",
    ],
    where: whaleSizeMakerFills("text"),
  },
];

export const compactFills: StoreMigration = {
  async up(db: Kysely<unknown>, kind: StoreKind) {
    const run = (text: string) => sql.raw(text).execute(db);
    // Each deferred index comes back if it stood (a first sync drops them all, and builds them at its end).
    const standing = await fillIndexesPresent(db, kind);
    await createDictionaries(db, kind);
    await createFillRows(db, kind);
    for (const { table, column } of Object.values(FILL_DICTIONARIES)) {
      const values =
        table === "address_ids"
          ? "select wallet as v from fills union select counterparty from fills where counterparty is not null"
          : `select distinct ${column} as v from fills`;
      await run(`insert into ${table} (${column}) select v from (${values}) d order by v`);
    }
    await run(copyFillsSql(kind));
    if (kind === "postgres") {
      await run(
        `select setval(pg_get_serial_sequence('${FILL_ROWS}', 'id'), greatest(1, (select max(id) from fills)))`,
      );
      await run("drop table fills cascade");
    } else {
      await run("drop table fills");
    }
    await run(fillsViewSql(kind, "text"));
    for (const index of keyFillIndexes(kind)) await createFillIndex(db, index, FILL_ROWS);
    for (const index of COMPACT_DEFERRED_FILL_INDEXES)
      if (standing.has(index.name)) await createFillIndex(db, index, FILL_ROWS);
    if (kind === "postgres") await run(`analyze ${FILL_ROWS}`);
  },
};

async function fillIndexesPresent(db: Kysely<unknown>, kind: StoreKind): Promise<Set<string>> {
  const found =
    kind === "sqlite"
      ? await sql<{ name: string }>`select name from sqlite_master where type = 'index' and tbl_name = 'fills'`.execute(
          db,
        )
      : await sql<{ name: string }>`select indexname as name from pg_indexes
          where schemaname = current_schema() and tablename = 'fills'`.execute(db);
  return new Set(found.rows.map((r) => r.name));
}

async function createDictionaries(db: Kysely<unknown>, kind: StoreKind): Promise<void> {
  const t = columnTypes(kind);
  for (const { table, column } of Object.values(FILL_DICTIONARIES)) {
    await db.schema
      .createTable(table)
      .addColumn("id", kind === "postgres" ? sql`serial` : "integer", (c) => c.primaryKey())
      .addColumn(column, t.text, (c) => c.notNull().unique())
      .execute();
  }
}

async function createFillRows(db: Kysely<unknown>, kind: StoreKind): Promise<void> {
  const t = columnTypes(kind);
  const blob = kind === "postgres" ? "bytea" : "blob";
  const ref = "integer";
  let table = db.schema
    .createTable(FILL_ROWS)
    .addColumn("id", kind === "postgres" ? sql`bigserial` : "integer", (c) =>
      kind === "postgres" ? c.notNull() : c.primaryKey(),
    )
    .addColumn("key_text", t.text)
    .addColumn("source", t.text, (c) => c.notNull())
    .addColumn("tx_hash", blob)
    .addColumn("tx_text", t.text)
    .addColumn("log_index", t.int)
    .addColumn("block_number", t.int)
    .addColumn("order_hash", blob)
    .addColumn("order_text", t.text)
    .addColumn("wallet_id", ref, (c) => c.notNull())
    .addColumn("counterparty_id", ref)
    .addColumn("role", t.text)
    .addColumn("condition_ref", ref, (c) => c.notNull())
    .addColumn("token_ref", ref, (c) => c.notNull())
    .addColumn("outcome_index", t.int, (c) => c.notNull())
    .addColumn("side", t.text, (c) => c.notNull())
    .addColumn("size", t.int, (c) => c.notNull())
    .addColumn("usd", t.int, (c) => c.notNull())
    .addColumn("price", t.real, (c) => c.notNull())
    .addColumn("fee", t.int, (c) => c.notNull().defaultTo(0))
    .addColumn("ts", t.int, (c) => c.notNull())
    .addColumn("entry_type", t.text)
    .addColumn("exchange_version", t.int);
  if (kind === "postgres")
    table = table.addPrimaryKeyConstraint(`${FILL_ROWS}_pkey`, ["id", "ts"]).modifyEnd(sql`partition by range (ts)`);
  await table.execute();
  if (kind !== "postgres") return;
  await sql.raw(`create table ${defaultFillPartition(FILL_ROWS)} partition of ${FILL_ROWS} default`).execute(db);
  const span = await sql<{ first: number | null; last: number | null }>`
    select min(ts) as first, max(ts) as last from fills`.execute(db);
  const { first, last } = span.rows[0] ?? { first: null, last: null };
  if (first === null || last === null) return;
  for (const month of fillMonthsBetween(Number(first), Number(last)))
    await sql
      .raw(`create table ${month.name} partition of ${FILL_ROWS} for values from (${month.from}) to (${month.to})`)
      .execute(db);
}

/**
 * SQL: the stored fills copied into `fill_rows`, ids kept. The hash and key rules are those of
 * src/store/fill-layout.ts (`storedHash`, `storedFillKey`), here in each dialect's SQL.
 */
function copyFillsSql(kind: StoreKind): string {
  const bytes = (column: string) => storedHashSql(kind, column).bytes;
  const text = (column: string) => storedHashSql(kind, column).text;
  const chainKey = chainFillKeySql(kind, "f");
  const { addresses, conditions, tokens } = FILL_DICTIONARIES;
  return `insert into ${FILL_ROWS} (id, key_text, source, tx_hash, tx_text, log_index, block_number, order_hash,
      order_text, wallet_id, counterparty_id, role, condition_ref, token_ref, outcome_index, side, size, usd, price, fee,
      ts, entry_type, exchange_version)
    select f.id,
      case when f.block_number is not null and f.log_index is not null and f.fill_key = ${chainKey} then null else f.fill_key end,
      f.source, ${bytes("f.tx_hash")}, ${text("f.tx_hash")}, f.log_index, f.block_number, ${bytes("f.order_hash")},
      ${text("f.order_hash")}, w.id, c.id, f.role, m.id, t.id, f.outcome_index, f.side, f.size, f.usd, f.price, f.fee,
      f.ts, f.entry_type, f.exchange_version
    from fills f
    join ${addresses.table} w on w.${addresses.column} = f.wallet
    left join ${addresses.table} c on c.${addresses.column} = f.counterparty
    join ${conditions.table} m on m.${conditions.column} = f.condition_id
    join ${tokens.table} t on t.${tokens.column} = f.token_id
    order by f.id`;
}
