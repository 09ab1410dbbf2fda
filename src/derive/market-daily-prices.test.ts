import { afterEach, describe, expect, it } from "vitest";
import { storeBackends } from "../../test/support/backends.js";
import { dailyPriceHistory, type PricePoint } from "../analytics/markets/market-detail.js";
import { loadConfig } from "../config/index.js";
import { ManualClock } from "../platform/clock.js";
import { createLogger } from "../platform/logger.js";
import { smallWorld } from "../sim/world/testing/worlds.js";
import type { Store } from "../store/database.js";
import { deleteAll } from "../store/derived-tables.js";
import { insertFills, type NewFill } from "../store/fills.js";
import { fillMarketDailyPricesFromFills } from "../store/market-daily-prices.js";
import { fillWalletDailyFillsFromFills } from "../store/wallet-daily-fills.js";
import { Deriver } from "./deriver.js";
import { MarketDailyPriceSums } from "./market-daily-prices.js";
import { deriveFromStore, derivedTables, rebuild, writeDerivedTables } from "./rebuild.js";
import { WalletDailyFillSums } from "./wallet-daily-fills.js";
import { deriveConfig, loadWorld, worldFillRows } from "./testing/stored-world.js";

const world = smallWorld(11);

/** The price history of every market, computed here from the fills in (ts, id) order, as the endpoint defines it. */
async function replay(store: Store): Promise<Map<string, PricePoint[]>> {
  const fills = await store.db
    .selectFrom("fills")
    .select(["condition_id", "role", "ts", "outcome_index", "price", "size", "usd"])
    .orderBy("ts")
    .orderBy("id")
    .execute();
  const days = new Map<
    string,
    Map<number, { weighted: number; shares: number; close: number; n: number; usd: number }>
  >();
  for (const f of fills) {
    if (f.role === "maker") continue;
    const ts = Number(f.ts);
    const t = Math.floor(ts / 86_400) * 86_400;
    const yes = Number(f.outcome_index) === 0 ? Number(f.price) : 1 - Number(f.price);
    const market = days.get(f.condition_id) ?? new Map();
    days.set(f.condition_id, market);
    const d = market.get(t) ?? { weighted: 0, shares: 0, close: yes, n: 0, usd: 0 };
    market.set(t, d);
    d.weighted += yes * Number(f.size);
    d.shares += Number(f.size);
    d.close = yes;
    d.n += 1;
    d.usd += Number(f.usd);
  }
  return new Map(
    [...days].map(([market, byDay]) => [
      market,
      [...byDay]
        .sort(([a], [b]) => a - b)
        .map(([t, d]) => ({
          t,
          date: new Date(t * 1000).toISOString().slice(0, 10),
          vwap_yes: d.shares > 0 ? d.weighted / d.shares : d.close,
          close_yes: d.close,
          trades: d.n,
          volume: d.usd / 1e6,
        })),
    ]),
  );
}

/**
 * Every market's history as served equals the replay's: the same days, closes, trades and volumes; the VWAP to
 * 1e-12 (its sums are added in another order than the replay's, which moves the last bits of a double).
 */
async function expectHistoriesAsReplayed(store: Store): Promise<void> {
  const expected = await replay(store);
  expect(expected.size).toBeGreaterThan(10);
  for (const [market, points] of expected) {
    const served = await dailyPriceHistory(store, market);
    expect(
      served.map(({ vwap_yes, ...rest }) => rest),
      market,
    ).toEqual(points.map(({ vwap_yes, ...rest }) => rest));
    served.forEach((p, i) => expect(Math.abs(p.vwap_yes - points[i]!.vwap_yes), market).toBeLessThan(1e-12));
  }
  const listed = await store.db.selectFrom("market_daily_prices").select("condition_id").distinct().execute();
  expect(listed.length).toBe(expected.size);
}

/** Fills of the model's market on one second, taker, unknown role and maker (the maker last: it is not the close). */
function sameSecond(model: NewFill, ts: number, tag: string): NewFill[] {
  return (["taker", null, "maker"] as const).map((role, i) => ({
    ...model,
    fill_key: `test:prices:${tag}:${i}`,
    source: "data_api",
    log_index: null,
    block_number: null,
    role,
    price: 0.2 + 0.1 * i,
    size: 5_000_000 + i,
    usd: Math.round((0.2 + 0.1 * i) * (5_000_000 + i)),
    ts,
  }));
}

