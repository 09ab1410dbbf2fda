import { AT, expectServed, servedAs } from "../support/served-numbers.js";
import { gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createKey } from "../../src/accounts/keys.js";
import type { BoardWallet, Trader } from "../../src/analytics/boards/leaderboard.js";
import type { WorldApp } from "../support/world-app.js";
import { dailyPnlAt } from "../../src/store/testing/pnl-points.js";
import {
  SMART,
  expect422,
  get,
  isSortedDesc,
  one,
  openApiPaths,
  openBoardsWorld,
  rows,
} from "../support/api/boards.js";

let t: WorldApp;
const DAY = 86_400;

/** A leaderboard row as the API answers it: the analytics row less sports_pct and pnl_24h, which the schema leaves out. */
type Whale = BoardWallet;
interface Board {
  whales: Whale[];
  total: number;
  sort: string;
  offset: number;
}

/** Every row of a v2 leaderboard query, page after page. */
async function allPages(query: string): Promise<{ whales: Whale[]; total: number }> {
  const whales: Whale[] = [];
  let total = 0;
  for (let offset = 0; ; offset += 200) {
    const res = await get<Board>(t, `/api/v2/whales/leaderboard?limit=200&offset=${offset}${query ? `&${query}` : ""}`);
    expect(res.status, query).toBe(200);
    whales.push(...res.body.whales);
    total = res.body.total;
    if (res.body.whales.length < 200) break;
  }
  return { whales, total };
}

/** The leaderboard's inputs per wallet, straight from the tables. */
const BASE = `select s.wallet, s.total_pnl, s.win_rate, min(s.profit_factor, 99.99) as pf, s.resolved, s.total_volume, s.total_trades,
    s.is_smart, s.is_farmer, s.has_skill, s.categories,
    (select sum(p.avg_price * p.total_bought) / sum(p.total_bought) from positions p where p.wallet = s.wallet) as avg_entry
  from wallet_stats s`;

const mainCategory = (json: string): string | null => {
  const shares = JSON.parse(json) as Record<string, number>;
  const best = Object.entries(shares)
    .filter(([, v]) => v > 0)
    .sort((a, b) => b[1] - a[1])[0];
  return best ? best[0] : null;
};

beforeAll(async () => {
  t = await openBoardsWorld();
});
afterAll(async () => t?.close());

