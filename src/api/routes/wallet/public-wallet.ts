/**
 * The key-oriented wallet API, `/api/public/v1` (Premium, Bearer or X-API-Key): overview (by address or venue
 * username, 202 while a very heavy wallet's cold overview computes), the full open position set, raw fills, and
 * the batch calls over many wallets.
 */
import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import type { FastifyReply } from "fastify";
import { openPositions } from "../../../analytics/wallet/wallet-positions.js";
import { access, batch } from "../../access.js";
import type { AppContext } from "../../context.js";
import { positionsStamp } from "../../../analytics/wallet/wallet-stamps.js";
import type { OverviewSender } from "./wallet-overview-sender.js";
import { notFound } from "../../errors.js";
import { contractAddressBody, refuseContractAddresses, walletErrorResponses } from "../../params.js";
import { walletTradesRoute } from "./wallet-trades-route.js";
import { trackWalletLoad } from "./wallet-load.js";
import { V1Positions, WalletOverview } from "./wallet-schemas.js";
import { ViewQuery } from "./wallet-query-schemas.js";
import {
  AddressOrNameParams,
  BatchBody,
  BatchOverviewsBody,
  BatchPositionsBody,
  Computing,
  V1PositionsQuery,
} from "./public-wallet-schemas.js";

const TAGS = ["public v1"];
const RETRY_AFTER_SECONDS = 30;
const OVERVIEW_BATCH_MAX = 50;
const NULL_JSON = Buffer.from("null");
const CLOSE_ITEM = Buffer.from("}");
const POSITIONS_BATCH_MAX = 20;

