/**
 * The wallet core of `/api/v2/wallet/{address}`: overview (and its alias), rankings, positions, closed positions,
 * pending redemptions, fees and (Premium) raw trades.
 */
import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { closeLookupCounter } from "../../../analytics/wallet/lookups.js";
import { closeSyncRequests } from "../../../analytics/wallet/sync-requests.js";
import { rankingsOf } from "../../../analytics/wallet/wallet-overview.js";
import {
  byCurrentValue,
  closedPositions,
  openPositions,
  pendingRedemptions,
} from "../../../analytics/wallet/wallet-positions.js";
import { walletFees } from "../../../analytics/wallet/wallet-trades.js";
import { access } from "../../access.js";
import type { AppContext } from "../../context.js";
import { ledgerStamp, positionsStamp } from "../../../analytics/wallet/wallet-stamps.js";
import { marketFactsFingerprint } from "../../../analytics/markets/market-index.js";
import { OverviewSender } from "./wallet-overview-sender.js";
import { validationError } from "../../errors.js";
import { WalletParams, refuseContractAddresses, walletErrorResponses } from "../../params.js";
import { publicWalletRoutes } from "./public-wallet.js";
import { trackWalletLoad } from "./wallet-load.js";
import { walletTradesRoute } from "./wallet-trades-route.js";
import { walletActivityRoute } from "./wallet-activity-route.js";
import { walletPresenceRoutes } from "./wallet-presence.js";
import { ClosedBody, FeesBody, PendingBody, RankingsBody, V2Positions, WalletOverview } from "./wallet-schemas.js";
import { ClosedQuery, POSITIONS_CAP, PositionsQuery, ProxyQuery, ViewQuery } from "./wallet-query-schemas.js";
import { walletNotFound } from "../../../analytics/reads/read-errors.js";