describe("GET /api/v2/whales/leaderboard", () => {
  it("defaults: Smart Money with at least 10 resolved markets, by total_pnl, 50 rows, envelope and row shape", async () => {
    const res = await get<Board>(t, "/api/v2/whales/leaderboard");
    expect(res.status).toBe(200);
    const { n } = await one<{ n: number }>(
      t,
      `select count(*) as n from wallet_stats s where ${SMART} and s.resolved >= 10`,
    );
    expect(n).toBeGreaterThan(10);
    expect(res.body).toMatchObject({ total: n, sort: "pnl", offset: 0 });
    expect(res.body.whales).toHaveLength(Math.min(50, n));
    expect(isSortedDesc(res.body.whales.map((w) => w.total_pnl))).toBe(true);
    const fields = [
      "wallet",
      "name",
      "total_pnl",
      "win_rate",
      "profit_factor",
      "resolved_markets",
      "wins",
      "losses",
      "total_volume",
      "total_trades",
      "main_category",
      "avg_entry_price",
      "last_trade_ts",
      "active_count",
      "market_win_rate",
      "market_wins",
      "market_losses",
      "mint_volume_30d",
      "merge_volume_30d",
    ];
    for (const w of res.body.whales) {
      for (const f of fields) expect(w, f).toHaveProperty(f);
      expect(w.wallet).toMatch(/^0x[0-9a-f]{40}$/);
      expect(w.profit_factor).toBeLessThanOrEqual(99.99);
    }
  });

  // [query, SQL condition over BASE (alias s, avg_entry), what each returned row must satisfy]
  const filters: Array<[string, string, (w: Whale) => boolean]> = [
    ["", `${SMART} and s.resolved >= 10`, (w) => w.is_smart && w.resolved_markets >= 10],
    ["filter=all", "s.resolved >= 10", (w) => w.resolved_markets >= 10],
    ["filter=all&min_markets=0", "1 = 1", () => true],
    ["filter=all&min_markets=25", "s.resolved >= 25", (w) => w.resolved_markets >= 25],
    ["min_wr=65", `${SMART} and s.resolved >= 10 and s.win_rate >= 65`, (w) => w.win_rate >= 65],
    ["filter=all&min_pnl=20000", "s.resolved >= 10 and s.total_pnl >= 20000", (w) => w.total_pnl >= 20000],
    ["filter=all&min_pnl=-5000", "s.resolved >= 10 and s.total_pnl >= -5000", (w) => w.total_pnl >= -5000],
    ["filter=all&min_profit_factor=2.5", "s.resolved >= 10 and s.pf >= 2.5", (w) => w.profit_factor >= 2.5],
    [
      "filter=all&max_avg_entry=0.5",
      "s.resolved >= 10 and avg_entry <= 0.5",
      (w) => w.avg_entry_price !== null && w.avg_entry_price <= 0.5,
    ],
    ["filter=all&max_sports_pct=5", "s.resolved >= 10 and json_extract(s.categories, '$.SPORTS') <= 5", () => true],
    ["skill=1&min_markets=0", `${SMART} and s.has_skill = 1`, (w) => w.has_skill && w.is_smart],
  ];

  it.each(filters)(
    "?%s returns exactly the wallets the filter selects; total is their SQL count",
    async (query, where) => {
      const expected = await rows<{ wallet: string }>(t, `select wallet from (${BASE}) s where ${where}`);
      expect(expected.length, "the case selects someone").toBeGreaterThan(0);
      const { whales, total } = await allPages(query);
      expect(total).toBe(expected.length);
      expect(whales.map((w) => w.wallet).sort()).toEqual(expected.map((e) => e.wallet).sort());
      const check = filters.find(([q]) => q === query)![2];
      for (const w of whales) expect(check(w), w.wallet).toBe(true);
    },
  );

  it("max_sports_pct and category filter on the wallets' category shares", async () => {
    const base = await rows<{ wallet: string; categories: string; sports: number }>(
      t,
      `select wallet, categories, json_extract(categories, '$.SPORTS') as sports from (${BASE}) s where ${SMART} and s.resolved >= 10`,
    );
    const politics = base
      .filter((b) => mainCategory(b.categories) === "POLITICS")
      .map((b) => b.wallet)
      .sort();
    expect(politics.length).toBeGreaterThan(0);
    const byCategory = await allPages("category=politics");
    expect(byCategory.total).toBe(politics.length);
    expect(byCategory.whales.map((w) => w.wallet).sort()).toEqual(politics);
    for (const w of byCategory.whales) expect(w.main_category).toBe("POLITICS");
    const capped = await allPages("max_sports_pct=1");
    expect(capped.whales.map((w) => w.wallet).sort()).toEqual(
      base
        .filter((b) => b.sports <= 1)
        .map((b) => b.wallet)
        .sort(),
    );
  });

  it.each([
    ["pnl", "total_pnl", "total_pnl"],
    ["win_rate", "win_rate", "win_rate"],
    ["volume", "total_volume", "total_volume"],
    ["trades", "total_trades", "total_trades"],
  ] as const)("sort=%s orders by %s descending, then by address", async (sort, column, field) => {
    const expected = await rows<{ wallet: string }>(
      t,
      `select wallet from wallet_stats where resolved >= 10 order by ${column} desc, wallet asc`,
    );
    const { whales } = await allPages(`filter=all&sort=${sort}`);
    expect(whales.map((w) => w.wallet)).toEqual(expected.map((e) => e.wallet));
    expect(isSortedDesc(whales.map((w) => w[field] as number))).toBe(true);
    const res = await get<Board>(t, `/api/v2/whales/leaderboard?sort=${sort}&limit=1`);
    expect(res.body.sort).toBe(sort);
  });

  it("pages with offset and limit, and exclude_wallets leaves wallets out", async () => {
    const ten = (await get<Board>(t, "/api/v2/whales/leaderboard?limit=10")).body;
    const page = (await get<Board>(t, "/api/v2/whales/leaderboard?limit=5&offset=5")).body;
    expect(page.offset).toBe(5);
    expect(page.whales.map((w) => w.wallet)).toEqual(ten.whales.slice(5, 10).map((w) => w.wallet));
    const [a, b] = ten.whales;
    const excluded = (
      await get<Board>(
        t,
        `/api/v2/whales/leaderboard?limit=200&exclude_wallets=${a!.wallet.toUpperCase().replace("0X", "0x")}, ${b!.wallet}`,
      )
    ).body;
    expect(excluded.total).toBe(ten.total - 2);
    expect(excluded.whales.map((w) => w.wallet)).not.toContain(a!.wallet);
    expect(excluded.whales.map((w) => w.wallet)).not.toContain(b!.wallet);
    expect(excluded.whales[0]!.wallet).toBe(ten.whales[2]!.wallet);
  });

  it("never lists a farmer with filter=smart, whatever the sort and filters; filter=all does", async () => {
    const seen = new Set<string>();
    for (const query of [
      "sort=pnl",
      "sort=win_rate&min_markets=0",
      "sort=volume&min_markets=0",
      "sort=trades&min_markets=0&max_avg_entry=0.99",
    ]) {
      for (const w of (await allPages(query)).whales) seen.add(w.wallet);
    }
    const farmers = await rows<{ wallet: string }>(
      t,
      "select wallet from wallet_stats where is_farmer = 1 or is_smart = 0",
    );
    expect(seen.size).toBeGreaterThan(0);
    for (const f of farmers) expect(seen.has(f.wallet), f.wallet).toBe(false);
    const all = await allPages("filter=all");
    const { n } = await one<{ n: number }>(
      t,
      "select count(*) as n from wallet_stats where is_farmer = 1 and resolved >= 10",
    );
    expect(n).toBeGreaterThan(0);
    expect(all.whales.filter((w) => w.is_farmer === true)).toHaveLength(n);
  });

  it("figures match the stored data: stats, avg entry, 30-day MINT and MERGE volume, role profile", async () => {
    const { whales } = await allPages("filter=all&min_markets=0&sort=volume");
    const sample = whales.slice(0, 40);
    const boards = t.config.boards;
    for (const w of sample) {
      const [s] = await rows<any>(
        t,
        `select s.*, coalesce(w.name, w.pseudonym) as display from wallet_stats s left join wallets w on w.address = s.wallet where s.wallet = '${w.wallet}'`,
      );
      expectServed(w.total_pnl, s.total_pnl, AT.usd);
      expectServed(w.win_rate, s.win_rate, AT.percent);
      expect(w.total_trades).toBe(s.total_trades);
      expect(w.name).toBe(s.display);
      expect(w.main_category).toBe(mainCategory(s.categories));
      const [f] = await rows<{ mint: number | null; merge: number | null; maker: number | null; vol: number | null }>(
        t,
        `select sum(case when entry_type = 'MINT' then usd end) / 1e6 as mint, sum(case when entry_type = 'MERGE' then usd end) / 1e6 as merge,
                sum(case when role = 'maker' then usd else 0 end) / 1e6 as maker, sum(usd) / 1e6 as vol
           from fills where wallet = '${w.wallet}' and ts > ${t.now - 30 * DAY} and ts <= ${t.now}`,
      );
      expectServed(w.mint_volume_30d, f!.mint ?? 0, AT.usd);
      expectServed(w.merge_volume_30d, f!.merge ?? 0, AT.usd);
      const [p] = await rows<{ entry: number | null }>(
        t,
        `select sum(avg_price * total_bought) / sum(total_bought) as entry from positions where wallet = '${w.wallet}'`,
      );
      if (p!.entry === null) expect(w.avg_entry_price).toBeNull();
      else expectServed(w.avg_entry_price, p!.entry, AT.price);
      const makerShare = f!.vol ? f!.maker! / f!.vol : null;
      const role =
        makerShare !== null && makerShare >= boards.roleMakerShare
          ? "market maker"
          : p!.entry !== null && p!.entry >= boards.roleFavouriteAvgEntry
            ? "favourite buyer"
            : p!.entry !== null && p!.entry <= boards.roleLongshotAvgEntry
              ? "longshot buyer"
              : "directional";
      expect(w.role_profile, w.wallet).toBe(role);
    }
    expect(sample.some((w) => w.mint_volume_30d > 0)).toBe(true);
    expect(sample.some((w) => w.merge_volume_30d > 0)).toBe(true);
  });

  it("sends the same answer gzip-compressed to a client that accepts gzip, and plain to one that does not", async () => {
    const url = "/api/v2/whales/leaderboard?filter=all&min_markets=0&limit=100";
    const plain = await t.app.inject({ method: "GET", url });
    const packed = await t.app.inject({ method: "GET", url, headers: { "accept-encoding": "gzip, deflate, br" } });
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(packed.headers["content-encoding"]).toBe("gzip");
    expect(packed.headers.vary).toBe("accept-encoding");
    expect(packed.rawPayload.length).toBeLessThan(plain.rawPayload.length / 3);
    expect(gunzipSync(packed.rawPayload).toString()).toBe(plain.body);
    expect(JSON.parse(plain.body).whales).toHaveLength(100);
  });

  it("answers 422 past its limits and on unknown or invalid parameters", async () => {
    const base = "/api/v2/whales/leaderboard";
    expect((await get(t, `${base}?limit=200`)).status).toBe(200);
    await expect422(t, `${base}?limit=201`, "limit");
    await expect422(t, `${base}?limit=0`, "limit");
    await expect422(t, `${base}?offset=-1`, "offset");
    await expect422(t, `${base}?sort=roi`, "sort");
    await expect422(t, `${base}?filter=farmers`, "filter");
    await expect422(t, `${base}?category=weather`, "category");
    await expect422(t, `${base}?skill=2`, "skill");
    await expect422(t, `${base}?min_markets=-1`, "min_markets");
    await expect422(t, `${base}?min_wr=101`, "min_wr");
    await expect422(t, `${base}?max_avg_entry=1.5`, "max_avg_entry");
    await expect422(t, `${base}?max_sports_pct=150`, "max_sports_pct");
    await expect422(t, `${base}?min_pnl=lots`, "min_pnl");
    await expect422(t, `${base}?period=7d`, "period");
  });
});

