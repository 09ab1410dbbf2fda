/**
 * Big positions, conviction clusters and whale flips over a hand-built world: positions and daily snapshots written
 * directly, every expected answer worked out by hand in the comments (NOW = 2026-06-10 12:00 UTC), and who may call.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createKey } from "../../src/accounts/keys.js";
import { storeBackends } from "../support/backends.js";
import {
  DAY,
  NOW,
  TODAY,
  addEvent,
  addMarket,
  addPosition,
  addSnapshot,
  addWhale,
  condition,
  openWhaleWorld,
  type WhaleWorld,
} from "../support/api/whale-world.js";

const PREMIUM_V2 = [
  "/api/v2/whale-alerts",
  "/api/v2/whale-alerts/summary",
  "/api/v2/whale-alerts/big-positions",
  "/api/v2/whale-alerts/big-positions/summary",
  "/api/v2/whales/recent-trades",
  "/api/v2/whale-flips",
  "/api/v2/conviction-clusters",
];
const PREMIUM_V1 = ["/api/public/v1/whale-flips", "/api/public/v1/conviction-clusters"];

describe.each(storeBackends)("whale positions over a hand-built world on $kind", (backend) => {
  let w: WhaleWorld;
  let A: string, B: string, C: string, D: string;

  beforeAll(async () => {
    w = await openWhaleWorld(backend);
    await addEvent(w, { id: "e1", slug: "e1-slug", title: "Election" });
    await addEvent(w, { id: "e2", slug: "e2-slug", title: "Cup" });
    for (const [n, eventId, category, priceYes] of [
      [1, "e1", "POLITICS", 0.6],
      [2, "e1", "POLITICS", 0.3],
      [3, "e1", "POLITICS", 0.5],
      [4, "e2", "SPORTS", 0.8],
      [5, "e2", "SPORTS", 0.1],
    ] as const) {
      await addMarket(w, { n, eventId, category, priceYes });
    }
    await addMarket(w, { n: 6, category: "CRYPTO", priceYes: null });
    A = await addWhale(w, { n: 1, name: "alpha", winRate: 70, totalPnl: 5_000_000 });
    B = await addWhale(w, { n: 2, name: "bravo", winRate: 65, totalPnl: 2_000_000 });
    C = await addWhale(w, { n: 3, name: "charlie", winRate: 58, totalPnl: 900_000 });
    D = await addWhale(w, { n: 4, name: null, winRate: 61, totalPnl: 300_000 });
    const F = await addWhale(w, { n: 5, farmer: true });
    const N = await addWhale(w, { n: 6, smart: false });
    const open = (wallet: string, market: number, outcome: 0 | 1, shares: number, avgPrice: number) =>
      addPosition(w, { wallet, market, outcome, shares, avgPrice });
    // Costs (shares × average price) in the comments; a net is YES cost − NO cost.
    await open(A, 1, 0, 1_500_000, 0.4); // 600,000
    await open(A, 1, 1, 100_000, 0.5); // 50,000: A's m1 net +550,000
    await open(A, 2, 0, 1_000_000, 0.2); // 200,000
    await addPosition(w, { wallet: A, market: 3, outcome: 0, shares: 4_000_000, avgPrice: 0.5, status: "closed" });
    await open(A, 4, 0, 400, 0.5); // 200
    await open(A, 5, 0, 300, 0.5); // 150
    await open(B, 4, 1, 2_000_000, 0.35); // 700,000 NO
    await open(B, 2, 0, 1_000, 0.5); // 500
    await open(B, 3, 0, 400, 0.5); // 200
    await open(B, 5, 1, 1_000, 0.5); // 500 NO
    await open(C, 6, 0, 1_000_000, 0.55); // 550,000
    await open(C, 1, 0, 1_000, 0.5); // 500
    await open(C, 3, 0, 300, 0.5); // 150
    await open(C, 3, 1, 100, 0.5); // 50: C's m3 net +100, exactly the consensus minimum
    await open(C, 4, 0, 1_000, 0.5); // 500
    await open(C, 5, 0, 1_000, 0.5); // 500
    await open(D, 5, 0, 1_000_000, 0.5); // 500,000
    await open(D, 1, 0, 1_000, 0.5); // 500
    await open(D, 2, 1, 1_000, 0.5); // 500 NO
    await open(D, 4, 0, 1_000, 0.5); // 500
    for (const m of [1, 2, 3]) await open(F, m, 0, m === 1 ? 5_000_000 : 1_000, 0.5); // a farmer: never counted
    for (const m of [1, 2, 3]) await open(N, m, 1, m === 1 ? 3_000_000 : 1_000, 0.5); // not Smart Money: never counted
    const snap = (days: number, wallet: string, market: number, yesCost: number, noCost: number) =>
      addSnapshot(w, { day: TODAY - days * DAY, wallet, market, yesCost, noCost });
    // 2026-06-03 (7 days back)
    await snap(7, A, 1, 0, 300_000); // −300,000 → +550,000: flip, swing 850,000
    await snap(7, B, 4, 160_000, 0); // +160,000 → −700,000: flip, 860,000
    await snap(7, C, 6, 0, 100_000); // → +550,000: flip, 650,000
    await snap(7, C, 3, 0, 300_000); // → +100: flip, 300,100
    await snap(7, B, 2, 0, 250_000); // → +500: flip, 250,500
    await snap(7, A, 2, 0, 10_000); // → +200,000: flip, 210,000
    await snap(7, C, 1, 0, 150_000); // → +500: swing 150,500, under 200,000
    await snap(7, D, 2, 0, 150_000); // → −500: same side
    await snap(7, D, 3, 300_000, 0); // → nothing held: left, no flip
    await snap(7, A, 3, 0, 300_000); // → closed: no flip
    await snap(7, F, 1, 0, 1_000_000); // a farmer
    await snap(7, N, 1, 1_000_000, 0); // not Smart Money
    // 2026-06-07 (3 days back)
    await snap(3, D, 5, 0, 250_000); // → +500,000: flip, 750,000
    await snap(3, A, 1, 600_000, 0); // same side
    // 2026-06-09 (yesterday)
    await snap(1, B, 4, 300_000, 0); // → −700,000: flip, 1,000,000
    await snap(1, A, 1, 700_000, 0); // same side
    await snap(1, C, 6, 0, 10); // −10 stands on no team
    // Today's own snapshot is never compared with.
    await snap(0, A, 1, 0, 900_000);
  }, 60_000);
  afterAll(async () => w?.close());

  describe("access", () => {
    it("Premium /api/v2 routes read X-API-Key only: 401 without it or with Bearer alone, 403 on a free plan", async () => {
      const free = (await createKey(w.store.db, { account: "whale-free", plan: "free", now: NOW })).key;
      for (const url of PREMIUM_V2) {
        expect((await w.get(url, {})).status, url).toBe(401);
        expect((await w.get(url, { authorization: `Bearer ${w.key}` })).status, url).toBe(401);
        expect((await w.get(url, { "x-api-key": free })).status, url).toBe(403);
        expect((await w.get(url)).status, url).toBe(200);
      }
      for (const url of PREMIUM_V1) {
        expect((await w.get(url, {})).status, url).toBe(401);
        expect((await w.get(url, { authorization: `Bearer ${free}` })).status, url).toBe(403);
        expect((await w.get(url, { authorization: `Bearer ${w.key}` })).status, url).toBe(200);
        expect((await w.get(url, { "X-API-Key": w.key })).status, url).toBe(200);
      }
    });
  });

  describe("big positions", () => {
    it("lists the smart whales' open positions of at least 500,000 USD at cost, one row per wallet and market, largest first", async () => {
      const res = await w.get("/api/v2/whale-alerts/big-positions");
      expect(res.status).toBe(200);
      // The farmer's 2,500,000 and the non-whale's 1,500,000 are left out; D's 500,000 is on the floor, so in.
      expect(res.body.items.map((i: any) => [i.wallet, i.condition_id, i.side])).toEqual([
        [B, condition(4), "NO"],
        [A, condition(1), "YES"],
        [C, condition(6), "YES"],
        [D, condition(5), "YES"],
      ]);
      expect(res.body).toMatchObject({ count: 4, total: 4, min_usd: 500_000, category: null });
      const [b, a, c, d] = res.body.items;
      expect(a).toMatchObject({
        wallet_name: "alpha",
        market_title: "Question 1?",
        size: 1_500_000,
        avg_price: 0.4,
        current_price: 0.6,
        market_id: "1001",
        category: "POLITICS",
        win_rate: 70,
        total_pnl: 5_000_000,
      });
      expect(a.cost_basis).toBeCloseTo(600_000, 6);
      expect(a.value_usd).toBeCloseTo(900_000, 6);
      expect(a.unrealized_pnl).toBeCloseTo(300_000, 6);
      expect(b).toMatchObject({
        wallet_name: "bravo",
        side: "NO",
        size: 2_000_000,
        avg_price: 0.35,
        category: "SPORTS",
      });
      expect(b.current_price).toBeCloseTo(0.2, 9);
      expect(b.cost_basis).toBeCloseTo(700_000, 6);
      expect(b.value_usd).toBeCloseTo(400_000, 6);
      expect(c).toMatchObject({ current_price: null, value_usd: null, unrealized_pnl: null, category: "CRYPTO" });
      expect(d).toMatchObject({ wallet_name: null, cost_basis: 500_000, current_price: 0.1 });
    });

    it("filters by floor and category, and limits", async () => {
      const rows = async (query: string) => (await w.get(`/api/v2/whale-alerts/big-positions${query}`)).body;
      expect((await rows("?min_usd=600000")).items.map((i: any) => i.wallet)).toEqual([B, A]);
      expect((await rows("?category=Sports")).items.map((i: any) => i.wallet)).toEqual([B, D]);
      const limited = await rows("?limit=2");
      expect(limited.items.map((i: any) => i.wallet)).toEqual([B, A]);
      expect(limited).toMatchObject({ count: 2, total: 4 });
      // Every (wallet, market) of the four whales: A 4 (m3 closed), B 4, C 5, D 4.
      const everything = await rows("?min_usd=0&limit=200");
      expect(everything.total).toBe(17);
      expect(everything.items.find((i: any) => i.wallet === C && i.condition_id === condition(3))).toMatchObject({
        side: "YES",
        size: 300,
      });
      for (const q of ["limit=201", "limit=0", "min_usd=-1", "category=weather"])
        expect((await w.get(`/api/v2/whale-alerts/big-positions?${q}`)).status, q).toBe(422);
    });

    it("sums them: count, held value (at cost without a price), the largest, the top whale", async () => {
      const all = (await w.get("/api/v2/whale-alerts/big-positions/summary")).body;
      expect(all.total_positions).toBe(4);
      expect(all.total_value_usd).toBeCloseTo(400_000 + 900_000 + 550_000 + 100_000, 4);
      expect(all.total_cost_basis_usd).toBeCloseTo(2_350_000, 4);
      expect(all.biggest_position).toMatchObject({ wallet: B, condition_id: condition(4) });
      expect(all.top_whale).toMatchObject({ wallet: B, name: "bravo", positions: 1 });
      expect(all.top_whale.cost_basis_usd).toBeCloseTo(700_000, 4);
      expect(all).toMatchObject({ min_usd: 500_000, category: null });
      const sports = (await w.get("/api/v2/whale-alerts/big-positions/summary?category=SPORTS")).body;
      expect(sports.total_positions).toBe(2);
      expect(sports.total_value_usd).toBeCloseTo(500_000, 4);
      expect(sports.total_cost_basis_usd).toBeCloseTo(1_200_000, 4);
      const none = (await w.get("/api/v2/whale-alerts/big-positions/summary?category=Economics")).body;
      expect(none).toMatchObject({ total_positions: 0, total_value_usd: 0, biggest_position: null, top_whale: null });
      expect((await w.get("/api/v2/whale-alerts/big-positions/summary?min_usd=1")).status).toBe(422);
    });
  });

  describe("conviction clusters", () => {
    it("finds events where at least 3 whales each stand on one side of at least 2 markets", async () => {
      const res = await w.get("/api/v2/conviction-clusters");
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ count: 2, min_whales: 3, min_markets: 2 });
      const [e1, e2] = res.body.clusters;
      // e1 YES: A (m1 550,000 + m2 200,000), B (m2 500 + m3 200), C (m1 500 + m3 100). D stands on m1 only; F and N never count.
      expect(e1).toMatchObject({
        event_slug: "e1-slug",
        event_title: "Election",
        side: "YES",
        whale_count: 3,
        market_count: 3,
      });
      expect(e1.total_capital_usd).toBeCloseTo(751_300, 4);
      expect(e1.whales.map((x: any) => [x.wallet, x.name, x.wr, x.pnl, Math.round(x.capital_usd), x.markets])).toEqual([
        [A, "alpha", 70, 5_000_000, 750_000, 2],
        [B, "bravo", 65, 2_000_000, 700, 2],
        [C, "charlie", 58, 900_000, 600, 2],
      ]);
      expect(e1.markets.map((m: any) => [m.market_id, m.question, m.whale_count, Math.round(m.capital_usd)])).toEqual([
        ["1001", "Question 1?", 2, 550_500],
        ["1002", "Question 2?", 2, 200_500],
        ["1003", "Question 3?", 2, 300],
      ]);
      // e2 YES: D (m5 500,000 + m4 500), C (500 + 500), A (200 + 150); B stands on NO alone.
      expect(e2).toMatchObject({ event_slug: "e2-slug", side: "YES", whale_count: 3, market_count: 2 });
      expect(e2.total_capital_usd).toBeCloseTo(501_850, 4);
      expect(e2.whales.map((x: any) => x.wallet)).toEqual([D, C, A]);
      expect(e2.markets.map((m: any) => m.market_id)).toEqual(["1005", "1004"]);
    });

    it("applies min_whales and limit; the public v1 route answers the same", async () => {
      const slugs = async (url: string) =>
        (await w.get(url)).body.clusters.map((c: any) => `${c.event_slug}/${c.side}`);
      expect(await slugs("/api/v2/conviction-clusters?min_whales=1")).toEqual([
        "e1-slug/YES",
        "e2-slug/YES",
        "e2-slug/NO",
      ]);
      expect(await slugs("/api/v2/conviction-clusters?min_whales=4")).toEqual([]);
      expect(await slugs("/api/v2/conviction-clusters?limit=1")).toEqual(["e1-slug/YES"]);
      expect((await w.get("/api/public/v1/conviction-clusters")).body.clusters).toEqual(
        (await w.get("/api/v2/conviction-clusters")).body.clusters,
      );
      for (const path of ["/api/v2/conviction-clusters", "/api/public/v1/conviction-clusters"]) {
        for (const q of ["min_whales=0", "min_whales=101", "limit=101", "limit=0"])
          expect((await w.get(`${path}?${q}`)).status, `${path}?${q}`).toBe(422);
      }
    });
  });

  describe("whale flips", () => {
    const flips = async (url: string) => (await w.get(url)).body;
    const summary = (body: any) =>
      body.flips.map((f: any) => [f.wallet, f.condition_id, f.old_side, f.new_side, Math.round(f.swing_usd)]);

    it("compares the snapshot of `days` back with the positions now: sign reversals of at least 200,000 swing, largest first", async () => {
      const body = await flips("/api/v2/whale-flips");
      expect(body).toMatchObject({
        lookback_days: 7,
        comparison_date: "2026-06-03",
        count: 6,
        total: 6,
        min_swing_usd: 200_000,
      });
      expect(summary(body)).toEqual([
        [B, condition(4), "YES", "NO", 860_000],
        [A, condition(1), "NO", "YES", 850_000],
        [C, condition(6), "NO", "YES", 650_000],
        [C, condition(3), "NO", "YES", 300_100],
        [B, condition(2), "NO", "YES", 250_500],
        [A, condition(2), "NO", "YES", 210_000],
      ]);
      const b = body.flips[0];
      expect(b).toMatchObject({
        display_name: "bravo",
        market_id: "1004",
        question: "Question 4?",
        win_rate: 65,
        lifetime_pnl: 2_000_000,
      });
      expect(b.old_size_usd).toBeCloseTo(160_000, 6);
      expect(b.new_size_usd).toBeCloseTo(700_000, 6);
      expect(summary(await flips("/api/v2/whale-flips?limit=2"))).toHaveLength(2);
      expect(await flips("/api/v2/whale-flips?limit=2")).toMatchObject({ count: 2, total: 6 });
    });

    it("clamps the comparison back to the latest snapshot at or before `days` before today, never today's", async () => {
      const at = async (query: string) => {
        const body = await flips(`/api/v2/whale-flips?${query}`);
        return [body.comparison_date, summary(body)];
      };
      expect(await at("days=1")).toEqual(["2026-06-09", [[B, condition(4), "YES", "NO", 1_000_000]]]);
      expect(await at("days=2")).toEqual(["2026-06-07", [[D, condition(5), "NO", "YES", 750_000]]]);
      expect(await at("days=3")).toEqual(["2026-06-07", [[D, condition(5), "NO", "YES", 750_000]]]);
      expect((await at("days=4"))[0]).toBe("2026-06-03");
      expect(await at("days=8")).toEqual([null, []]);
      expect(await at("days=35")).toEqual([null, []]);
      for (const q of ["days=36", "days=0", "limit=101"])
        expect((await w.get(`/api/v2/whale-flips?${q}`)).status, q).toBe(422);
    });

    it("public v1: one day back by default, at most 14", async () => {
      const body = await flips("/api/public/v1/whale-flips");
      expect(body).toMatchObject({ lookback_days: 1, comparison_date: "2026-06-09" });
      expect(summary(body)).toEqual([[B, condition(4), "YES", "NO", 1_000_000]]);
      expect((await flips("/api/public/v1/whale-flips?days=7")).flips).toEqual(
        (await flips("/api/v2/whale-flips")).flips,
      );
      expect((await w.get("/api/public/v1/whale-flips?days=14")).status).toBe(200);
      for (const q of ["days=15", "days=0", "limit=101"])
        expect((await w.get(`/api/public/v1/whale-flips?${q}`)).status, q).toBe(422);
    });

    it("keeps each answer for the clock hour", async () => {
      // D's m4: −300,000 seven days back, +500 now: a flip of 300,500, seen only from the next hour on.
      await addSnapshot(w, { day: TODAY - 7 * DAY, wallet: D, market: 4, yesCost: 0, noCost: 300_000 });
      expect((await flips("/api/v2/whale-flips")).total).toBe(6);
      w.clock.set((NOW + 3_600) * 1000);
      await vi.waitFor(async () => expect((await flips("/api/v2/whale-flips")).total).toBe(7));
      expect(summary(await flips("/api/v2/whale-flips"))[3]).toEqual([D, condition(4), "NO", "YES", 300_500]);
    });
  });
});

describe.each(storeBackends)("big positions kept serialized on $kind", (backend) => {
  let w: WhaleWorld;
  let A: string;
  beforeAll(async () => {
    w = await openWhaleWorld(backend);
    await addMarket(w, { n: 1, category: "POLITICS", priceYes: 0.6 });
    await addMarket(w, { n: 2, category: "POLITICS", priceYes: 0.25 });
    A = await addWhale(w, { n: 1, name: "alpha" });
    await addPosition(w, { wallet: A, market: 1, outcome: 0, shares: 2_000_000, avgPrice: 0.5 }); // 1,000,000
  }, 60_000);
  afterAll(async () => w?.close());

  it("answers from the holdings copy it was kept under until the copy is read again (WHALE_HOLDINGS_REFRESH_SECONDS)", async () => {
    const sizes = async (url: string) => (await w.get(url)).body;
    const big = "/api/v2/whale-alerts/big-positions";
    const summary = "/api/v2/whale-alerts/big-positions/summary";
    expect((await sizes(big)).items.map((i: any) => i.size)).toEqual([2_000_000]);
    expect((await sizes(summary)).total_positions).toBe(1);
    // A second position of the whale, 3,000,000 × 0.5 = 1,500,000: not in the copy read at NOW, so not in the kept
    // answers either.
    await addPosition(w, { wallet: A, market: 2, outcome: 0, shares: 3_000_000, avgPrice: 0.5 });
    expect((await sizes(big)).items.map((i: any) => i.size)).toEqual([2_000_000]);
    expect((await sizes(summary)).total_positions).toBe(1);
    // Once the copy is older than its refresh, it is read again, and both answers follow it.
    w.clock.set((NOW + 61) * 1000);
    await vi.waitFor(async () =>
      expect((await sizes(big)).items.map((i: any) => i.size)).toEqual([3_000_000, 2_000_000]),
    );
    expect((await sizes(summary)).total_positions).toBe(2);
  });
});