/** The key-oriented wallet routes, sending overviews through the wallet family's `overviews`. */
export const publicWalletRoutes =
  (overviews: OverviewSender): FastifyPluginAsyncTypebox<AppContext> =>
  async (app, ctx) => {
    app.addHook("preHandler", refuseContractAddresses);
    const load = trackWalletLoad(app, ctx);
    const reads = ctx.wallets;
    const { store } = ctx;
    const fresh = ctx.config.ingest.walletSyncFreshSeconds;
    const answers = ctx.stampedBodies;

    const requireAddress = async (param: string) => {
      const address = await reads.addressOf(param);
      if (!address) throw notFound(`Wallet ${param} not found`);
      return address;
    };

    app.get(
      "/api/public/v1/wallet/:address/overview",
      {
        config: { access: access.premiumAnyHeader },
        schema: {
          summary: "Wallet overview",
          description:
            "Same shape as /api/v2/wallet/{address}/overview. Accepts a 0x address or a venue username. On a cold cache for a very heavy wallet " +
            `(WALLET_HEAVY_TRADES fills or more) answers 202 with Retry-After: ${RETRY_AFTER_SECONDS} while it computes; retry once.`,
          tags: TAGS,
          params: AddressOrNameParams,
          querystring: ViewQuery,
          response: { 200: WalletOverview, 202: Computing, ...walletErrorResponses },
        },
      },
      async (request, reply) => {
        const address = await requireAddress(request.params.address);
        const state = await reads.warmOrQueue(address);
        if (state === "not_found") throw notFound(`Wallet ${request.params.address} not found`);
        if (state === "computing") {
          return reply
            .code(202)
            .header("Retry-After", String(RETRY_AFTER_SECONDS))
            .send({
              status: "computing" as const,
              detail: "This wallet's overview is being computed; retry shortly",
              retry_after_seconds: RETRY_AFTER_SECONDS,
            });
        }
        return overviews.send(reply, address, request.query.view, load.degraded());
      },
    );

    app.get(
      "/api/public/v1/wallet/:address/positions",
      {
        config: { access: access.premiumAnyHeader },
        schema: {
          summary: "Open positions (full set)",
          description:
            "The full open set in one response; limit and offset are accepted but not enforced; order not guaranteed.",
          tags: TAGS,
          params: AddressOrNameParams,
          querystring: V1PositionsQuery,
          response: { 200: V1Positions, ...walletErrorResponses },
        },
      },
      async (request, reply) => {
        const wallet = await reads.requireProxy(await requireAddress(request.params.address));
        // Kept serialized as v2's positions are (`positionsStamp`).
        const { stamp, until } = await positionsStamp(store, wallet, reads.now(), fresh);
        return answers.sendUntil(reply, `v1-positions|${wallet}`, stamp, async () => {
          const open = await openPositions(store, wallet, reads.now(), fresh);
          return { answer: { address: wallet, ...open, count: open.positions.length }, until };
        });
      },
    );

    walletTradesRoute(app, "/api/public/v1/wallet/:address/trades", access.premiumAnyHeader, TAGS, ctx);

    /** Resolves one batch item: its address, or why it has none. */
    const batchItem = async (input: string) => {
      const contract = contractAddressBody(input);
      if (contract)
        return {
          wallet: input,
          address: contract.address,
          status: "not_found" as const,
          is_contract: true,
          contract_type: contract.contract_type,
        };
      const address = await reads.addressOf(input);
      return { wallet: input, address, status: address ? ("ok" as const) : ("not_found" as const) };
    };

    app.post(
      "/api/public/v1/wallets/overview",
      {
        config: { access: batch(access.premiumAnyHeader, "wallets") },
        schema: {
          summary: "Batch wallet overviews",
          description: `Overviews of up to ${OVERVIEW_BATCH_MAX} wallets; costs one request per wallet. A cold very heavy wallet is queued (status computing).`,
          tags: TAGS,
          body: BatchBody(OVERVIEW_BATCH_MAX),
          response: {
            200: BatchOverviewsBody,
          },
        },
      },
      async (request, reply) => {
        const degraded = load.degraded();
        // Each overview as the v1 overview route keeps it serialized, placed as it is: a batch serializes only its
        // items' few own fields, not fifty overviews again (the answer's schema is documented, not applied).
        const parts: Buffer[] = [Buffer.from('{"wallets":[')];
        for (const [i, input] of request.body.wallets.entries()) {
          const item = await batchItem(input);
          const state = item.status === "ok" && item.address ? await reads.warmOrQueue(item.address) : item.status;
          const overview =
            state === "warm" ? (await overviews.proxyView(reply, item.address as string, degraded)).json : NULL_JSON;
          const fields = JSON.stringify({ ...item, status: state === "warm" ? "ok" : state });
          parts.push(Buffer.from(`${i > 0 ? "," : ""}${fields.slice(0, -1)},"overview":`), overview, CLOSE_ITEM);
        }
        parts.push(Buffer.from(`],"count":${request.body.wallets.length}}`));
        return (reply as FastifyReply).type("application/json; charset=utf-8").send(Buffer.concat(parts));
      },
    );

    app.post(
      "/api/public/v1/wallets/positions",
      {
        config: { access: batch(access.premiumAnyHeader, "wallets") },
        schema: {
          summary: "Batch open positions",
          description: `Full open position sets of up to ${POSITIONS_BATCH_MAX} wallets; costs one request per wallet.`,
          tags: TAGS,
          body: BatchBody(POSITIONS_BATCH_MAX),
          response: {
            200: BatchPositionsBody,
          },
        },
      },
      async (request) => {
        const wallets = [];
        for (const input of request.body.wallets) {
          const item = await batchItem(input);
          const empty = { positions: null, source: null, is_estimated: null, count: 0 };
          if (item.status !== "ok" || !item.address) {
            wallets.push({ ...item, ...empty });
            continue;
          }
          const wallet = await reads.requireProxy(item.address).catch(() => null);
          if (!wallet) {
            wallets.push({ ...item, status: "not_found" as const, ...empty });
            continue;
          }
          const open = await openPositions(store, wallet, reads.now(), fresh);
          wallets.push({ ...item, address: wallet, ...open, count: open.positions.length });
        }
        return { wallets, count: wallets.length };
      },
    );
  };
