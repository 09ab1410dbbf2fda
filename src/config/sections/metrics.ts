/** Settings, part of src/config/index.ts: what the numbers mean: the ledger, the farmer test, Smart Money and whales (docs/METRICS.md). */
import { int, num } from "../settings.js";

export const ledger = {
  profitFactorCap: num("PROFIT_FACTOR_CAP", 99.99, "cap of profit_factor", { min: 1 }),
  closedPositionsCompleteness: num(
    "CLOSED_POSITIONS_COMPLETENESS",
    0.95,
    "share of expected closed positions the venue cache must hold to use its counts",
    { min: 0, max: 1 },
  ),
  holdWindowDays: int("HOLD_WINDOW_DAYS", 90, "median hold looks at positions closed in this many days", { min: 1 }),
  holdMinPositions: int("HOLD_MIN_POSITIONS", 3, "median hold needs at least this many positions", { min: 1 }),
  rankMinResolvedMarkets: int("RANK_MIN_RESOLVED_MARKETS", 10, "resolved markets to be ranked", { min: 0 }),
} as const;

export const farmer = {
  favouriteMinAvgBuyPrice: num(
    "FARMER_FAVOURITE_AVG_BUY_PRICE",
    0.95,
    "volume-weighted average buy price above which a wallet farms favourites",
    { min: 0, max: 1 },
  ),
  botMinFills: int("FARMER_BOT_MIN_FILLS", 500_000, "fill count above which small fills mark a reward/volume bot", {
    min: 1,
  }),
  botMaxAvgFillUsd: num("FARMER_BOT_MAX_AVG_FILL_USD", 20, "average fill under which a high-count wallet is a bot", {
    min: 0,
  }),
  twoSidedMarketShare: num("FARMER_TWO_SIDED_MARKET_SHARE", 0.4, "share of markets held on both sides at once", {
    min: 0,
    max: 1,
  }),
  twoSidedMinBalance: num(
    "FARMER_TWO_SIDED_MIN_BALANCE",
    0.4,
    "a market counts as held on both sides when, at some moment, the smaller side held at least this share of the larger side's shares (an order filled now and then on the other side is no two-sided position)",
    { min: 0, max: 1 },
  ),
  twoSidedMinMarkets: int(
    "FARMER_TWO_SIDED_MIN_MARKETS",
    10,
    "markets held before either two-sided measure can mark a wallet (one hedged market is not farming)",
    { min: 1 },
  ),
  splitMergeVolumeShare: num(
    "FARMER_SPLIT_MERGE_VOLUME_SHARE",
    0.6,
    "the wallet's own splits and merges (collateral into both outcomes and back) as a share of its fill volume that, with near-zero P&L, marks two-sided farming",
    { min: 0 },
  ),
  nearZeroPnlShare: num("FARMER_NEAR_ZERO_PNL_SHARE", 0.005, "|P&L| under this share of volume is near zero", {
    min: 0,
    max: 1,
  }),
  washRingVolumeShare: num(
    "FARMER_WASH_RING_VOLUME_SHARE",
    0.2,
    "share of volume against a small ring that marks wash trading",
    { min: 0, max: 1 },
  ),
  washRingMaxCounterparties: int(
    "FARMER_WASH_RING_MAX_COUNTERPARTIES",
    5,
    "largest ring of counterparties counted as 'small'",
    { min: 1 },
  ),
} as const;

export const smart = {
  minResolvedMarkets: int("SMART_MIN_RESOLVED_MARKETS", 10, "resolved markets for Smart Money", { min: 0 }),
  minWinRate: num("SMART_MIN_WIN_RATE", 55, "win rate (percent) for Smart Money", { min: 0, max: 100 }),
  skillMinResolvedMarkets: int("SKILL_MIN_RESOLVED_MARKETS", 30, "resolved markets for the skill badge", { min: 0 }),
  skillMinZ: num("SKILL_MIN_Z", 2.33, "edge z-score for the skill badge (one-sided 1%)"),
  skillMaxEventPnlShare: num(
    "SKILL_MAX_EVENT_PNL_SHARE",
    0.5,
    "largest share of P&L one event may hold for the skill badge",
    { min: 0, max: 1 },
  ),
} as const;

export const whales = {
  consensusMinUsd: num("CONSENSUS_MIN_USD", 100, "net position at cost to stand on a market's team", { min: 0 }),
  flipMinSwingUsd: num("FLIP_MIN_SWING_USD", 200_000, "swing of a whale flip", { min: 0 }),
  clusterMinWhales: int("CLUSTER_MIN_WHALES", 3, "smart wallets aligned for a conviction cluster", { min: 1 }),
  clusterMinMarkets: int("CLUSTER_MIN_MARKETS", 2, "markets of one event for a conviction cluster", { min: 1 }),
  alertSummaryMinUsd: num(
    "WHALE_ALERT_SUMMARY_MIN_USD",
    1_000,
    "smallest smart-whale fill (USD) the whale-alerts summary counts",
    { min: 0 },
  ),
  bigPositionMinUsd: num(
    "BIG_POSITION_MIN_USD",
    500_000,
    "cost basis (USD) from which a whale's position is a big position: the big-positions list's default min_usd and its summary's floor",
    { min: 0 },
  ),
} as const;
