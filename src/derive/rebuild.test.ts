import type { Kysely } from "kysely";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { storeBackends } from "../../test/support/backends.js";
import { ManualClock } from "../platform/clock.js";
import { referencePnl } from "../sim/world/index.js";
import { smallWorld } from "../sim/world/testing/worlds.js";
import type { Store } from "../store/database.js";
import { replaceVenueClosedPositions } from "../store/wallet-cache.js";
import { storedPnlPoints } from "../store/testing/pnl-points.js";
import { backfillBoardExtras } from "../store/migrations/0005_board_extras.js";
import { countSettlementsFromFills } from "../store/migrations/0022_market_settlement_counts.js";
import { dayStart, derivedTables, deriveFromStore, rebuild, writeDerivedTables } from "./rebuild.js";
import { HOUR, firstKeptBoundary } from "./hourly-points.js";
import { deriveConfig, loadVenueCache, loadWorld, worldFillRows } from "./testing/stored-world.js";
import { loadWalletInputs, loadWashLegs, replayRingVolumes } from "./wallet-inputs.js";
import { WashLegs, ringShare } from "./wash-legs.js";

const world = smallWorld(11);
const config = deriveConfig();
/** An hour after the world's end, so that everything it holds is as of its end. */
const clock = new ManualClock((world.end + 3_600) * 1000);

