/**
 * Answers of an aggregate that is recomputed once per clock window (analytics clusters, conviction clusters), kept
 * serialized for the rest of the window they were computed in: a request in the window sends kept bytes.
 */
import type { FastifyReply } from "fastify";
import type { MapBounds } from "../platform/bounded-map.js";
import type { Clock } from "../platform/clock.js";
import { sendSerialized } from "./send-serialized.js";
import { type Keeping, TtlBodies } from "./ttl-bodies.js";

export class ClockWindowBodies {
  private readonly bodies: TtlBodies;

  private readonly clock: Clock;

  constructor(
    keeping: Keeping,
    private readonly windowSeconds: number,
    bounds: MapBounds,
  ) {
    this.clock = keeping.clock;
    this.bodies = new TtlBodies(keeping.clock, windowSeconds, bounds, keeping.gzipMinBytes, keeping.admitted);
  }

  /** Sends the answer kept under `key` in the current window, or computes, keeps and sends it. */
  async send(reply: FastifyReply, key: string, compute: () => Promise<unknown>): Promise<FastifyReply> {
    const window = Math.floor(this.clock.now() / this.windowSeconds);
    const body = await this.bodies.get(`${window}|${key}`, async () => ({
      text: reply.serialize(await compute()) as string,
      until: (window + 1) * this.windowSeconds,
    }));
    return sendSerialized(reply, body);
  }
}
