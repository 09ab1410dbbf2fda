/**
 * Issue 49: `fill_rows` stores its source, side and entry type as small integers (`FILL_CODES`,
 * src/store/fill-layout.ts) and no price where the price is the fill's amount over its size (`storedPrice`: every
 * fill the chain gives). On the 1,000,000-fill world the words and the price were about 30 bytes of a 114-byte row on
 * SQLite, and the covering index by wallet and market held the side and entry type again. The view `fills` is made
 * again to read the codes back as their texts and the price back as stored or computed, so every reader sees the
 * rows as before.
 * SQLite: the table rebuilt under the new column types (its indexes made again as they stood: a first sync's deferred
 * ones stay deferred). PostgreSQL: one `alter table` that rewrites the partitions and their indexes once, and in it the
 * log index, outcome and exchange version narrowed to the types they need (a row's 8-byte integers each padded it to
 * an 8-byte boundary: 152 bytes of data a fill, 124 after; 190.7 -> about 160 bytes a fill with the header).
 */
import { sql, type Kysely } from "kysely";
import { FILL_CODES, FILL_ROWS, type CodedFillColumn, fillsViewSql, textToCodeSql } from "../fill-layout.js";
import type { StoreKind, StoreMigration } from "./column-types.js";
import { rebuildSqliteTable, sqliteColumns } from "./sqlite-rebuild.js";

const CODED = Object.keys(FILL_CODES) as CodedFillColumn[];

/** SQL: each changed column's value from the old row: its code, or the price (null where `storedPrice` drops it). */
const CONVERTED: Readonly<Record<string, string>> = {
  ...Object.fromEntries(CODED.map((column) => [column, textToCodeSql(FILL_CODES, column)])),
  price: "case when size > 0 and price = cast(usd as double precision) / size then null else price end",
};

export const codedFills: StoreMigration = {
  async up(db: Kysely<unknown>, kind: StoreKind) {
    await sql`drop view fills`.execute(db);
    if (kind === "sqlite") await rebuildSqlite(db);
    else await alterPostgres(db);
    await sql.raw(fillsViewSql(kind, "coded")).execute(db);
  },
};

async function rebuildSqlite(db: Kysely<unknown>): Promise<void> {
  const columns = await sqliteColumns(db, FILL_ROWS);
  const select = columns.map((name) => (CONVERTED[name] ? `${CONVERTED[name]} as ${name}` : name)).join(", ");
  await rebuildSqliteTable(
    db,
    FILL_ROWS,
    (definition) => {
      let coded = definition;
      for (const column of CODED) coded = coded.replace(new RegExp(`"${column}" text`), `"${column}" integer`);
      coded = coded.replace(/"price" real not null/, '"price" real');
      return coded === definition ? null : coded;
    },
    { order: "id", select },
  );
}

async function alterPostgres(db: Kysely<unknown>): Promise<void> {
  const changes = [
    ...CODED.map((column) => `alter column ${column} type smallint using (${CONVERTED[column]})`),
    "alter column price drop not null",
    `alter column price type double precision using (${CONVERTED.price})`,
    // In the same rewrite, the small numbers in small types: each 8-byte column padded its row out to 8 bytes.
    "alter column log_index type integer",
    "alter column outcome_index type smallint",
    "alter column exchange_version type smallint",
  ];
  await sql.raw(`alter table ${FILL_ROWS} ${changes.join(", ")}`).execute(db);
  await sql.raw(`analyze ${FILL_ROWS}`).execute(db);
}