describe.each(storeBackends)("market_daily_prices on $kind", (backend) => {
  const disposers: Array<() => Promise<void>> = [];
  afterEach(async () => {
    while (disposers.length) await disposers.pop()!();
  });

  /** The world stored, and the same-second fills on its first fill's day's last second. */
  async function worldWithSameSecond(tag: string) {
    const { store, dispose } = await backend.open();
    disposers.push(dispose);
    const clock = new ManualClock((world.end + 3_600) * 1000);
    await loadWorld(store, world, { updatedAt: clock.now() });
    const model = worldFillRows(world).next().value as NewFill;
    const lastSecond = model.ts - (model.ts % 86_400) + 86_399;
    await store.transaction((tx) => insertFills(tx, sameSecond(model, lastSecond, tag)));
    return { store, clock, model, lastSecond };
  }

  it("serves each market's daily price history as a replay of its fills, whether rebuild or the migration fills the table", async () => {
    const { store, clock, model, lastSecond } = await worldWithSameSecond("rebuild");

    await rebuild(store, deriveConfig(), clock);
    await expectHistoriesAsReplayed(store);
    const day = (await dailyPriceHistory(store, model.condition_id)).find((p) => p.t === lastSecond - 86_399)!;
    // The unknown role's fill, stored after the taker's on the same second; the maker's does not count.
    expect(day.close_yes).toBe(model.outcome_index === 0 ? 0.30000000000000004 : 1 - 0.30000000000000004);

    await store.transaction((tx) => deleteAll(tx, "market_daily_prices"));
    await fillMarketDailyPricesFromFills(store.db);
    await expectHistoriesAsReplayed(store);
  });

  it("writes the same sums when a warm start's watermark splits the fills: SQL up to it, the replay's sums after it", async () => {
    const { store, clock, model, lastSecond } = await worldWithSameSecond("split");
    // The watermark falls between the taker's fill and the unknown role's, which closes the day.
    const taker = await store.db
      .selectFrom("fills")
      .select("id")
      .where("fill_key", "=", "test:prices:split:0")
      .executeTakeFirstOrThrow();
    const watermark = Number(taker.id);
    const derived = await deriveFromStore(store, deriveConfig(), clock.now());
    const tables = await derivedTables(store, derived, clock.now());
    const after = await store.db.selectFrom("fills").selectAll().where("id", ">", watermark).execute();
    expect(after.length).toBe(2);
    const walletDays = new WalletDailyFillSums();
    const prices = new MarketDailyPriceSums();
    for (const f of after) {
      const fill = { ...f, ts: Number(f.ts), usd: Number(f.usd), price: Number(f.price), size: Number(f.size) };
      walletDays.add(fill);
      prices.add({ ...fill, outcome_index: Number(f.outcome_index) }, Number(f.id));
    }
    await writeDerivedTables(
      store,
      {
        ...tables,
        fillTablesInSqlThrough: watermark,
        walletDailyFills: walletDays.rows(),
        marketDailyPrices: prices.rows(),
      },
      derived.snapshots,
    );

    await expectHistoriesAsReplayed(store);
    const day = (await dailyPriceHistory(store, model.condition_id)).find((p) => p.t === lastSecond - 86_399)!;
    expect(day.close_yes).toBe(model.outcome_index === 0 ? 0.30000000000000004 : 1 - 0.30000000000000004);
    const walletRows = async () =>
      (await store.db.selectFrom("wallet_daily_fills").selectAll().orderBy(["wallet", "day"]).execute()).map((r) =>
        [r.wallet, r.day, r.fills, r.usd].map(Number).join(" "),
      );
    const written = await walletRows();
    await fillWalletDailyFillsFromFills(store.db, store.kind);
    expect(written).toEqual(await walletRows());
  });

  it("shows a new fill in its market's price history once the Deriver applies its batch", async () => {
    const { store, dispose } = await backend.open();
    disposers.push(dispose);
    const clock = new ManualClock((world.end + 600) * 1000);
    await loadWorld(store, world, { updatedAt: clock.now() });
    const deriver = new Deriver({ store, config: loadConfig({}), clock, logger: createLogger("silent") });
    disposers.push(async () => deriver.stop());
    await deriver.start();

    const [model] = worldFillRows(world, { from: world.end - 86_400 });
    const before = await dailyPriceHistory(store, model!.condition_id);
    const fills = sameSecond(model!, world.end - 60, "batch");
    const stored = await store.transaction((tx) => insertFills(tx, fills));
    expect(await dailyPriceHistory(store, model!.condition_id)).toEqual(before);
    await deriver.onCommitted({ fills: stored, activity: [], resolutions: [] });
    await deriver.idle();

    const after = await dailyPriceHistory(store, model!.condition_id);
    const today = after.at(-1)!;
    expect(today.t).toBe(world.end - 60 - ((world.end - 60) % 86_400));
    const was = before.find((p) => p.t === today.t);
    expect(today.trades).toBe((was?.trades ?? 0) + 2);
    expect(today.close_yes).toBe(model!.outcome_index === 0 ? 0.30000000000000004 : 1 - 0.30000000000000004);
    await expectHistoriesAsReplayed(store);

    // A late fill, a minute before the day's close: counted in the day, the close unchanged.
    const [late] = sameSecond(model!, world.end - 120, "late");
    expect(late!.ts - (late!.ts % 86_400)).toBe(today.t);
    const lateStored = await store.transaction((tx) => insertFills(tx, [{ ...late!, price: 0.9 }]));
    await deriver.onCommitted({ fills: lateStored, activity: [], resolutions: [] });
    await deriver.idle();
    const withLate = (await dailyPriceHistory(store, model!.condition_id)).at(-1)!;
    expect(withLate.trades).toBe(today.trades + 1);
    expect(withLate.close_yes).toBe(today.close_yes);
    await expectHistoriesAsReplayed(store);
  });
});
