import { AT, expectServed } from "../support/served-numbers.js";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { WorldApp } from "../support/world-app.js";
import {
  SMART,
  expect422,
  get,
  isSortedDesc,
  marketCategories,
  one,
  openApiPaths,
  openBoardsWorld,
  rows,
} from "../support/api/boards.js";

let t: WorldApp;
const HOUR = 3_600;
const DAY = 86_400;

beforeAll(async () => {
  t = await openBoardsWorld();
});
afterEach(() => t.clock.set(t.now * 1000));
afterAll(async () => t?.close());

describe("GET /api/v2/home/whale-moves", () => {
  interface Move {
    wallet: string;
    condition_id: string;
    market_id: string | null;
    question: string | null;
    outcome: string;
    side: string;
    price: number;
    usd: number;
    ts: number;
    tx_hash: string;
  }
  const expectedMoves = (now: number) =>
    rows<{ wallet: string; usd: number; ts: number; outcome_index: number; condition_id: string; tx_hash: string }>(
      t,
      `select f.wallet, f.usd / 1e6 as usd, f.ts, f.outcome_index, f.condition_id, f.tx_hash from fills f join wallet_stats s on s.wallet = f.wallet
        where ${SMART} and f.usd >= 50000 * 1000000 and f.ts > ${now - 6 * HOUR} and f.ts <= ${now}
        order by f.usd desc, f.ts desc, f.id desc limit 8`,
    );

  it("lists the smart-whale fills of at least 50,000 USD of the last 6 h, largest first (none at the world's end)", async () => {
    const res = await get<{ moves: Move[]; hours: number; min_usd: number }>(t, "/api/v2/home/whale-moves");
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ hours: 6, min_usd: 50_000 });
    expect(res.body.moves.map((m) => m.tx_hash)).toEqual((await expectedMoves(t.now)).map((e) => e.tx_hash));
  });

  it("at a busy moment: the top 8 by size, each from a smart whale, at least 50,000 USD, inside the window", async () => {
    // The busiest 6 h window of big smart-whale fills in the world.
    const { at } = await one<{ at: number }>(
      t,
      `select f.ts + 60 as at from fills f join wallet_stats s on s.wallet = f.wallet where ${SMART} and f.usd >= 50000 * 1000000
        order by (select count(*) from fills g join wallet_stats z on z.wallet = g.wallet
                   where z.is_smart = 1 and z.is_farmer = 0 and g.usd >= 50000 * 1000000 and g.ts > f.ts + 60 - ${6 * HOUR} and g.ts <= f.ts + 60) desc, f.ts desc limit 1`,
    );
    t.clock.set(at * 1000);
    const expected = await expectedMoves(at);
    expect(expected.length).toBeGreaterThan(0);
    const res = await get<{ moves: Move[] }>(t, "/api/v2/home/whale-moves");
    expect(res.body.moves.map((m) => [m.tx_hash, m.wallet])).toEqual(expected.map((e) => [e.tx_hash, e.wallet]));
    expect(isSortedDesc(res.body.moves.map((m) => m.usd))).toBe(true);
    const smart = new Set(
      (await rows<{ wallet: string }>(t, `select wallet from wallet_stats s where ${SMART}`)).map((r) => r.wallet),
    );
    res.body.moves.forEach((m, i) => {
      expect(smart.has(m.wallet)).toBe(true);
      expect(m.usd).toBeCloseTo(expected[i]!.usd, 6);
      expect(m.usd).toBeGreaterThanOrEqual(50_000);
      expect(m.ts).toBeGreaterThan(at - 6 * HOUR);
      expect(m.outcome).toBe(expected[i]!.outcome_index === 0 ? "YES" : "NO");
      expect(m.question).toEqual(expect.any(String));
    });
  });
});

