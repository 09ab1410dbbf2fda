/** The leaderboards' request and response schemas (v2, public v1, /api/leaderboard). */
import { Type } from "typebox";
import { Nullable } from "../../nullable.js";
import { BOARD_SORTS, PERIODS } from "../../../analytics/boards/leaderboard.js";
import { ROLE_PROFILES } from "../../../ledger/index.js";
import { CATEGORIES } from "../../../venue/categories.js";
import { Offset } from "../../params.js";

/** Largest page of the v2 whale leaderboard (the contract names none). */
export const LEADERBOARD_MAX_LIMIT = 200;
export const PUBLIC_MAX_LIMIT = 100;
export const TRADERS_MAX_LIMIT = 200;

const PageLimit = (fallback: number, max: number) =>
  Type.Integer({ minimum: 1, maximum: max, default: fallback, description: `rows to return (1..${max})` });

const Num = (description: string) => Type.Number({ description });
const NullableNum = (description: string) => Nullable(Type.Number(), description);

const WhaleRow = Type.Object(
  {
    wallet: Type.String({ description: "wallet address, lower case" }),
    name: Type.Union([Type.String(), Type.Null()], { description: "profile name, else pseudonym" }),
    total_pnl: Num("lifetime P&L, USD (the venue's when synced, else the ledger's realized + unrealized)"),
    win_rate: Num("percent 0-100"),
    profit_factor: Num("gross profit / gross loss of closed positions, capped at 99.99"),
    resolved_markets: Type.Integer({ description: "resolved markets traded" }),
    wins: Type.Integer(),
    losses: Type.Integer(),
    total_volume: Num("USD over all fills"),
    total_trades: Type.Integer({ description: "fills" }),
    main_category: Type.Union([Type.String(), Type.Null()], {
      description:
        "category with the largest volume share (SPORTS, GEOPOLITICS, CRYPTO, POLITICS, ECONOMICS, TECH); null when none maps",
    }),
    avg_entry_price: NullableNum("average entry price over the wallet's positions, weighted by shares bought (0..1)"),
    last_trade_ts: Type.Union([Type.Integer(), Type.Null()], { description: "unix seconds of the last fill" }),
    active_count: Type.Integer({ description: "open positions" }),
    market_win_rate: Num("per-market win rate, percent"),
    market_wins: Type.Integer(),
    market_losses: Type.Integer(),
    mint_volume_30d: Num("USD of the wallet's MINT-settled fills over the 30 days before the ledger's last refresh"),
    merge_volume_30d: Num("USD of the wallet's MERGE-settled fills over the 30 days before the ledger's last refresh"),
    is_smart: Type.Boolean({ description: "Smart Money (never a farmer)" }),
    is_farmer: Type.Boolean({ description: "failed a farmer test (only listed with filter=all)" }),
    has_skill: Type.Boolean({ description: "strict skill badge" }),
    skill_z: NullableNum("edge z-score behind the skill badge"),
    role_profile: Type.Enum(ROLE_PROFILES, { description: "behaviour profile (see /api/leaderboard)" }),
  },
  { description: "leaderboard row" },
);

export const Board = Type.Object({
  whales: Type.Array(WhaleRow),
  total: Type.Integer({ description: "wallets matching every filter (all pages)" }),
  sort: Type.String(),
  offset: Type.Integer(),
  limit: Type.Integer(),
});

const boardFilters = {
  sort: Type.Enum(BOARD_SORTS, {
    default: "pnl",
    description: "pnl (total_pnl), win_rate, volume (total_volume) or trades (total_trades); descending",
  }),
  category: Type.String({
    default: "",
    maxLength: 40,
    description: `main category: ${CATEGORIES.join(", ")} (any case); empty for all`,
  }),
  filter: Type.Enum(["smart", "all"] as const, {
    default: "smart",
    description: "smart: Smart Money only (farmers never); all: every wallet",
  }),
  min_markets: Type.Integer({ minimum: 0, default: 10, description: "least resolved markets" }),
  min_wr: Type.Number({ minimum: 0, maximum: 100, default: 0, description: "least win rate, percent" }),
  min_pnl: Type.Number({ default: 0, description: "least total_pnl, USD (may be negative); 0: no floor" }),
  min_profit_factor: Type.Number({ minimum: 0, default: 0, description: "least profit factor" }),
  max_avg_entry: Type.Number({
    minimum: 0,
    maximum: 1,
    default: 0,
    description: "largest avg_entry_price (0..1); 0: no cap",
  }),
};

export const V2Query = Type.Object({
  ...boardFilters,
  limit: PageLimit(50, LEADERBOARD_MAX_LIMIT),
  offset: Offset,
  max_sports_pct: Type.Number({
    minimum: 0,
    maximum: 100,
    default: 0,
    description: "largest SPORTS volume share, percent; 0: no cap",
  }),
  exclude_wallets: Type.String({
    default: "",
    maxLength: 50_000,
    description: "comma-separated addresses to leave out",
  }),
  skill: Type.Integer({
    minimum: 0,
    maximum: 1,
    default: 0,
    description: "1: only wallets with the strict skill badge",
  }),
});

export const PublicQuery = Type.Object({ ...boardFilters, limit: PageLimit(50, PUBLIC_MAX_LIMIT), offset: Offset });

const Trader = Type.Object({
  wallet: Type.String(),
  display_name: Type.Union([Type.String(), Type.Null()]),
  win_rate: Num("percent 0-100"),
  market_win_rate: Num("per-market win rate, percent"),
  total_pnl: Num("P&L over the period, USD (the ranking key; lifetime for period=all)"),
  lifetime_pnl: Num("lifetime total_pnl, USD"),
  roi: NullableNum("lifetime return on traded volume, percent: 100 * lifetime_pnl / total_volume; null without volume"),
  is_smart: Type.Boolean(),
  role_profile: Type.Enum(ROLE_PROFILES, {
    description:
      "market maker: at least ROLE_MARKET_MAKER_SHARE of its 30-day volume rested as maker; favourite buyer: average entry at or above " +
      "ROLE_FAVOURITE_AVG_ENTRY; longshot buyer: at or below ROLE_LONGSHOT_AVG_ENTRY; otherwise directional",
  }),
});

export const TradersQuery = Type.Object({
  period: Type.Enum(PERIODS, {
    default: "24h",
    description: "24h (the ledger's pnl_24h), 7d or 30d (change of the daily P&L points), all (total_pnl)",
  }),
  filter: Type.Enum(["smart", "all"] as const, {
    default: "smart",
    description: "smart: Smart Money only; all: every wallet",
  }),
  limit: PageLimit(50, TRADERS_MAX_LIMIT),
});

export const Traders = Type.Object({ traders: Type.Array(Trader), period: Type.String(), filter: Type.String() });
