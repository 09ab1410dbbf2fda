import { afterEach, describe, expect, it } from "vitest";
import { platformBackends, platformsPerTest } from "../../test/support/backends.js";
import { ManualClock } from "./clock.js";
import type { Platform } from "./index.js";

const open = platformsPerTest();

describe.each(platformBackends)("rate limiter on $kind", (backend) => {
  it("allows exactly the limit within a window, counting remaining down, and refuses without consuming", async () => {
    const clock = new ManualClock();
    const { rateLimiter } = await open(backend, clock);
    const remaining: number[] = [];
    for (let i = 0; i < 5; i++) {
      const d = await rateLimiter.consume("k", 5, 1);
      expect(d.allowed).toBe(true);
      remaining.push(d.remaining);
    }
    expect(remaining).toEqual([4, 3, 2, 1, 0]);
    expect(await rateLimiter.consume("k", 5, 1)).toEqual({ allowed: false, limit: 5, remaining: 0, consumed: 0 });
    expect(await rateLimiter.peek("k", 5)).toMatchObject({ remaining: 0 });
  });

  it("slides: requests leave the window 60 s after they were made", async () => {
    const clock = new ManualClock();
    const { rateLimiter } = await open(backend, clock);
    await rateLimiter.consume("s", 3, 2); // t = 0: two requests
    clock.advance(30_000);
    await rateLimiter.consume("s", 3, 1); // t = 30 s: full
    expect((await rateLimiter.consume("s", 3, 1)).allowed).toBe(false);
    clock.advance(30_001); // t = 60.001 s: the two from t = 0 have left
    expect(await rateLimiter.consume("s", 3, 1)).toMatchObject({ allowed: true, remaining: 1 });
    clock.advance(29_999); // t = 90 s: the one from t = 30 s leaves exactly now
    expect(await rateLimiter.peek("s", 3)).toMatchObject({ remaining: 2 });
  });

  it("charges a batch N at once, or not at all", async () => {
    const { rateLimiter } = await open(backend, new ManualClock());
    expect(await rateLimiter.consume("b", 10, 7)).toEqual({ allowed: true, limit: 10, remaining: 3, consumed: 7 });
    expect(await rateLimiter.consume("b", 10, 4)).toEqual({ allowed: false, limit: 10, remaining: 3, consumed: 0 });
    expect(await rateLimiter.consume("b", 10, 3)).toMatchObject({ allowed: true, remaining: 0 });
  });

  it("keeps buckets apart", async () => {
    const { rateLimiter } = await open(backend, new ManualClock());
    await rateLimiter.consume("a", 1, 1);
    expect((await rateLimiter.consume("a", 1, 1)).allowed).toBe(false);
    expect((await rateLimiter.consume("b", 1, 1)).allowed).toBe(true);
  });
});

describe.each(platformBackends)("connection slots on $kind", (backend) => {
  it("caps concurrent leases, frees them on release, and expires unrefreshed ones", async () => {
    const clock = new ManualClock();
    const { slots } = await open(backend, clock);
    const leases = [];
    for (let i = 0; i < 5; i++) leases.push(await slots.acquire("key:1", 5, 60_000));
    expect(leases.every(Boolean)).toBe(true);
    expect(await slots.acquire("key:1", 5, 60_000)).toBeUndefined();
    expect(await slots.count("key:1")).toBe(5);
    await leases[0]!.release();
    const sixth = await slots.acquire("key:1", 5, 60_000);
    expect(sixth).toBeDefined();
    clock.advance(50_000);
    await sixth!.refresh();
    clock.advance(20_000); // the four unrefreshed leases expired; the refreshed one lives
    expect(await slots.count("key:1")).toBe(1);
  });

  it("paces: at most the limit per window of the caller's length, and says when a place frees", async () => {
    const clock = new ManualClock();
    const { rateLimiter } = await open(backend, clock);
    expect(await rateLimiter.pace("discord:1", 5, 2_000)).toBe(0);
    clock.advance(400);
    for (let i = 0; i < 4; i++) expect(await rateLimiter.pace("discord:1", 5, 2_000)).toBe(0);
    // Full: the place taken at t = 0 frees at t = 2,000 ms; a refusal takes nothing.
    expect(await rateLimiter.pace("discord:1", 5, 2_000)).toBe(1_600);
    clock.advance(1_000);
    expect(await rateLimiter.pace("discord:1", 5, 2_000)).toBe(600);
    clock.advance(601);
    expect(await rateLimiter.pace("discord:1", 5, 2_000)).toBe(0);
    expect(await rateLimiter.pace("slack:1", 1, 1_000)).toBe(0);
    expect(await rateLimiter.pace("slack:1", 1, 1_000)).toBe(1_000);
    // Its own names: a pace bucket is not a request budget of the same name.
    expect((await rateLimiter.consume("slack:1", 1, 1)).allowed).toBe(true);
  });
});
