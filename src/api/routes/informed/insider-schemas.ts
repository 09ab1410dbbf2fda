/**
 * Schemas of the insider routes (issue 52). The contract does not show them; the decision:
 * docs/decisions.md, "Insider alerts, a market's informed flow, a wallet's scores".
 */
import { Type } from "typebox";
import { INSIDER_COMPONENTS } from "../../../ledger/index.js";
import { CATEGORIES } from "../../../venue/categories.js";
import { Nullable } from "../../nullable.js";
import { Limit, Offset } from "../../params.js";
import { CategoryParam } from "../markets/market-list-schemas.js";

const Side = Type.Union([Type.Literal("YES"), Type.Literal("NO")]);
const Score = (description: string) => Type.Number({ minimum: 0, maximum: 100, description });
export const MinScore = (fallback: number) =>
  Type.Number({
    minimum: 0,
    maximum: 100,
    default: fallback,
    description: `bets scoring at least this much (0..100; default INSIDER_MIN_SCORE, ${fallback})`,
  });

const Component = Type.Object({
  name: Type.Enum(INSIDER_COMPONENTS),
  value: Nullable(
    Type.Number(),
    "0..1; null when it cannot be known yet (an open market's outcome): it then counts for nothing",
  ),
  weight: Type.Number({ description: "its weight in the score" }),
  basis: Type.String({ description: "what the value was computed from" }),
});

export const ScoredBet = Type.Object({
  wallet: Type.String(),
  condition_id: Type.String(),
  market_id: Nullable(Type.String()),
  market_title: Nullable(Type.String()),
  category: Nullable(Type.Enum(CATEGORIES)),
  outcome: Side,
  score: Score("the insider score, 0..100 (docs/METRICS.md, Insider score)"),
  confidence: Type.Number({ description: "0..1: how sure the score is, from what corroborates the bet beyond itself" }),
  bet_usd: Type.Number({ description: "collateral the position bought (USD)" }),
  avg_price: Type.Number({ description: "its average entry price" }),
  current_price: Nullable(Type.Number(), "the outcome's price now"),
  first_ts: Type.Integer(),
  last_ts: Type.Integer(),
  cluster_id: Nullable(Type.String(), "the wallet's funding cluster (/api/v2/funding/cluster/{cluster_id})"),
  components: Type.Array(Component),
});

export const InsiderAlertsQuery = (minScore: number) =>
  Type.Object({
    min_score: MinScore(minScore),
    days: Type.Integer({
      minimum: 1,
      maximum: 365,
      default: 7,
      description: "bets whose last fill is this recent (days)",
    }),
    category: CategoryParam,
    market: Type.String({
      default: "",
      maxLength: 200,
      description: "one market: its condition id or the venue's market id; empty: every market",
    }),
    limit: Limit({ default: 50, max: 500 }),
  });

export const InsiderAlertsBody = Type.Object({
  min_score: Type.Number(),
  days: Type.Integer(),
  count: Type.Integer(),
  computed_at: Nullable(Type.Integer(), "when the scores were computed (unix seconds)"),
  alerts: Type.Array(ScoredBet),
});

export const MinScoreQuery = (minScore: number) => Type.Object({ min_score: MinScore(minScore) });

const FlowSide = Type.Object({
  usd: Type.Number({ description: "flagged collateral on this side (USD)" }),
  wallets: Type.Integer(),
  clusters: Type.Integer({ description: "distinct funding clusters among them" }),
  avg_score: Nullable(Type.Number()),
});

export const InformedFlowBody = Type.Object({
  condition_id: Type.String(),
  market_id: Type.String(),
  market_title: Type.String(),
  resolution: Nullable(Type.String()),
  min_score: Type.Number(),
  price_yes: Nullable(Type.Number()),
  price_no: Nullable(Type.Number()),
  yes: FlowSide,
  no: FlowSide,
  flagged_side: Nullable(Side, "the side with more flagged money; null when none or even"),
  flagged_side_price: Nullable(Type.Number(), "that side's price now"),
  against_price: Nullable(Type.Boolean(), "whether the flagged money backs the side the price calls less likely"),
  bets: Type.Array(ScoredBet),
});

export const WalletInsiderQuery = (minScore: number) =>
  Type.Object({
    min_score: MinScore(minScore),
    limit: Limit({ default: 100, max: 500 }),
    offset: Offset,
  });

export const WalletInsiderBody = Type.Object({
  wallet: Type.String(),
  min_score: Type.Number(),
  best_score: Nullable(Type.Number(), "the wallet's highest score, over every scored bet"),
  flagged: Type.Integer({ description: "scored bets of the wallet scoring min_score or more, over every page" }),
  total: Type.Integer({ description: "every scored bet of the wallet" }),
  count: Type.Integer({ description: "bets on this page" }),
  has_more: Type.Boolean(),
  offset: Type.Integer(),
  bets: Type.Array(ScoredBet, {
    description: "the wallet's scored bets, the highest first (then the latest, the market, the outcome): one page",
  }),
});

export const MarketParams = Type.Object({
  condition_id: Type.String({ maxLength: 200, description: "the market's condition id or the venue's market id" }),
});