describe("GET /api/v2/home/hot-markets", () => {
  it("the 5 open markets with the most volume over 24 h, with an hourly YES price sparkline", async () => {
    const res = await get<{
      markets: Array<{ condition_id: string; volume_24h: number; sparkline: number[]; price_yes: number | null }>;
    }>(t, "/api/v2/home/hot-markets");
    expect(res.status).toBe(200);
    // The stored market figures are as of the ledger's frontier (the newest stored fill or chain operation), not the clock.
    const { asOf } = await one<{ asOf: number }>(
      t,
      `select min(${t.now}, max((select max(ts) from fills), (select max(ts) from wallet_activity where type not in ('REWARD', 'MAKER_REBATE', 'TAKER_REBATE')))) as asOf`,
    );
    const expected = await rows<{ condition_id: string; vol: number }>(
      t,
      `select f.condition_id, sum(f.usd) / 1e6 as vol from fills f join markets m on m.condition_id = f.condition_id
        where m.closed = 0 and f.ts > ${asOf - DAY} and f.ts <= ${asOf} and (f.role is null or f.role <> 'maker')
        group by f.condition_id order by vol desc, f.condition_id limit 5`,
    );
    expect(expected).toHaveLength(5);
    expect(res.body.markets.map((m) => m.condition_id)).toEqual(expected.map((e) => e.condition_id));
    for (const [i, m] of res.body.markets.entries()) {
      expectServed(m.volume_24h, expected[i]!.vol, AT.usd);
      expect(m.sparkline).toHaveLength(24);
      for (const p of m.sparkline) expect(p >= 0 && p <= 1).toBe(true);
      const [last] = await rows<{ yes: number }>(
        t,
        `select case when outcome_index = 0 then price else 1 - price end as yes from fills where condition_id = '${m.condition_id}' and ts <= ${t.now} order by ts desc, id desc limit 1`,
      );
      expectServed(m.sparkline[23], last!.yes, AT.price);
      const [hourAgo] = await rows<{ yes: number }>(
        t,
        `select case when outcome_index = 0 then price else 1 - price end as yes from fills where condition_id = '${m.condition_id}' and ts <= ${t.now - 12 * HOUR} order by ts desc, id desc limit 1`,
      );
      expectServed(m.sparkline[11], hourAgo!.yes, AT.price);
    }
  });
});

describe("GET /api/v2/home/top-whales-7d", () => {
  it("the 5 smart whales (never farmers) with the most net realized P&L from positions closed in 7 days", async () => {
    // Asked an hour after the last close of a smart whale: the week before holds one at least, whatever the world.
    const [last] = await rows<{ ts: number }>(
      t,
      `select max(p.closed_ts) as ts from positions p join wallet_stats s on s.wallet = p.wallet
        where ${SMART} and p.status = 'closed' and p.closed_ts <= ${t.now}`,
    );
    const now = Math.min(t.now, Number(last!.ts) + HOUR);
    t.clock.set(now * 1000);
    const res = await get<{
      whales: Array<{ wallet: string; realized_pnl_7d: number; closed_positions_7d: number }>;
      days: number;
    }>(t, "/api/v2/home/top-whales-7d");
    expect(res.status).toBe(200);
    expect(res.body.days).toBe(7);
    const expected = await rows<{ wallet: string; pnl: number; n: number }>(
      t,
      `select p.wallet, sum(p.realized_pnl - p.fees) / 1e6 as pnl, count(*) as n from positions p join wallet_stats s on s.wallet = p.wallet
        where ${SMART} and p.status = 'closed' and p.closed_ts > ${now - 7 * DAY} and p.closed_ts <= ${now}
        group by p.wallet order by pnl desc, p.wallet limit 5`,
    );
    expect(expected.length).toBeGreaterThan(0);
    expect(res.body.whales.map((w) => w.wallet)).toEqual(expected.map((e) => e.wallet));
    res.body.whales.forEach((w, i) => {
      expectServed(w.realized_pnl_7d, expected[i]!.pnl, AT.usd);
      expect(w.closed_positions_7d).toBe(expected[i]!.n);
    });
    const farmers = new Set(
      (await rows<{ wallet: string }>(t, "select wallet from wallet_stats where is_farmer = 1")).map((r) => r.wallet),
    );
    for (const w of res.body.whales) expect(farmers.has(w.wallet)).toBe(false);
  });
});

