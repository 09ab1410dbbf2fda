/**
 * Answers of an aggregate that is recomputed once per clock window (analytics clusters, conviction clusters), kept
 * serialized for the rest of the window they were computed in: a request in the window sends kept bytes.
 */
import type { FastifyReply } from "fastify";
import type { MapBounds } from "../platform/bounded-map.js";
import { LocalBodyCache } from "./body-cache.js";
import type { AppContext } from "./context.js";
import { sendSerialized } from "./send-serialized.js";

export class WindowAnswers {
  private readonly bodies: LocalBodyCache;

  constructor(
    private readonly ctx: AppContext,
    private readonly windowSeconds: number,
    bounds: MapBounds,
  ) {
    this.bodies = new LocalBodyCache(
      ctx.platform.clock,
      windowSeconds,
      bounds,
      ctx.config.server.gzipMinBytes,
      () => ctx.readiness.ready,
    );
  }

  /** Sends the answer kept under `key` in the current window, or computes, keeps and sends it. */
  async send(reply: FastifyReply, key: string, compute: () => Promise<unknown>): Promise<FastifyReply> {
    const window = Math.floor(this.ctx.platform.clock.now() / this.windowSeconds);
    const body = await this.bodies.get(`${window}|${key}`, async () => ({
      text: reply.serialize(await compute()) as string,
      until: (window + 1) * this.windowSeconds,
    }));
    return sendSerialized(reply, body);
  }
}
