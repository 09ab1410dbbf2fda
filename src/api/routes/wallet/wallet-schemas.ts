/** Response schemas of the wallet core endpoints (they are the OpenAPI document's description of each field). */
import { Type } from "typebox";
import { Nullable } from "../../nullable.js";
import { CATEGORIES } from "../../../venue/categories.js";
import { ACTIVITY_TYPES } from "../../../store/activity-layout.js";

const Usd = (description: string) => Type.Number({ description: `${description} (USD)` });

const Profile = Type.Object({
  address: Type.String({ description: "the address asked about, lower case" }),
  name: Nullable(Type.String(), "venue username"),
  pseudonym: Nullable(Type.String(), "venue-generated pseudonym"),
  proxy_wallet: Type.String({
    description: "the proxy wallet whose figures answer (the address itself unless it is a known signer)",
  }),
  signer: Nullable(Type.String(), "the EOA signing for the proxy, when known"),
  bio: Nullable(Type.String()),
  profile_image: Nullable(Type.String()),
});

const Overview = Type.Object({
  total_trades: Type.Integer({ description: "fills" }),
  total_markets: Type.Integer({ description: "distinct markets traded" }),
  total_volume: Usd("sum of the fills' usd"),
  last_trade: Nullable(Type.Integer(), "unix ts of the last fill"),
  profit_factor: Type.Number({ description: "gross profit / gross loss over closed positions, capped at 99.99" }),
  active_count: Nullable(Type.Integer(), "currently held positions; null when degraded"),
  closed_count: Nullable(Type.Integer(), "stats.wins + stats.losses; null when degraded"),
  median_hold_days: Nullable(Type.Number(), "median hold of positions closed in the last 90 days; null under 3"),
  hold_positions_count: Type.Integer({ description: "sample behind median_hold_days" }),
});

const Stats = Type.Object({
  resolved: Type.Integer({ description: "resolved market units" }),
  wins: Nullable(Type.Integer(), "winning closed positions (source: win_source); null when degraded"),
  losses: Nullable(Type.Integer(), "losing closed positions; null when degraded"),
  win_rate: Type.Number({ description: "100 * wins / (wins + losses)" }),
  win_source: Type.Union([Type.Literal("ledger"), Type.Literal("venue"), Type.Literal("market")], {
    description:
      "where wins, losses, win_rate, closed_count and profit_factor come from: ledger: the venue's closed positions as the ledger computes them from the wallet's whole history (chain ingest); " +
      "venue: the venue's closed positions as synced (the cache held >= 95% of the expected ones); market: the per-market resolved metric",
  }),
  market_win_rate: Type.Number({ description: "percent of resolved market units won" }),
  market_wins: Nullable(Type.Integer(), "null when degraded"),
  market_losses: Nullable(Type.Integer(), "null when degraded"),
  total_pnl: Usd("venue lifetime P&L when synced, else realized + unrealized"),
  total_pnl_source: Type.Union([Type.Literal("venue"), Type.Literal("ledger")], {
    description:
      "venue: the last point of the venue's P&L curve (the wallet was synced); ledger: realized_pnl + unrealized_pnl",
  }),
  realized_pnl: Usd("settled P&L net of fees"),
  unrealized_pnl: Usd("open positions at current prices"),
  profit_factor: Type.Number(),
  is_smart: Type.Boolean({ description: "Smart Money" }),
  is_farmer: Type.Boolean({ description: "failed a farmer test (excluded from Smart Money)" }),
  farmer_reason: Nullable(
    Type.String(),
    "the farmer test failed, e.g. favourite_farming, reward_volume_farming, two_sided_farming, wash_trading",
  ),
  has_skill: Type.Boolean({ description: "the strict skill badge" }),
  skill_z: Nullable(Type.Number(), "edge z-score: sum(outcome - p) / sqrt(sum(p(1-p))) per event cluster"),
  edge_bps: Nullable(Type.Number(), "mean edge over the price paid, basis points"),
  skill_sample: Type.Integer({ description: "resolved units behind skill_z" }),
  profitable_streak: Type.Integer({ description: "consecutive profitable UTC days ending today or yesterday" }),
  pnl_24h: Nullable(Type.Number(), "change of total P&L over 24 h; null without a point 24 h back"),
});

export const Rankings = Type.Object({
  rank_pnl: Nullable(
    Type.Integer(),
    "1-based; null when not ranked (fewer than 10 resolved markets) or not the proxy view",
  ),
  rank_winrate: Nullable(Type.Integer()),
  rank_volume: Nullable(Type.Integer()),
  rank_profit_factor: Nullable(Type.Integer()),
  total_traders: Type.Integer({ description: "size of the ranked population" }),
  is_smart: Type.Boolean(),
});

const Categories = Type.Object(
  Object.fromEntries(CATEGORIES.map((c) => [c, Type.Number({ description: "percent of mapped volume" })])),
  {
    description: "percent share of the wallet's volume per category",
  },
);

