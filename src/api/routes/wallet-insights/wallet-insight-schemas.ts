/**
 * Response schemas of the wallet insight, whale-match and history routes (the contract leaves these bodies
 * open: docs/decisions.md, "Wallet insights and history").
 */
import { Type, type TSchema } from "typebox";
import { Nullable } from "../../nullable.js";
import { CATEGORIES } from "../../../venue/categories.js";
import { access, type Access } from "../../access.js";
import { WalletParams, walletErrorResponses } from "../../params.js";

export const NoQuery = Type.Object({});

/** Options of a free wallet route: path address, closed query, the response and the wallet error bodies. */
export const walletRoute =
  (tags: string[]) =>
  <R extends TSchema, Q extends TSchema>(
    summary: string,
    response: R,
    querystring: Q,
    routeAccess: Access = access.public,
  ) => ({
    config: { access: routeAccess },
    schema: { summary, tags, params: WalletParams, querystring, response: { 200: response, ...walletErrorResponses } },
  });

const Address = Type.String({ description: "wallet address, lower-cased" });
const Category = Type.Union(
  CATEGORIES.map((c) => Type.Literal(c)),
  { description: "one of the contract's six categories" },
);
const Side = Type.Union([Type.Literal("YES"), Type.Literal("NO")]);
const Usd = (description: string) => Type.Number({ description: `${description} (USD)` });

const MarketRef = {
  condition_id: Type.String(),
  market_id: Nullable(Type.String(), "venue market id; null when the market is not stored"),
  question: Nullable(Type.String()),
};

const Tally = {
  closed_positions: Type.Integer({ description: "closed positions" }),
  wins: Type.Integer({ description: "closed with net realized P&L > 0" }),
  losses: Type.Integer({ description: "closed with net realized P&L < 0" }),
  win_rate: Nullable(Type.Number(), "100 * wins / (wins + losses); null without a win or loss"),
  realized_pnl: Usd("realized P&L net of fees of those positions"),
};

export const ClosedPosition = Type.Object({
  ...MarketRef,
  category: Nullable(Category),
  outcome: Side,
  avg_price: Type.Number({ description: "average entry price 0..1" }),
  shares_bought: Type.Number({ description: "shares bought over the position's life" }),
  pnl: Usd("realized P&L net of fees"),
  first_ts: Type.Integer({ description: "first trade" }),
  closed_ts: Nullable(Type.Integer(), "when the position closed"),
});

export const Insights = Type.Object(
  {
    address: Address,
    open_positions: Type.Integer(),
    ...Tally,
    profit_factor: Type.Number({ description: "the wallet statistics' profit factor (capped 99.99)" }),
    avg_hold_days: Nullable(Type.Number(), "mean of close time - first trade over all closed positions"),
    median_hold_days: Nullable(Type.Number(), "the overview's median hold (last 90 days, at least 3 positions)"),
    best_category: Nullable(Category, "category with the highest positive realized P&L"),
    worst_category: Nullable(Category, "category with the lowest negative realized P&L"),
    categories: Type.Array(
      Type.Object({
        category: Category,
        volume_share_pct: Type.Number({ description: "share of the wallet's volume, percent" }),
        ...Tally,
      }),
      {
        description: "closed-position results per category (all six, fixed order)",
      },
    ),
    entry_price_buckets: Type.Array(Type.Object({ min_price: Type.Number(), max_price: Type.Number(), ...Tally }), {
      description: "closed-position results by average entry price: [0,0.2), [0.2,0.4), [0.4,0.6), [0.6,0.8), [0.8,1]",
    }),
    skill: Type.Object(
      {
        is_smart: Type.Boolean(),
        has_skill: Type.Boolean({ description: "strict skill badge" }),
        skill_z: Nullable(Type.Number(), "edge z-score sum(outcome - p) / sqrt(sum p(1-p)) per event cluster"),
        edge_bps: Nullable(Type.Number(), "mean edge over the price paid, basis points"),
        sample: Type.Integer({ description: "resolved clusters behind the z-score" }),
      },
      { description: "edge and skill figures of the wallet statistics" },
    ),
  },
  { description: "Where the wallet wins and loses, from its closed positions (net of fees)" },
);

