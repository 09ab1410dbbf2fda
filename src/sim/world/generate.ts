/**
 * generateWorld: catalog, population, the informed layer and audiences first, then the trading history day by day,
 * then the funding of every wallet. Each day's fill budget is spread over the markets trading that day (more toward
 * each market's end), match slots, planned operations and informed bets are put in time order, and the engine
 * replays them, so the columns come out chronological.
 */
import { buildAudience, tradingDays } from "./audience.js";
import { Holdings } from "./books.js";
import { buildCatalog } from "./catalog.js";
import { TradeTables } from "./columns.js";
import { TradingEngine, type SimContext } from "./engine.js";
import { FundingLedger, fundEstablishedWallets } from "./funding.js";
import { freshWallets, planInformed, type InformedPlan } from "./informed.js";
import { InformedTrading } from "./informed-trading.js";
import { Operations } from "./operations.js";
import { buildPopulation } from "./population.js";
import { Rng, seedWords } from "./random.js";
import { DayItems, ITEM_INFORMED_BET, ITEM_MATCH, randomInstant } from "./timeline.js";
import type { ResolvedWorldOptions, WorldOptions } from "./types.js";
import { World } from "./world.js";

const DAY = 86_400;

export const WORLD_DEFAULTS = { markets: 500, wallets: 5_000, fills: 150_000, days: 90 } as const;

export function resolveWorldOptions(options: WorldOptions): ResolvedWorldOptions {
  const markets = options.markets ?? WORLD_DEFAULTS.markets;
  const wallets = options.wallets ?? WORLD_DEFAULTS.wallets;
  const fills = options.fills ?? WORLD_DEFAULTS.fills;
  const days = options.days ?? WORLD_DEFAULTS.days;
  const positive = (name: string, v: number, min: number) => {
    if (!Number.isInteger(v) || v < min) throw new RangeError(`${name} must be an integer >= ${min}, got ${v}`);
  };
  positive("markets", markets, 1);
  positive("wallets", wallets, 30);
  positive("fills", fills, 0);
  positive("days", days, 1);
  if (!Number.isInteger(options.end)) throw new RangeError(`end must be whole unix seconds, got ${options.end}`);
  seedWords(options.seed); // throws on a seed that is neither a safe integer nor a string
  return { seed: options.seed, markets, wallets, fills, days, end: options.end, start: options.end - days * DAY };
}

export function generateWorld(options: WorldOptions): World {
  const o = resolveWorldOptions(options);
  const key = seedWords(o.seed);
  const catalog = buildCatalog(o, key, Rng.derive(key, "catalog"));
  const pop = buildPopulation(o, key, Rng.derive(key, "population"));
  const ledger = new FundingLedger(key);
  const informed = planInformed(o, catalog, pop, ledger, Rng.derive(key, "informed"));
  const audience = buildAudience(o, catalog, pop, Rng.derive(key, "audience"));
  const tables = new TradeTables(
    Math.ceil(o.fills / 2.2),
    Math.ceil(o.fills * 1.02) + 64,
    Math.ceil(o.fills / 15) + 1024,
    (m) => catalog.markets[m]!.negRisk,
  );
  const ctx: SimContext = { o, catalog, pop, audience, tables, holdings: new Holdings(catalog.markets.length) };
  runHistory(ctx, informed, Rng.derive(key, "trading"), Rng.derive(key, "informed-trading"));
  tables.trim();
  fundEstablishedWallets(ledger, o, pop, freshWallets(pop), informed.owners, tables.lastTs, Rng.derive(key, "funding"));
  const funding = ledger.place(tables, catalog.markets);
  return new World(o, key, catalog, pop, audience, tables, informed, funding);
}

