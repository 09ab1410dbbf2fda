/**
 * The real Ingest following a live simulated venue (a test-driven clock, so the world trades on while the
 * backfill runs): the first full sync finishes although the head never stops moving (the demo's case), the live
 * relay rides out a websocket that keeps dropping and the venue's 429s and 5xx, and once the head rests the store
 * holds exactly the ground truth up to the chain checkpoint.
 */
import { describe, expect, it } from "vitest";
import { SOURCES } from "../src/ingest/sources.js";
import { checkpointOf } from "../src/ingest/testing/harness.js";
import { openSimIngest } from "../src/ingest/testing/sim-ingest.js";
import { truthChecksum } from "../src/ingest/testing/sim-truth.js";
import { parseFaults } from "../src/sim/servers/index.js";
import { SMALL_WORLD, closeVenues, smallVenue } from "../src/sim/servers/testing/venues.js";
import { blockAt, blockTimestamp, generateWorld } from "../src/sim/world/index.js";
import { storeChecksum } from "../src/store/checksum.js";
import { realSleep, type RtdsStatus } from "../src/venue/index.js";
import { storeBackends } from "./support/backends.js";

const CONFIRMATIONS = 3;

/** Polls `done` every few ms; the deadline only turns a hang into a failure naming what never happened. */
async function until(what: string, done: () => Promise<boolean> | boolean, deadlineMs = 45_000): Promise<void> {
  for (const end = Date.now() + deadlineMs; !(await done()); ) {
    if (Date.now() > end) throw new Error(`never happened: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const blockOf = (cursor: string | undefined) => Number(/^block:(\d+)$/.exec(cursor ?? "")?.[1] ?? NaN);

describe.each(storeBackends)("ingest following a live simulated venue on $kind", (backend) => {
  it("finishes the first full sync while the head moves, survives a dropping RTDS and 5xx, and stores the ground truth", async () => {
    // A world of its own: live mode appends to it.
    const world = generateWorld({ ...SMALL_WORLD, seed: 2, fills: 6_000 });
    let nowMs = world.end * 1000;
    const venue = await smallVenue({
      world,
      live: { matchesPerSecond: 0.2 },
      clockMs: () => nowMs,
      liveTickMs: 10,
      faults: parseFaults("rtds-disconnect=0.05,rate-limit=0.03,server-error=0.03"),
    });
    const h = await openSimIngest(backend, venue, {
      env: {
        INGEST_CONFIRMATIONS: String(CONFIRMATIONS),
        INGEST_POLL_SECONDS: "1",
        INGEST_MARKETS_INTERVAL_SECONDS: "1",
        INGEST_LIVE_POLL_SECONDS: "1",
      },
      // Pauses (backoff, polling intervals) shortened to at most 10 ms of wall time.
      sleep: (ms, signal) => realSleep(Math.min(ms, 10), signal),
      rtds: { reconnectBaseMs: 5, reconnectMaxMs: 20, pingIntervalMs: 500 },
    });
    const statuses: RtdsStatus[] = [];
    h.clients.rtds.onStatus((status) => void statuses.push(status));
    // The venue's clock runs one block (2 s) per 10 ms.
    const ticker = setInterval(() => (nowMs += 2_000), 10);
    try {
      const headAtStart = blockAt(Math.floor(nowMs / 1000));
      h.ingest.start();
      const synced = async () =>
        (await Promise.all(h.ingest.expectedSources.map((s) => checkpointOf(h.store, s)))).every(
          (c) => c?.first_sync_done === 1,
        );
      await until("the first full sync of every expected source", synced);
      const chain = await checkpointOf(h.store, SOURCES.chain);
      expect(blockOf(chain?.cursor)).toBeGreaterThanOrEqual(headAtStart - CONFIRMATIONS);
      await until("three RTDS reconnections", () => statuses.filter((s) => s === "up").length >= 4);

      clearInterval(ticker);
      const head = blockAt(Math.floor(nowMs / 1000));
      await until(
        "the chain follower at the resting head",
        async () => blockOf((await checkpointOf(h.store, SOURCES.chain))?.cursor) === head - CONFIRMATIONS,
      );
      await h.ingest.stop();
      const expected = truthChecksum(world, { to: blockTimestamp(head - CONFIRMATIONS + 1) });
      expect(await storeChecksum(h.store.db)).toEqual(expected);
      // Live trades arrived after the backfill started: the stored fills go past the world's generated history.
      expect(expected.fills.count).toBeGreaterThan(truthChecksum(world, { to: world.end }).fills.count);
    } finally {
      clearInterval(ticker);
      await h.dispose();
      await closeVenues();
    }
  }, 90_000);
});
