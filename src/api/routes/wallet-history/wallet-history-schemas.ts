/** The wallet history routes' schemas. */
import { Type } from "typebox";
import { CHANGES_MAX_LOOKBACK, CHANGES_MIN_AGE, PNL_PERIODS } from "../../../analytics/wallet/wallet-history.js";
import { Nullable } from "../../nullable.js";

export const Point = Type.Object({
  t: Type.Integer({ description: "unix seconds" }),
  p: Type.Number({ description: "cumulative P&L, USD" }),
});
export const Side = Type.Union([Type.Literal("YES"), Type.Literal("NO")], {
  description: "the outcome the move concerns economically",
});
export const EntryType = Nullable(
  Type.Union([Type.Literal("MINT"), Type.Literal("MERGE"), Type.Literal("COMPLEMENTARY")]),
  "settlement mechanics of the fill; null: unclassified",
);
export const Move = {
  entry_type: EntryType,
  action_label: Type.String({
    description:
      "economic meaning: 'Bought YES|NO' (a BUY, or a SELL settled as MINT, which enters the other outcome), 'Sold YES|NO' (a SELL matched with a holder), 'Merged YES|NO' (a SELL settled as MERGE)",
  }),
  usd: Type.Number({
    description: "collateral of the move on side_label: the fill's USD, or size * (1 - price) for a MINT-settled SELL",
  }),
  side_label: Side,
  ts: Type.Integer(),
};

export const PnlHistory = Type.Object(
  {
    address: Type.String(),
    period: Type.Union(PNL_PERIODS.map((p) => Type.Literal(p))),
    points: Type.Array(Point, { description: "oldest first" }),
  },
  {
    description:
      "P&L points of the ledger: hourly points (total P&L at the hour) for 1D and 1W, daily points (cumulative realized P&L net of fees, dated at the end of the day) for 1M and ALL",
  },
);

export const PnlHistoryChain = Type.Object(
  {
    address: Type.String(),
    period: Type.Literal("ALL"),
    source: Type.Literal("chain"),
    points: Type.Array(Point, {
      description:
        "one per UTC day with a closed position, dated 00:00 UTC of that day; empty when the wallet is not in the venue cache",
    }),
  },
  { description: "Daily cumulative realized P&L from the venue's closed positions (the synced venue cache)" },
);

export const ChangesSince = Type.Object(
  {
    address: Type.String(),
    since: Type.Integer({ description: "as requested" }),
    effective_since: Type.Integer({ description: "since, capped at now minus 30 days" }),
    trades_count: Type.Integer({ description: "fills after effective_since; 0 when since is under 60 s ago" }),
    volume_usd: Type.Number({ description: "USD of those fills" }),
    pnl_delta: Type.Number({
      description:
        "P&L change since effective_since from the ledger's points (hourly when they reach back that far, else daily); 0 when since is under 60 s ago",
    }),
    last_move: Nullable(
      Type.Object({
        condition_id: Type.String(),
        market_id: Nullable(Type.String()),
        question: Nullable(Type.String()),
        ...Move,
      }),
      "the wallet's latest fill overall; null without fills",
    ),
  },
  { description: "What changed since a moment" },
);

export const LastMoves = Type.Record(Type.String(), Type.Object(Move), {
  description: "condition_id -> the wallet's latest fill in that market",
});

export const PnlHistoryQuery = Type.Object({
  period: Type.Union(
    PNL_PERIODS.map((p) => Type.Literal(p)),
    {
      default: "1M",
      description: "1D hourly over 24 h, 1W hourly over a week, 1M daily over 30 days, ALL daily over the full history",
    },
  ),
});

export const ChangesSinceQuery = Type.Object({
  since: Type.Integer({
    minimum: 0,
    description: `required; unix seconds; capped at now - ${CHANGES_MAX_LOOKBACK / 86_400} days; under ${CHANGES_MIN_AGE} s ago counts nothing`,
  }),
});
