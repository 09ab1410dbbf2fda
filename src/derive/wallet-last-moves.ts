/**
 * The rows of `wallet_last_moves` (src/store/schema.ts), kept as fills are counted: `FillCounts.add` (src/derive/fill-counts.ts) adds each
 * fill once. `rebuild` and the Deriver's warm start replace the table: in SQL up to the replay's watermark
 * (src/store/wallet-last-moves.ts), here for the fills stored after it. After that, the Deriver adds each committed
 * batch's latest fills to the stored rows, the later fill kept per wallet and market (batch-applier.ts).
 */
import type { WalletLastMovesTable } from "../store/schema.js";
import { LatestFills } from "./latest-fills.js";
import type { StoredFill } from "./stored-events.js";

type Move = Omit<WalletLastMovesTable, "wallet" | "condition_id" | "ts" | "fill_id">;

const SEPARATOR = "\u0000";

export class WalletLastMoves {
  private readonly latest = new LatestFills<Move>();

  get size(): number {
    return this.latest.size;
  }

  add(
    fill: Pick<
      StoredFill,
      "wallet" | "condition_id" | "ts" | "side" | "outcome_index" | "entry_type" | "size" | "usd" | "price"
    >,
    id: number,
  ): void {
    const { side, outcome_index, entry_type, size, usd, price } = fill;
    this.latest.add(`${fill.wallet}${SEPARATOR}${fill.condition_id}`, fill.ts, id, {
      side,
      outcome_index,
      entry_type,
      size,
      usd,
      price,
    });
  }

  /** The latest fills as rows of the table. */
  rows(): WalletLastMovesTable[] {
    return this.latest.entries().map(([key, { ts, id, value }]) => {
      const [wallet, conditionId] = key.split(SEPARATOR) as [string, string];
      return { wallet, condition_id: conditionId, ts, fill_id: id, ...value };
    });
  }

  clear(): void {
    this.latest.clear();
  }

  /** The rows, then cleared. */
  take(): WalletLastMovesTable[] {
    const rows = this.rows();
    this.clear();
    return rows;
  }
}
