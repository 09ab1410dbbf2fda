/**
 * Per-wallet and per-market answers kept serialized in this process (WALLET_INSIGHTS_CACHED_MB), each under the
 * stamp of what it was computed from (src/analytics/wallet/wallet-stamps.ts): a request reads the stamp (one indexed row)
 * and sends the kept bytes while it is unchanged, so the ingest's next write for the wallet or market is what
 * retires an answer. Kept at most WALLET_OVERVIEW_CACHE_SECONDS, as the overview.
 */
import type { FastifyReply } from "fastify";
import { mebibytes } from "../platform/bounded-map.js";
import { LocalBodyCache } from "./body-cache.js";
import type { AppContext } from "./context.js";
import { sendSerialized } from "./send-serialized.js";

const KEPT_ANSWERS = 20_000;

export class KeptAnswers {
  private readonly bodies: LocalBodyCache;

  /** `maxMb`: the MiB its answers may hold (WALLET_INSIGHTS_CACHED_MB unless given). */
  constructor(ctx: AppContext, maxMb = ctx.config.wallet.insightsCachedMb) {
    const { wallet, server } = ctx.config;
    this.bodies = new LocalBodyCache(
      ctx.platform.clock,
      wallet.overviewCacheSeconds,
      { maxEntries: KEPT_ANSWERS, maxBytes: mebibytes(maxMb) },
      server.gzipMinBytes,
      () => ctx.readiness.ready,
    );
  }

  /** Sends the answer kept under `key` and `stamp`, or computes, keeps and sends it. */
  async send(reply: FastifyReply, key: string, stamp: string, compute: () => Promise<unknown>): Promise<FastifyReply> {
    const body = await this.bodies.get(`${key}|${stamp}`, async () => reply.serialize(await compute()) as string);
    return sendSerialized(reply, body);
  }

  /**
   * As `send`, for an answer that the clock alone changes too: `compute` tells the first second (unix) at which
   * computing it again might give another answer, and it is not kept from then on.
   */
  async sendUntil(
    reply: FastifyReply,
    key: string,
    stamp: string,
    compute: () => Promise<{ answer: unknown; until: number }>,
  ): Promise<FastifyReply> {
    const body = await this.bodies.get(`${key}|${stamp}`, async () => {
      const { answer, until } = await compute();
      return { text: reply.serialize(answer) as string, until };
    });
    return sendSerialized(reply, body);
  }
}

const perContext = new WeakMap<AppContext, KeptAnswers>();

/** The process's kept answers (one per app). */
export function keptAnswers(ctx: AppContext): KeptAnswers {
  let answers = perContext.get(ctx);
  if (!answers) perContext.set(ctx, (answers = new KeptAnswers(ctx)));
  return answers;
}
