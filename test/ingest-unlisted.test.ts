/**
 * A new market's listing can lag its first trades: Gamma lists a few markets of the simulated venue only after
 * the whole chain is read. Their fills, splits, merges, redemptions and resolutions wait in the store meanwhile
 * (health counts them), and all arrive once Gamma lists the markets: the store then holds exactly the ground truth.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SOURCES } from "../src/ingest/sources.js";
import { checkpointOf } from "../src/ingest/testing/harness.js";
import { openSimIngest } from "../src/ingest/testing/sim-ingest.js";
import { truthChecksum } from "../src/ingest/testing/sim-truth.js";
import { truthFills, truthOperations, type SimVenue } from "../src/sim/servers/index.js";
import { SMALL_WORLD, closeVenues, smallVenue } from "../src/sim/servers/testing/venues.js";
import { storeChecksum, type StoreChecksum } from "../src/store/checksum.js";
import { countHeldRecords } from "../src/store/unlisted-records.js";
import { storeBackends } from "./support/backends.js";

let venue: SimVenue;
let truth: StoreChecksum;
/** Condition ids of the markets Gamma lists late: the three whose first fill comes earliest. */
let late: Set<string>;

beforeAll(async () => {
  venue = await smallVenue({ worldOptions: { ...SMALL_WORLD, seed: 2 } });
  truth = truthChecksum(venue.world);
  const firstFill = new Map<string, number>();
  for (const f of truthFills(venue.world)) if (!firstFill.has(f.conditionId)) firstFill.set(f.conditionId, f.ts);
  late = new Set(
    [...firstFill]
      .sort((a, b) => a[1] - b[1])
      .slice(0, 3)
      .map(([conditionId]) => conditionId),
  );
}, 60_000);
afterAll(closeVenues);

describe.each(storeBackends)("markets Gamma lists after their first trades, on $kind", (backend) => {
  it("holds their records until Gamma lists them, then stores every one: exactly the ground truth", async () => {
    const markets = venue.world.markets.filter((m) => late.has(m.conditionId));
    for (const m of markets) venue.state.unlisted.add(m.index);
    const h = await openSimIngest(backend, venue, { env: { INGEST_UNLISTED_RECHECK_SECONDS: "0" } });
    try {
      await h.ingest.runUntilCaughtUp();
      const fillsOfLate = [...truthFills(venue.world)].filter((f) => late.has(f.conditionId)).length;
      const opsOfLate = [...truthOperations(venue.world)].filter(
        (o) => o.type !== "CONVERSION" && o.conditionId !== null && late.has(o.conditionId),
      ).length;
      expect(fillsOfLate).toBeGreaterThan(0);
      const stored = await storeChecksum(h.store.db);
      expect(stored.fills.count).toBe(truth.fills.count - fillsOfLate);
      // The fills and the splits, merges and redemptions of the unlisted markets wait (their resolutions too).
      expect(await countHeldRecords(h.store.db)).toBeGreaterThanOrEqual(fillsOfLate + opsOfLate);
      // Waiting is not an error: nothing was skipped, and the chain's first sync is done.
      expect(await checkpointOf(h.store, SOURCES.chain)).toMatchObject({ first_sync_done: 1, errors: 0 });

      for (const m of markets) venue.state.unlisted.delete(m.index);
      await h.ingest.runUntilCaughtUp();
      expect(await storeChecksum(h.store.db)).toEqual(truth);
      expect(await countHeldRecords(h.store.db)).toBe(0);
      expect(h.logs.filter((l) => l.level !== 30)).toEqual([]);
    } finally {
      for (const m of markets) venue.state.unlisted.delete(m.index);
      await h.dispose();
    }
  }, 120_000);
});
