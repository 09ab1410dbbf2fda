/**
 * Issue 24: a wallet's fills in one market, read from an index alone. `fills_wallet_condition_ts` (0014) found them,
 * then read each one's table row for its side, size and amount: for the busiest wallets of the 10,000,000-fill world,
 * thousands of rows scattered over a store larger than the page cache, 0.9-1.3 s per market-summary. This index
 * replaces it with the same key followed by every column the summary sums, so that the summary, now or at an
 * instant, reads one contiguous range of it; the trades' pages and the stamps read the same key as before.
 *
 * A first sync that deferred its fills indexes has neither: it builds this one with the others when it reaches the
 * head (`DEFERRED_FILL_INDEXES`, src/store/fills.ts).
 */
import type { Kysely } from "kysely";
import { createFillIndex, walletIndexPresent, type FillIndex } from "./0014_drilldown_fill_indexes.js";
import type { StoreKind, StoreMigration } from "./column-types.js";

export const WALLET_MARKET_FILLS_INDEX: FillIndex = {
  name: "fills_wallet_condition_sums",
  columns: ["wallet", "condition_id", "ts", "id", "outcome_index", "side", "size", "usd", "entry_type"],
};

export const walletMarketFillSums: StoreMigration = {
  async up(db: Kysely<unknown>, kind: StoreKind) {
    if (await walletIndexPresent(db, kind)) await createFillIndex(db, WALLET_MARKET_FILLS_INDEX);
    await db.schema.dropIndex("fills_wallet_condition_ts").ifExists().execute();
  },
};
