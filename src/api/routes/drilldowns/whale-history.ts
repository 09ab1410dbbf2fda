/**
 * `/api/v2/whale/{address}/history` and `/backtest` (Premium, X-API-Key): a wallet's summary with its resolved
 * markets, and its resolved outcome sides paged for backtesting.
 */
import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { resolvedMarketHistory, whaleBacktest } from "../../../analytics/whales/whale-backtest.js";
import { walletNotFound } from "../../../analytics/reads/read-errors.js";
import { ledgerStamp } from "../../../analytics/wallet/wallet-stamps.js";
import { access } from "../../access.js";
import type { AppContext } from "../../context.js";
import { StampedBodies } from "../../../kept/stamped-bodies.js";
import { mebibytes } from "../../../platform/bounded-map.js";
import { validationError } from "../../errors.js";
import { WalletParams, dayBound, refuseContractAddresses, walletErrorResponses } from "../../params.js";
import { BacktestBody, BacktestQuery, WhaleHistoryBody, WhaleHistoryQuery } from "./drilldown-schemas.js";

const TAGS = ["whales"];
export const whaleHistoryRoutes: FastifyPluginAsyncTypebox<AppContext> = async (app, ctx) => {
  app.addHook("preHandler", refuseContractAddresses);
  const { store, wallets } = ctx;
  // Both answers read only the wallet's ledger rows (its statistics and positions, written together by the Deriver)
  // and its markets' facts: kept serialized per wallet and query under its statistics row as last written
  // (src/kept/stamped-bodies.ts), so a repeated read costs that one indexed row.
  const answers = new StampedBodies(
    ctx.keeping,
    ctx.config.wallet.overviewCacheSeconds,
    mebibytes(ctx.config.whaleReads.historyCachedMb),
  );

  app.get(
    "/api/v2/whale/:address/history",
    {
      config: { access: access.premiumXApiKey },
      schema: {
        summary: "Whale summary and resolved-market history (Premium)",
        description:
          "The wallet's P&L, win rate, profit factor and resolved markets (as its overview), and the resolved markets it bought into, newest resolution first: " +
          "both sides' cost and settled P&L per market, won when that P&L is positive.",
        tags: TAGS,
        params: WalletParams,
        querystring: WhaleHistoryQuery,
        response: { 200: WhaleHistoryBody, ...walletErrorResponses },
      },
    },
    async (request, reply) => {
      const stored = await wallets.stored(request.params.address);
      if (!stored) throw walletNotFound(request.params.address);
      const { identity, stats } = stored;
      const { limit } = request.query;
      const stamp = await ledgerStamp(store, identity.proxy);
      return answers.send(reply, `whale-history|${identity.proxy}|${limit}`, stamp, async () => ({
        whale: {
          wallet: identity.proxy,
          name: identity.profile?.name || identity.profile?.pseudonym || null,
          total_pnl: stats.total_pnl,
          win_rate: stats.win_rate,
          profit_factor: stats.profit_factor,
          resolved_markets: stats.resolved,
          is_smart: stats.is_smart === 1,
        },
        ...(await resolvedMarketHistory(store, identity.proxy, limit)),
        as_of: stats.computed_at,
      }));
    },
  );

  app.get(
    "/api/v2/whale/:address/backtest",
    {
      config: { access: access.premiumXApiKey },
      schema: {
        summary: "Whale backtest: resolved positions per outcome (Premium)",
        description:
          "Every resolved outcome side the wallet bought, ordered by last_trade_ts desc, then market_id, then side (YES first): stable across pages. " +
          "since and until bound last_trade_ts by UTC day, both inclusive; slug_prefix keeps markets whose slug starts with it. The summary covers the returned page only.",
        tags: TAGS,
        params: WalletParams,
        querystring: BacktestQuery,
        response: { 200: BacktestBody, ...walletErrorResponses },
      },
    },
    async (request, reply) => {
      const q = request.query;
      const since = dayBound("since", q.since, false);
      const until = dayBound("until", q.until, true);
      if (since !== null && until !== null && since > until)
        throw validationError(["query", "since"], "since must not be after until");
      const wallet = await wallets.proxyOf(request.params.address);
      const slugPrefix = q.slug_prefix.toLowerCase();
      const key = `whale-backtest|${wallet}|${q.limit}|${q.offset}|${since}|${until}|${slugPrefix}`;
      return answers.send(reply, key, await ledgerStamp(store, wallet), async () => ({
        wallet,
        ...(await whaleBacktest(store, wallet, { limit: q.limit, offset: q.offset, since, until, slugPrefix })),
      }));
    },
  );
};
