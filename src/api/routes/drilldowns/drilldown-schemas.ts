/**
 * Schemas of the Premium drill-downs (issue 25): a wallet's trades and summary in one market, a market's whale
 * trades, a whale's resolved-market history and backtest. Their descriptions are the OpenAPI document's.
 */
import { CATEGORY_CODES_TEXT } from "../../../venue/categories.js";
import { Type, type TInteger, type TNumber } from "typebox";
import { Nullable } from "../../nullable.js";
import { Limit, LimitQuery, Offset, WalletAddress } from "../../params.js";

const Usd = (description: string) => Type.Number({ description: `${description} (USD)` });
const Side = Type.Union([Type.Literal("YES"), Type.Literal("NO")], {
  description: "the outcome token: YES (outcome 0) or NO (outcome 1)",
});
const Direction = Type.Union([Type.Literal("BUY"), Type.Literal("SELL")]);
const EntryType = Nullable(
  Type.Union([Type.Literal("MINT"), Type.Literal("MERGE"), Type.Literal("COMPLEMENTARY")]),
  "how the match settled; null: unclassified",
);
const Category = Nullable(Type.String(), CATEGORY_CODES_TEXT);

export const CONDITION_ID_PATTERN = "^0x[0-9a-fA-F]{64}$";
export const ConditionId = (description: string) =>
  Type.String({ pattern: CONDITION_ID_PATTERN, description: `${description}: 0x and 64 hex digits, any case` });

/** Keyset paging: rows strictly before (before, before_id) in (timestamp desc, id desc) order. */
export const BeforeId = Type.Integer({
  minimum: 0,
  default: 0,
  description:
    "with before: continue strictly before the row (before, before_id) in (timestamp desc, id desc) order (next_before_id of the previous page); 0 = none",
});

const Cursor = {
  has_more: Type.Boolean({ description: "more rows follow this page" }),
  next_before: Nullable(Type.Integer(), "before of the next page (the last row's timestamp); null on the last page"),
  next_before_id: Nullable(Type.Integer(), "before_id of the next page (the last row's id); null on the last page"),
};

export const WalletMarketTradesBody = Type.Object({
  wallet: Type.String({ description: "the proxy wallet whose fills answer" }),
  market: Type.String({ description: "condition id" }),
  count: Type.Integer(),
  ...Cursor,
  trades: Type.Array(
    Type.Object({
      id: Type.Integer({ description: "the fill's id: stable, increasing in storage order" }),
      timestamp: Type.Integer(),
      wallet_role: Nullable(
        Type.Union([Type.Literal("maker"), Type.Literal("taker")]),
        "the wallet's role in the match; null when unknown (Data API fills)",
      ),
      direction: Direction,
      side: Side,
      price: Type.Number({ description: "0..1, usd_amount / token_amount" }),
      usd_amount: Usd("collateral exchanged, before fees"),
      token_amount: Type.Number({ description: "outcome tokens (shares)" }),
      fee_usd: Usd("exchange fee"),
      entry_type: EntryType,
      tx_hash: Type.String(),
      counterparty: Nullable(
        Type.String(),
        "the taker for a maker's fill; the first maker for a taker's; null when unknown",
      ),
    }),
  ),
});

export const MarketWhaleTradesBody = Type.Object({
  market: Type.String({ description: "condition id" }),
  count: Type.Integer(),
  min_usd: Type.Number(),
  wallets: Type.Union([Type.Literal("smart"), Type.Literal("all")]),
  ...Cursor,
  as_of: Type.Integer({
    description:
      "when this answer was read (unix s); a read asked again is answered from it for up to WHALE_TRADES_CACHE_SECONDS",
  }),
  trades: Type.Array(
    Type.Object({
      id: Type.Integer({ description: "the maker fill's id (before_id pages by it)" }),
      timestamp: Type.Integer(),
      maker: Type.String({ description: "the resting order's owner" }),
      taker: Nullable(Type.String(), "the order that matched it"),
      maker_is_whale: Type.Boolean({
        description: "the maker is on today's Smart Money list (not the list as of the trade)",
      }),
      taker_is_whale: Type.Boolean({ description: "the taker is on today's Smart Money list" }),
      side: Side,
      direction: Type.Union([Type.Literal("BUY"), Type.Literal("SELL")], {
        description: "the maker order's direction",
      }),
      price: Type.Number({ description: "the maker order's price for side, 0..1" }),
      usd_amount: Usd("the maker order's collateral in this trade"),
      token_amount: Type.Number({ description: "outcome tokens exchanged" }),
      entry_type: EntryType,
      tx_hash: Type.String(),
    }),
  ),
});

