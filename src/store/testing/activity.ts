/** Wallet activity for store tests: a chain split, which the tests vary from. */
import { chainActivityKey } from "../activity-layout.js";
import type { NewActivity } from "../fills.js";

/** A 32-byte hash's text for the number `n`. */
export const testHash = (n: number): string => `0x${n.toString(16).padStart(64, "0")}`;

/** A split of `wallet` at `ts`, in transaction `tx` (a number or a hash's text) at log `log`, of `size` micro-shares. */
export function chainSplit(
  wallet: string,
  ts: number,
  tx: number | string,
  log: number,
  size = 1_000_000 + log,
): NewActivity {
  const txHash = typeof tx === "number" ? testHash(tx) : tx;
  return {
    activity_key: chainActivityKey(txHash, log),
    source: "chain",
    wallet,
    type: "SPLIT",
    condition_id: testHash(0xc0de),
    token_id: null,
    outcome_index: null,
    size,
    usd: size,
    price: 0.5,
    ts,
    tx_hash: txHash,
    log_index: log,
    neg_risk_market_id: null,
    index_set: null,
    fee: null,
  };
}
