/**
 * The reconnect schedule on a real connection that cannot be made (a Redis URL where nothing listens), on a
 * settable clock: the first attempt, then LIVE_RECONNECT_ATTEMPTS more, each waiting twice as long as the one
 * before, then "lost"; a later `ensure` starts over. (Dropping a live connection: test/live-upstream.test.ts.)
 */
import { freePort } from "../../test/support/free-port.js";
import { Redis } from "ioredis";
import { describe, expect, it } from "vitest";
import { ManualClock } from "../platform/clock.js";
import { ManualScheduler } from "./scheduler.js";
import { UpstreamLink, type LinkEvent } from "./upstream-link.js";
import { RedisUpstream } from "./upstream.js";
import { until } from "../../test/support/live-clients.js";

describe("UpstreamLink", () => {
  it("tries LIVE_RECONNECT_ATTEMPTS times after the first, doubling the wait, then reports the upstream lost", async () => {
    const scheduler = new ManualScheduler(new ManualClock(0));
    const nowhere = new Redis(`redis://127.0.0.1:${await freePort()}`, { lazyConnect: true });
    const events: Array<LinkEvent & { atMs: number }> = [];
    const link = new UpstreamLink(
      new RedisUpstream(nowhere, "p:"),
      scheduler,
      { attempts: 5, baseMs: 500 },
      () => undefined,
      (event) => events.push({ ...event, atMs: scheduler.nowMs() }),
    );
    link.ensure();
    for (let attempt = 1; attempt <= 5; attempt++) {
      await until(`retry ${attempt} scheduled`, () => events.length === attempt);
      expect(link.state).toBe("retrying");
      scheduler.advance(500 * 2 ** (attempt - 1));
    }
    await until("lost", () => events.at(-1)?.type === "lost");
    expect(events.map((e) => (e.type === "retry" ? [e.attempt, e.delayMs, e.atMs] : [e.type, e.atMs]))).toEqual([
      [1, 500, 0],
      [2, 1_000, 500],
      [3, 2_000, 1_500],
      [4, 4_000, 3_500],
      [5, 8_000, 7_500],
      ["lost", 15_500],
    ]);
    expect(link.state).toBe("lost");
    expect(scheduler.pending).toBe(0);

    link.ensure();
    await until("a new cycle", () => events.at(-1)?.type === "retry");
    expect(events.at(-1)).toMatchObject({ type: "retry", attempt: 1, delayMs: 500 });
    await link.close();
    expect(scheduler.pending).toBe(0);
  });
});
