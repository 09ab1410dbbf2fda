/** GET /api/public/v1/market/{market_id}: Premium; consensus and the three rankings against the stored positions. */
import { AT, expectServed, servedAs } from "../support/served-numbers.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createKey } from "../../src/accounts/keys.js";
import type { WorldApp } from "../support/world-app.js";
import { getJson, isSortedDesc, netPositions, openMarketsWorld, rows } from "../support/api/markets.js";

let t: WorldApp;
let premium: string;
let free: string;
let market: { id: string; condition_id: string; price_yes: number };

beforeAll(async () => {
  t = await openMarketsWorld();
  premium = (await createKey(t.store.db, { account: "market-reader", plan: "premium", now: t.clock.now() })).key;
  free = (await createKey(t.store.db, { account: "market-browser", plan: "free", now: t.clock.now() })).key;
  [market] = (await rows<typeof market>(
    t,
    `select m.id, m.condition_id, m.price_yes from market_stats s join markets m on m.condition_id = s.condition_id
     order by (case when s.whales_yes > 0 and s.whales_no > 0 then 1 else 0 end) desc, s.whales_yes + s.whales_no desc, m.id limit 1`,
  )) as [typeof market];
}, 120_000);
afterAll(async () => t?.close());

const get = (url: string, headers: Record<string, string> = { authorization: `Bearer ${premium}` }) =>
  getJson(t, url, headers);

