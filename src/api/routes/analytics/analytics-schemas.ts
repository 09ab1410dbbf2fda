/** The free analytics' schemas (/api/analytics/*). */
import { Type } from "typebox";
import { CLUSTERS_MAX, MOVERS_MAX } from "../../../analytics/windows/window-aggregates.js";
import { CATEGORIES } from "../../../venue/categories.js";
import { LimitQuery } from "../../params.js";

export const Name = Type.Union([Type.String(), Type.Null()]);

export const FlowRow = Type.Object({
  category: Type.Enum(CATEGORIES),
  markets: Type.Integer({ description: "markets where smart whales traded in the last 24 h" }),
  whales_now: Type.Integer({ description: "smart whales holding an open position in the category now" }),
  volume_24h: Type.Number({ description: "USD of smart-whale fills over the last 24 h" }),
  volume_prev: Type.Number({ description: "USD of smart-whale fills over the 24 h before" }),
  volume_delta_pct: Type.Union([Type.Number(), Type.Null()], {
    description: "percent change; null when volume_prev is 0",
  }),
  wallets_24h: Type.Integer({ description: "smart whales with a fill in the last 24 h" }),
});

export const Cluster = Type.Object({
  market_id: Type.Union([Type.String(), Type.Null()]),
  condition_id: Type.String(),
  question: Type.Union([Type.String(), Type.Null()]),
  category: Type.Union([Type.Enum(CATEGORIES), Type.Null()]),
  side: Type.Enum(["YES", "NO"]),
  whale_count: Type.Integer(),
  combined_usd: Type.Number({ description: "sum of the whales' net positions at cost on that side, USD" }),
  wallets: Type.Array(Type.Object({ wallet: Type.String(), name: Name }), { description: "largest position first" }),
});

export const Mover = Type.Object({
  wallet: Type.String(),
  display_name: Name,
  pnl_now: Type.Number({ description: "ledger P&L now (last daily point), USD" }),
  delta: Type.Number({ description: "P&L change over the window, USD" }),
  win_rate: Type.Number(),
  closed_count: Type.Integer({ description: "wins + losses" }),
  is_smart: Type.Boolean(),
  sparkline: Type.Array(Type.Number(), {
    description: "P&L at the window start, each following day, and now (window days + 1 values)",
  }),
});

export const VolumeHour = Type.Object({
  hour: Type.String({ description: "hour start, ISO 8601 UTC, e.g. 2026-06-01T13:00:00Z" }),
  yes_volume: Type.Number({ description: "USD of smart-whale fills on YES tokens" }),
  no_volume: Type.Number({ description: "USD of smart-whale fills on NO tokens" }),
  trades: Type.Integer({ description: "smart-whale fills" }),
});

export const SmartMoneyFlow = Type.Object({ flow: Type.Array(FlowRow) });

export const WhaleClustersQuery = LimitQuery({
  default: 20,
  max: CLUSTERS_MAX,
  description: `clusters to return (1..${CLUSTERS_MAX})`,
});
export const WhaleClusters = Type.Object({ clusters: Type.Array(Cluster) });

export const TopMoversQuery = LimitQuery({
  default: 10,
  max: MOVERS_MAX,
  description: `wallets to return (1..${MOVERS_MAX})`,
});
export const TopMovers = Type.Object({ winners: Type.Array(Mover), days: Type.Integer() });

export const WhaleVolume24h = Type.Object({ series: Type.Array(VolumeHour) });
