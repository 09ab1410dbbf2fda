/**
 * Leaderboards: GET /api/v2/whales/leaderboard, GET /api/public/v1/whales/leaderboard (free, like every
 * leaderboard: Authentication 1) and GET /api/leaderboard. All three read one cached per-wallet table.
 */
import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import type { FastifyReply } from "fastify";
import { GenerationBodies } from "../../../kept/generation-bodies.js";
import { periodPnl, traderRows, type BoardQuery } from "../../../analytics/boards/leaderboard.js";
import { computedPerClockWindow, clockWindowEnd } from "../../../kept/clock-window.js";
import { mebibytes } from "../../../platform/bounded-map.js";
import { TtlBodies } from "../../../kept/ttl-bodies.js";
import { access } from "../../access.js";
import type { AppContext } from "../../context.js";
import { sendSerialized } from "../../../kept/send-serialized.js";
import { categoryFilter } from "../../params.js";
import {
  LEADERBOARD_MAX_LIMIT,
  PUBLIC_MAX_LIMIT,
  TRADERS_MAX_LIMIT,
  Board,
  V2Query,
  PublicQuery,
  TradersQuery,
  Traders,
} from "./leaderboard-schemas.js";

/** `/api/leaderboard`'s answers kept serialized (one per period, filter and limit of the current window). */
const TRADER_ANSWERS_KEPT = 500;
const TRADER_ANSWERS_MB = 8;

export const leaderboardRoutes: FastifyPluginAsyncTypebox<AppContext> = async (app, ctx) => {
  const { boards } = ctx;
  const answers = new GenerationBodies(
    {
      maxEntries: ctx.config.boards.leaderboardCachedPages,
      maxBytes: mebibytes(ctx.config.boards.leaderboardCachedMb),
    },
    ctx.config.server.gzipMinBytes,
  );
  ctx.readiness.onReady(() => {
    boards.forget();
    answers.clear();
  });
  ctx.warmUps.add("leaderboard table", () => boards.current());
  const traderAnswers = new TtlBodies(
    ctx.platform.clock,
    ctx.config.boards.leaderboardCacheSeconds,
    { maxEntries: TRADER_ANSWERS_KEPT, maxBytes: mebibytes(TRADER_ANSWERS_MB) },
    ctx.config.server.gzipMinBytes,
    () => ctx.readiness.ready,
  );

  async function board(
    q: Omit<BoardQuery, "max_sports_pct" | "exclude_wallets" | "skill"> & Partial<BoardQuery>,
    reply: FastifyReply,
  ) {
    categoryFilter(q.category);
    const query: BoardQuery = { max_sports_pct: 0, exclude_wallets: "", skill: 0, ...q };
    const board = await boards.current();
    const body = answers.answer(
      board.generation,
      JSON.stringify(query),
      () => reply.serialize(board.page(query)) as string,
    );
    return sendSerialized(reply, body);
  }

  const description =
    "Wallets filtered, sorted descending by the sort key (then by address) and paged; `total` counts every match. " +
    "filter=smart lists Smart Money only, never a farmer. Figures are those of the ledger's last refresh; mint_volume_30d, merge_volume_30d and the maker share cover the 30 days before it.";

  app.get(
    "/api/v2/whales/leaderboard",
    {
      config: { access: access.public },
      schema: {
        summary: "Whale leaderboard",
        description: `${description} limit max ${LEADERBOARD_MAX_LIMIT}.`,
        tags: ["leaderboards"],
        querystring: V2Query,
        response: { 200: Board },
      },
    },
    async (request, reply) => board(request.query, reply),
  );

  app.get(
    "/api/public/v1/whales/leaderboard",
    {
      config: { access: access.public },
      schema: {
        summary: "Whale leaderboard (key-oriented API)",
        description: `${description} Free: no key needed (a key, when sent, draws from its own budget). limit 1..${PUBLIC_MAX_LIMIT}.`,
        tags: ["leaderboards"],
        querystring: PublicQuery,
        response: { 200: Board },
      },
    },
    async (request, reply) => board(request.query, reply),
  );

  app.get(
    "/api/leaderboard",
    {
      config: { access: access.public },
      schema: {
        summary: "Public leaderboard by period",
        description: "Traders ranked by P&L over the period, descending (then by address).",
        tags: ["leaderboards"],
        querystring: TradersQuery,
        response: { 200: Traders },
      },
    },
    async (request, reply) => {
      const { period, filter, limit } = request.query;
      const { wallets, generation } = await boards.current();
      const ttl = ctx.config.boards.leaderboardCacheSeconds;
      const name = `boards:traders:${generation}:${period}:${filter}`;
      // Kept serialized per limit until the shared figure it is cut from is computed again.
      const until = clockWindowEnd(ctx.platform.clock.now(), ttl);
      const body = await traderAnswers.get(`${name}|${limit}|${until}`, async () => {
        const top = await computedPerClockWindow(ctx.platform, name, ttl, async (at) =>
          traderRows(wallets, await periodPnl(ctx.store, wallets, period, at), filter, TRADERS_MAX_LIMIT),
        );
        const text = reply.serialize({ traders: top.slice(0, limit), period, filter }) as string;
        return { text, until };
      });
      return sendSerialized(reply, body);
    },
  );
};