describe("GET /api/public/v1/whales/leaderboard", () => {
  it("needs no key, takes the same filters and answers like v2", async () => {
    const query =
      "limit=100&sort=win_rate&min_profit_factor=1&min_markets=10&min_wr=55&min_pnl=0&max_avg_entry=0.9&filter=smart";
    const pub = await get<Board>(t, `/api/public/v1/whales/leaderboard?${query}&category=`);
    expect(pub.status).toBe(200);
    const v2 = await get<Board>(t, `/api/v2/whales/leaderboard?${query}`);
    expect(pub.body).toEqual(v2.body);
    expect(pub.body.whales.length).toBeGreaterThan(0);
    for (const w of pub.body.whales)
      expect(w.profit_factor >= 1 && w.win_rate >= 55 && w.avg_entry_price! <= 0.9).toBe(true);
    const premium = (await createKey(t.store.db, { account: "boards-premium", plan: "premium", now: t.clock.now() }))
      .key;
    expect(
      (await get(t, "/api/public/v1/whales/leaderboard?limit=1", { authorization: `Bearer ${premium}` })).status,
    ).toBe(200);
  });

  it("limit is 1..100; v2-only parameters are unknown here", async () => {
    const base = "/api/public/v1/whales/leaderboard";
    await expect422(t, `${base}?limit=101`, "limit");
    await expect422(t, `${base}?limit=0`, "limit");
    await expect422(t, `${base}?sort=roi`, "sort");
    await expect422(t, `${base}?skill=1`, "skill");
  });
});