export const ClosedInsights = Type.Object(
  {
    address: Address,
    closed_positions: Type.Integer(),
    wins: Type.Integer(),
    losses: Type.Integer(),
    breakeven: Type.Integer({ description: "closed with exactly zero net P&L" }),
    win_rate: Nullable(Type.Number(), "percent; null without a win or loss"),
    gross_profit: Usd("sum of winning positions' P&L"),
    gross_loss: Usd("sum of losing positions' losses, positive"),
    net_pnl: Usd("gross_profit - gross_loss"),
    profit_factor: Type.Number({
      description: "gross_profit / gross_loss, capped 99.99; 99.99 with profit and no loss; 0 with neither",
    }),
    avg_win: Nullable(Usd("mean winning P&L")),
    avg_loss: Nullable(Usd("mean loss, positive")),
    payoff_ratio: Nullable(Type.Number({ description: "avg_win / avg_loss" })),
    expectancy: Nullable(Usd("net_pnl per closed position")),
    biggest_wins: Type.Array(ClosedPosition, { description: "up to 5 largest wins, largest first" }),
    biggest_losses: Type.Array(ClosedPosition, { description: "up to 5 largest losses, largest first" }),
  },
  { description: "Closed-position performance of the ledger's positions (net of fees)" },
);

export const Highlights = Type.Object(
  {
    address: Address,
    current_streak_days: Type.Integer({
      description: "winning streak ending today or yesterday (UTC); equals the overview's profitable_streak",
    }),
    best_streak_days: Type.Integer({ description: "longest winning streak ever" }),
    best_streak: Nullable(
      Type.Object({
        start_date: Type.String({ description: "YYYY-MM-DD UTC" }),
        end_date: Type.String(),
        pnl: Usd("realized P&L over the streak"),
      }),
      "the longest streak (the earliest when tied)",
    ),
    profitable_days: Type.Integer({
      description: "UTC days that qualify: positive summed realized P&L and at least one closed position",
    }),
    biggest_win: Nullable(ClosedPosition, "the closed position with the largest net P&L"),
  },
  {
    description:
      "Winning streaks: consecutive UTC days, each with positive summed realized P&L (net of fees, booked that day) and at least one position closed that day; a day without trades breaks it",
  },
);

export const Hold = Type.Object(
  {
    address: Address,
    window_days: Type.Integer({ description: "positions closed in this many days count" }),
    min_positions: Type.Integer({ description: "sample needed for the median and mean" }),
    hold_positions_count: Type.Integer({ description: "positions closed in the window" }),
    median_hold_days: Nullable(Type.Number(), "median of close time - first trade; null below min_positions"),
    mean_hold_days: Nullable(Type.Number(), "null below min_positions"),
    shortest_hold_days: Nullable(Type.Number()),
    longest_hold_days: Nullable(Type.Number()),
    distribution: Type.Array(
      Type.Object({
        min_days: Type.Number(),
        max_days: Nullable(Type.Number(), "exclusive; null: no upper bound"),
        count: Type.Integer(),
      }),
      {
        description: "holds in the window by length: under 1 day, 1-7, 7-30, 30 and more",
      },
    ),
    open_positions: Type.Integer(),
    open_avg_age_days: Nullable(Type.Number(), "mean age of open positions since their first trade"),
  },
  { description: "Typical hold of the wallet's positions" },
);

export const AlignmentBody = Type.Object(
  {
    address: Address,
    positions: Type.Integer({ description: "markets where the wallet holds a net position" }),
    aligned: Type.Integer(),
    against: Type.Integer(),
    no_consensus: Type.Integer(),
    aligned_pct: Nullable(Type.Number(), "100 * aligned / (aligned + against)"),
    aligned_cost_usd: Usd("cost basis of aligned positions"),
    against_cost_usd: Usd("cost basis of positions against consensus"),
    markets: Type.Array(
      Type.Object({
        ...MarketRef,
        side: Side,
        cost_usd: Usd("the wallet's net position at cost (YES cost - NO cost), absolute"),
        whales_yes: Type.Integer({
          description:
            "Smart Money wallets net YES with at least CONSENSUS_MIN_USD at cost (the wallet itself left out)",
        }),
        whales_no: Type.Integer(),
        yes_pct: Nullable(Type.Number(), "100 * whales_yes / (whales_yes + whales_no)"),
        consensus_side: Nullable(Side, "the side with more whales; null when tied or none"),
        alignment: Type.Union([Type.Literal("aligned"), Type.Literal("against"), Type.Literal("no_consensus")]),
      }),
      { description: "largest position first" },
    ),
  },
  {
    description:
      "How the wallet's open positions align with Smart Money consensus. Precise positions only: the ledger's exact positions (from fills), never the venue's estimates; markets hedged to a zero net are left out",
  },
);

const MarketCard = Type.Object({
  market_id: Type.String(),
  condition_id: Type.String(),
  question: Type.String(),
  slug: Type.String(),
  price_yes: Nullable(Type.Number()),
  price_no: Nullable(Type.Number()),
  volume_24h: Usd("24 h volume"),
  end_date: Nullable(Type.Integer()),
});

