/**
 * Settings, part of src/config/index.ts: informed flow (issue 52). Funding: the ingest reads the collateral tokens'
 * `Transfer` logs into each wallet it sees and follows them back `FUNDING_HOPS` transfers; the Deriver groups
 * wallets that share a funder which is not a hub (docs/METRICS.md, "Funding clusters"). Insider scores: the
 * Deriver scores every large enough bet (docs/METRICS.md, "Insider score").
 */
import { bool, extraHubs, int, num } from "../settings.js";

export const funding = {
  enabled: bool(
    "FUNDING",
    true,
    "read where wallets' collateral came from (the collateral tokens' Transfer logs; needs VENUE_RPC_URL) and group wallets by shared funders",
  ),
  hops: int("FUNDING_HOPS", 3, "how many transfers back a wallet's funding is followed (a hub ends a path sooner)", {
    min: 1,
    max: 6,
  }),
  extraHubs: extraHubs(
    "FUNDING_HUBS",
    "hubs (exchanges, bridges) added to the built-in table: they end a funding path and group nobody; `0x<40 hex>` or `0x<40 hex>:<name>`, comma-separated",
  ),
  hubFanout: int(
    "FUNDING_HUB_FANOUT",
    25,
    "an account that funded this many of the addresses Pelagic traced counts as a hub the table does not know: it groups nobody",
    { min: 2 },
  ),
  addressesPerQuery: int(
    "FUNDING_ADDRESSES_PER_QUERY",
    50,
    "addresses whose incoming collateral transfers one eth_getLogs asks for (topic alternatives)",
    { min: 1, max: 1_000 },
  ),
  maxTransfers: int(
    "FUNDING_MAX_TRANSFERS",
    50,
    "incoming collateral transfers kept per address, the earliest first: funding comes before trading",
    { min: 1, max: 10_000 },
  ),
  startBlock: int("FUNDING_START_BLOCK", 0, "the first block read for funding transfers", { min: 0 }),
  pollSeconds: int(
    "FUNDING_POLL_SECONDS",
    10,
    "how often the funding reader looks for wallets it has not traced, once it has traced every one",
    { min: 1, max: 3_600 },
  ),
};

export const insider = {
  minUsd: num("INSIDER_MIN_USD", 1_000, "a position is scored as a bet from this much collateral bought (USD)", {
    min: 0,
  }),
  minScore: num("INSIDER_MIN_SCORE", 80, "insider score (0..100) from which a bet is an insider alert", {
    min: 0,
    max: 100,
  }),
  windowDays: int("INSIDER_WINDOW_DAYS", 90, "bets whose first fill is this recent are scored", { min: 1, max: 3_650 }),
  refreshSeconds: int(
    "INSIDER_REFRESH_SECONDS",
    300,
    "how often the Deriver scores the bets again (the scores move with fills, funding and resolutions)",
    { min: 1, max: 86_400 },
  ),
};

export const aheadOfNews = {
  hoursBefore: num(
    "AHEAD_HOURS_BEFORE",
    6,
    "a trade this many hours or less before a territory event counts as ahead of it",
    { min: 0.25, max: 72 },
  ),
  hoursAfter: num(
    "AHEAD_HOURS_AFTER",
    2,
    "the price after a territory event: the linked market's last trade within this many hours of it",
    { min: 0.25, max: 48 },
  ),
  minMove: num(
    "AHEAD_MIN_MOVE",
    0.1,
    "a territory event moved its market when the YES price after it differs from the price before by this much (0..1)",
    { min: 0.01, max: 1 },
  ),
  minUsd: num(
    "AHEAD_MIN_USD",
    500,
    "a wallet is named ahead of the news from this much collateral on the side the market moved to (USD)",
    { min: 0 },
  ),
};
