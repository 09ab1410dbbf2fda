/**
 * The live part of the `signer` and `union` overview views: the signer's figures read from the venue's Data API
 * and P&L curve, within a bounded time. The default (`proxy`) view never comes here.
 */
import { PelagicError } from "../../errors/index.js";
import { profitFactor, summarizeVenueClosedPositions, winRate } from "../../ledger/index.js";
import type { WalletStatsTable } from "../../store/schema.js";
import type { ChainClient, DataApiClient, OffsetPaging, PnlClient } from "../../venue/index.js";
import { fromMicro } from "../../venue/units.js";

export interface LiveVenue {
  readonly dataApi: DataApiClient;
  readonly pnl: PnlClient;
  /** Null when no RPC is configured: signers are then known only from the store. */
  readonly chain: ChainClient | null;
  /** The whole live read must finish within this many ms. */
  readonly timeoutMs: number;
}

/** The venue did not answer in time or answered with an error. */
export class LiveVenueError extends PelagicError {
  constructor(message: string, options?: ErrorOptions) {
    super("VENUE_LIVE_READ_FAILED", message, options);
  }
}

async function collect<T>(paging: OffsetPaging<T>, cap: number): Promise<T[]> {
  const rows: T[] = [];
  for await (const item of paging) {
    if (item.type === "page") rows.push(...item.rows);
    if (rows.length >= cap) break;
  }
  return rows;
}

/**
 * The signer's figures: counts and P&L from the venue's closed positions, open positions and lifetime P&L,
 * over whatever the store holds for the signer itself (`base`).
 */
export async function liveSignerStats(
  venue: LiveVenue,
  signer: string,
  base: WalletStatsTable,
  profitFactorCap: number,
  maxRows = 5_000,
): Promise<WalletStatsTable> {
  const signal = AbortSignal.timeout(venue.timeoutMs);
  let closed: Array<{ realizedPnl: number }>;
  let open: unknown[];
  let lifetime: number | null;
  try {
    [closed, open, lifetime] = await Promise.all([
      collect(venue.dataApi.closedPositions(signer, {}, { signal }), maxRows),
      collect(venue.dataApi.positions(signer, {}, { signal }), maxRows),
      venue.pnl.lifetimePnlMicro(signer, signal),
    ]);
  } catch (error) {
    throw new LiveVenueError(`venue unavailable for the live signer view: ${(error as Error).message}`);
  }
  const summary = summarizeVenueClosedPositions(closed);
  const wins = summary.wins;
  const losses = summary.losses;
  return {
    ...base,
    active_count: open.length,
    wins,
    losses,
    win_rate: winRate(wins, losses),
    win_source: "venue",
    gross_profit: summary.grossProfit,
    gross_loss: summary.grossLoss,
    profit_factor: profitFactor(summary.grossProfit, summary.grossLoss, profitFactorCap),
    total_pnl: lifetime === null ? base.total_pnl : fromMicro(lifetime),
    total_pnl_source: lifetime === null ? base.total_pnl_source : "venue",
  };
}
