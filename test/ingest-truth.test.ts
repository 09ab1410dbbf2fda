/**
 * The real Ingest against the simulated venue, on every store backend: the store ends up holding exactly the
 * simulation's ground truth (fills, splits, merges, conversions, redemptions, resolutions; count and checksum,
 * computed from the world by src/ingest/testing/sim-truth.ts), across the V1 to V2 cutover, and still does with
 * the venue's faults switched on (429s, 5xx).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SOURCES } from "../src/ingest/sources.js";
import { checkpointOf } from "../src/ingest/testing/harness.js";
import { openSimIngest } from "../src/ingest/testing/sim-ingest.js";
import { truthChecksum } from "../src/ingest/testing/sim-truth.js";
import { parseFaults, truthFills, truthOperations, type SimVenue } from "../src/sim/servers/index.js";
import { SMALL_WORLD, closeVenues, smallVenue } from "../src/sim/servers/testing/venues.js";
import { V2_CUTOVER_TS } from "../src/sim/world/index.js";
import { storeChecksum, type StoreChecksum } from "../src/store/checksum.js";
import type { VenueHttpEvent } from "../src/venue/index.js";
import { describeLocal, storeBackends } from "./support/backends.js";

let venue: SimVenue;
let truth: StoreChecksum;

beforeAll(async () => {
  // Seed 2: 60 days to 2026-06-01 with NegRisk conversions both with and without the adapter's fee.
  venue = await smallVenue({ worldOptions: { ...SMALL_WORLD, seed: 2 } });
  truth = truthChecksum(venue.world);
});
afterAll(closeVenues);

describeLocal("the simulated world of these tests", () => {
  it("spans the cutover and holds every kind of record, conversions with and without a fee included", () => {
    const fills = [...truthFills(venue.world)];
    expect(fills.some((f) => f.ts < V2_CUTOVER_TS && f.exchangeVersion === "v1")).toBe(true);
    expect(fills.some((f) => f.ts >= V2_CUTOVER_TS && f.exchangeVersion === "v2")).toBe(true);
    const ops = [...truthOperations(venue.world)];
    for (const type of ["SPLIT", "MERGE", "CONVERSION", "REDEEM"] as const)
      expect(ops.some((o) => o.type === type)).toBe(true);
    const conversions = ops.filter((o) => o.type === "CONVERSION");
    expect(conversions.some((o) => o.feeMicro > 0) && conversions.some((o) => o.feeMicro === 0)).toBe(true);
    expect(truth.fills.count).toBe(fills.length);
    expect(truth.activity.count).toBe(ops.length);
    expect(truth.resolutions.count).toBeGreaterThan(0);
  });
});

describe.each(storeBackends)("ingest of the simulated venue on $kind", (backend) => {
  it("stores exactly the ground truth: fills, conversions, splits, merges, redemptions and resolutions", async () => {
    const h = await openSimIngest(backend, venue);
    try {
      await h.ingest.runUntilCaughtUp();
      expect(await storeChecksum(h.store.db)).toEqual(truth);
      for (const source of h.ingest.expectedSources)
        expect(await checkpointOf(h.store, source)).toMatchObject({ first_sync_done: 1, errors: 0 });
      expect(h.ingest.expectedSources).toEqual([SOURCES.markets, SOURCES.chain]);
      expect(h.logs).toEqual([]);
    } finally {
      await h.dispose();
    }
  }, 60_000);

  it("stores exactly the ground truth with chain logs read on a worker thread, as deployed", async () => {
    const h = await openSimIngest(backend, venue, { readThread: true });
    try {
      await h.ingest.runUntilCaughtUp();
      expect(await storeChecksum(h.store.db)).toEqual(truth);
      expect(await checkpointOf(h.store, SOURCES.chain)).toMatchObject({ first_sync_done: 1, errors: 0 });
      expect(h.logs).toEqual([]);
    } finally {
      await h.dispose();
    }
  }, 60_000);

  it("converges to the same store with 429s and 5xx on every venue host", async () => {
    const faulty = await smallVenue({ world: venue.world, faults: parseFaults("rate-limit=0.15,server-error=0.1") });
    const retries: VenueHttpEvent[] = [];
    // Two attempts per request: a request fails for good often enough that whole steps fail and are redone (one
    // in 18 requests; ranges of 20,000 blocks make about 130 log requests, so that none failing is out of reach).
    const h = await openSimIngest(backend, faulty, {
      http: { maxAttempts: 2, onEvent: (e) => void retries.push(e) },
      env: { INGEST_BLOCK_SPAN: "20000" },
    });
    try {
      await h.ingest.runUntilCaughtUp();
      expect(await storeChecksum(h.store.db)).toEqual(truth);
      const statuses = new Set(retries.map((e) => e.status));
      expect(statuses.has(429) && [500, 502, 503].some((s) => statuses.has(s))).toBe(true);
      expect(retries.some((e) => e.client === "rpc")).toBe(true);
      // Steps that failed were counted on their source, and redone.
      const errors = (await checkpointOf(h.store, SOURCES.chain))?.errors ?? 0;
      expect(errors + ((await checkpointOf(h.store, SOURCES.markets))?.errors ?? 0)).toBeGreaterThan(0);
    } finally {
      await h.dispose();
    }
  }, 60_000);
});