describe("GET /api/v2/home/category-rotation", () => {
  it("per category, market volume of the last 24 h against the 24 h before", async () => {
    const res = await get<{
      categories: Array<{
        category: string;
        volume_24h: number;
        volume_prev_24h: number;
        delta_usd: number;
        delta_pct: number | null;
        share_pct: number;
      }>;
    }>(t, "/api/v2/home/category-rotation");
    expect(res.status).toBe(200);
    expect(res.body.categories.map((c) => c.category).sort()).toEqual([
      "CRYPTO",
      "ECONOMICS",
      "GEOPOLITICS",
      "POLITICS",
      "SPORTS",
      "TECH",
    ]);
    const categoryOf = await marketCategories(t);
    const fills = await rows<{ condition_id: string; ts: number; usd: number }>(
      t,
      `select condition_id, ts, usd / 1e6 as usd from fills where ts > ${t.now - 2 * DAY} and ts <= ${t.now} and (role is null or role <> 'maker')`,
    );
    const sums = new Map<string, { now: number; prev: number }>();
    for (const f of fills) {
      const c = categoryOf.get(f.condition_id);
      if (!c) continue;
      const s = sums.get(c) ?? { now: 0, prev: 0 };
      if (f.ts > t.now - DAY) s.now += f.usd;
      else s.prev += f.usd;
      sums.set(c, s);
    }
    const total = [...sums.values()].reduce((a, s) => a + s.now, 0);
    expect(total).toBeGreaterThan(0);
    for (const c of res.body.categories) {
      const s = sums.get(c.category) ?? { now: 0, prev: 0 };
      expectServed(c.volume_24h, s.now, AT.usd);
      expectServed(c.volume_prev_24h, s.prev, AT.usd);
      expectServed(c.delta_usd, s.now - s.prev, AT.usd);
      if (s.prev > 0) expectServed(c.delta_pct, (100 * (s.now - s.prev)) / s.prev, AT.percent);
      else expect(c.delta_pct).toBeNull();
      expectServed(c.share_pct, (100 * s.now) / total, AT.percent);
    }
    expect(isSortedDesc(res.body.categories.map((c) => c.delta_usd))).toBe(true);
  });
});

describe("homepage presence", () => {
  const ping = (session?: string) =>
    t.app.inject({
      method: "POST",
      url: "/api/v2/home/ping",
      headers: session ? { "x-service-session": session } : {},
    });
  const watching = async () => (await get<{ watching: number }>(t, "/api/v2/home/watching")).body.watching;

  it("a ping keeps a session present for 30 s; sessions are the header, else the client IP", async () => {
    expect(await watching()).toBe(0);
    const first = await ping("tab-a");
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({ ok: true, watching: 1, ttl_seconds: 30 });
    await ping("tab-b");
    await ping("tab-a");
    await ping();
    await ping();
    expect(await watching()).toBe(3);
    t.clock.advance(20_000);
    await ping("tab-b");
    t.clock.advance(15_000);
    expect(await watching()).toBe(1);
    t.clock.advance(16_000);
    expect(await watching()).toBe(0);
  });

  it("never counts a session header as a client address", async () => {
    const from = (remoteAddress: string, session?: string) =>
      t.app.inject({
        method: "POST",
        url: "/api/v2/home/ping",
        remoteAddress,
        headers: session ? { "x-service-session": session } : {},
      });
    await from("192.0.2.7");
    await from("192.0.2.8", "ip:192.0.2.7");
    expect(await watching()).toBe(2);
    t.clock.advance(31_000);
  });
});

describe("conventions", () => {
  it.each([
    "/api/v2/home/whale-moves",
    "/api/v2/home/hot-markets",
    "/api/v2/home/top-whales-7d",
    "/api/v2/home/category-rotation",
    "/api/v2/home/watching",
  ])("%s takes no parameters (422 on an unknown one)", async (path) => expect422(t, `${path}?limit=3`, "limit"));

  it("lists the home paths in /api/openapi.json", async () => {
    const paths = await openApiPaths(t);
    for (const p of ["whale-moves", "hot-markets", "top-whales-7d", "category-rotation", "ping", "watching"])
      expect(paths).toContain(`/api/v2/home/${p}`);
  });
});
