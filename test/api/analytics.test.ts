import { dailyPnlAt } from "../../src/store/testing/pnl-points.js";
import { POSITION_STATUS_CODE } from "../../src/store/position-status.js";
import { updatePositionsSql } from "../../src/store/testing/positions.js";
import { AT, expectServed } from "../support/served-numbers.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Mover } from "../../src/analytics/windows/movers.js";
import type { WorldApp } from "../support/world-app.js";
import {
  SMART,
  expect422,
  get,
  isSortedDesc,
  marketCategories,
  openApiPaths,
  openBoardsWorld,
  rows,
} from "../support/api/boards.js";

let t: WorldApp;
const HOUR = 3_600;
const DAY = 86_400;
const CATEGORIES = ["CRYPTO", "ECONOMICS", "GEOPOLITICS", "POLITICS", "SPORTS", "TECH"];

beforeAll(async () => {
  t = await openBoardsWorld();
});
afterAll(async () => t?.close());

describe("GET /api/analytics/smart-money-flow", () => {
  it("per category: smart-whale volume of 24 h against the 24 h before, markets and wallets active, whales holding", async () => {
    const res = await get<{
      flow: Array<{
        category: string;
        markets: number;
        whales_now: number;
        volume_24h: number;
        volume_prev: number;
        volume_delta_pct: number | null;
        wallets_24h: number;
      }>;
    }>(t, "/api/analytics/smart-money-flow");
    expect(res.status).toBe(200);
    expect(res.body.flow.map((f) => f.category).sort()).toEqual(CATEGORIES);
    expect(isSortedDesc(res.body.flow.map((f) => f.volume_24h))).toBe(true);
    const categoryOf = await marketCategories(t);
    const fills = await rows<{ wallet: string; condition_id: string; ts: number; usd: number }>(
      t,
      `select f.wallet, f.condition_id, f.ts, f.usd / 1e6 as usd from fills f join wallet_stats s on s.wallet = f.wallet
        where ${SMART} and f.ts > ${t.now - 2 * DAY} and f.ts <= ${t.now}`,
    );
    const holdings = await rows<{ wallet: string; condition_id: string }>(
      t,
      `select distinct p.wallet, p.condition_id from positions p join wallet_stats s on s.wallet = p.wallet where ${SMART} and p.status = 'open' and p.shares > 0`,
    );
    let active = 0;
    for (const row of res.body.flow) {
      const mine = fills.filter((f) => categoryOf.get(f.condition_id) === row.category);
      const now = mine.filter((f) => f.ts > t.now - DAY);
      const vol = now.reduce((a, f) => a + f.usd, 0);
      const prev = mine.filter((f) => f.ts <= t.now - DAY).reduce((a, f) => a + f.usd, 0);
      expectServed(row.volume_24h, vol, AT.usd, 1, row.category);
      expectServed(row.volume_prev, prev, AT.usd, 1, row.category);
      if (prev > 0) expectServed(row.volume_delta_pct, (100 * (vol - prev)) / prev, AT.percent);
      else expect(row.volume_delta_pct).toBeNull();
      expect(row.markets).toBe(new Set(now.filter((f) => f.usd > 0).map((f) => f.condition_id)).size);
      expect(row.wallets_24h).toBe(new Set(now.filter((f) => f.usd > 0).map((f) => f.wallet)).size);
      expect(row.whales_now).toBe(
        new Set(holdings.filter((h) => categoryOf.get(h.condition_id) === row.category).map((h) => h.wallet)).size,
      );
      if (row.volume_24h > 0) active++;
    }
    expect(active).toBeGreaterThan(1);
  });
});