describe("GET /api/leaderboard", () => {
  type Stats = { wallet: string; pnl_24h: number | null; total_pnl: number; total_volume: number };
  type PnlAt = (wallet: string, at: number) => number;
  const over = (days: number) => (s: Stats, pnlAt: PnlAt) =>
    pnlAt(s.wallet, t.now) - pnlAt(s.wallet, t.now - days * DAY);

  it.each([
    ["24h", (s: Stats) => s.pnl_24h ?? 0],
    ["7d", over(7)],
    ["30d", over(30)],
    ["all", (s: Stats) => s.total_pnl],
  ] as const)("period=%s ranks Smart Money by P&L over the period", async (period, pnlOf) => {
    const res = await get<{ traders: Trader[]; period: string; filter: string }>(
      t,
      `/api/leaderboard?period=${period}&filter=smart&limit=200`,
    );
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ period, filter: "smart" });
    const pnlAt = await dailyPnlAt(t.store);
    const expected = (
      await rows<Stats>(t, `select s.wallet, s.pnl_24h, s.total_pnl, s.total_volume from wallet_stats s where ${SMART}`)
    )
      .map((s) => ({ ...s, pnl: pnlOf(s, pnlAt) }))
      .sort((a, b) => b.pnl - a.pnl || (a.wallet < b.wallet ? -1 : 1));
    expect(res.body.traders.map((r) => r.wallet)).toEqual(expected.map((e) => e.wallet));
    res.body.traders.forEach((r, i) => {
      expectServed(r.total_pnl, expected[i]!.pnl, AT.usd);
      expectServed(r.lifetime_pnl, expected[i]!.total_pnl, AT.usd);
      expectServed(r.roi, (100 * expected[i]!.total_pnl) / expected[i]!.total_volume, AT.percent);
      expect(r.is_smart).toBe(true);
      expect(["market maker", "favourite buyer", "longshot buyer", "directional"]).toContain(r.role_profile);
    });
    expect(new Set(res.body.traders.map((r) => r.total_pnl)).size).toBeGreaterThan(1);
  });

  it("defaults to period=24h, filter=smart, 50 rows; filter=all lists every wallet", async () => {
    const res = await get<{ traders: Trader[]; period: string; filter: string }>(t, "/api/leaderboard");
    expect(res.body).toMatchObject({ period: "24h", filter: "smart" });
    expect(res.body.traders.length).toBeLessThanOrEqual(50);
    const all = await get<{ traders: Trader[] }>(t, "/api/leaderboard?period=all&filter=all&limit=200");
    const expected = await rows<{ wallet: string }>(
      t,
      "select wallet from wallet_stats order by total_pnl desc, wallet asc limit 200",
    );
    expect(all.body.traders.map((r) => r.wallet)).toEqual(expected.map((e) => e.wallet));
    expect(all.body.traders.some((r) => !r.is_smart)).toBe(true);
    const keys = [
      "wallet",
      "display_name",
      "win_rate",
      "market_win_rate",
      "total_pnl",
      "roi",
      "is_smart",
      "role_profile",
    ];
    for (const k of keys) expect(all.body.traders[0]).toHaveProperty(k);
  });

  it("answers 422 on an unknown period, filter or parameter, and past its limit", async () => {
    await expect422(t, "/api/leaderboard?period=1y", "period");
    await expect422(t, "/api/leaderboard?filter=whales", "filter");
    await expect422(t, "/api/leaderboard?limit=201", "limit");
    await expect422(t, "/api/leaderboard?sort=pnl", "sort");
  });
});

