/**
 * A wallet's own operations besides its fills, newest first: splits, merges, redemptions and NegRisk conversions
 * from the chain (made directly or through a collateral adapter, src/venue/chain/attribution.ts), and the rewards
 * and rebates its venue sync read. Over the stored key (wallet, ts, id) of `activity_rows` (src/store/activity-layout.ts).
 */
import type { Store } from "../../store/database.js";
import { queryRows } from "../../store/raw-sql.js";
import type { ActivityType, WalletActivityTable } from "../../store/schema.js";
import { MICRO } from "../../venue/units.js";

export interface ActivityQuery {
  limit: number;
  offset: number;
  /** One type only; undefined for all. */
  type?: ActivityType;
}

const ACTIVITY = `select a.type, a.condition_id, a.size, a.usd, a.ts, a.tx_hash, a.index_set, a.neg_risk_market_id,
  a.fee, m.id as market_id, m.question
  from wallet_activity a left join markets m on m.condition_id = a.condition_id
  where a.wallet = ?`;

type ActivityRow = Pick<
  WalletActivityTable,
  "type" | "condition_id" | "size" | "usd" | "tx_hash" | "index_set" | "neg_risk_market_id" | "fee"
> & { ts: number; market_id: string | null; question: string | null };

export async function walletActivity(store: Store, wallet: string, q: ActivityQuery) {
  const rows = await queryRows<ActivityRow>(
    store.db,
    store.kind,
    `${ACTIVITY}${q.type ? " and a.type = ?" : ""} order by a.ts desc, a.id desc limit ? offset ?`,
    [wallet, ...(q.type ? [q.type] : []), q.limit + 1, q.offset],
  );
  const page = rows.slice(0, q.limit);
  return {
    address: wallet,
    count: page.length,
    has_more: rows.length > q.limit,
    activity: page.map((r) => ({
      type: r.type,
      condition_id: r.condition_id,
      market_id: r.market_id,
      title: r.question,
      size: r.size / MICRO,
      usd_amount: r.usd / MICRO,
      index_set: r.index_set,
      neg_risk_market_id: r.neg_risk_market_id,
      fee_shares: r.fee === null ? null : r.fee / MICRO,
      timestamp: Number(r.ts),
      transaction_hash: r.tx_hash,
    })),
  };
}