function runHistory(ctx: SimContext, plan: InformedPlan, rng: Rng, informedRng: Rng): void {
  const { o, catalog, tables } = ctx;
  const engine = new TradingEngine(ctx);
  const operations = new Operations(ctx);
  const informed = new InformedTrading(ctx, plan, engine, informedRng);
  // The ordinary trading's fill target: the world's, less what the informed bets still to come may take.
  const budget = () => o.fills - informed.pendingReserve;
  const markets = catalog.markets;
  const hasTakers = (m: number) => ctx.audience.takerOffsets[m + 1]! > ctx.audience.takerOffsets[m]!;
  // Volume grows over the window; days on which no market trades get no share of the fill budget.
  const dayWeight = new Float64Array(o.days);
  for (const market of markets) {
    if (!hasTakers(market.index)) continue;
    const first = Math.max(0, Math.floor((market.startDate - o.start) / DAY));
    const last = Math.min(o.days - 1, Math.floor((market.tradingStop - 1 - o.start) / DAY));
    for (let d = first; d <= last; d++) dayWeight[d] = 1 + (0.8 * d) / o.days;
  }
  const suffix = new Float64Array(o.days + 1);
  for (let d = o.days - 1; d >= 0; d--) suffix[d] = suffix[d + 1]! + dayWeight[d]!;
  let lastActiveDay = o.days - 1;
  while (lastActiveDay > 0 && dayWeight[lastActiveDay] === 0) lastActiveDay--;
  const intensity = new Float64Array(markets.length);
  const items = new DayItems();
  let slots = 0;

  for (let day = 0; day < o.days; day++) {
    const d0 = o.start + day * DAY;
    const d1 = d0 + DAY;
    const lastDay = day === lastActiveDay;
    const produced = tables.fillCount;
    // Fills per match slot so far (a slot can come to nothing when nobody in the market wants to trade).
    const fillsPerSlot = slots > 50 && produced > 0 ? produced / slots : 2.3;
    const dayFills = suffix[day]! > 0 ? ((budget() - produced) * dayWeight[day]!) / suffix[day]! : 0;
    const dayMatches = Math.max(0, (dayFills / fillsPerSlot) * (lastDay ? 1.3 : 1));

    let total = 0;
    for (let m = 0; m < markets.length; m++) {
      const market = markets[m]!;
      const lo = Math.max(d0, market.startDate, o.start);
      const hi = Math.min(d1, market.tradingStop);
      intensity[m] = 0;
      if (lo >= hi || !hasTakers(m)) continue;
      const life = Math.max(DAY, market.tradingStop - market.startDate);
      const progress = Math.min(1, ((lo + hi) / 2 - market.startDate) / life);
      // Busier toward the end of a market's life; long-lived markets spread their interest thinner per day.
      const ramp = 0.6 + 2.4 * progress * progress;
      intensity[m] =
        (market.popularity * ramp * ((hi - lo) / DAY)) /
        Math.sqrt(1 + tradingDays(o, market.startDate, market.tradingStop) / 30);
      total += intensity[m]!;
    }

    items.clear();
    if (total > 0) {
      for (let m = 0; m < markets.length; m++) {
        if (intensity[m] === 0) continue;
        const expected = (dayMatches * intensity[m]!) / total;
        const n = Math.floor(expected) + (rng.next() < expected - Math.floor(expected) ? 1 : 0);
        const market = markets[m]!;
        const lo = Math.max(d0, market.startDate, o.start);
        const hi = Math.min(d1, market.tradingStop);
        for (let k = 0; k < n; k++) {
          const ts = randomInstant(rng, lo, hi);
          if (ts >= 0) items.push(ts, ITEM_MATCH, m);
        }
      }
    }
    operations.planDay(day, d0, d1, items, rng);
    informed.planDay(d0, d1, items);

    const order = items.order(d0);
    for (let k = 0; k < order.length; k++) {
      const i = order[k]!;
      if (items.kind[i] === ITEM_INFORMED_BET) {
        informed.execute(items.a[i]!, items.ts[i]!, o.fills - tables.fillCount);
        continue;
      }
      if (items.kind[i] !== ITEM_MATCH) {
        operations.execute(items, i, rng);
        continue;
      }
      // The budget is a ceiling on every day, not only the last: a busy early day must not overshoot it.
      const left = budget() - tables.fillCount;
      if (left < 2) continue;
      slots++;
      engine.match(items.a[i]!, items.ts[i]!, rng, left);
    }
  }
}