describe("GET /api/public/v1/market/{market_id}", () => {
  it("is Premium: 401 without or with a bad key, 403 on the free plan, 200 with either header", async () => {
    const url = `/api/public/v1/market/${market.id}`;
    expect((await get(url, {})).status).toBe(401);
    expect((await get(url, { "x-api-key": "pelagic_nope" })).status).toBe(401);
    expect((await get(url, { "x-api-key": free })).status).toBe(403);
    expect((await get(url, { "x-api-key": premium })).status).toBe(200);
    expect((await get(url)).status).toBe(200);
  });

  it("answers the market and whale head-counts recomputed from open positions", async () => {
    const body = (await get(`/api/public/v1/market/${market.condition_id}`)).body;
    const [m] = await rows<any>(t, `select * from markets where id = '${market.id}'`);
    expect(body.market).toMatchObject({
      id: m.id,
      question: m.question,
      price_yes: servedAs(m.price_yes, AT.price),
      price_no: servedAs(m.price_no, AT.price),
    });
    expect(typeof body.market.volume).toBe("number");

    const min = t.config.whales.consensusMinUsd;
    const positions = await netPositions(t, market.condition_id);
    const smart = positions.filter((p) => p.is_smart === 1 && p.is_farmer !== 1);
    const yes = smart.filter((p) => p.yes_cost - p.no_cost >= min);
    const no = smart.filter((p) => p.no_cost - p.yes_cost >= min);
    expect(yes.length).toBeGreaterThan(0);
    expect(no.length).toBeGreaterThan(0);
    expect(body.whales).toEqual({
      yes: yes.length,
      no: no.length,
      total: yes.length + no.length,
      yes_pct: servedAs((100 * yes.length) / (yes.length + no.length), AT.percent),
    });
    expect(body.yes_total_count).toBe(yes.length);
    expect(body.no_total_count).toBe(no.length);
    const yesInvested = yes.reduce((s, p) => s + p.yes_cost, 0);
    expectServed(body.yes_total_invested, yesInvested, AT.usd);
    expectServed(
      body.no_total_invested,
      no.reduce((s, p) => s + p.no_cost, 0),
      AT.usd,
    );

    const rates = await rows<{ wallet: string; win_rate: number }>(t, "select wallet, win_rate from wallet_stats");
    const rate = new Map(rates.map((r) => [r.wallet, r.win_rate]));
    expectServed(body.yes_team_avg_wr, yes.reduce((s, p) => s + rate.get(p.wallet)!, 0) / yes.length, AT.percent);
    const yesPnl = yes.reduce((s, p) => s + p.yes_shares * market.price_yes - p.yes_cost, 0);
    expectServed(body.yes_team_agg_pnl, yesPnl, AT.usd);
    expectServed(body.yes_team_agg_pnl_pct, (100 * yesPnl) / yesInvested, AT.percent);
  });

  it("ranks the Smart Money teams by USD invested, without farmers", async () => {
    const body = (await get(`/api/public/v1/market/${market.id}`)).body;
    const farmers = new Set(
      (await rows<{ wallet: string }>(t, "select wallet from wallet_stats where is_farmer = 1")).map((r) => r.wallet),
    );
    for (const side of ["yes", "no"] as const) {
      const team = body[`${side}_team`];
      expect(team.length).toBe(Math.min(10, body[`${side}_total_count`]));
      expect(isSortedDesc(team.map((r: any) => r.cost))).toBe(true);
      for (const row of team) {
        expect(Object.keys(row).sort()).toEqual([
          "avg_price",
          "cost",
          "global_pnl",
          "is_smart",
          "name",
          "pnl",
          "pnl_pct",
          "shares",
          "side",
          "wallet",
          "win_rate",
        ]);
        expect(row).toMatchObject({ side: side.toUpperCase(), is_smart: true });
        expect(farmers.has(row.wallet)).toBe(false);
      }
    }
  });

  it("ranks every holder by size and by shares, with their aggregates", async () => {
    const body = (await get(`/api/public/v1/market/${market.id}`)).body;
    const holders = await rows<{ wallet: string; shares: number; cost: number; win_rate: number | null }>(
      t,
      `select p.wallet, p.shares / 1000000.0 as shares, p.shares * p.avg_price / 1000000.0 as cost, s.win_rate
       from positions p left join wallet_stats s on s.wallet = p.wallet
       where p.condition_id = '${market.condition_id}' and p.status = 'open' and p.shares > 0 and p.outcome_index = 1`,
    );
    expect(body.no_size_total_count).toBe(holders.length);
    expectServed(
      body.no_size_total_invested,
      holders.reduce((s, h) => s + h.cost, 0),
      AT.usd,
    );
    const withRate = holders.filter((h) => h.win_rate !== null);
    expectServed(body.no_size_avg_wr, withRate.reduce((s, h) => s + h.win_rate!, 0) / withRate.length, AT.percent);
    const price = 1 - market.price_yes;
    expectServed(
      body.no_size_agg_pnl,
      holders.reduce((s, h) => s + h.shares * price - h.cost, 0),
      AT.usd,
    );

    const bySize = [...holders].sort((a, b) => b.cost - a.cost).slice(0, 10);
    expect(body.no_team_size.map((r: any) => r.wallet)).toEqual(bySize.map((h) => h.wallet));
    const byShares = [...holders].sort((a, b) => b.shares - a.shares).slice(0, 10);
    expect(body.no_team_shares.map((r: any) => r.wallet)).toEqual(byShares.map((h) => h.wallet));
    expectServed(
      body.no_shares_agg_pnl,
      byShares.reduce((s, h) => s + h.shares * price - h.cost, 0),
      AT.usd,
    );
    const shownRates = byShares.filter((h) => h.win_rate !== null);
    expectServed(
      body.no_shares_avg_wr,
      shownRates.reduce((s, h) => s + h.win_rate!, 0) / shownRates.length,
      AT.percent,
    );
    expect(body.no_team_size.some((r: any) => !r.is_smart)).toBe(true);
  });

  it("answers 404 for unknown or malformed ids and 422 for query parameters", async () => {
    for (const id of ["999999999", `0x${"cd".repeat(32)}`, "bad id"])
      expect((await get(`/api/public/v1/market/${encodeURIComponent(id)}`)).status, id).toBe(404);
    expect((await get(`/api/public/v1/market/${market.id}?limit=5`)).status).toBe(422);
  });
});
