/**
 * The wallet figures equal the venue's own, end to end: the real Ingest reads the whole simulated venue (live trading
 * paused), the Deriver follows its batches, every wallet is synced through the sync queue, and the API answers. The
 * expectations are the simulated venue's own numbers by its reference method (src/sim/world/reference-pnl.ts,
 * served by src/sim/servers/wallet-data.ts): its closed-positions counters as its UI shows them (every closed
 * position, never a truncated page), its `/positions` in micro-units, the last point of its P&L curve.
 */
import { AT, withinRounding } from "./support/served-numbers.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SimVenue } from "../src/sim/servers/index.js";
import { SMALL_WORLD, closeVenues, smallVenue } from "../src/sim/servers/testing/venues.js";
import type { WalletReference } from "../src/sim/world/index.js";
import type { TestApp } from "./support/app.js";
import { openSimApp, type SimApp } from "./support/sim-app.js";
import { storeBackends } from "./support/backends.js";

const MICRO = 1_000_000;
let venue: SimVenue;

beforeAll(async () => {
  venue = await smallVenue({ worldOptions: { ...SMALL_WORLD, seed: 3 } });
}, 60_000);
afterAll(closeVenues);

/** The wallets that traded, with the venue's numbers for each as of its (paused) clock. */
function venueWallets(): Array<{ address: string; ref: WalletReference }> {
  return venue.world.wallets
    .filter((w) => venue.world.fillsOfWallet(w.index).length > 0)
    .map((w) => ({ address: w.proxyWallet, ref: venue.state.reference(w.index) }));
}

describe.each(storeBackends)("wallet figures against the venue's own, on $kind", (backend) => {
  let app: SimApp;
  let t: TestApp;

  beforeAll(async () => {
    app = await openSimApp(backend, venue, {
      env: { RATE_FREE_PER_MINUTE: "100000" },
      // Every wallet's first view queues its sync; here the queue is asked directly, for all at once.
      beforeRefresh: async (h) =>
        void (await Promise.all(venueWallets().map(({ address }) => h.ingest.wallets.request(address)))),
    });
    t = app.t;
  }, 240_000);
  afterAll(async () => app?.close());

  const overview = async (address: string) => (await t.app.inject(`/api/v2/wallet/${address}`)).json();

  it("wins and losses equal the venue's closed-positions counters, for every wallet, from the ledger's own list", async () => {
    const wallets = venueWallets();
    expect(wallets.length).toBeGreaterThan(300);
    const mismatches: string[] = [];
    for (const { address, ref } of wallets) {
      const wins = ref.closedPositions.filter((p) => p.micro.realizedPnl > 0).length;
      const losses = ref.closedPositions.filter((p) => p.micro.realizedPnl < 0).length;
      const { stats, overview: o } = await overview(address);
      if (
        stats.win_source !== "ledger" ||
        stats.wins !== wins ||
        stats.losses !== losses ||
        o.closed_count !== wins + losses
      ) {
        mismatches.push(`${address}: ${stats.win_source} ${stats.wins}/${stats.losses}, venue ${wins}/${losses}`);
      }
    }
    expect(mismatches).toEqual([]);
    // A world where the counters say something: wallets with many closed positions, wins and losses both.
    expect(wallets.filter(({ ref }) => ref.closedPositions.length >= 20).length).toBeGreaterThan(5);
  });

  it("total_pnl is the last point of the venue's P&L curve, for every synced wallet", async () => {
    const mismatches: string[] = [];
    for (const { address, ref } of venueWallets()) {
      const { stats } = await overview(address);
      const last = ref.curve.at(-1)!.p;
      // Served in whole cents.
      if (stats.total_pnl_source !== "venue" || !withinRounding(stats.total_pnl, last, AT.usd))
        mismatches.push(`${address}: ${stats.total_pnl_source} ${stats.total_pnl} against ${last}`);
    }
    expect(mismatches).toEqual([]);
  });

  it("open positions equal the venue's /positions to the micro-unit in size, and in average price as served (4 decimals)", async () => {
    const mismatches: string[] = [];
    let compared = 0;
    for (const { address, ref } of venueWallets()) {
      const expected = ref.positions.filter((p) => !p.redeemable);
      const body = (await t.app.inject(`/api/v2/wallet/${address}/positions?limit=500`)).json();
      const served = new Map(
        (body.positions as Array<{ token_id: string; tokens: number; avg_entry: number }>).map((p) => [p.token_id, p]),
      );
      compared += expected.length;
      const same = expected.every((p) => {
        const mine = served.get(venue.world.tokenId(p.token));
        return (
          mine !== undefined &&
          Math.round(mine.tokens * MICRO) === p.micro.amount &&
          withinRounding(mine.avg_entry, p.micro.avgPrice / MICRO, AT.price)
        );
      });
      if (!same || served.size !== expected.length)
        mismatches.push(`${address}: ${served.size} served, ${expected.length} on the venue`);
    }
    expect(mismatches).toEqual([]);
    expect(compared).toBeGreaterThan(500);
  });
});

describe.each(storeBackends)("wins and losses from the first answer, on $kind", (backend) => {
  let app: SimApp;

  beforeAll(async () => {
    // The chain ingest starts on the venue's first day: every wallet's history is whole before any sync.
    const first = new Date(venue.world.start * 1000).toISOString().slice(0, 10);
    app = await openSimApp(backend, venue, {
      env: { RATE_FREE_PER_MINUTE: "100000" },
      ingestEnv: { VENUE_HISTORY_START: first },
    });
  }, 240_000);
  afterAll(async () => app?.close());

  it("equal the venue's closed-positions counters for every wallet right after ingest, no wallet synced", async () => {
    expect(await app.t.store.db.selectFrom("wallet_sync").select("wallet").execute()).toEqual([]);
    const mismatches: string[] = [];
    for (const { address, ref } of venueWallets()) {
      const wins = ref.closedPositions.filter((p) => p.micro.realizedPnl > 0).length;
      const losses = ref.closedPositions.filter((p) => p.micro.realizedPnl < 0).length;
      const { stats } = (await app.t.app.inject(`/api/v2/wallet/${address}`)).json();
      if (stats.win_source !== "ledger" || stats.wins !== wins || stats.losses !== losses)
        mismatches.push(`${address}: ${stats.win_source} ${stats.wins}/${stats.losses}, venue ${wins}/${losses}`);
    }
    expect(mismatches).toEqual([]);
  });
});
