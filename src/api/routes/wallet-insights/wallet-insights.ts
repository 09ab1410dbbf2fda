/**
 * Wallet insights and copy-trading aids under /api/v2/wallet/{address}: insights, closed-insights, highlights,
 * hold, alignment, related-markets, similar-traders, whale-matches, missed-opportunities, active-whale-markets.
 */
import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import type { FastifyReply } from "fastify";
import {
  activeWhaleMarkets,
  missedOpportunities,
  ownPositions,
  relatedByCategory,
  relatedMarkets,
  walletAlignment,
  whaleMatches,
  type OwnPosition,
} from "../../../analytics/whales/whale-matches.js";
import type { WhaleBookView } from "../../../analytics/whales/whale-book.js";
import { similarCandidates, similarTraders } from "../../../analytics/whales/similar-traders.js";
import { mebibytes } from "../../../platform/bounded-map.js";
import { TtlBodies } from "../../../kept/ttl-bodies.js";
import { sendSerialized } from "../../../kept/send-serialized.js";
import {
  closedInsights,
  walletHighlights,
  walletHold,
  walletInsights,
} from "../../../analytics/wallet/wallet-insights.js";
import type { AppContext } from "../../context.js";
import { ledgerStamp } from "../../../analytics/wallet/wallet-stamps.js";
import { SECONDS_PER_DAY } from "../../../ledger/index.js";
import { LimitQuery, refuseContractAddresses } from "../../params.js";
import {
  ActiveWhaleMarkets,
  AlignmentBody,
  ClosedInsights,
  Highlights,
  Hold,
  Insights,
  MissedOpportunities,
  RelatedMarkets,
  SimilarTraders,
  NoQuery,
  WhaleMatches,
  walletRoute,
} from "./wallet-insight-schemas.js";
import { ProxyQuery } from "../wallet/wallet-query-schemas.js";

const TAGS = ["wallet insights"];
const RELATED_TTL_MS = 5 * 60_000;
const SIMILAR_TTL_MS = 10 * 60_000;
/** Answers kept serialized per wallet and query, at most. */
const KEPT_ANSWERS = 20_000;

const route = walletRoute(TAGS);

