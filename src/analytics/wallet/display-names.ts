/** Wallets' display names, as the rows of the window aggregates and whale reads name their wallets. */
import type { Store } from "../../store/database.js";
import { chunks } from "../../store/raw-sql.js";

/** Display name per address: the profile name, else the pseudonym, else null. */
export async function loadNames(store: Store, addresses: Iterable<string>): Promise<Map<string, string | null>> {
  const out = new Map<string, string | null>();
  for (const part of chunks([...new Set(addresses)])) {
    const rows = await store.db
      .selectFrom("wallets")
      .select(["address", "name", "pseudonym"])
      .where("address", "in", part)
      .execute();
    for (const row of rows) out.set(row.address, row.name || row.pseudonym || null);
  }
  return out;
}
