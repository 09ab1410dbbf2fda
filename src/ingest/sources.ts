/** The ingest sources: each pipeline's checkpoint name, as `/api/v1/health` lists them. */
import type { Config } from "../config/index.js";
import { CHAIN_LOGS_SOURCE, WALLET_SYNC_SOURCE } from "../store/checkpoints.js";

export const SOURCES = {
  /** Events, markets and tokens from Gamma. */
  markets: "gamma-markets",
  /** Market-wide fills, conversions, splits, merges, redemptions and resolutions from chain logs. */
  chain: CHAIN_LOGS_SOURCE,
  /** Market-wide fills from the Data API /trades, when no RPC URL is configured. */
  dataApiTrades: "data-api-trades",
  /** The live trade relay (RTDS, or /trades polling while it is down). */
  live: "rtds-live",
  /** Per-wallet syncs of positions, closed positions, activity and the P&L curve. */
  wallets: WALLET_SYNC_SOURCE,
  /** The collateral transfers into the wallets Pelagic sees, followed back a few hops (issue 52). */
  funding: "chain-funding",
} as const;

/** Where fills come from: chain logs when an RPC URL is configured, else the Data API. */
export function fillsSource(config: Pick<Config, "venue">): typeof SOURCES.chain | typeof SOURCES.dataApiTrades {
  return config.venue.rpcUrl ? SOURCES.chain : SOURCES.dataApiTrades;
}

/** The sources whose first full sync must finish before the service is ready. */
export function expectedIngestSources(config: Pick<Config, "venue">): string[] {
  return [SOURCES.markets, fillsSource(config)];
}
