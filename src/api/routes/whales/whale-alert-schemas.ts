/** Request and response schemas of the Premium whale routes: alerts, their summary, big positions, recent trades, flips, clusters. */
import { Type } from "typebox";
import { Nullable } from "../../nullable.js";
import { ADDRESS_PATTERN, Limit } from "../../params.js";
import { CATEGORIES } from "../../../venue/categories.js";
import { CategoryParam } from "../markets/market-list-schemas.js";

const ALERT_MINUTES_MAX = 1_440;
/** The most wallets a whale-alerts query names. */
export const ALERT_WALLETS_MAX = 50;
/** The largest page of recent trades: each window's list is computed this long. */
export const RECENT_TRADES_MAX = 100;
const RECENT_HOURS_MAX = 24;
const FLIPS_MAX = 100;
const CLUSTERS_MAX = 100;

const Side = Type.Union([Type.Literal("YES"), Type.Literal("NO")], {
  description: "the outcome token: YES (outcome index 0) or NO",
});
const Direction = Type.Union([Type.Literal("BUY"), Type.Literal("SELL")], {
  description: "direction from the wallet's point of view",
});
const Category = Nullable(
  Type.Enum(CATEGORIES),
  "the market's category; null when it maps to none or the market is not stored",
);
const Usd = (description: string) => Type.Number({ description: `${description} (USD)` });

export const WhaleAlert = Type.Object({
  id: Type.Integer({
    description: "the fill's row id: with timestamp, what tells two alerts of one second apart (dedupe polls by it)",
  }),
  timestamp: Type.Integer({ description: "unix seconds" }),
  wallet: Type.String(),
  name: Nullable(Type.String(), "profile name, else pseudonym"),
  is_smart: Type.Boolean({ description: "Smart Money now (never a farmer); always true unless smart_only=false" }),
  win_rate: Nullable(Type.Number(), "the wallet's win rate, percent; null without statistics"),
  total_pnl: Nullable(Type.Number(), "the wallet's lifetime P&L, USD; null without statistics"),
  market_id: Nullable(Type.String()),
  condition_id: Type.String(),
  question: Nullable(Type.String()),
  slug: Nullable(Type.String()),
  event_slug: Nullable(Type.String()),
  category: Category,
  side: Side,
  direction: Direction,
  price: Type.Number({ description: "price of the token traded, 0..1" }),
  usd_amount: Usd("notional of the fill"),
  token_amount: Type.Number({ description: "shares" }),
  entry_type: Nullable(
    Type.Union([Type.Literal("MINT"), Type.Literal("MERGE"), Type.Literal("COMPLEMENTARY")]),
    "settlement of the match, not trader intent; null: unclassified",
  ),
  wallet_role: Nullable(
    Type.Union([Type.Literal("maker"), Type.Literal("taker")]),
    "the wallet's role in the match; null when the source does not say (Data API fills)",
  ),
  tx_hash: Type.String(),
});

export const WhaleAlertsBody = Type.Object({
  alerts: Type.Array(WhaleAlert, { description: "newest first (timestamp, then id)" }),
  count: Type.Integer(),
  has_more: Type.Boolean({ description: "more alerts match below this page" }),
  next_before_ts: Nullable(
    Type.Integer(),
    "before_ts of the next page (a page ends between two seconds unless more than `limit` alerts share one); null when has_more is false",
  ),
  minutes: Type.Integer(),
  min_usd: Type.Number(),
  smart_only: Type.Boolean(),
  as_of: Type.Integer({
    description:
      "when the feed was last brought up to date with the store (at most WHALE_ALERTS_REFRESH_SECONDS before the request)",
  }),
});

export const WhaleAlertsSummaryBody = Type.Object({
  window_minutes: Type.Integer(),
  total_alerts: Type.Integer({ description: "smart-whale fills of at least min_usd in the last window_minutes" }),
  previous_alerts: Type.Integer({ description: "the same over the equal window before" }),
  alerts_delta_pct: Nullable(
    Type.Number(),
    "100 × (total_alerts − previous_alerts) / previous_alerts; null when previous_alerts is 0",
  ),
  total_volume: Usd("Σ usd_amount of the window's alerts"),
  previous_volume: Usd("Σ usd_amount of the previous window's alerts"),
  biggest_single: Nullable(
    Type.Object({
      usd_amount: Type.Number(),
      question: Nullable(Type.String()),
      market_id: Nullable(Type.String()),
      condition_id: Type.String(),
      wallet: Type.String(),
      name: Nullable(Type.String()),
      side: Side,
      direction: Direction,
      price: Type.Number(),
      timestamp: Type.Integer(),
      tx_hash: Type.String(),
    }),
    "the window's largest alert (the newest of equals); null without alerts",
  ),
  most_active_whale: Nullable(
    Type.Object({
      name: Nullable(Type.String()),
      trades: Type.Integer(),
      wallet: Type.String(),
      volume_usd: Type.Number(),
    }),
    "the whale with the most alerts in the window (then the most volume); null without alerts",
  ),
  min_usd: Type.Number({ description: "WHALE_ALERT_SUMMARY_MIN_USD" }),
  as_of: Type.Integer(),
});