const SideSummary = Type.Object({
  buy_tokens: Type.Number({ description: "tokens bought" }),
  buy_cost_usd: Usd("paid for them"),
  sell_tokens: Type.Number({ description: "tokens sold" }),
  sell_cost_usd: Usd("received for them"),
  net_tokens: Type.Number({ description: "buy_tokens - sell_tokens" }),
  net_cost_usd: Usd("buy_cost_usd - sell_cost_usd"),
  trade_count: Type.Integer({ description: "fills on this side" }),
  avg_entry_price: Nullable(
    Type.Number(),
    "average price of the tokens held (or last held), by the venue's average-cost method; null before any buy",
  ),
  first_trade_ts: Nullable(Type.Integer()),
  last_trade_ts: Nullable(Type.Integer()),
});

export const MarketSummaryBody = Type.Object({
  wallet: Type.String({ description: "the proxy wallet whose trades answer" }),
  condition_id: Type.String(),
  at: Type.Integer({ description: "0: every trade so far; else the trades up to this instant (inclusive)" }),
  found: Type.Boolean({ description: "the wallet has at least one trade in the market (up to at)" }),
  sides: Type.Object({ YES: SideSummary, NO: SideSummary }),
});

const BacktestPosition = Type.Object({
  market_id: Type.String(),
  condition_id: Type.String(),
  question: Type.String(),
  slug: Type.String(),
  category: Category,
  side: Side,
  resolution: Type.Union([Type.Literal("YES"), Type.Literal("NO"), Type.Literal("50-50")]),
  avg_entry_price: Type.Number({ description: "the ledger's average entry price of the side, 0..1" }),
  tokens_bought: Type.Number(),
  net_cost: Usd("tokens_bought * avg_entry_price: what the side cost at its average entry"),
  pnl: Usd("settled net P&L: realized less fees, plus the payout of shares held at resolution"),
  won: Type.Boolean({ description: "the market resolved to this side (a 50-50 is neither won nor lost)" }),
  last_trade_ts: Type.Integer({
    description: "the position's last event (fill, split, merge, conversion or redemption)",
  }),
});

export const BacktestBody = Type.Object({
  wallet: Type.String(),
  positions: Type.Array(BacktestPosition),
  count: Type.Integer(),
  has_more: Type.Boolean(),
  offset: Type.Integer(),
  summary: Type.Object(
    {
      positions: Type.Integer(),
      wins: Type.Integer({ description: "positions whose side won" }),
      losses: Type.Integer({ description: "positions whose side lost (50-50 apart)" }),
      win_rate: Type.Number({ description: "100 * wins / (wins + losses); 0 with neither" }),
      total_net_cost: Usd("sum of net_cost"),
      total_pnl: Usd("sum of pnl"),
      roi_pct: Nullable(Type.Number(), "100 * total_pnl / total_net_cost; null without cost"),
    },
    { description: "the returned page only" },
  ),
});

export const WhaleHistoryBody = Type.Object({
  whale: Type.Object({
    wallet: Type.String(),
    name: Nullable(Type.String(), "venue username, else pseudonym"),
    total_pnl: Usd("lifetime P&L (as the overview)"),
    win_rate: Type.Number({ description: "percent (as the overview)" }),
    profit_factor: Type.Number({ description: "capped at 99.99" }),
    resolved_markets: Type.Integer({ description: "resolved market units (a NegRisk event counts once)" }),
    is_smart: Type.Boolean({ description: "on today's Smart Money list" }),
  }),
  history: Type.Array(
    Type.Object({
      market_id: Type.String(),
      condition_id: Type.String(),
      question: Type.String(),
      slug: Type.String(),
      category: Category,
      resolution: Type.Union([Type.Literal("YES"), Type.Literal("NO"), Type.Literal("50-50")]),
      resolved_at: Nullable(
        Type.Integer(),
        "the chain's resolution time, else the venue's closed time, else the end date",
      ),
      side: Side,
      sides_traded: Type.Integer({ description: "1, or 2 when the wallet bought both sides" }),
      net_cost: Usd("both sides' tokens bought at their average entry"),
      pnl: Usd("both sides' settled net P&L"),
      won: Type.Boolean({ description: "pnl > 0 (a market win)" }),
      last_trade_ts: Type.Integer(),
    }),
    { description: "resolved markets the wallet bought into, newest resolution first" },
  ),
  count: Type.Integer(),
  total: Type.Integer({ description: "resolved markets the wallet bought into" }),
  as_of: Type.Integer({ description: "when the whale's statistics were computed" }),
});