export const RelatedMarkets = Type.Object(
  {
    address: Address,
    price_range: Type.Object(
      { min: Type.Number(), max: Type.Number() },
      { description: "non-extreme YES price range (RELATED_MARKETS_PRICE_MIN..MAX)" },
    ),
    categories: Type.Array(
      Type.Object({
        category: Category,
        share_pct: Type.Number(),
        markets: Type.Array(MarketCard, { description: "by volume_24h desc" }),
      }),
      {
        description: "top 2 categories of the wallet with a volume share of at least INSIGHTS_CATEGORY_MIN_SHARE_PCT",
      },
    ),
  },
  {
    description:
      "Active markets (open, end date in the future, non-extreme price) in the wallet's main categories; cached 5 min",
  },
);

export const SimilarTraders = Type.Object(
  {
    wallet: Address,
    primary_category: Nullable(
      Category,
      "the wallet's largest category by volume share; null without categorized volume",
    ),
    similar: Type.Array(
      Type.Object({
        wallet: Type.String(),
        name: Nullable(Type.String()),
        total_pnl: Usd("total P&L"),
        profit_factor: Type.Number(),
        win_rate: Type.Number(),
        shared_categories: Type.Array(Category, {
          description: "categories where both wallets have at least INSIGHTS_CATEGORY_MIN_SHARE_PCT of their volume",
        }),
        overlap_pct: Type.Number({ description: "sum over categories of min(share here, share there), 0..100" }),
        overlap_label: Type.Union(
          [Type.Literal("Very similar"), Type.Literal("Similar"), Type.Literal("Some overlap")],
          {
            description:
              "overlap_pct >= SIMILAR_HIGH_OVERLAP_PCT: Very similar; >= SIMILAR_MEDIUM_OVERLAP_PCT: Similar",
          },
        ),
      }),
      { description: "up to 4 Smart Money wallets with the same primary category and positive P&L, by total_pnl desc" },
    ),
  },
  { description: "Similar traders; cached 10 min" },
);

const WhaleRef = Type.Object({ wallet: Type.String(), name: Nullable(Type.String()) });

export const WhaleMatches = Type.Object(
  {
    address: Address,
    positions_considered: Type.Integer({
      description: "(market, side) positions of the wallet: anything bought, open or closed",
    }),
    matched_whales: Type.Integer({ description: "Smart Money wallets sharing at least one (market, side)" }),
    matches: Type.Array(
      Type.Object({
        wallet: Type.String(),
        name: Nullable(Type.String()),
        shared_positions: Type.Integer({ description: "(market, side) positions both hold or held" }),
        overlap_pct: Type.Number({ description: "100 * shared_positions / positions_considered" }),
        total_pnl: Type.Number(),
        win_rate: Type.Number(),
        profit_factor: Type.Number(),
      }),
      { description: "most shared first, then total_pnl desc" },
    ),
  },
  { description: "Whales (Smart Money) with the most overlapping (market, side) positions" },
);

export const MissedOpportunities = Type.Object(
  {
    address: Address,
    matched_whales: Type.Integer({ description: "whales of whale-matches (at least one shared position)" }),
    min_whales: Type.Integer({ description: "WHALE_MATCH_MIN_WHALES" }),
    markets: Type.Array(
      Type.Object({
        ...MarketRef,
        category: Nullable(Category),
        winning_side: Side,
        whale_count: Type.Integer({ description: "matched whales that bought the winning side" }),
        whales_pnl: Usd("those whales' realized P&L on it, net of fees"),
        whales: Type.Array(WhaleRef, {
          description:
            "the WHALE_GROUP_WHALES_LISTED (20) of them with the largest P&L on it (ties by address); whale_count counts all",
        }),
      }),
      { description: "most whales first, then whales_pnl desc" },
    ),
  },
  {
    description:
      "Resolved markets where at least min_whales matched whales bought the winning side and the wallet never traded",
  },
);

export const ActiveWhaleMarkets = Type.Object(
  {
    address: Address,
    matched_whales: Type.Integer(),
    min_whales: Type.Integer(),
    markets: Type.Array(
      Type.Object({
        ...MarketRef,
        category: Nullable(Category),
        side: Side,
        price: Nullable(Type.Number({ description: "current price of that side" })),
        whale_count: Type.Integer({ description: "matched whales holding the side now" }),
        whales_cost_usd: Usd("their open cost basis on it"),
        wallet_holds_opposite: Type.Boolean({ description: "the wallet holds the other side" }),
        whales: Type.Array(WhaleRef, {
          description:
            "the WHALE_GROUP_WHALES_LISTED (20) of them with the largest cost basis on it (ties by address); whale_count counts all",
        }),
      }),
      { description: "most whales first, then whales_cost_usd desc" },
    ),
  },
  {
    description:
      "Open markets where at least min_whales matched whales hold one side and the wallet does not; cached 60 s",
  },
);