it("lists the leaderboard paths in /api/openapi.json", async () => {
  const paths = await openApiPaths(t);
  for (const p of ["/api/v2/whales/leaderboard", "/api/public/v1/whales/leaderboard", "/api/leaderboard"])
    expect(paths).toContain(p);
});

describe("GET /api/v2/site-stats", () => {
  it("counts smart whales, markets and trades, and reports the thresholds in force; cached 1 h", async () => {
    const res = await get<any>(t, "/api/v2/site-stats");
    expect(res.status).toBe(200);
    const [c] = await rows<{ smart: number; markets: number; trades: number }>(
      t,
      `select (select count(*) from wallet_stats s where ${SMART}) as smart, (select count(*) from markets) as markets,
              (select count(*) from fills where role is null or role <> 'maker') as trades`,
    );
    expect(res.body).toMatchObject({ smart_whales: c!.smart, markets: c!.markets, trades: c!.trades, as_of: t.now });
    expect(c!.smart).toBeGreaterThan(0);
    const { smart, farmer, whales, ledger, boards } = t.config;
    expect(res.body.thresholds.smart).toMatchObject({
      min_resolved_markets: smart.minResolvedMarkets,
      min_win_rate: smart.minWinRate,
      skill_min_z: smart.skillMinZ,
      min_total_pnl: 0,
    });
    expect(res.body.thresholds.farmer).toMatchObject({
      favourite_min_avg_buy_price: farmer.favouriteMinAvgBuyPrice,
      wash_ring_volume_share: farmer.washRingVolumeShare,
    });
    expect(res.body.thresholds.whales).toMatchObject({
      consensus_min_usd: whales.consensusMinUsd,
      flip_min_swing_usd: 200_000,
    });
    expect(res.body.thresholds.ledger).toMatchObject({ profit_factor_cap: ledger.profitFactorCap });
    expect(res.body.thresholds.home).toMatchObject({
      whale_move_min_usd: 50_000,
      whale_move_hours: 6,
      top_whales_days: boards.topWhalesDays,
    });
    try {
      t.clock.advance(30 * 60_000);
      expect((await get<any>(t, "/api/v2/site-stats")).body.as_of).toBe(t.now);
      t.clock.advance(31 * 60_000);
      expect((await get<any>(t, "/api/v2/site-stats")).body.as_of).toBe(t.now + 61 * 60);
    } finally {
      t.clock.set(t.now * 1000);
    }
    await expect422(t, "/api/v2/site-stats?fresh=1", "fresh");
  });
});

