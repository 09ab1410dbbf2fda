/** The addresses `smart_wallet_ids` holds (src/store/smart-wallets.ts), sorted: what a test compares with the flags. */
import type { Store } from "../database.js";
import { FILL_DICTIONARIES } from "../fill-layout.js";
import { queryRows } from "../raw-sql.js";
import { SMART_WALLET_IDS } from "../smart-wallets.js";

export async function heldSmartWallets(store: Pick<Store, "db" | "kind">): Promise<string[]> {
  const { table, column } = FILL_DICTIONARIES.addresses;
  const rows = await queryRows<{ address: string }>(
    store.db,
    store.kind,
    `select w.${column} as address from ${SMART_WALLET_IDS} s join ${table} w on w.id = s.wallet_id order by w.${column}`,
  );
  return rows.map((r) => r.address);
}