export const Wallets = Type.Union([Type.Literal("smart"), Type.Literal("all")], {
  default: "smart",
  description:
    "smart: trades whose maker or taker is on today's Smart Money list; all: every trade (the flags still reflect today's list)",
});
export const Before = Type.Integer({
  minimum: 0,
  description: "upper bound on the timestamp (unix s), inclusive without before_id; 0 = none (the newest trades)",
});

export const WalletMarketRoutesBefore = Type.Integer({
  minimum: 1,
  description:
    "exclusive upper bound on the timestamp (unix s); with before_id, the page continues strictly before (before, before_id)",
});
export const After = (description: string) => Type.Integer({ minimum: 0, description });

export const PathConditionId = Type.String({
  minLength: 1,
  maxLength: 200,
  description: "the market's condition id (0x and 64 hex digits, any case); an unknown one is a 404",
});

export const Day = (what: string) =>
  Type.String({
    default: "",
    maxLength: 10,
    description: `YYYY-MM-DD (UTC), inclusive ${what} bound on last_trade_ts; empty: none`,
  });

/** A market's whale trades: the market in the path. */
export const Params = Type.Object({ condition_id: PathConditionId });

/** A market's whale trades: `min_usd` is an integer under /api/v2 and any number under /api/public/v1. */
const marketWhaleTradesQuery = (minUsd: TInteger | TNumber) =>
  Type.Object({
    before: Before,
    min_usd: minUsd,
    limit: Limit({ default: 100, max: 500 }),
    wallets: Wallets,
    before_id: BeforeId,
  });
export const MarketWhaleTradesQuery = marketWhaleTradesQuery(
  Type.Integer({ minimum: 1, maximum: 1_000_000_000_000, default: 500, description: "smallest usd_amount (USD)" }),
);
export const PublicMarketWhaleTradesQuery = marketWhaleTradesQuery(
  Type.Number({ minimum: 0, maximum: 1_000_000_000_000, default: 500, description: "smallest usd_amount (USD)" }),
);

/** The largest page of a wallet's fills in one market. */
const WALLET_MARKET_TRADES_MAX = 500;
const Market = ConditionId("the market's condition id");
const AFTER = "exclusive lower bound on the timestamp (unix s), below before; 0 = none";

/** A wallet's fills in one market: `after` is required under /api/v2 and defaults to 0 under /api/public/v1. */
const walletMarketTradesQuery = (after: TInteger) =>
  Type.Object({
    market: Market,
    before: WalletMarketRoutesBefore,
    after,
    limit: Limit({ default: 100, max: WALLET_MARKET_TRADES_MAX }),
    before_id: BeforeId,
  });
export const WalletMarketTradesQuery = walletMarketTradesQuery(After(AFTER));
export const PublicWalletMarketTradesQuery = walletMarketTradesQuery(
  Type.Integer({ minimum: 0, default: 0, description: AFTER }),
);

/** A wallet's summary in one market: the wallet and the market in the path. */
export const WalletMarketParams = Type.Object({ address: WalletAddress, condition_id: PathConditionId });
export const MarketSummaryQuery = Type.Object({
  at: Type.Integer({ minimum: 0, default: 0, description: "unix seconds; 0 = now" }),
});

export const WhaleHistoryQuery = LimitQuery({ default: 50, max: 500 });
export const BacktestQuery = Type.Object({
  limit: Limit({ default: 500, max: 1000 }),
  offset: Offset,
  since: Day("lower"),
  until: Day("upper"),
  slug_prefix: Type.String({
    default: "",
    maxLength: 300,
    description: "keep markets whose slug starts with this (case-insensitive); empty: all",
  }),
});
