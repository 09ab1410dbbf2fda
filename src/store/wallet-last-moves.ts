/**
 * `wallet_last_moves` (src/store/schema.ts): a wallet's latest fill in each market, by (ts, id), so that last-moves
 * reads one range of the table's primary key instead of seeking each market of the wallet in the fills. The rows are
 * kept by src/derive/wallet-last-moves.ts (the Deriver and `rebuild`); here are its columns, the SQL that fills the
 * table from stored fills (the migration that adds it, and `rebuild` up to the replay's watermark) and the read.
 */
import { sql, type Kysely } from "kysely";
import { LAST_MOVE_CODES } from "./coded-columns.js";
import { fillCodeSql } from "./fill-codes.js";
import { storedFillSql, type FillsLayout } from "./fill-layout.js";
import type { StoreKind } from "./migrations/column-types.js";
import { filledFrom } from "./id-keyed.js";
import { queryRows } from "./raw-sql.js";
import type { Database, WalletLastMovesTable } from "./schema.js";

/** The key (wallet, condition_id) first, then the latest fill's columns. */
export const LAST_MOVE_COLUMNS = [
  "wallet",
  "condition_id",
  "ts",
  "fill_id",
  "side",
  "outcome_index",
  "entry_type",
  "size",
  "usd",
  "price",
] as const satisfies readonly (keyof WalletLastMovesTable)[];

/** Ids stay below 2^32: a fill's (ts, id) order is the order of `ts * 2^32 + id`. */
export const ID_SPAN = 4_294_967_296;

/**
 * Replaces the table's rows with the latest of every stored fill (or of those with an id up to `throughId`) per
 * wallet and market, in one statement: each group's latest (ts, id) is the maximum of one number (on `fill_rows`
 * read in the order of the index `fills_wallet_condition_sums`, which holds both), and its fill is then read by id.
 * Ranking every fill instead sorted the whole table (1.4 s against 0.19 s at 300,000 fills). From today's `fill_rows`
 * the side and entry type are copied as stored: the rows code them as the fills do (`LAST_MOVE_CODES`, since 0056).
 */
export async function fillWalletLastMovesFromFills(
  // biome-ignore lint/suspicious/noExplicitAny: a migration's Kysely<unknown> and a store's Kysely<Database> alike
  db: Kysely<any>,
  throughId = Number.MAX_SAFE_INTEGER,
  layout: FillsLayout = "compact",
): Promise<void> {
  const target = filledFrom("wallet_last_moves", layout);
  const table = target.source;
  const [wallet, market] = [target.column("wallet"), target.column("condition_id")];
  const copied = LAST_MOVE_COLUMNS.slice(2).map((c) =>
    layout === "compact" && Object.hasOwn(LAST_MOVE_CODES, c)
      ? fillCodeSql(c as keyof typeof LAST_MOVE_CODES, "f")
      : storedFillSql(layout, c === "fill_id" ? "id" : c, "f"),
  );
  await sql`delete from ${sql.raw(target.name)}`.execute(db);
  await sql`insert into ${sql.raw(target.name)} (${sql.raw([wallet, market, ...LAST_MOVE_COLUMNS.slice(2)].join(", "))})
    select ${sql.raw([`g.${wallet}`, `g.${market}`, ...copied].join(", "))} from (
      select ${sql.raw(`${wallet}, ${market}`)}, max(ts * ${sql.raw(String(ID_SPAN))} + id) as latest
      from ${sql.raw(table)} where id <= ${throughId}
      group by ${sql.raw(`${wallet}, ${market}`)}
    ) g join ${sql.raw(table)} f on f.id = g.latest % ${sql.raw(String(ID_SPAN))}`.execute(db);
}

/** The wallet's rows in the order their fills were stored, numbers as numbers on either store. */
export async function readWalletLastMoves(
  db: Kysely<Database>,
  kind: StoreKind,
  wallet: string,
): Promise<WalletLastMovesTable[]> {
  const rows = await queryRows<WalletLastMovesTable>(
    db,
    kind,
    `select ${LAST_MOVE_COLUMNS.join(", ")} from wallet_last_moves where wallet = ? order by fill_id`,
    [wallet],
  );
  return rows.map((r) =>
    Object.assign({}, r, {
      ts: Number(r.ts),
      fill_id: Number(r.fill_id),
      outcome_index: Number(r.outcome_index),
      size: Number(r.size),
      usd: Number(r.usd),
      price: Number(r.price),
    }),
  );
}
