/**
 * A wallet over time under /api/v2/wallet/{address}: pnl-history, pnl-history-chain, changes-since, last-moves.
 */
import { access, heavy } from "../../access.js";
import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { Type } from "typebox";
import {
  CHANGES_MAX_LOOKBACK,
  CHANGES_MIN_AGE,
  PNL_PERIODS,
  changesSince,
  changesSinceUntil,
  lastMoves,
  pnlHistory,
  pnlHistoryUntil,
  pnlHistoryChain,
} from "../../../analytics/wallet/wallet-history.js";
import type { AppContext } from "../../context.js";
import { ledgerStamp, venueSyncStamp, walletFillsStamp } from "../../../analytics/wallet/wallet-stamps.js";
import { refuseContractAddresses } from "../../params.js";
import { Nullable } from "../../nullable.js";
import { NoQuery, walletRoute } from "../wallet-insights/wallet-insight-schemas.js";

const TAGS = ["wallet history"];

const Point = Type.Object({
  t: Type.Integer({ description: "unix seconds" }),
  p: Type.Number({ description: "cumulative P&L, USD" }),
});
const Side = Type.Union([Type.Literal("YES"), Type.Literal("NO")], {
  description: "the outcome the move concerns economically",
});
const EntryType = Nullable(
  Type.Union([Type.Literal("MINT"), Type.Literal("MERGE"), Type.Literal("COMPLEMENTARY")]),
  "settlement mechanics of the fill; null: unclassified",
);
const Move = {
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

const PnlHistory = Type.Object(
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

const PnlHistoryChain = Type.Object(
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

const ChangesSince = Type.Object(
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

const LastMoves = Type.Record(Type.String(), Type.Object(Move), {
  description: "condition_id -> the wallet's latest fill in that market",
});

const route = walletRoute(TAGS);

export const walletHistoryRoutes: FastifyPluginAsyncTypebox<AppContext> = async (app, ctx) => {
  app.addHook("preHandler", refuseContractAddresses);
  const wallets = ctx.wallets;
  const { store, platform } = ctx;
  const answers = ctx.stampedBodies;

  app.get(
    "/api/v2/wallet/:address/pnl-history",
    route(
      "P&L history",
      PnlHistory,
      Type.Object({
        period: Type.Union(
          PNL_PERIODS.map((p) => Type.Literal(p)),
          {
            default: "1M",
            description:
              "1D hourly over 24 h, 1W hourly over a week, 1M daily over 30 days, ALL daily over the full history",
          },
        ),
      }),
    ),
    async (request, reply) => {
      const wallet = await wallets.requireProxy(request.params.address);
      const { period } = request.query;
      // Kept under the wallet's ledger rows, and for as long as the clock leaves it unchanged.
      return answers.sendUntil(reply, `pnl-history|${wallet}|${period}`, await ledgerStamp(store, wallet), async () => {
        const now = platform.clock.now();
        const answer = await pnlHistory(store, wallet, period, now);
        return { answer, until: pnlHistoryUntil(period, answer.points, now) };
      });
    },
  );

  app.get(
    "/api/v2/wallet/:address/pnl-history-chain",
    route("P&L history from the venue's closed positions", PnlHistoryChain, NoQuery),
    async (request, reply) => {
      const wallet = await wallets.requireProxy(request.params.address);
      return answers.send(reply, `pnl-history-chain|${wallet}`, await venueSyncStamp(store, wallet), () =>
        pnlHistoryChain(store, wallet),
      );
    },
  );

  app.get(
    "/api/v2/wallet/:address/changes-since",
    route(
      "Trades, P&L change and last move since a moment",
      ChangesSince,
      Type.Object({
        since: Type.Integer({
          minimum: 0,
          description: `required; unix seconds; capped at now - ${CHANGES_MAX_LOOKBACK / 86_400} days; under ${CHANGES_MIN_AGE} s ago counts nothing`,
        }),
      }),
    ),
    async (request, reply) => {
      const wallet = await wallets.requireProxy(request.params.address);
      const { since } = request.query;
      // Kept under the wallet's fills and ledger rows, and for as long as the clock leaves it unchanged.
      return answers.sendUntil(
        reply,
        `changes-since|${wallet}|${since}`,
        await walletFillsStamp(store, wallet),
        async () => {
          const now = platform.clock.now();
          return { answer: await changesSince(store, wallet, since, now), until: changesSinceUntil(since, now) };
        },
      );
    },
  );

  app.get(
    "/api/v2/wallet/:address/last-moves",
    route("Latest move per market", LastMoves, NoQuery, heavy(access.public, ctx.config.limits.heavyReadCost)),
    async (request, reply) => {
      const wallet = await wallets.requireProxy(request.params.address);
      // A new fill moves the first half; the Deriver's write of its last move, in its statistics' transaction, the second.
      return answers.send(reply, `last-moves|${wallet}`, await walletFillsStamp(store, wallet), () =>
        lastMoves(store, wallet),
      );
    },
  );
};