export const BigPosition = Type.Object({
  wallet: Type.String(),
  wallet_name: Nullable(Type.String()),
  market_title: Nullable(Type.String(), "the market's question"),
  side: Side,
  size: Type.Number({ description: "shares held on that side" }),
  avg_price: Type.Number({ description: "average entry price" }),
  current_price: Nullable(Type.Number(), "the side's current price; null when the market has none"),
  cost_basis: Usd("size × avg_price"),
  value_usd: Nullable(Type.Number(), "size × current_price; null without a price"),
  unrealized_pnl: Nullable(Type.Number(), "value_usd − cost_basis"),
  market_id: Nullable(Type.String()),
  condition_id: Type.String(),
  category: Category,
  win_rate: Nullable(Type.Number()),
  total_pnl: Nullable(Type.Number(), "the whale's lifetime P&L"),
});

export const BigPositionsBody = Type.Object({
  items: Type.Array(BigPosition, { description: "largest cost_basis first" }),
  count: Type.Integer(),
  total: Type.Integer({ description: "big positions matching, before limit" }),
  min_usd: Type.Number(),
  category: Nullable(Type.Enum(CATEGORIES)),
  as_of: Type.Integer({
    description: "when the whales' positions were read (reloaded every WHALE_HOLDINGS_REFRESH_SECONDS)",
  }),
});

export const BigPositionsSummaryBody = Type.Object({
  total_positions: Type.Integer(),
  total_value_usd: Usd("held value: Σ size × current_price, at cost where the market has no price"),
  total_cost_basis_usd: Usd("Σ cost_basis"),
  biggest_position: Nullable(BigPosition, "largest cost basis; null without big positions"),
  top_whale: Nullable(
    Type.Object({
      wallet: Type.String(),
      name: Nullable(Type.String()),
      positions: Type.Integer(),
      cost_basis_usd: Type.Number(),
      value_usd: Type.Number(),
    }),
    "the whale with the largest summed cost basis among them",
  ),
  min_usd: Type.Number({ description: "BIG_POSITION_MIN_USD" }),
  category: Nullable(Type.Enum(CATEGORIES)),
  as_of: Type.Integer(),
});

export const RecentWhaleTrade = Type.Object({
  tx_hash: Type.String(),
  size_usd: Usd("notional of the fill"),
  whale_name: Nullable(Type.String()),
  side: Side,
  price: Type.Number(),
  question: Nullable(Type.String()),
  wallet: Type.String(),
  timestamp: Type.Integer(),
  direction: Direction,
  token_amount: Type.Number({ description: "shares" }),
  market_id: Nullable(Type.String()),
  condition_id: Type.String(),
  category: Category,
  entry_type: Nullable(Type.Union([Type.Literal("MINT"), Type.Literal("MERGE"), Type.Literal("COMPLEMENTARY")])),
});

export const WhaleFlip = Type.Object({
  wallet: Type.String(),
  display_name: Nullable(Type.String()),
  market_id: Nullable(Type.String()),
  condition_id: Type.String(),
  question: Nullable(Type.String()),
  old_side: Side,
  new_side: Side,
  old_size_usd: Usd("|net position| at the comparison snapshot (YES cost − NO cost)"),
  new_size_usd: Usd("|net position| now"),
  swing_usd: Usd("old_size_usd + new_size_usd, at least FLIP_MIN_SWING_USD"),
  win_rate: Type.Number(),
  lifetime_pnl: Type.Number(),
});

export const WhaleFlipsBody = Type.Object({
  flips: Type.Array(WhaleFlip, { description: "largest swing first" }),
  count: Type.Integer(),
  total: Type.Integer({ description: "flips found, before limit" }),
  lookback_days: Type.Integer(),
  comparison_date: Nullable(
    Type.String(),
    "UTC date (YYYY-MM-DD) of the snapshot compared with: the latest at or before lookback_days before today; null when none is that old",
  ),
  min_swing_usd: Type.Number({ description: "FLIP_MIN_SWING_USD" }),
  as_of: Type.Integer({ description: "when the flips were computed (kept for the clock hour)" }),
});

