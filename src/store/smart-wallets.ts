/**
 * `smart_wallet_ids`: the fills' ids (`address_ids`) of the wallets `wallet_stats` marks Smart Money, written in
 * the transaction that writes their statistics. A market's Smart Money trades walk the market's fills by time and
 * keep those whose wallet is here, without reading the statistics of the wallets they pass over; on SQLite the walk
 * is of `fills_condition_ts_wallet`, which holds each fill's wallet, so no passed fill's row is read either
 * (migration 0053; docs/decisions.md, "A market's Smart Money trades walk an index that holds each fill's wallet").
 */
import type { Kysely } from "kysely";
import type { StoreKind, StoreTransaction } from "./database.js";
import { bumpDeriveState, SMART_GENERATION } from "./derive-state.js";
import { FILL_DICTIONARIES } from "./fill-layout.js";
import { inSlices, placeholders, queryRows } from "./raw-sql.js";
import type { Database } from "./schema.js";

export const SMART_WALLET_IDS = "smart_wallet_ids";

/** The smart-whale condition on a wallet_stats alias: Smart Money is never a farmer, whatever a stale row says. */
export const smartSql = (alias: string) => `${alias}.is_smart = 1 and ${alias}.is_farmer = 0`;

/** SQL: the ids of the Smart Money wallets among those `where` keeps (a condition on `s`, wallet_stats). */
const smartIdsSql = (where: string) => `select w.id from wallet_stats s
  join ${FILL_DICTIONARIES.addresses.table} w on w.address = s.wallet where ${smartSql("s")}${where ? ` and ${where}` : ""}`;

/**
 * After `wallets`' rows of wallet_stats were written in `tx`: their ids in or out of the Smart Money set, and
 * `smart_generation` bumped when the set changed (the kept answers that list Smart Money fills are stamped with it).
 */
export async function writeSmartWallets(tx: StoreTransaction, wallets: readonly string[]): Promise<void> {
  const { table, column } = FILL_DICTIONARIES.addresses;
  const changed = await inSlices(wallets, async (slice) => {
    const list = placeholders(slice.length);
    const smart = smartIdsSql(`s.wallet in ${list}`);
    const left = await queryRows(
      tx.db,
      tx.kind,
      `delete from ${SMART_WALLET_IDS} where wallet_id in (select id from ${table} where ${column} in ${list})
        and wallet_id not in (${smart}) returning wallet_id`,
      [...slice, ...slice],
    );
    const joined = await queryRows(
      tx.db,
      tx.kind,
      `insert into ${SMART_WALLET_IDS} (wallet_id) select id from (${smart}) n
        where not exists (select 1 from ${SMART_WALLET_IDS} h where h.wallet_id = n.id) returning wallet_id`,
      slice,
    );
    return [...left, ...joined];
  });
  if (changed.length > 0) await bumpDeriveState(tx.db, SMART_GENERATION);
}

/** The whole set again from wallet_stats (a rebuild, or the migration that made it). */
export async function refillSmartWallets(
  // biome-ignore lint/suspicious/noExplicitAny: a migration's Kysely<unknown> and a store's Kysely<Database> alike
  db: Kysely<any>,
  kind: StoreKind,
): Promise<void> {
  const store = db as Kysely<Database>;
  await queryRows(store, kind, `delete from ${SMART_WALLET_IDS}`);
  await queryRows(store, kind, `insert into ${SMART_WALLET_IDS} (wallet_id) ${smartIdsSql("")}`);
  await bumpDeriveState(store, SMART_GENERATION);
}
