/**
 * Per-wallet and per-market answers kept serialized in this process, each under the stamp of what it was computed
 * from (src/analytics/wallet/wallet-stamps.ts): a request reads the stamp (one indexed row) and sends the kept bytes
 * while it is unchanged, so the ingest's next write for the wallet or market is what retires an answer. Kept at
 * most `ttlSeconds` (WALLET_OVERVIEW_CACHE_SECONDS, as the overview).
 */
import type { FastifyReply } from "fastify";
import { sendSerialized } from "./send-serialized.js";
import { type Keeping, TtlBodies } from "./ttl-bodies.js";

const STAMPED_BODIES = 20_000;

export class StampedBodies {
  private readonly bodies: TtlBodies;

  /** `maxBytes`: what its answers may hold (WALLET_INSIGHTS_CACHED_MB for the app's, `ctx.stampedBodies`). */
  constructor({ clock, gzipMinBytes, admitted }: Keeping, ttlSeconds: number, maxBytes: number) {
    this.bodies = new TtlBodies(clock, ttlSeconds, { maxEntries: STAMPED_BODIES, maxBytes }, gzipMinBytes, admitted);
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
