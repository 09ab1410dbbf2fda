/**
 * The settlement type of one transaction, from the rows the venue's live feed gave for it (one row per wallet side
 * of each fill; no roles, no match boundaries). A match moves outcome tokens in one of three ways: a MINT creates a
 * YES+NO pair (both sides BUY, one on each outcome), a MERGE destroys one (both SELL), a COMPLEMENTARY match hands
 * the same token from a seller to a buyer. Whatever the mix, a complete transaction conserves tokens: per outcome,
 * bought minus sold is the pairs minted minus the pairs merged, the same for both outcomes. A transaction whose
 * rows do not balance is missing some (a lone fill at the hold's edge, a row the feed lost) and gets no label:
 * null never means "not a mint".
 */
import type { Direction, EntryType } from "../store/schema.js";

/** The venue's match types, as the chain classifies each fill. */
export type SettlementType = EntryType;

export interface SettlementRow {
  readonly conditionId: string;
  /** The outcome token. */
  readonly tokenId: string;
  readonly side: Direction;
  /** Shares, micro-units. */
  readonly size: number;
}

interface TokenFlow {
  bought: number;
  sold: number;
}

/**
 * MINT, MERGE, COMPLEMENTARY (the transaction holds a complementary component), or null: one row, more than one
 * market or two tokens (a complex batch), or rows that do not balance (some are missing).
 */
export function settlementTypeOf(rows: readonly SettlementRow[]): SettlementType | null {
  if (rows.length < 2) return null;
  const conditionId = rows[0]!.conditionId;
  const flows = new Map<string, TokenFlow>();
  for (const row of rows) {
    if (row.conditionId !== conditionId) return null;
    let flow = flows.get(row.tokenId);
    if (!flow) {
      if (flows.size === 2) return null;
      flows.set(row.tokenId, (flow = { bought: 0, sold: 0 }));
    }
    if (row.side === "BUY") flow.bought += row.size;
    else flow.sold += row.size;
  }
  const [a, b = { bought: 0, sold: 0 }] = [...flows.values()] as [TokenFlow, TokenFlow?];
  // Sizes are whole micro-units; a unit per row absorbs the venue's rounding of decimal sizes.
  if (Math.abs(a.bought - a.sold - (b.bought - b.sold)) > rows.length) return null;
  const handedOver = (flow: TokenFlow) => flow.bought > 0 && flow.sold > 0;
  if (handedOver(a) || handedOver(b)) return "COMPLEMENTARY";
  if (a.sold === 0 && b.sold === 0 && a.bought > 0 && b.bought > 0) return "MINT";
  if (a.bought === 0 && b.bought === 0 && a.sold > 0 && b.sold > 0) return "MERGE";
  return null;
}
