/**
 * A fill as a test writes it (`insertFills`): a taker's chain buy of one token at 0.50 in market `0xc`, every field
 * set; a test names what it is about in `fields`.
 */
import type { NewFill } from "../fills.js";

export function newFill(fields: Partial<NewFill> & Pick<NewFill, "fill_key">): NewFill {
  return {
    source: "chain",
    tx_hash: "0xt",
    log_index: 0,
    block_number: 1,
    wallet: `0x${"1".repeat(40)}`,
    counterparty: null,
    role: "taker",
    condition_id: "0xc",
    token_id: "1",
    outcome_index: 0,
    side: "BUY",
    size: 1_000_000,
    usd: 500_000,
    price: 0.5,
    fee: 0,
    ts: 1_770_000_000,
    entry_type: "MINT",
    exchange_version: 2,
    ...fields,
  };
}