export const WalletOverview = Type.Object({
  profile: Profile,
  overview: Overview,
  stats: Stats,
  rankings: Rankings,
  categories: Categories,
  view: Type.String({ description: "the view answered: proxy, signer or union" }),
  as_of: Type.Integer({ description: "unix ts the stored figures were computed" }),
  degraded: Type.Boolean({ description: "true: the process is under load and secondary counters are null" }),
});

export const RankingsBody = Type.Object({
  address: Type.String(),
  view: Type.String(),
  rankings: Rankings,
  as_of: Type.Integer(),
});

/** The market and outcome token a position row is about. */
const PositionMarket = {
  question: Type.String(),
  slug: Type.String(),
  outcome: Type.String(),
  category: Type.String(),
  condition_id: Type.String(),
  market_id: Type.String(),
  token_id: Type.String({ description: "the outcome token (conditional-token id)" }),
  side: Type.Union([Type.Literal("token1"), Type.Literal("token2")], {
    description: "token1 = YES leg, token2 = NO leg",
  }),
};

export const OpenPosition = Type.Object({
  ...PositionMarket,
  tokens: Type.Number({ description: "shares held" }),
  avg_entry: Type.Number({ description: "average entry price" }),
  current_price: Type.Number(),
  current_value: Usd("tokens * current_price"),
  cost: Usd("spent on every buy of this position: total bought * avg_entry"),
  initial_value: Usd("cost basis of the shares held: tokens * avg_entry"),
  pnl: Usd("unrealized: current_value - initial_value"),
  pnl_pct: Type.Number({ description: "pnl / initial_value * 100" }),
  last_trade_ts: Type.Integer(),
});

export const PositionsEnvelope = {
  positions: Type.Array(OpenPosition),
  source: Type.String({
    description:
      "merged: the venue's synced prices (fresh) overlaid on the ledger; cache: the ledger with market prices",
  }),
  is_estimated: Type.Boolean({
    description: "true when prices are database estimates because the overlay is not fresh",
  }),
  count: Type.Integer(),
};

export const V2Positions = Type.Object({
  address: Type.String(),
  ...PositionsEnvelope,
  total: Type.Integer({ description: "open positions in all" }),
  offset: Type.Integer(),
});
export const V1Positions = Type.Object({ address: Type.String(), ...PositionsEnvelope });

const ClosedPosition = Type.Object({
  ...PositionMarket,
  avg_entry: Type.Number(),
  tokens_bought: Type.Number({ description: "shares bought in all" }),
  buy_cost: Usd("tokens_bought * avg_entry"),
  realized_pnl: Usd("settled P&L net of fees; includes the payout of resolved shares not yet redeemed"),
  fees: Usd("fees paid on this position"),
  pnl_pct: Type.Number({ description: "realized_pnl / buy_cost * 100" }),
  result: Type.Union([Type.Literal("win"), Type.Literal("loss"), Type.Literal("even")]),
  resolution: Nullable(Type.String(), "YES, NO or 50-50 when the market resolved"),
  unredeemed_tokens: Type.Number({
    description: "shares of a resolved market still held (redeemable when the outcome paid)",
  }),
  first_trade_ts: Type.Integer(),
  last_trade_ts: Type.Integer(),
  closed_ts: Nullable(Type.Integer()),
});

export const ClosedBody = Type.Object({
  address: Type.String(),
  closed: Type.Array(ClosedPosition),
  count: Type.Integer(),
  total: Type.Integer({ description: "closed positions matching the filters" }),
  has_more: Type.Boolean(),
  sort: Type.String(),
  offset: Type.Integer(),
});

export const PendingBody = Type.Object(
  {
    address: Type.String(),
    positions: Type.Array(
      Type.Object({
        ...PositionMarket,
        tokens: Type.Number({ description: "unredeemed shares" }),
        avg_entry: Type.Number(),
        payout_price: Type.Number({ description: "1 for the winning outcome, 0.5 on a 50-50" }),
        redeemable_usd: Usd("tokens * payout_price"),
        cost: Usd("tokens * avg_entry"),
        pnl: Usd("redeemable_usd - cost"),
        resolution: Type.String(),
        resolved_at: Nullable(Type.Integer()),
      }),
    ),
    count: Type.Integer(),
    total_redeemable_usd: Usd("collateral waiting to be redeemed"),
  },
  { description: "Resolved positions whose paying shares the wallet has not redeemed yet, largest first" },
);

const FeeRow = {
  fees_usd: Usd("fees"),
  volume_usd: Usd("volume"),
  fills: Type.Integer(),
  fee_bps: Type.Number({ description: "fees / volume in basis points" }),
};

export const FeesBody = Type.Object({
  address: Type.String(),
  total_fees_usd: Usd("exchange fees paid over every fill (fills' fee in collateral)"),
  total_volume_usd: Usd("volume of the same fills"),
  fee_bps: Type.Number({ description: "total fees / volume in basis points" }),
  fills: Type.Integer(),
  fills_charged: Type.Integer({ description: "fills that paid a fee (makers pay none on the current schedule)" }),
  by_month: Type.Array(
    Type.Object({
      month: Type.String({ description: "YYYY-MM (UTC)" }),
      fees_usd: Usd("fees"),
      volume_usd: Usd("volume"),
    }),
  ),
  by_entry_type: Type.Array(
    Type.Object({ entry_type: Type.String({ description: "MINT, MERGE, COMPLEMENTARY or UNCLASSIFIED" }), ...FeeRow }),
  ),
  by_role: Type.Array(Type.Object({ role: Type.String({ description: "maker or taker" }), ...FeeRow })),
  as_of: Type.Integer({
    description:
      "unix ts at which the answer was computed (the sums include every fill the ledger had applied); it is kept until the ledger next writes the wallet",
  }),
});