describe("GET /api/analytics/whale-clusters", () => {
  interface Cluster {
    market_id: string | null;
    condition_id: string;
    question: string | null;
    category: string | null;
    side: "YES" | "NO";
    whale_count: number;
    combined_usd: number;
    wallets: Array<{ wallet: string; name: string | null }>;
  }

  it("markets where at least 3 smart whales hold a net position of at least 100 USD on the same side", async () => {
    const res = await get<{ clusters: Cluster[] }>(t, "/api/analytics/whale-clusters?limit=100");
    expect(res.status).toBe(200);
    const nets = await rows<{ wallet: string; condition_id: string; net: number }>(
      t,
      `select p.wallet, p.condition_id, sum(case when p.outcome_index = 0 then 1 else -1 end * p.shares * p.avg_price) / 1e6 as net
         from positions p join wallet_stats s on s.wallet = p.wallet where ${SMART} and p.status = 'open' and p.shares > 0 group by p.wallet, p.condition_id`,
    );
    const groups = new Map<string, { wallets: string[]; usd: number }>();
    for (const n of nets) {
      if (Math.abs(n.net) < 100) continue;
      const key = `${n.condition_id}/${n.net > 0 ? "YES" : "NO"}`;
      const g = groups.get(key) ?? { wallets: [], usd: 0 };
      g.wallets.push(n.wallet);
      g.usd += Math.abs(n.net);
      groups.set(key, g);
    }
    const expected = [...groups].filter(([, g]) => g.wallets.length >= 3);
    expect(expected.length).toBeGreaterThan(0);
    expect(res.body.clusters).toHaveLength(Math.min(100, expected.length));
    for (const c of res.body.clusters) {
      const g = groups.get(`${c.condition_id}/${c.side}`)!;
      expect(g, c.condition_id).toBeDefined();
      expect(c.whale_count).toBe(g.wallets.length);
      expect(c.wallets.map((w) => w.wallet).sort()).toEqual([...g.wallets].sort());
      expectServed(c.combined_usd, g.usd, AT.usd);
      expect(c.question).toEqual(expect.any(String));
    }
    const counts = res.body.clusters.map((c) => c.whale_count);
    expect(isSortedDesc(counts)).toBe(true);
    const limited = await get<{ clusters: Cluster[] }>(t, "/api/analytics/whale-clusters?limit=2");
    expect(limited.body.clusters).toEqual(res.body.clusters.slice(0, 2));
    const defaults = await get<{ clusters: Cluster[] }>(t, "/api/analytics/whale-clusters");
    expect(defaults.body.clusters).toHaveLength(Math.min(20, expected.length));
  });

  it("serves each limit's answer for the rest of its 5-min window, and what the store holds from the next one", async () => {
    const start = t.clock.nowMs();
    const windowStart = Math.floor(start / 300_000) * 300_000;
    const first = (await get<{ clusters: Cluster[] }>(t, "/api/analytics/whale-clusters?limit=5")).body.clusters;
    // One whale of the first cluster closes its side there: that cluster loses it from the next window on.
    const { condition_id: market, wallets } = first[0]!;
    const whale = wallets[0]!.wallet;
    const where = `wallet = '${whale}' and condition_id = '${market}' and status = 'open' and shares > 0`;
    const closed = await rows<{ token_id: string }>(t, `select token_id from positions where ${where}`);
    const tokens = closed.map((r) => `'${r.token_id}'`).join(", ");
    await rows(t, updatePositionsSql(`status = ${POSITION_STATUS_CODE.closed}`, where));
    try {
      t.clock.set(windowStart + 299_000);
      expect((await get<{ clusters: Cluster[] }>(t, "/api/analytics/whale-clusters?limit=5")).body.clusters).toEqual(
        first,
      );
      expect((await get<{ clusters: Cluster[] }>(t, "/api/analytics/whale-clusters?limit=3")).body.clusters).toEqual(
        first.slice(0, 3),
      );
      t.clock.set(windowStart + 300_000);
      const next = (await get<{ clusters: Cluster[] }>(t, "/api/analytics/whale-clusters?limit=5")).body.clusters;
      const same = next.find((c) => c.condition_id === market && c.side === first[0]!.side);
      if (same) expect(same.wallets.map((w) => w.wallet)).not.toContain(whale);
      expect(next.length).toBeGreaterThan(0);
    } finally {
      await rows(
        t,
        updatePositionsSql(`status = ${POSITION_STATUS_CODE.open}`, `wallet = '${whale}' and token_id in (${tokens})`),
      );
      t.clock.set(start);
    }
  });

  it("limit is 1..100", async () => {
    await expect422(t, "/api/analytics/whale-clusters?limit=101", "limit");
    await expect422(t, "/api/analytics/whale-clusters?limit=0", "limit");
  });
});

