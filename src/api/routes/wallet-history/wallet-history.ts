/**
 * A wallet over time under /api/v2/wallet/{address}: pnl-history, pnl-history-chain, changes-since, last-moves.
 */
import { access, heavy } from "../../access.js";
import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import {
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
import { NoQuery, walletRoute } from "../wallet-insights/wallet-insight-schemas.js";
import {
  ChangesSince,
  ChangesSinceQuery,
  LastMoves,
  PnlHistory,
  PnlHistoryChain,
  PnlHistoryQuery,
} from "./wallet-history-schemas.js";

const TAGS = ["wallet history"];

const route = walletRoute(TAGS);

export const walletHistoryRoutes: FastifyPluginAsyncTypebox<AppContext> = async (app, ctx) => {
  app.addHook("preHandler", refuseContractAddresses);
  const wallets = ctx.wallets;
  const { store, platform } = ctx;
  const answers = ctx.stampedBodies;

  app.get(
    "/api/v2/wallet/:address/pnl-history",
    route("P&L history", PnlHistory, PnlHistoryQuery),
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
    route("Trades, P&L change and last move since a moment", ChangesSince, ChangesSinceQuery),
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