export const TradeFill = Type.Object({
  condition_id: Type.String(),
  market_id: Type.String(),
  token_id: Type.String({ description: "the outcome token (conditional-token id)" }),
  side: Type.Union([Type.Literal("BUY"), Type.Literal("SELL")], {
    description: "direction of the conditional-token operation, not a plain orderbook buy/sell",
  }),
  outcome: Type.String(),
  title: Type.String(),
  slug: Type.String(),
  size: Type.Number({ description: "shares" }),
  price: Type.Number({ description: "0..1" }),
  usd_amount: Type.Number(),
  timestamp: Type.Integer(),
  transaction_hash: Type.String(),
  entry_type: Nullable(
    Type.Union([Type.Literal("MINT"), Type.Literal("MERGE"), Type.Literal("COMPLEMENTARY")]),
    "settlement mechanics of the match, not trader intent; null: unclassified",
  ),
  fee_usd: Type.Number({ description: "exchange fee in USDC; subtract from usd_amount for net P&L" }),
});

export const TradesBody = Type.Object({
  count: Type.Integer(),
  has_more: Type.Boolean(),
  trades: Type.Array(TradeFill),
});

export const WatchingBody = Type.Object({
  address: Type.String(),
  watching: Type.Integer({ description: "unique live sessions on this wallet's page" }),
});
export const PingBody = Type.Object({
  address: Type.String(),
  watching: Type.Integer(),
  ttl_seconds: Type.Integer({ description: "the session stays present this long without another ping" }),
});

export const CommunityLookupsBody = Type.Object({
  wallets: Type.Array(
    Type.Object({
      wallet: Type.String(),
      name: Nullable(Type.String(), "username, else pseudonym"),
      pseudonym: Nullable(Type.String()),
      lookups: Type.Integer({ description: "overview lookups over the last 24 h (hour buckets)" }),
    }),
  ),
  window_hours: Type.Integer(),
});

export const BatchStatus = Type.Union([Type.Literal("ok"), Type.Literal("computing"), Type.Literal("not_found")], {
  description:
    "ok: data attached; computing: a very heavy wallet queued in the background, retry later; not_found: unknown wallet or an exchange contract (is_contract true)",
});

export const ActivityType = Type.Union(
  ACTIVITY_TYPES.map((t) => Type.Literal(t)),
  { description: "SPLIT, MERGE, REDEEM and CONVERSION are on-chain operations; REWARD and the rebates the venue's" },
);

export const ActivityBody = Type.Object(
  {
    address: Type.String(),
    count: Type.Integer(),
    has_more: Type.Boolean(),
    activity: Type.Array(
      Type.Object({
        type: ActivityType,
        condition_id: Nullable(Type.String(), "the market's condition; null for a conversion and an income row"),
        market_id: Nullable(Type.String(), "the market's id, once the store lists it"),
        title: Nullable(Type.String(), "the market's question"),
        size: Type.Number({
          description:
            "shares: of each outcome for a split or merge, of NO given up per question for a conversion; a redemption's payout",
        }),
        usd_amount: Type.Number({ description: "collateral in or out (a conversion's: received)" }),
        index_set: Nullable(
          Type.String(),
          "REDEEM: the sides redeemed (1 YES, 2 NO, 3 both); CONVERSION: bit i set for question i's NO given up",
        ),
        neg_risk_market_id: Nullable(Type.String(), "CONVERSION: the NegRisk market"),
        fee_shares: Nullable(Type.Number(), "CONVERSION: shares the adapter keeps per NO given up"),
        timestamp: Type.Integer({ description: "unix seconds" }),
        transaction_hash: Type.String(),
      }),
    ),
  },
  { description: "The wallet's operations besides its fills, newest first" },
);

export const SearchBody = Type.Object(
  {
    results: Type.Array(
      Type.Object({
        address: Type.String({ description: "wallet address, lower-cased" }),
        name: Type.Union([Type.String(), Type.Null()], {
          description: "display name, else pseudonym; null when the wallet has no profile",
        }),
        source: Type.Union([Type.Literal("profile"), Type.Literal("traders")], {
          description:
            "profile: the venue profiles stored in `wallets` (address, name, pseudonym); traders: the ledger's traders (`wallet_stats`), by address prefix",
        }),
      }),
      {
        description:
          "best first: exact address, then name or pseudonym prefix, then other matches; ties by total P&L (WALLET_SEARCH_MAX_RESULTS at most)",
      },
    ),
    _elapsed_ms: Type.Number({ description: "time spent searching, milliseconds" }),
  },
  { description: "Wallet search results" },
);