const TAGS = ["wallet"];
/** The wallet routes, sending overviews through `overviews` (one per app, shared with the public family). */
const walletRoutes =
  (overviews: OverviewSender): FastifyPluginAsyncTypebox<AppContext> =>
  async (app, ctx) => {
    app.addHook("preHandler", refuseContractAddresses);
    const load = trackWalletLoad(app, ctx);
    const wallets = ctx.wallets;
    const { store } = ctx;
    // Positions, closed positions and fees, kept serialized while the Deriver has not written the wallet's rows again.
    const answers = ctx.stampedBodies;

    const overviewRoute = (url: string, summary: string) =>
      app.get(
        url,
        {
          config: { access: access.public },
          schema: {
            summary,
            description:
              "Profile, overview, stats, rankings and categories from stored data (cached 60 s). view=signer and view=union read the venue live and answer 502 when it is down. " +
              "Under load (degraded=true) the secondary counters are null; the primary stats are always served. Every lookup counts towards community lookups.",
            tags: TAGS,
            params: WalletParams,
            querystring: ViewQuery,
            response: { 200: WalletOverview, ...walletErrorResponses },
          },
        },
        async (request, reply) => overviews.send(reply, request.params.address, request.query.view, load.degraded()),
      );
    overviewRoute("/api/v2/wallet/:address", "Wallet overview (alias of /overview)");
    overviewRoute("/api/v2/wallet/:address/overview", "Wallet overview");

    app.get(
      "/api/v2/wallet/:address/rankings",
      {
        config: { access: access.public },
        schema: {
          summary: "Wallet rankings",
          description:
            "Rank among traders with at least 10 resolved markets by P&L, win rate, volume and profit factor. Ranks exist for the proxy view only; other views answer null ranks.",
          tags: TAGS,
          params: WalletParams,
          querystring: ViewQuery,
          response: { 200: RankingsBody, ...walletErrorResponses },
        },
      },
      async (request) => {
        const stored = await wallets.stored(request.params.address);
        if (!stored) throw walletNotFound(request.params.address);
        const view = request.query.view;
        const stats =
          view === "proxy"
            ? stored.stats
            : { ...stored.stats, rank_pnl: null, rank_winrate: null, rank_volume: null, rank_profit_factor: null };
        return {
          address: stored.identity.address,
          view,
          rankings: rankingsOf(stats, stored.totalTraders),
          as_of: stored.stats.computed_at,
        };
      },
    );

    app.get(
      "/api/v2/wallet/:address/positions",
      {
        config: { access: access.public },
        schema: {
          summary: "Open positions",
          description: `Open positions, largest current value first. Without limit: the full list, capped at ${POSITIONS_CAP}.`,
          tags: TAGS,
          params: WalletParams,
          querystring: PositionsQuery,
          response: { 200: V2Positions, ...walletErrorResponses },
        },
      },
      async (request, reply) => {
        const wallet = await wallets.requireProxy(request.params.address, request.query.proxy);
        const { offset, limit } = request.query;
        const fresh = ctx.config.ingest.walletSyncFreshSeconds;
        const { stamp, until } = await positionsStamp(store, wallet, wallets.now(), fresh);
        return answers.sendUntil(reply, `positions|${wallet}|${offset}|${limit}`, stamp, async () => {
          const open = await openPositions(store, wallet, wallets.now(), fresh);
          const page = byCurrentValue(open.positions).slice(offset, offset + (limit ?? POSITIONS_CAP));
          const answer = {
            address: wallet,
            positions: page,
            source: open.source,
            is_estimated: open.is_estimated,
            count: page.length,
            total: open.positions.length,
            offset,
          };
          return { answer, until };
        });
      },
    );

    app.get(
      "/api/v2/wallet/:address/closed",
      {
        config: { access: access.public },
        schema: {
          summary: "Closed positions",
          description:
            "Closed positions (sold or merged to zero, or their market resolved) with settled P&L net of fees.",
          tags: TAGS,
          params: WalletParams,
          querystring: ClosedQuery,
          response: { 200: ClosedBody, ...walletErrorResponses },
        },
      },
      async (request, reply) => {
        const q = request.query;
        if (q.avg_entry_max > 0 && q.avg_entry_min > q.avg_entry_max)
          throw validationError(["query", "avg_entry_min"], "avg_entry_min must not exceed avg_entry_max");
        const wallet = await wallets.requireProxy(request.params.address, q.proxy);
        const key = `closed|${wallet}|${q.limit}|${q.offset}|${q.sort}|${q.min_buy_cost}|${q.avg_entry_min}|${q.avg_entry_max}`;
        return answers.send(reply, key, await ledgerStamp(store, wallet), async () => {
          const { closed, total } = await closedPositions(store, wallet, {
            limit: q.limit,
            offset: q.offset,
            sort: q.sort,
            minBuyCost: q.min_buy_cost,
            avgEntryMin: q.avg_entry_min,
            avgEntryMax: q.avg_entry_max,
          });
          return {
            address: wallet,
            closed,
            count: closed.length,
            total,
            has_more: q.offset + closed.length < total,
            sort: q.sort,
            offset: q.offset,
          };
        });
      },
    );

    app.get(
      "/api/v2/wallet/:address/pending-redemption",
      {
        config: { access: access.public },
        schema: {
          summary: "Winnings not yet redeemed",
          description:
            "Positions of resolved markets whose paying shares (winning outcome, or either side of a 50-50) are still held.",
          tags: TAGS,
          params: WalletParams,
          querystring: ProxyQuery,
          response: { 200: PendingBody, ...walletErrorResponses },
        },
      },
      async (request, reply) => {
        const wallet = await wallets.requireProxy(request.params.address, request.query.proxy);
        // The wallet's positions and the markets' resolutions.
        const stamp = `${await ledgerStamp(store, wallet)}|${await marketFactsFingerprint(store)}`;
        return answers.send(reply, `pending-redemption|${wallet}`, stamp, async () => {
          const pending = await pendingRedemptions(store, wallet);
          return { address: wallet, ...pending, count: pending.positions.length };
        });
      },
    );

    app.get(
      "/api/v2/wallet/:address/fees",
      {
        config: { access: access.public },
        schema: {
          summary: "Fees paid",
          description:
            "Exchange fees the wallet paid over all its fills: total, per UTC month, per entry type and per role, from the sums the ledger keeps as fills arrive.",
          tags: TAGS,
          params: WalletParams,
          response: { 200: FeesBody, ...walletErrorResponses },
        },
      },
      async (request, reply) => {
        const wallet = await wallets.requireProxy(request.params.address);
        // The sums move only with the Deriver's writes of the wallet, in its statistics' transaction.
        return answers.send(reply, `fees|${wallet}`, await ledgerStamp(store, wallet), async () => ({
          address: wallet,
          ...(await walletFees(store, wallet)),
          as_of: ctx.platform.clock.now(),
        }));
      },
    );

    walletTradesRoute(app, "/api/v2/wallet/:address/trades", access.premiumXApiKey, TAGS, ctx);
    walletActivityRoute(app, "/api/v2/wallet/:address/activity", access.premiumXApiKey, TAGS, ctx);
  };

/** The wallet core families, registered as one (each keeps its own hooks). */
export const walletCoreRoutes: FastifyPluginAsyncTypebox<AppContext> = async (app, ctx) => {
  // Lookups counted in memory reach the store before it closes.
  app.addHook("onClose", async () => closeLookupCounter(ctx.primary));
  app.addHook("onClose", async () => closeSyncRequests(ctx.primary));
  const overviews = new OverviewSender(ctx);
  await app.register(walletRoutes(overviews), ctx);
  await app.register(walletPresenceRoutes, ctx);
  await app.register(publicWalletRoutes(overviews), ctx);
};
