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

describe.each(storeBackends)("the wallets people look at first, synced before ready, on $kind", (backend) => {
  let app: SimApp;
  const counters = (ref: WalletReference) => ({
    wins: ref.closedPositions.filter((p) => p.micro.realizedPnl > 0).length,
    losses: ref.closedPositions.filter((p) => p.micro.realizedPnl < 0).length,
  });
  const refOf = new Map<string, WalletReference>();

  beforeAll(async () => {
    for (const { address, ref } of venueWallets()) refOf.set(address.toLowerCase(), ref);
    // No VENUE_HISTORY_START says where the venue began: no wallet's history is known to be whole, so the ledger's
    // own counters cannot be trusted (though the chain ingest did start on the venue's first day).
    app = await openSimApp(backend, venue, {
      env: { RATE_FREE_PER_MINUTE: "100000" },
      // A quarter of them per list: Smart Money, the P&L, volume and trades boards. Smart Money's bar is sized to a
      // world of 60 markets.
      ingestEnv: { INGEST_READY_WALLETS: "200", SMART_MIN_RESOLVED_MARKETS: "3" },
    });
  }, 240_000);
  afterAll(async () => app?.close());

  const stats = async (address: string) =>
    (await app.t.app.inject(`/api/v2/wallet/${address}`)).json().stats as {
      wins: number;
      losses: number;
      win_source: string;
    };

  it("answer the venue's closed-positions counters on the first request after ready: Smart Money and the P&L, volume and trades boards' first pages", async () => {
    const health = (await app.t.app.inject("/api/v1/health")).json();
    expect(health.ready).toBe(true);
    const board = async (query: string) =>
      (await app.t.app.inject(`/api/v2/whales/leaderboard?min_markets=0&limit=50&${query}`)).json().whales as Array<{
        wallet: string;
      }>;
    const smart = await board("filter=smart");
    const byPnl = await board("filter=all&sort=pnl");
    const byVolume = await board("filter=all&sort=volume");
    const byTrades = await board("filter=all&sort=trades");
    for (const list of [byPnl, byVolume, byTrades]) expect(list.length).toBe(50);
    expect(smart.length).toBeGreaterThan(10);
    const listed = [...new Set([...smart, ...byPnl, ...byVolume, ...byTrades].map((w) => w.wallet))];
    const mismatches: string[] = [];
    for (const wallet of listed) {
      const s = await stats(wallet);
      const venueCounts = counters(refOf.get(wallet)!);
      if (s.win_source === "market" || s.wins !== venueCounts.wins || s.losses !== venueCounts.losses)
        mismatches.push(
          `${wallet}: ${s.win_source} ${s.wins}/${s.losses}, venue ${venueCounts.wins}/${venueCounts.losses}`,
        );
    }
    expect(mismatches).toEqual([]);
  });

  it("a wallet answered from the per-market fallback says so, and its synced counters replace the kept answer at once", async () => {
    const synced = new Set(
      (await app.t.store.db.selectFrom("wallet_sync").select("wallet").execute()).map((r) => r.wallet),
    );
    expect(synced.size).toBeGreaterThan(50);
    expect(synced.size).toBeLessThanOrEqual(200);
    // An unlisted wallet whose fallback disagrees with the venue: what a first answer could get wrong.
    let chosen: string | undefined;
    for (const [wallet, ref] of refOf) {
      if (synced.has(wallet) || ref.closedPositions.length < 5) continue;
      const s = await stats(wallet);
      const venueCounts = counters(ref);
      if (s.win_source === "market" && (s.wins !== venueCounts.wins || s.losses !== venueCounts.losses)) {
        chosen = wallet;
        break;
      }
    }
    expect(chosen).toBeDefined();
    const wallet = chosen!;
    await app.h.ingest.wallets.request(wallet);
    await app.deriver.refresh();
    // Past the moment an API process looks at the statistics' stamp again, well inside the overview's window.
    app.t.clock.advance((app.t.config.boards.leaderboardCheckSeconds + 1) * 1000);
    expect(app.t.config.wallet.overviewCacheSeconds).toBeGreaterThan(app.t.config.boards.leaderboardCheckSeconds + 1);
    const after = await stats(wallet);
    const venueCounts = counters(refOf.get(wallet)!);
    expect(after.win_source).not.toBe("market");
    expect({ wins: after.wins, losses: after.losses }).toEqual(venueCounts);
  });
});