describe("GET /api/v2/hot-traders", () => {
  it("the 8 biggest 24 h winners and the 7 biggest losers by pnl_24h", async () => {
    const res = await get<{
      winners: Array<{ wallet: string; pnl_24h: number }>;
      losers: Array<{ wallet: string; pnl_24h: number }>;
    }>(t, "/api/v2/hot-traders");
    expect(res.status).toBe(200);
    const winners = await rows<{ wallet: string; pnl_24h: number }>(
      t,
      "select wallet, pnl_24h from wallet_stats where pnl_24h > 0 order by pnl_24h desc, wallet limit 8",
    );
    const losers = await rows<{ wallet: string; pnl_24h: number }>(
      t,
      "select wallet, pnl_24h from wallet_stats where pnl_24h < 0 order by pnl_24h asc, wallet limit 7",
    );
    expect(winners).toHaveLength(8);
    expect(losers).toHaveLength(7);
    const served = (list: Array<{ wallet: string; pnl_24h: number }>) =>
      list.map((w) => [w.wallet, servedAs(w.pnl_24h, AT.usd)]);
    expect(res.body.winners.map((w) => [w.wallet, w.pnl_24h])).toEqual(served(winners));
    expect(res.body.losers.map((w) => [w.wallet, w.pnl_24h])).toEqual(served(losers));
    await expect422(t, "/api/v2/hot-traders?limit=3", "limit");
  });

  it("lists the site paths in /api/openapi.json", async () => {
    const paths = await openApiPaths(t);
    for (const p of ["/api/v2/site-stats", "/api/v2/hot-traders"]) expect(paths).toContain(p);
  });
});

describe("the leaderboards' table", () => {
  it("is read again once the Deriver rewrote wallet_stats (stats_generation moved), not before", async () => {
    const url = "/api/v2/whales/leaderboard?filter=all&min_markets=0&sort=trades&limit=1";
    const top = (await get<Board>(t, url)).body.whales[0]!;
    const boards = t.config.boards;
    const write = async (trades: number) => {
      // What a refresh does: rewrite rows, and bump the generation in the same transaction.
      await t.store.transaction(async (tx) => {
        await tx.db
          .updateTable("wallet_stats")
          .set({ total_trades: trades })
          .where("wallet", "=", top.wallet)
          .execute();
        await tx.db
          .updateTable("derive_state")
          .set((eb) => ({ value: eb("value", "+", 1) }))
          .where("name", "=", "stats_generation")
          .execute();
      });
    };
    const trades = async () => (await get<Board>(t, url)).body.whales[0]!;
    const eventually = async (expected: number) => {
      for (let i = 0; i < 100 && (await trades()).total_trades !== expected; i++)
        await new Promise((resolve) => setTimeout(resolve, 10));
      expect((await trades()).total_trades).toBe(expected);
    };
    try {
      t.clock.advance(boards.leaderboardCheckSeconds * 1000);
      await eventually(top.total_trades);
      await write(top.total_trades + 1_000);
      // Within the check interval the table (and every answer computed from it) stays as it was.
      expect((await trades()).total_trades).toBe(top.total_trades);
      t.clock.advance(boards.leaderboardCheckSeconds * 1000);
      await eventually(top.total_trades + 1_000);
      // A rewrite without a new generation (a batch's statistics) waits for the next refresh.
      await t.store.db
        .updateTable("wallet_stats")
        .set({ total_trades: top.total_trades + 2_000 })
        .where("wallet", "=", top.wallet)
        .execute();
      t.clock.advance(boards.leaderboardCheckSeconds * 1000);
      await trades();
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect((await trades()).total_trades).toBe(top.total_trades + 1_000);
    } finally {
      await write(top.total_trades);
      t.clock.advance(boards.leaderboardCheckSeconds * 1000);
      await eventually(top.total_trades);
      t.clock.set(t.now * 1000);
    }
  });
});
