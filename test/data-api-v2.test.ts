/**
 * The real Ingest against a simulated venue whose Data API's first version is retired (its lists answer 410), on
 * every store backend: the fills from `/trades` (no RPC: the Data API pipeline) and the wallets' syncs (positions,
 * closed positions, activity) are read from the second version, and the store holds exactly what the same ingest
 * stores from a venue that still serves the first.
 */
import { afterAll, describe, expect, it } from "vitest";
import { openSimIngest, type SimIngestHarness } from "../src/ingest/testing/sim-ingest.js";
import type { SimVenue } from "../src/sim/servers/index.js";
import { SMALL_WORLD, closeVenues, smallVenue } from "../src/sim/servers/testing/venues.js";
import { generateWorld } from "../src/sim/world/index.js";
import { storeChecksum } from "../src/store/checksum.js";
import type { VenueHttpEvent } from "../src/venue/index.js";
import { storeBackends, type StoreBackend } from "./support/backends.js";

afterAll(closeVenues);

const world = generateWorld({ ...SMALL_WORLD, seed: 6, fills: 3_000 });

/** What the ingest stores of the venue: fills and activity (checksums) and each synced wallet's venue cache. */
async function stored(h: SimIngestHarness, wallets: readonly string[]) {
  const db = h.store.db;
  // Each row as stored, but the instant it was written (the wall clock of each run).
  const cache = async (table: "venue_positions" | "venue_closed_positions") =>
    (
      await db
        .selectFrom(table)
        .selectAll()
        .where("wallet", "in", wallets)
        .orderBy("wallet")
        .orderBy("token_id")
        .execute()
    ).map(({ synced_at: _at, ...row }) => row);
  const syncs = await db
    .selectFrom("wallet_sync")
    .select(["wallet", "positions_count", "closed_positions_count", "activity_count", "venue_history_from"])
    .orderBy("wallet")
    .execute();
  return {
    checksum: await storeChecksum(db),
    positions: await cache("venue_positions"),
    closed: await cache("venue_closed_positions"),
    syncs,
  };
}

async function ingestAll(backend: StoreBackend, venue: SimVenue, events: VenueHttpEvent[], wallets: readonly string[]) {
  // No RPC: fills come from the Data API's trades.
  const h = await openSimIngest(backend, venue, {
    env: { VENUE_RPC_URL: "" },
    http: { onEvent: (event) => void events.push(event) },
  });
  try {
    await h.ingest.runUntilCaughtUp();
    for (const wallet of wallets) await h.ingest.wallets.request(wallet);
    return await stored(h, wallets);
  } finally {
    await h.dispose();
  }
}

describe.each(storeBackends)("a retired Data API version, on $kind", (backend) => {
  it("reads the second version and stores exactly what the first gives", async () => {
    const wallets = [...world.wallets]
      .sort((a, b) => world.fillsOfWallet(b.index).length - world.fillsOfWallet(a.index).length)
      .slice(0, 4)
      .map((w) => w.proxyWallet);
    const firstEvents: VenueHttpEvent[] = [];
    const secondEvents: VenueHttpEvent[] = [];
    const first = await ingestAll(backend, await smallVenue({ world }), firstEvents, wallets);
    const second = await ingestAll(
      backend,
      await smallVenue({ world, dataApi: { v1: "gone" } }),
      secondEvents,
      wallets,
    );
    expect(first.checksum.fills.count).toBeGreaterThan(1_000);
    expect(first.closed.length + first.positions.length).toBeGreaterThan(0);
    expect(first.syncs).toHaveLength(wallets.length);
    expect(second).toEqual(first);
    expect(firstEvents.filter((e) => e.type === "version")).toEqual([]);
    // Each client of the ingest (the trades pipeline's, the wallet syncs') moved once.
    const moves = secondEvents.filter((e) => e.type === "version");
    expect(moves.length).toBeGreaterThan(0);
    expect(moves.every((e) => e.type === "version" && e.from === "v1" && e.to === "v2" && e.status === 410)).toBe(true);
  }, 120_000);
});
