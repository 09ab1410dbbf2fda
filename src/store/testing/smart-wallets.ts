/** The addresses `smart_wallet_ids` holds (src/store/smart-wallets.ts), sorted: what a test compares with the flags. */
import type { Store } from "../database.js";
import { smartWalletAddresses } from "../smart-wallets.js";

export async function heldSmartWallets(store: Pick<Store, "db" | "kind">): Promise<string[]> {
  return (await smartWalletAddresses(store)).sort();
}
