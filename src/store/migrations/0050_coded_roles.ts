/**
 * Issue 49: `fill_rows` stores a fill's role as a code (`FILL_ROLES`: maker 0, taker 1) and its exchange version less
 * one (until 0059 packed both with three other codes: src/store/fill-codes.ts). A SQLite record keeps the integers 0 and 1 in its header
 * alone, so the role's 5 bytes of text ('maker', 'taker') and the version's byte (every fill since the venue's
 * exchange upgrade is of version 2) leave every row: 6 of a row's 72 bytes on the 1,000,000-fill world. The whale
 * makers' partial index filters on the code (`whaleSizeMakerFills`), so it is dropped and made again.
 * SQLite: the table rebuilt with `role` an integer column (a text column would turn a code back into text), its rows
 * converted on the way. PostgreSQL: both columns changed to smallint in one `alter table`, which writes every
 * partition once and builds its indexes again.
 */
import { sql, type Kysely } from "kysely";
import { FILL_ROWS, ROLE_CODES, textToCodeSql } from "../fill-layout.js";
import { whaleSizeMakerFills } from "../schema.js";
import type { StoreKind, StoreMigration } from "./column-types.js";
import type { FillIndex } from "./0014_drilldown_fill_indexes.js";
import { COMPACT_DEFERRED_FILL_INDEXES } from "./0029_compact_fills.js";
import { WHALE_SIZE_MAKERS, WHALE_SIZE_MAKERS_INDEX, rewriteFillRows } from "./0048_implied_tx_hashes.js";
import { rebuildSqliteTable, sqliteColumns } from "./sqlite-rebuild.js";

/** The whale makers' index as it stands since this migration: on the role's code. */
const CODED_WHALE_SIZE_MAKERS_INDEX: FillIndex = { ...WHALE_SIZE_MAKERS_INDEX, where: whaleSizeMakerFills("coded") };

/**
 * The fills indexes a first sync defers (src/store/fills.ts), as they stood from this migration to 0053 (which
 * gives `fills_condition_ts` each fill's wallet). The natural key's stayed: chain order appends to it (so did
 * `fills_ts`, which migration 0051 replaced with `fill_spans`; 0052 dropped the chain key's).
 */
export const CODED_ROLE_DEFERRED_FILL_INDEXES: readonly FillIndex[] = COMPACT_DEFERRED_FILL_INDEXES.map((index) =>
  index.name === WHALE_SIZE_MAKERS ? CODED_WHALE_SIZE_MAKERS_INDEX : index,
);

/** SQL: a stored role's text turned into its code. */
const ROLE_CODE = textToCodeSql(ROLE_CODES, "role");

export const codedRoles: StoreMigration = {
  up: (db: Kysely<unknown>, kind: StoreKind) =>
    rewriteFillRows(db, kind, {
      rewrite: () => (kind === "sqlite" ? rebuildSqlite(db) : alterPostgres(db)),
      whaleIndex: CODED_WHALE_SIZE_MAKERS_INDEX,
      view: "coded-role",
    }),
};

async function alterPostgres(db: Kysely<unknown>): Promise<void> {
  await sql
    .raw(`alter table ${FILL_ROWS}
      alter column role type smallint using ${ROLE_CODE},
      alter column exchange_version type smallint using exchange_version - 1`)
    .execute(db);
}

async function rebuildSqlite(db: Kysely<unknown>): Promise<void> {
  const converted: Record<string, string> = {
    role: `${ROLE_CODE} as role`,
    exchange_version: "exchange_version - 1 as exchange_version",
  };
  const select = (await sqliteColumns(db, FILL_ROWS)).map((name) => converted[name] ?? name).join(", ");
  const integerRole = (definition: string) => definition.replace(/"role" text/i, '"role" integer');
  await rebuildSqliteTable(db, FILL_ROWS, integerRole, { order: "id", select });
}
