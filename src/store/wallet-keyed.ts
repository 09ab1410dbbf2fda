/**
 * Tables stored with their wallet as its id (issue 49, migration 0031): the hourly and daily P&L points and the
 * venue's P&L points, whose rows are mostly their key. Each is a table `<name>_rows` with `wallet_id` (the address's
 * id in `address_ids`, the fills' dictionary) in place of the 42-character address, and a view by the old name that
 * gives every reader the rows as they always were. Writes go through src/store/derived-tables.ts, which stores the
 * ids. Decision: docs/decisions.md, "Series keyed by a wallet store its id".
 */
import { FILL_DICTIONARIES } from "./fill-layout.js";

export const WALLET_KEYED = {
  pnl_points: { rows: "pnl_point_rows", columns: ["resolution", "t", "pnl"] },
  venue_pnl_points: { rows: "venue_pnl_point_rows", columns: ["t", "pnl"] },
} as const;

export type WalletKeyedTable = keyof typeof WALLET_KEYED;

export function isWalletKeyed(table: string): table is WalletKeyedTable {
  return Object.hasOwn(WALLET_KEYED, table);
}

/** A wallet-keyed table's columns as stored: `wallet` becomes `wallet_id`. */
export const storedColumn = (column: string): string => (column === "wallet" ? "wallet_id" : column);

/** SQL: the ids of the addresses a subquery or list gives (`in (...)` of the stored column). */
export function walletIdsOf(addresses: string): string {
  const { table, column } = FILL_DICTIONARIES.addresses;
  return `(select id from ${table} where ${column} in ${addresses})`;
}

/** The view that reads a wallet-keyed table as it was: the address by its id. Migration 0031 creates it. */
export function walletKeyedViewSql(table: WalletKeyedTable): string {
  const { rows, columns } = WALLET_KEYED[table];
  const { table: addresses, column } = FILL_DICTIONARIES.addresses;
  return `create view ${table} as select a.${column} as wallet, ${columns.map((c) => `r.${c} as ${c}`).join(", ")}
    from ${rows} r join ${addresses} a on a.id = r.wallet_id`;
}