describe.each(storeBackends)("rebuild on $kind", (backend) => {
  const disposers: Array<() => Promise<void>> = [];
  afterEach(async () => {
    while (disposers.length) await disposers.pop()!();
  });
  async function loaded(options: { venueCache?: boolean } = {}): Promise<Store> {
    const { store, dispose } = await backend.open();
    disposers.push(dispose);
    await loadWorld(store, world);
    if (options.venueCache) await loadVenueCache(store, world);
    return store;
  }
  /** The world loaded and rebuilt once, for the tests that only read what the rebuild wrote. */
  let shared: Promise<{ store: Store; dispose(): Promise<void>; asOf: number }> | undefined;
  afterAll(async () => (await shared)?.dispose());
  async function rebuiltToRead(): Promise<{ store: Store; asOf: number }> {
    shared ??= (async () => {
      const opened = await backend.open();
      await loadWorld(opened.store, world);
      const { asOf } = await rebuild(opened.store, config, clock);
      return { ...opened, asOf };
    })();
    return shared;
  }

  it("gives every position the venue's average price and realized P&L, to the micro-unit", async () => {
    const { store } = await rebuiltToRead();
    const rows = await store.db.selectFrom("positions").selectAll().execute();
    const byKey = new Map(rows.map((row) => [`${row.wallet}/${row.token_id}`, row]));
    let compared = 0;
    let unredeemedLosers = 0;
    for (const wallet of world.wallets) {
      const reference = referencePnl(world, wallet.index);
      for (const p of [...reference.positions, ...reference.closedPositions]) {
        const row = byKey.get(`${wallet.proxyWallet}/${world.tokenId(p.token)}`);
        expect(row, `${wallet.proxyWallet} ${p.token}`).toBeDefined();
        expect(Math.round(row!.avg_price * 1e6)).toBe(p.micro.avgPrice);
        expect(row!.total_bought).toBe(p.micro.totalBought);
        // The venue keeps an unredeemed loser open at its cost; the ledger closes it at 0 (docs/METRICS.md), realizing the loss.
        const unredeemedLoser = row!.shares === 0 && p.micro.amount > 0;
        if (unredeemedLoser) unredeemedLosers++;
        else expect(row!.shares).toBe(p.micro.amount);
        expect(row!.realized_pnl).toBe(
          unredeemedLoser
            ? p.micro.realizedPnl + Math.trunc((p.micro.amount * -p.micro.avgPrice) / 1e6)
            : p.micro.realizedPnl,
        );
        compared++;
      }
    }
    expect(compared).toBeGreaterThan(1_000);
    expect(unredeemedLosers).toBeGreaterThan(0);
  });

  it("gives every wallet the wash share of all its fills' legs, whether its rows came in one time range or several", async () => {
    const store = await loaded({ venueCache: true });
    const { derivation, asOf } = await rebuild(store, config, clock);
    const books = derivation.liveBooks();
    const legs = await loadWashLegs(
      store,
      books.map((b) => b.address),
    );
    const inputs = await loadWalletInputs(store, "all", asOf);
    // Wallets with rows in the hourly points' window are streamed in several ranges (their legs summed by the store).
    const windowStart = firstKeptBoundary(clock.now(), config.derive.hourlyPointsDays) - HOUR;
    const recent = new Set([...worldFillRows(world, { from: windowStart })].map((f) => f.wallet));
    let spanning = 0;
    let washed = 0;
    for (const { address, book } of books) {
      const share = derivation.assess(address, inputs(address), asOf)?.farmerMetrics.washRingVolumeShare;
      expect(share, address).toBe(
        ringShare((legs.get(address) ?? new WashLegs()).ringVolume(config.farmer), book.volume),
      );
      if (recent.has(address)) spanning++;
      if ((share ?? 0) > 0) washed++;
    }
    expect(spanning).toBeGreaterThan(10);
    expect(books.length - spanning).toBeGreaterThan(10);
    expect(washed).toBeGreaterThan(0);
    // Every wallet's legs at once (on SQLite, one pass over every fill: they are most of the store's addresses).
    expect(books.length * 2).toBeGreaterThanOrEqual(
      Number(
        (
          await store.db
            .selectFrom("address_ids")
            .select((e) => e.fn.countAll().as("n"))
            .executeTakeFirst()
        )?.n,
      ),
    );
    const together = await replayRingVolumes(
      store,
      books.map((b) => b.address),
      config.farmer,
      config.store.sqliteReplaySortCacheMb,
    );
    for (const { address, book } of books)
      expect(ringShare(together.get(address) ?? null, book.volume), address).toBe(
        ringShare((legs.get(address) ?? new WashLegs()).ringVolume(config.farmer), book.volume),
      );
  });

  it("takes wins and losses from the venue's closed positions when its cache holds the ledger's expected count", async () => {
    const store = await loaded({ venueCache: true });
    // One wallet's cache cut short: below 95% of the expected count, its figures fall back to the per-market metric.
    const truncated = world.wallets
      .map((w) => ({ w, closed: referencePnl(world, w.index).closedPositions }))
      .find(({ closed }) => closed.length >= 10)!;
    const kept = truncated.closed.slice(0, Math.floor(truncated.closed.length * 0.9));
    const tokens = new Set(kept.map((c) => world.tokenId(c.token)));
    const cached = await store.db
      .selectFrom("venue_closed_positions")
      .selectAll()
      .where("wallet", "=", truncated.w.proxyWallet)
      .execute();
    await store.transaction((tx) =>
      replaceVenueClosedPositions(
        tx,
        truncated.w.proxyWallet,
        cached.filter((c) => tokens.has(c.token_id)),
      ),
    );
    await rebuild(store, config, clock);
    const stats = new Map(
      (await store.db.selectFrom("wallet_stats").selectAll().execute()).map((row) => [row.wallet, row]),
    );
    let fromVenue = 0;
    for (const wallet of world.wallets) {
      const row = stats.get(wallet.proxyWallet);
      if (!row) continue;
      const reference = referencePnl(world, wallet.index);
      expect(row.total_pnl).toBeCloseTo(reference.totalPnl, 6);
      if (wallet === truncated.w) {
        expect(row.win_source).toBe("market");
        continue;
      }
      expect(row.win_source).toBe("venue");
      expect(row.wins).toBe(reference.closedPositions.filter((c) => c.micro.realizedPnl > 0).length);
      expect(row.losses).toBe(reference.closedPositions.filter((c) => c.micro.realizedPnl < 0).length);
      fromVenue++;
    }
    expect(fromVenue).toBeGreaterThan(100);
  });

  it("counts each wallet's trades, volume and markets from its fills", async () => {
    const { store } = await rebuiltToRead();
    const expected = await store.db
      .selectFrom("fills")
      .select((eb) => [
        "wallet",
        eb.fn.countAll<number>().as("trades"),
        eb.fn.sum<number>("usd").as("usd"),
        eb.fn.count<number>("condition_id").distinct().as("markets"),
      ])
      .groupBy("wallet")
      .execute();
    const stats = new Map(
      (await store.db.selectFrom("wallet_stats").selectAll().execute()).map((row) => [row.wallet, row]),
    );
    expect(expected.length).toBeGreaterThan(100);
    for (const row of expected) {
      const s = stats.get(row.wallet)!;
      expect(s.total_trades).toBe(Number(row.trades));
      expect(s.total_volume).toBeCloseTo(Number(row.usd) / 1e6, 6);
      expect(s.total_markets).toBe(Number(row.markets));
    }
  });

  it("keeps each wallet's average entry price and 30-day MINT, MERGE, maker and total volume (for the leaderboards)", async () => {
    const { store } = await rebuiltToRead();
    const end = clock.now();
    const fills = await store.db.selectFrom("fills").select(["wallet", "ts", "usd", "entry_type", "role"]).execute();
    const positions = await store.db.selectFrom("positions").select(["wallet", "avg_price", "total_bought"]).execute();
    const stats = await store.db.selectFrom("wallet_stats").selectAll().execute();
    expect(stats.length).toBeGreaterThan(100);
    let withMint = 0;
    let withMerge = 0;
    for (const s of stats) {
      const inside = fills.filter((f) => f.wallet === s.wallet && f.ts > end - 30 * 86_400 && f.ts <= end);
      const usd = (keep: (f: (typeof fills)[number]) => boolean) =>
        inside.filter(keep).reduce((sum, f) => sum + f.usd, 0) / 1e6;
      expect(s.mint_volume_30d).toBeCloseTo(
        usd((f) => f.entry_type === "MINT"),
        6,
      );
      expect(s.merge_volume_30d).toBeCloseTo(
        usd((f) => f.entry_type === "MERGE"),
        6,
      );
      expect(s.maker_volume_30d).toBeCloseTo(
        usd((f) => f.role === "maker"),
        6,
      );
      expect(s.volume_30d).toBeCloseTo(
        usd(() => true),
        6,
      );
      const own = positions.filter((p) => p.wallet === s.wallet);
      const bought = own.reduce((sum, p) => sum + p.total_bought, 0);
      if (bought === 0) expect(s.avg_entry_price).toBeNull();
      else
        expect(s.avg_entry_price).toBeCloseTo(
          own.reduce((sum, p) => sum + p.avg_price * p.total_bought, 0) / bought,
          9,
        );
      if (s.mint_volume_30d > 0) withMint++;
      if (s.merge_volume_30d > 0) withMerge++;
    }
    expect(withMint).toBeGreaterThan(0);
    expect(withMerge).toBeGreaterThan(0);
  });

  it("migration 0005 computes the same figures from the stored positions and fills for a store derived before it", async () => {
    const store = await loaded();
    await rebuild(store, config, clock);
    const columns = [
      "wallet",
      "avg_entry_price",
      "mint_volume_30d",
      "merge_volume_30d",
      "maker_volume_30d",
      "volume_30d",
    ] as const;
    const derived = await store.db.selectFrom("wallet_stats").select(columns).orderBy("wallet").execute();
    await store.db
      .updateTable("wallet_stats")
      .set({ avg_entry_price: null, mint_volume_30d: 0, merge_volume_30d: 0, maker_volume_30d: 0, volume_30d: 0 })
      .execute();
    await backfillBoardExtras(store.db as unknown as Kysely<unknown>);
    const backfilled = await store.db.selectFrom("wallet_stats").select(columns).orderBy("wallet").execute();
    expect(backfilled.map((r) => r.wallet)).toEqual(derived.map((r) => r.wallet));
    derived.forEach((d, i) => {
      const b = backfilled[i]!;
      if (d.avg_entry_price === null) expect(b.avg_entry_price).toBeNull();
      else expect(b.avg_entry_price).toBeCloseTo(d.avg_entry_price, 9);
      for (const c of ["mint_volume_30d", "merge_volume_30d", "maker_volume_30d", "volume_30d"] as const)
        expect(b[c], `${d.wallet} ${c}`).toBeCloseTo(d[c], 6);
    });
    expect(derived.some((d) => d.volume_30d > 0)).toBe(true);
  });

  it("counts market trades and volume as the venue does, once per match at the taker's notional", async () => {
    const { store } = await rebuiltToRead();
    const rows = new Map(
      (await store.db.selectFrom("market_stats").selectAll().execute()).map((row) => [row.condition_id, row]),
    );
    for (const market of world.markets) {
      let trades = 0;
      let volume = 0;
      for (const j of world.matchesOfMarket(market.index)) {
        const taker = world.fill(world.fillsOfMatch(j)[1] - 1);
        trades++;
        volume += taker.usd;
      }
      const row = rows.get(market.conditionId);
      expect(row?.trades ?? 0).toBe(trades);
      expect(row?.volume ?? 0).toBeCloseTo(volume / 1e6, 6);
      if (row)
        expect(row.mint_usd + row.merge_usd + row.complementary_usd + row.unclassified_usd).toBeCloseTo(row.volume, 6);
    }
  });

  it("counts each market's trades by settlement as the fills group them, and migration 0022 counts the same", async () => {
    const store = await loaded();
    await rebuild(store, config, clock);
    const read = async () =>
      (
        await store.db
          .selectFrom("market_stats")
          .select([
            "condition_id",
            "trades",
            "mint_trades",
            "merge_trades",
            "complementary_trades",
            "unclassified_trades",
          ])
          .orderBy("condition_id")
          .execute()
      ).map((r) => Object.values(r).map(String).join(" "));
    const derived = await read();
    const fills = await store.db
      .selectFrom("fills")
      .select(["condition_id", "entry_type", (eb) => eb.fn.countAll<number>().as("n")])
      .where((eb) => eb.or([eb("role", "is", null), eb("role", "<>", "maker")]))
      .groupBy(["condition_id", "entry_type"])
      .execute();
    const expected = new Map<string, number[]>();
    const column = { MINT: 0, MERGE: 1, COMPLEMENTARY: 2 } as Record<string, number>;
    for (const r of fills) {
      const counts = expected.get(r.condition_id) ?? [0, 0, 0, 0];
      counts[r.entry_type === null ? 3 : (column[r.entry_type] ?? 3)]! += Number(r.n);
      expected.set(r.condition_id, counts);
    }
    expect(derived.length).toBeGreaterThan(10);
    const withTrades = derived.filter((row) => row.split(" ")[1] !== "0");
    expect(withTrades).toEqual(
      [...expected]
        .sort(([a], [b]) => (a < b ? -1 : 1))
        .map(([market, c]) => [market, c.reduce((x, y) => x + y, 0), ...c].join(" ")),
    );
    expect(new Set(fills.map((r) => r.entry_type)).size).toBeGreaterThan(2);

    await store.db
      .updateTable("market_stats")
      .set({ mint_trades: 0, merge_trades: 0, complementary_trades: 0, unclassified_trades: 0 })
      .execute();
    await countSettlementsFromFills(store.db);
    expect(await read()).toEqual(derived);
  });

  /** The positions open at 00:00 UTC of `day` by the world's reference ledger: markets where one side's cost reaches the consensus minimum (100 USD), with both of their sides. */
  function referenceSnapshot(day: number): Map<string, number> {
    const expected = new Map<string, number>();
    for (const wallet of world.wallets) {
      const byMarket = new Map<number, Array<{ outcome: number; amount: number; cost: number }>>();
      for (const p of referencePnl(world, wallet.index, day - 1).positions) {
        const market = world.markets[p.market]!;
        if (market.resolvedAt !== null && market.resolvedAt < day) continue;
        const sides = byMarket.get(p.market) ?? [];
        sides.push({
          outcome: p.outcome,
          amount: p.micro.amount,
          cost: (p.micro.amount / 1e6) * (p.micro.avgPrice / 1e6),
        });
        byMarket.set(p.market, sides);
      }
      for (const [m, sides] of byMarket) {
        if (Math.max(...sides.map((side) => side.cost)) < config.whales.consensusMinUsd) continue;
        for (const side of sides)
          expected.set(`${wallet.proxyWallet}/${world.markets[m]!.conditionId}/${side.outcome}`, side.amount);
      }
    }
    return expected;
  }

  async function storedSnapshot(store: Store, day: number): Promise<Map<string, number>> {
    const rows = await store.db.selectFrom("position_snapshots").selectAll().where("day", "=", day).execute();
    const actual = new Map<string, number>();
    for (const row of rows) {
      if (row.yes_shares > 0) actual.set(`${row.wallet}/${row.condition_id}/0`, row.yes_shares);
      if (row.no_shares > 0) actual.set(`${row.wallet}/${row.condition_id}/1`, row.no_shares);
    }
    return actual;
  }

  it("snapshots the positions open at 00:00 UTC of the day, and dates each daily P&L point at its day's end", async () => {
    const { store, asOf } = await rebuiltToRead();
    const expected = referenceSnapshot(dayStart(asOf));
    expect(expected.size).toBeGreaterThan(100);
    expect(await storedSnapshot(store, dayStart(asOf))).toEqual(expected);
    const points = await storedPnlPoints(store, { resolution: "day" });
    expect(points.length).toBeGreaterThan(0);
    expect(points.every((p) => p.t % 86_400 === 0 && p.t <= asOf)).toBe(true);
  });

  it("takes every kept day's snapshot a first derivation lacks, and only the day's own once they are stored", async () => {
    const store = await loaded();
    const { asOf } = await rebuild(store, config, clock);
    const today = dayStart(asOf);
    // Kept: POSITION_SNAPSHOT_DAYS back from the clock's day (which may be after asOf's), up to asOf's day.
    const oldest = dayStart(clock.now()) - config.derive.snapshotDays * 86_400;
    const days = (
      await store.db.selectFrom("position_snapshots").select("day").distinct().orderBy("day").execute()
    ).map((r) => r.day);
    expect(days).toEqual(Array.from({ length: (today - oldest) / 86_400 + 1 }, (_, i) => oldest + i * 86_400));
    expect(days.length).toBeGreaterThan(30);
    for (const day of days)
      expect(await storedSnapshot(store, day), new Date(day * 1000).toISOString()).toEqual(referenceSnapshot(day));
    // A later start finds them stored: the replay takes the day's own snapshot only.
    const again = await deriveFromStore(store, config, clock.now());
    expect(again.snapshots.days).toEqual([today]);
  });

  it("replaces the previous results atomically: a write that fails leaves them as they were", async () => {
    const store = await loaded();
    await rebuild(store, config, clock);
    const before = await store.db.selectFrom("positions").selectAll().orderBy("wallet").orderBy("token_id").execute();
    const derived = await deriveFromStore(store, config, clock.now());
    const tables = await derivedTables(store, derived, clock.now());
    // The last table written holds a row the schema refuses.
    const broken = {
      ...tables,
      positions: () => [...tables.positions()].map((p) => ({ ...p, shares: 0 })),
      pnlPoints: () => [{ wallet: "0x1", resolution: "day" as const, t: 0, pnl: null as unknown as number }],
    };
    await expect(writeDerivedTables(store, broken, derived.snapshots)).rejects.toThrow();
    expect(await store.db.selectFrom("positions").selectAll().orderBy("wallet").orderBy("token_id").execute()).toEqual(
      before,
    );
  });
});