describe("GET /api/analytics/top-movers", () => {
  it("the wallets (never farmers) whose P&L rose most over 7 days, with a daily sparkline", async () => {
    const res = await get<{ winners: Mover[]; days: number }>(t, "/api/analytics/top-movers?limit=50");
    expect(res.status).toBe(200);
    expect(res.body.days).toBe(7);
    const pnlAt = await dailyPnlAt(t.store);
    const expected = (
      await rows<{ wallet: string; win_rate: number; closed: number }>(
        t,
        "select s.wallet, s.win_rate, s.wins + s.losses as closed from wallet_stats s where s.is_farmer = 0",
      )
    )
      .map((s) => ({
        ...s,
        now: pnlAt(s.wallet, t.now),
        delta: pnlAt(s.wallet, t.now) - pnlAt(s.wallet, t.now - 7 * DAY),
      }))
      .filter((s) => s.delta > 0)
      .sort((a, b) => b.delta - a.delta || (a.wallet < b.wallet ? -1 : 1))
      .slice(0, 50);
    expect(expected.length).toBeGreaterThan(3);
    expect(res.body.winners.map((w) => w.wallet)).toEqual(expected.map((e) => e.wallet));
    for (const [i, w] of res.body.winners.entries()) {
      expectServed(w.pnl_now, expected[i]!.now, AT.usd);
      expectServed(w.delta, expected[i]!.delta, AT.usd);
      expect(w.closed_count).toBe(expected[i]!.closed);
      expect(w.sparkline).toHaveLength(8);
      // The sparkline is written to four decimals (it is also a price curve elsewhere), P&L and delta to cents.
      expectServed(w.sparkline[7], expected[i]!.now, AT.price);
      expectServed(w.delta, w.sparkline[7]! - w.sparkline[0]!, AT.usd, [AT.price, AT.price]);
      expectServed(w.sparkline[3], pnlAt(w.wallet, t.now - 4 * DAY), AT.price);
    }
    expect((await get<{ winners: Mover[] }>(t, "/api/analytics/top-movers")).body.winners).toHaveLength(
      Math.min(10, expected.length),
    );
  });

  it("limit is 1..50", async () => {
    await expect422(t, "/api/analytics/top-movers?limit=51", "limit");
    await expect422(t, "/api/analytics/top-movers?limit=0", "limit");
  });
});

describe("GET /api/analytics/whale-volume-24h", () => {
  it("24 hourly items, oldest first, ending with the current hour; volumes recomputed from fills", async () => {
    const res = await get<{ series: Array<{ hour: string; yes_volume: number; no_volume: number; trades: number }> }>(
      t,
      "/api/analytics/whale-volume-24h",
    );
    expect(res.status).toBe(200);
    const series = res.body.series;
    expect(series).toHaveLength(24);
    const current = Math.floor(t.now / HOUR) * HOUR;
    expect(series[23]!.hour).toBe(new Date(current * 1000).toISOString().replace(".000Z", "Z"));
    for (const [i, item] of series.entries()) {
      expect(item.hour).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:00:00Z$/);
      const start = Date.parse(item.hour) / 1000;
      expect(start).toBe(current - (23 - i) * HOUR);
      const [e] = await rows<{ yes: number | null; no: number | null; n: number }>(
        t,
        `select sum(case when f.outcome_index = 0 then f.usd end) / 1e6 as yes, sum(case when f.outcome_index = 1 then f.usd end) / 1e6 as no, count(*) as n
           from fills f join wallet_stats s on s.wallet = f.wallet where ${SMART} and f.ts >= ${start} and f.ts < ${start + HOUR} and f.ts <= ${t.now}`,
      );
      expectServed(item.yes_volume, e!.yes ?? 0, AT.usd, 1, item.hour);
      expectServed(item.no_volume, e!.no ?? 0, AT.usd, 1, item.hour);
      expect(item.trades, item.hour).toBe(e!.n);
    }
    expect(series.filter((s) => s.trades > 0).length).toBeGreaterThan(5);
  });
});

describe("conventions", () => {
  it.each(["/api/analytics/smart-money-flow", "/api/analytics/whale-volume-24h"])(
    "%s takes no parameters (422 on an unknown one)",
    async (path) => {
      await expect422(t, `${path}?hours=48`, "hours");
    },
  );

  it("lists the analytics paths in /api/openapi.json", async () => {
    const paths = await openApiPaths(t);
    for (const p of ["smart-money-flow", "whale-clusters", "top-movers", "whale-volume-24h"])
      expect(paths).toContain(`/api/analytics/${p}`);
  });
});
