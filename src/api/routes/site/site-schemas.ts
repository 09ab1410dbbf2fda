/** The site family's schemas: the home page, site-stats and hot traders. */
import { Type } from "typebox";
import { Nullable } from "../../nullable.js";
import { CATEGORIES } from "../../../venue/categories.js";

export const Category = Type.Enum(CATEGORIES);

export const WhaleMove = Type.Object({
  wallet: Type.String(),
  name: Nullable(Type.String()),
  market_id: Nullable(Type.String()),
  condition_id: Type.String(),
  question: Nullable(Type.String()),
  category: Nullable(Category),
  outcome: Type.Enum(["YES", "NO"], { description: "the token traded" }),
  side: Type.Enum(["BUY", "SELL"], { description: "direction from the whale's point of view" }),
  price: Type.Number({ description: "price of the token traded, 0..1" }),
  usd: Type.Number({ description: "USD notional of the fill" }),
  ts: Type.Integer(),
  tx_hash: Type.String(),
  entry_type: Nullable(
    Type.Enum(["MINT", "MERGE", "COMPLEMENTARY"]),
    "settlement of the match; null when unclassified",
  ),
});

export const HotMarket = Type.Object({
  market_id: Type.String(),
  condition_id: Type.String(),
  question: Type.String(),
  slug: Type.String(),
  category: Nullable(Category),
  price_yes: Nullable(Type.Number()),
  volume_24h: Type.Number({ description: "USD traded over the last 24 h (one side per match)" }),
  whales_yes: Type.Integer(),
  whales_no: Type.Integer(),
  sparkline: Type.Array(Type.Number(), {
    description: "YES price at the end of each of the last 24 hours, oldest first (last fill, carried forward)",
  }),
});

export const TopWhale = Type.Object({
  wallet: Type.String(),
  name: Nullable(Type.String()),
  realized_pnl_7d: Type.Number({
    description: "net realized P&L (after fees), USD, of the positions closed in the last 7 days",
  }),
  closed_positions_7d: Type.Integer(),
  total_pnl: Type.Number(),
  win_rate: Type.Number(),
  profit_factor: Type.Number(),
});

export const Rotation = Type.Object({
  category: Category,
  volume_24h: Type.Number({ description: "USD over the last 24 h" }),
  volume_prev_24h: Type.Number({ description: "USD over the 24 h before" }),
  delta_usd: Type.Number(),
  delta_pct: Nullable(Type.Number(), "percent change; null when the previous 24 h had none"),
  share_pct: Type.Number({ description: "share of the last 24 h's categorised volume, percent" }),
});

export const WhaleMoves = Type.Object({
  moves: Type.Array(WhaleMove),
  hours: Type.Integer(),
  min_usd: Type.Number(),
});
export const HotMarkets = Type.Object({ markets: Type.Array(HotMarket) });
export const TopWhales = Type.Object({ whales: Type.Array(TopWhale), days: Type.Integer() });
export const CategoryRotation = Type.Object({ categories: Type.Array(Rotation) });

export const Watching = Type.Object({ watching: Type.Integer({ description: "live homepage sessions" }) });
export const HomePing = Type.Object({ ok: Type.Literal(true), watching: Type.Integer(), ttl_seconds: Type.Integer() });

export const NumberMap = Type.Record(Type.String(), Type.Number());

export const SiteStats = Type.Object({
  smart_whales: Type.Integer({ description: "Smart Money wallets (farmers never count)" }),
  markets: Type.Integer({ description: "markets known" }),
  active_markets: Type.Integer({ description: "markets not closed" }),
  wallets: Type.Integer({ description: "wallets with statistics" }),
  trades: Type.Integer({
    description:
      "approximate: matches as the venue counts them (one per taker order), summed over the market statistics",
  }),
  thresholds: Type.Object(
    {
      smart: NumberMap,
      farmer: NumberMap,
      whales: NumberMap,
      ledger: NumberMap,
      home: NumberMap,
      roles: NumberMap,
    },
    {
      description:
        "the thresholds in force, by the settings' names in snake case (README: settings), e.g. smart.min_win_rate = SMART_MIN_WIN_RATE",
    },
  ),
  as_of: Type.Integer({ description: "unix seconds the figures were computed at" }),
});

export const HotTrader = Type.Object({
  wallet: Type.String(),
  name: Type.Union([Type.String(), Type.Null()]),
  pnl_24h: Type.Number({ description: "change of total P&L over the last 24 h, USD" }),
  total_pnl: Type.Number(),
  win_rate: Type.Number({ description: "percent 0-100" }),
  is_smart: Type.Boolean(),
});

export const HotTraders = Type.Object({ winners: Type.Array(HotTrader), losers: Type.Array(HotTrader) });