export const ConvictionCluster = Type.Object({
  event_slug: Type.String(),
  event_title: Nullable(Type.String()),
  side: Side,
  whale_count: Type.Integer(),
  market_count: Type.Integer({ description: "the event's markets where a member stands on the side" }),
  total_capital_usd: Usd("Σ of the members' net positions on the side over those markets"),
  whales: Type.Array(
    Type.Object({
      name: Nullable(Type.String()),
      wr: Type.Number({ description: "win rate, percent" }),
      pnl: Type.Number({ description: "lifetime P&L, USD" }),
      wallet: Type.String(),
      capital_usd: Type.Number({ description: "its net positions on the side over the cluster's markets" }),
      markets: Type.Integer({ description: "the cluster's markets it stands in" }),
    }),
    { description: "largest capital first" },
  ),
  markets: Type.Array(
    Type.Object({
      market_id: Type.String(),
      question: Type.String(),
      condition_id: Type.String(),
      whale_count: Type.Integer(),
      capital_usd: Type.Number(),
    }),
    { description: "largest capital first" },
  ),
});

export const ConvictionClustersBody = Type.Object({
  clusters: Type.Array(ConvictionCluster, { description: "most whales first, then most capital" }),
  count: Type.Integer(),
  min_whales: Type.Integer(),
  min_markets: Type.Integer({ description: "CLUSTER_MIN_MARKETS" }),
  as_of: Type.Integer({ description: "when the whales' positions were read (answers kept 5 min)" }),
});

export const Timestamp = (description: string) => Type.Integer({ minimum: 0, default: 0, description });

/** The whale alerts' window, filters and page. */
export const WhaleAlertsQuery = Type.Object({
  minutes: Type.Integer({
    minimum: 1,
    maximum: ALERT_MINUTES_MAX,
    default: 10,
    description: `window, minutes back from now (1..${ALERT_MINUTES_MAX})`,
  }),
  wallet: Type.String({
    pattern: `^(${ADDRESS_PATTERN.slice(1, -1)})?$`,
    default: "",
    description: "one wallet address; empty: every wallet",
  }),
  wallets: Type.String({
    default: "",
    maxLength: 5_000,
    description: `comma-separated wallet addresses (at most ${ALERT_WALLETS_MAX}); with wallet, alerts of any of them`,
  }),
  market_id: Type.String({
    default: "",
    maxLength: 200,
    description: "the venue's market id, condition id or market slug; empty: every market; unknown: 404",
  }),
  category: CategoryParam,
  min_usd: Type.Number({ minimum: 0, default: 10, description: "smallest fill, USD" }),
  smart_only: Type.Boolean({
    default: true,
    description: "false: every wallet's fills, each flagged is_smart",
  }),
  before_ts: Timestamp("exclusive upper bound (unix s); 0: none"),
  after_ts: Timestamp("exclusive lower bound (unix s); 0: none; must be below before_ts"),
  limit: Limit({ default: 50, max: 200 }),
});

export const WhaleAlertsSummaryQuery = Type.Object({
  minutes: Type.Integer({
    minimum: 1,
    maximum: ALERT_MINUTES_MAX,
    default: 1_440,
    description: `window (1..${ALERT_MINUTES_MAX})`,
  }),
});

/** Big positions: `defaultMinUsd` is BIG_POSITION_MIN_USD. */
export const BigPositionsQuery = (defaultMinUsd: number) =>
  Type.Object({
    category: CategoryParam,
    min_usd: Type.Number({
      minimum: 0,
      default: defaultMinUsd,
      description: "floor on cost basis, USD (BIG_POSITION_MIN_USD)",
    }),
    limit: Limit({ default: 50, max: 200 }),
  });

/** /api/v2/whales/recent-trades. */
export const RecentTradesQuery = Type.Object({
  limit: Limit({ default: 10, max: RECENT_TRADES_MAX }),
  hours: Type.Integer({
    minimum: 1,
    maximum: RECENT_HOURS_MAX,
    default: 1,
    description: `window, hours back from now (1..${RECENT_HOURS_MAX})`,
  }),
  min_size_usd: Type.Number({ minimum: 0, default: 100, description: "smallest fill, USD" }),
  category: CategoryParam,
});

/** /api/v2/whales/recent-trades answers a plain list. */
export const RecentWhaleTradesBody = Type.Array(RecentWhaleTrade);

/** Whale flips: `days` back, its default and largest value per family. */
export const WhaleFlipsQuery = (days: { default: number; max: number }) =>
  Type.Object({
    days: Type.Integer({
      minimum: 1,
      maximum: days.max,
      default: days.default,
      description: `days back to compare with (1..${days.max})`,
    }),
    limit: Limit({ default: 20, max: FLIPS_MAX }),
  });

/** Conviction clusters: `min_whales` defaults to CLUSTER_MIN_WHALES, up to `maxMinWhales`. */
export const ConvictionClustersQuery = (defaultMinWhales: number, maxMinWhales: number) =>
  Type.Object({
    min_whales: Type.Integer({
      minimum: 1,
      maximum: maxMinWhales,
      default: defaultMinWhales,
      description: "whales a cluster needs (CLUSTER_MIN_WHALES by default)",
    }),
    limit: Limit({ default: 10, max: CLUSTERS_MAX }),
  });