export const walletInsightRoutes: FastifyPluginAsyncTypebox<AppContext> = async (app, ctx) => {
  app.addHook("preHandler", refuseContractAddresses);
  const wallets = ctx.wallets;
  const { store, config, platform } = ctx;
  const now = () => platform.clock.now();

  // Answers of the wallet's own ledger rows, kept serialized while the Deriver has not written them again.
  const answers = ctx.stampedBodies;
  const fromLedger = async (reply: FastifyReply, key: string, wallet: string, compute: () => Promise<unknown>) =>
    answers.send(reply, `${key}|${wallet}`, await ledgerStamp(store, wallet), compute);

  app.get(
    "/api/v2/wallet/:address/insights",
    route("Wallet insights: categories, entry prices, hold, skill", Insights, NoQuery),
    async (request, reply) => {
      const wallet = await wallets.requireProxy(request.params.address);
      return fromLedger(reply, "insights", wallet, () => walletInsights(store, wallet));
    },
  );

  app.get(
    "/api/v2/wallet/:address/closed-insights",
    route("Closed-position insights: win/loss figures, biggest wins and losses", ClosedInsights, ProxyQuery),
    async (request, reply) => {
      const wallet = await wallets.requireProxy(request.params.address, request.query.proxy);
      return fromLedger(reply, "closed-insights", wallet, () => closedInsights(store, wallet, config));
    },
  );

  app.get(
    "/api/v2/wallet/:address/highlights",
    route("Winning streaks and biggest single win", Highlights, NoQuery),
    async (request, reply) => {
      const wallet = await wallets.requireProxy(request.params.address);
      const at = now();
      // The current streak counts up to today: an answer serves its UTC day only.
      return fromLedger(reply, `highlights|${Math.floor(at / SECONDS_PER_DAY)}`, wallet, () =>
        walletHighlights(store, wallet, at),
      );
    },
  );

  app.get("/api/v2/wallet/:address/hold", route("Typical hold", Hold, NoQuery), async (request, reply) => {
    const wallet = await wallets.requireProxy(request.params.address);
    const at = now();
    // Its window and the open positions' ages move with the clock: an answer serves its second, then goes.
    return answers.sendUntil(reply, `hold|${wallet}`, await ledgerStamp(store, wallet), async () => ({
      answer: await walletHold(store, wallet, at, config),
      until: at + 1,
    }));
  });

  app.get(
    "/api/v2/wallet/:address/alignment",
    route("Whale alignment of the wallet's open positions", AlignmentBody, ProxyQuery),
    async (request, reply) => {
      const wallet = await wallets.requireProxy(request.params.address, request.query.proxy);
      return fromLedger(reply, "alignment", wallet, () => walletAlignment(store, wallet, config));
    },
  );

  // Each category's related markets are the same for every wallet: read once per RELATED_TTL_MS, not per wallet.
  const relatedLists = async () =>
    (
      await platform.cache.getOrLoad("wallet-insights:related-markets", RELATED_TTL_MS, () =>
        relatedByCategory(store, now(), config),
      )
    ).value;
  ctx.warmUps.add("related markets", relatedLists);
  app.get(
    "/api/v2/wallet/:address/related-markets",
    route("Active markets in the wallet's main categories", RelatedMarkets, NoQuery),
    async (request) => {
      const wallet = await wallets.requireProxy(request.params.address);
      return relatedMarkets(store, wallet, relatedLists, config);
    },
  );

  // Each category's most profitable smart whales, read once per 10 min (and before the service listens) for every
  // wallet; a request takes the wallet's own category shares from the overview's cached inputs, as the overview
  // shows them (src/analytics/whales/similar-traders.ts).
  const candidates = async () =>
    (
      await platform.cache.getOrLoad("wallet-insights:similar-candidates", SIMILAR_TTL_MS, () =>
        similarCandidates(store),
      )
    ).value;
  ctx.warmUps.add("similar traders", candidates);
  app.get(
    "/api/v2/wallet/:address/similar-traders",
    route("Smart Money traders like this wallet", SimilarTraders, NoQuery),
    async (request) => {
      const stored = await wallets.stored(request.params.address);
      // A wallet without statistics (or none at all: 404) has no category.
      const wallet = stored ? stored.identity.proxy : await wallets.requireProxy(request.params.address);
      return similarTraders(wallet, stored?.stats.categories, await candidates(), config);
    },
  );

  // The whale-match answers read the process's copy of every Smart Money position and the wallet's own positions:
  // kept serialized per wallet, query, copy version and the wallet's statistics row (its positions are written
  // with it), at most WHALE_BOOK_REFRESH_SECONDS (60 s: the contract's "cached 60 s" of active-whale-markets). A
  // reload of the copy that finds nothing new keeps its version, so the kept answers stand. Each request reads the
  // wallet's own positions (one indexed read) and walks the copy to its `limit`: it costs 1 of the budget.
  const book = ctx.whaleBook;
  const warm = () => void ctx.background.run("whale book", () => book.current());
  ctx.readiness.onReady(() => {
    book.forget();
    warm();
  });
  app.addHook("onReady", async () => warm());
  // The service loads the copy before it listens: no first request waits for it.
  ctx.warmUps.add("whale book", () => book.current());
  const kept = new TtlBodies(
    platform.clock,
    config.whaleReads.bookRefreshSeconds,
    { maxEntries: KEPT_ANSWERS, maxBytes: mebibytes(config.wallet.insightsCachedMb) },
    config.server.gzipMinBytes,
    () => ctx.readiness.ready,
  );
  const sendWhaleAnswer = async (
    reply: FastifyReply,
    name: string,
    wallet: string,
    limit: number,
    answer: (view: WhaleBookView, own: OwnPosition[]) => unknown,
  ) => {
    const [view, own] = await Promise.all([book.current(), ledgerStamp(store, wallet)]);
    const body = await kept.get(
      `${name}|${wallet}|${limit}|${view.version}|${own}`,
      async () => reply.serialize(answer(view, await ownPositions(store, wallet))) as string,
    );
    return sendSerialized(reply, body);
  };

  app.get(
    "/api/v2/wallet/:address/whale-matches",
    route(
      "Whales with the most overlapping (market, side) positions",
      WhaleMatches,
      LimitQuery({ default: 10, max: 100 }),
    ),
    async (request, reply) => {
      const wallet = await wallets.requireProxy(request.params.address);
      const { limit } = request.query;
      return sendWhaleAnswer(reply, "whale-matches", wallet, limit, (view, own) =>
        whaleMatches(view, wallet, own, limit),
      );
    },
  );

  app.get(
    "/api/v2/wallet/:address/missed-opportunities",
    route("Markets matched whales won without the wallet", MissedOpportunities, LimitQuery({ default: 5, max: 50 })),
    async (request, reply) => {
      const wallet = await wallets.requireProxy(request.params.address);
      const { limit } = request.query;
      return sendWhaleAnswer(reply, "missed-opportunities", wallet, limit, (view, own) =>
        missedOpportunities(view, wallet, own, limit, config),
      );
    },
  );

  app.get(
    "/api/v2/wallet/:address/active-whale-markets",
    route(
      "Open markets where matched whales hold a side the wallet does not",
      ActiveWhaleMarkets,
      LimitQuery({ default: 5, max: 50 }),
    ),
    async (request, reply) => {
      const wallet = await wallets.requireProxy(request.params.address);
      const { limit } = request.query;
      return sendWhaleAnswer(reply, "active-whale-markets", wallet, limit, (view, own) =>
        activeWhaleMarkets(view, wallet, own, limit, config),
      );
    },
  );
};
