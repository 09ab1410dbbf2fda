/**
 * Issue 49: `fill_rows` stores a fill's source, side, entry type, role and exchange version as one small integer,
 * `codes` (src/store/fill-codes.ts), in place of five columns. A SQLite record spends a header byte on each column,
 * so the five took five bytes of every row where the packed value takes two (its header byte and, for the commonest
 * fills, one byte of value): 3 of a row's 66 bytes on the 1,000,000-fill world. The two indexes that held the codes
 * hold `codes` instead: the wallet-market sums' and the whale makers', whose condition reads the role's bits.
 * SQLite: the table rebuilt in id order, those two indexes dropped before and made again after (a first sync under
 * way has none: it builds them at its end). PostgreSQL: one `alter table` that drops four of the columns and turns
 * the fifth into the packed value (its `using` reads the old row), writing every partition once.
 */
import { sql, type Kysely } from "kysely";
import { FILL_CODES_COLUMN, type PackedFillCode, packFillCodesSql } from "../fill-codes.js";
import { FILL_ROWS, fillsViewSql } from "../fill-layout.js";
import { whaleSizeMakerFills } from "../schema.js";
import type { StoreKind, StoreMigration } from "./column-types.js";
import { createFillIndex, type FillIndex, indexPresent } from "./0014_drilldown_fill_indexes.js";
import { WHALE_SIZE_MAKERS_INDEX } from "./0048_implied_tx_hashes.js";
import { CODED_ROLE_DEFERRED_FILL_INDEXES } from "./0050_coded_roles.js";
import { MARKET_WALLET_INDEX } from "./0053_smart_wallet_ids.js";
import { SQLITE_SUMS_INDEX } from "./0054_sums_index_without_id.js";
import { rebuildSqliteTable, sqliteColumns } from "./sqlite-rebuild.js";

const SUMS_INDEX = "fills_wallet_condition_sums";
const MARKET_INDEX = "fills_condition_ts";

/** The five columns packed, each as the packed code reads it from the columns of 0050 (the version less one). */
const PACKED_FROM_COLUMNS: Readonly<Record<PackedFillCode, string>> = {
  side: "side",
  entry_type: "entry_type",
  role: "role",
  exchange_version: "exchange_version + 1",
  source: "source",
};
const PACKED_COLUMNS = Object.keys(PACKED_FROM_COLUMNS);

/** An index's columns with the codes' in it replaced by `codes`, once, where the first of them stood. */
function withPackedCodes(index: FillIndex): FillIndex {
  const first = index.columns.findIndex((c) => PACKED_COLUMNS.includes(c));
  if (first < 0) return index;
  const columns = index.columns.filter((c, at) => at === first || !PACKED_COLUMNS.includes(c));
  return { ...index, columns: columns.map((c, at) => (at === first ? FILL_CODES_COLUMN : c)) };
}

const PACKED_WHALE_INDEX: FillIndex = {
  ...withPackedCodes(WHALE_SIZE_MAKERS_INDEX),
  where: whaleSizeMakerFills("packed"),
};

const POSTGRES_SUMS_INDEX = withPackedCodes(CODED_ROLE_DEFERRED_FILL_INDEXES.find((i) => i.name === SUMS_INDEX)!);

/** Each store's two indexes that hold the codes, as they stand since this migration. */
const PACKED_INDEXES: Readonly<Record<StoreKind, readonly FillIndex[]>> = {
  sqlite: [withPackedCodes(SQLITE_SUMS_INDEX), PACKED_WHALE_INDEX],
  postgres: [POSTGRES_SUMS_INDEX, PACKED_WHALE_INDEX],
};

const replacedBy = (indexes: readonly FillIndex[]) => (index: FillIndex) =>
  indexes.find((packed) => packed.name === index.name) ?? index;

const DEFERRED: Readonly<Record<StoreKind, readonly FillIndex[]>> = {
  sqlite: CODED_ROLE_DEFERRED_FILL_INDEXES.map((index) =>
    index.name === MARKET_INDEX ? MARKET_WALLET_INDEX : replacedBy(PACKED_INDEXES.sqlite)(index),
  ),
  postgres: CODED_ROLE_DEFERRED_FILL_INDEXES.map(replacedBy(PACKED_INDEXES.postgres)),
};

/**
 * The fills indexes a first sync builds once, when it reaches the head, instead of row by row (src/store/fills.ts),
 * as they stand today on each store: their keys (wallet, market) put each insert at a random place, which made a
 * backfill several times slower than appending.
 */
export function deferredFillIndexes(kind: StoreKind): readonly FillIndex[] {
  return DEFERRED[kind];
}

export const packedFillCodes: StoreMigration = {
  async up(db: Kysely<unknown>, kind: StoreKind) {
    const run = (text: string) => sql.raw(text).execute(db);
    await run("drop view fills");
    const standing: FillIndex[] = [];
    for (const index of PACKED_INDEXES[kind])
      if (await indexPresent(db, kind, index.name)) {
        standing.push(index);
        await run(`drop index ${index.name}`);
      }
    const packed = packFillCodesSql(PACKED_FROM_COLUMNS);
    if (kind === "sqlite") await rebuildSqlite(db, packed);
    else {
      const drops = PACKED_COLUMNS.filter((c) => c !== "side").map((c) => `drop column ${c}`);
      await run(`alter table ${FILL_ROWS} ${drops.join(", ")}, alter column side type smallint using (${packed})`);
      await run(`alter table ${FILL_ROWS} rename column side to ${FILL_CODES_COLUMN}`);
    }
    for (const index of standing) await createFillIndex(db, index, FILL_ROWS);
    if (kind === "postgres") await run(`analyze ${FILL_ROWS}`);
    await run(fillsViewSql(kind, "packed-codes"));
  },
};

async function rebuildSqlite(db: Kysely<unknown>, packed: string): Promise<void> {
  const kept = (await sqliteColumns(db, FILL_ROWS)).filter((c) => !PACKED_COLUMNS.includes(c));
  const withoutCodes = (definition: string) =>
    PACKED_COLUMNS.reduce(
      (text, column) => text.replace(new RegExp(`,\\s*"${column}"\\s+integer(\\s+not null)?`, "i"), ""),
      definition,
    ).replace(/\)\s*$/, `, "${FILL_CODES_COLUMN}" integer not null)`);
  await rebuildSqliteTable(db, FILL_ROWS, withoutCodes, {
    order: "id",
    select: [...kept, `${packed} as ${FILL_CODES_COLUMN}`].join(", "),
  });
}
