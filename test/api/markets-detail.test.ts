/** /api/v2/market/{market_id}[/trades|/lookup|/breakdown] and /api/v2/pm/{market_id} over the simulated world. */
import { AT, expectServed, servedAs } from "../support/served-numbers.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { findMarket, venueUrl } from "../../src/analytics/markets/market-detail.js";
import { marketIndex } from "../../src/analytics/markets/market-index.js";
import { BackgroundWork } from "../../src/platform/background-work.js";
import { writeSmartWallets } from "../../src/store/smart-wallets.js";
import { sql } from "kysely";
import type { WorldApp } from "../support/world-app.js";
import { getJson, isSortedDesc, netPositions, openMarketsWorld, rows } from "../support/api/markets.js";

let t: WorldApp;
/** The market with the most whales (both teams when possible), and a market without an event is not in this world. */
let market: {
  id: string;
  condition_id: string;
  slug: string;
  event_id: string;
  event_slug: string;
  price_yes: number;
  closed: number;
};
const UNKNOWN = ["999999999", `0x${"ab".repeat(32)}`, "no-such-market", "not a market!", "0x1234"];

beforeAll(async () => {
  t = await openMarketsWorld();
  [market] = (await rows<typeof market>(
    t,
    `select m.id, m.condition_id, m.slug, m.event_id, e.slug as event_slug, m.price_yes, m.closed
     from market_stats s join markets m on m.condition_id = s.condition_id join events e on e.id = m.event_id
     order by (case when s.whales_yes > 0 and s.whales_no > 0 then 1 else 0 end) desc, s.whales_yes + s.whales_no desc, m.id limit 1`,
  )) as [typeof market];
}, 120_000);
afterAll(async () => t?.close());

describe("GET /api/v2/market/{market_id}", () => {
  it("answers prices, the whale consensus recomputed from open positions, top traders and the event group", async () => {
    const res = await getJson(t, `/api/v2/market/${market.id}`);
    expect(res.status).toBe(200);
    const body = res.body;
    expect(body.market).toMatchObject({ id: market.id, condition_id: market.condition_id, slug: market.slug });
    expectServed(body.prices.yes, market.price_yes, AT.price);

    const min = t.config.whales.consensusMinUsd;
    const smart = (await netPositions(t, market.condition_id)).filter((p) => p.is_smart === 1 && p.is_farmer !== 1);
    const yesTeam = smart.filter((p) => p.yes_cost - p.no_cost >= min);
    const noTeam = smart.filter((p) => p.no_cost - p.yes_cost >= min);
    expect(yesTeam.length + noTeam.length).toBeGreaterThan(1);
    expect(body.consensus.whales).toEqual({
      yes: yesTeam.length,
      no: noTeam.length,
      total: yesTeam.length + noTeam.length,
      yes_pct: servedAs((100 * yesTeam.length) / (yesTeam.length + noTeam.length), AT.percent),
    });
    const [stats] = await rows<{ whales_yes: number; whales_no: number }>(
      t,
      `select whales_yes, whales_no from market_stats where condition_id = '${market.condition_id}'`,
    );
    expect([body.consensus.whales.yes, body.consensus.whales.no]).toEqual([stats!.whales_yes, stats!.whales_no]);
    expectServed(
      body.consensus.yes_invested,
      yesTeam.reduce((s, p) => s + p.yes_cost, 0),
      AT.usd,
    );
    expectServed(
      body.consensus.no_invested,
      noTeam.reduce((s, p) => s + p.no_cost, 0),
      AT.usd,
    );
    expect(body.consensus.yes_team.length).toBe(Math.min(10, yesTeam.length));
    expect(body.consensus.no_team.map((r: any) => r.wallet).sort()).toEqual(
      [...noTeam]
        .sort((a, b) => b.no_cost - a.no_cost)
        .slice(0, 10)
        .map((p) => p.wallet)
        .sort(),
    );
    expect(isSortedDesc(body.consensus.no_team.map((r: any) => r.cost))).toBe(true);

    const yesHolders = (await netPositions(t, market.condition_id)).filter((p) => p.yes_shares > 0);
    expect(body.top_traders.yes.length).toBe(Math.min(10, yesHolders.length));
    expect(isSortedDesc(body.top_traders.yes.map((r: any) => r.cost))).toBe(true);
    expect(body.top_traders.yes.every((r: any) => r.side === "YES")).toBe(true);

    const siblings = await rows<{ id: string }>(t, `select id from markets where event_id = '${market.event_id}'`);
    expect(body.event_group).toMatchObject({ event_id: market.event_id, event_slug: market.event_slug });
    expect(body.event_group.markets.map((m: any) => m.id).sort()).toEqual(siblings.map((s) => s.id).sort());
    expect(isSortedDesc(body.event_group.markets.map((m: any) => m.price_yes ?? -1))).toBe(true);
  });

  it("a row of a team holds the position's numbers and the wallet's statistics", async () => {
    const body = (await getJson(t, `/api/v2/market/${market.condition_id}`)).body;
    const row = [...body.consensus.yes_team, ...body.consensus.no_team][0];
    const outcome = row.side === "YES" ? 0 : 1;
    const [p] = await rows<{ shares: number; avg_price: number; win_rate: number; total_pnl: number }>(
      t,
      `select p.shares, p.avg_price, s.win_rate, s.total_pnl from positions p join wallet_stats s on s.wallet = p.wallet
       where p.wallet = '${row.wallet}' and p.condition_id = '${market.condition_id}' and p.outcome_index = ${outcome}`,
    );
    const price = row.side === "YES" ? market.price_yes : 1 - market.price_yes;
    expectServed(row.shares, p!.shares / 1e6, AT.micro);
    expectServed(row.avg_price, p!.avg_price, AT.price);
    expectServed(row.cost, (p!.shares / 1e6) * p!.avg_price, AT.usd);
    expectServed(row.pnl, (p!.shares / 1e6) * (price - p!.avg_price), AT.usd);
    expect(row).toMatchObject({
      win_rate: servedAs(p!.win_rate, AT.percent),
      global_pnl: servedAs(p!.total_pnl, AT.usd),
      is_smart: true,
    });
  });

  it("answers a resolved market without open positions with empty teams and a null yes_pct", async () => {
    const [resolved] = await rows<{ id: string; condition_id: string; resolution: string }>(
      t,
      "select id, condition_id, resolution from markets m where resolution in ('YES', 'NO') and not exists (select 1 from positions p where p.condition_id = m.condition_id and p.status = 'open') order by id limit 1",
    );
    const body = (await getJson(t, `/api/v2/market/${resolved!.id}`)).body;
    expect(body.market).toMatchObject({ id: resolved!.id, closed: true, resolution: resolved!.resolution });
    expect(body.consensus).toMatchObject({
      whales: { yes: 0, no: 0, total: 0, yes_pct: null },
      yes_team: [],
      no_team: [],
    });
    expect(body.top_traders).toEqual({ yes: [], no: [] });
  });

  it("answers 404 for unknown or malformed ids", async () => {
    for (const id of UNKNOWN)
      expect((await getJson(t, `/api/v2/market/${encodeURIComponent(id)}`)).status, id).toBe(404);
  });
});

describe("GET /api/v2/market/{market_id}/trades", () => {
  it("lists the newest smart-whale fills and a daily YES price history from the fills", async () => {
    const expected = await rows<{ tx_hash: string; ts: number }>(
      t,
      `select f.tx_hash, f.ts from fills f join wallet_stats s on s.wallet = f.wallet where f.condition_id = '${market.condition_id}' and s.is_smart = 1 order by f.ts desc, f.id desc`,
    );
    const res = await getJson(t, `/api/v2/market/${market.slug}/trades?limit=5`);
    expect(res.status).toBe(200);
    expect(res.body.trades.map((r: any) => r.tx_hash)).toEqual(expected.slice(0, 5).map((e) => e.tx_hash));
    expect(res.body.count).toBe(Math.min(5, expected.length));
    const def = await getJson(t, `/api/v2/market/${market.id}/trades`);
    expect(def.body.trades.length).toBe(Math.min(50, expected.length));
    expect(isSortedDesc(def.body.trades.map((r: any) => r.timestamp))).toBe(true);

    const fills = await rows<{ ts: number; outcome_index: number; price: number; size: number }>(
      t,
      `select ts, outcome_index, price, size from fills where condition_id = '${market.condition_id}' and (role is null or role <> 'maker') order by ts, id`,
    );
    const history = def.body.price_history;
    expect(history.reduce((s: number, d: any) => s + d.trades, 0)).toBe(fills.length);
    const day = history[Math.floor(history.length / 2)];
    const ofDay = fills.filter((f) => f.ts >= day.t && f.ts < day.t + 86_400);
    const yes = (f: (typeof fills)[number]) => (f.outcome_index === 0 ? f.price : 1 - f.price);
    expectServed(
      day.vwap_yes,
      ofDay.reduce((s, f) => s + yes(f) * f.size, 0) / ofDay.reduce((s, f) => s + f.size, 0),
      AT.price,
    );
    expectServed(day.close_yes, yes(ofDay[ofDay.length - 1]!), AT.price);
    expect(history.map((d: any) => d.t)).toEqual([...history.map((d: any) => d.t)].sort((a, b) => a - b));
  });

  it("computes its kept page again once a wallet leaves or joins Smart Money, with no new fill", async () => {
    const url = `/api/v2/market/${market.id}/trades?limit=5`;
    const before = (await getJson(t, url)).body.trades;
    const leaving: string = before[0].wallet;
    const setSmart = (flag: number) =>
      t.store.transaction(async (tx) => {
        await sql`update wallet_stats set is_smart = ${flag} where wallet = ${leaving}`.execute(tx.db);
        await writeSmartWallets(tx, [leaving]);
      });
    const afterCheck = () => t.clock.set(t.clock.nowMs() + (t.config.drilldowns.smartListCheckSeconds + 1) * 1000);
    await setSmart(0);
    afterCheck();
    const without = (await getJson(t, url)).body.trades;
    expect(without.length).toBeGreaterThan(0);
    expect(without.some((trade: { wallet: string }) => trade.wallet === leaving)).toBe(false);
    await setSmart(1);
    afterCheck();
    expect((await getJson(t, url)).body.trades).toEqual(before);
  });

  it("answers 422 past its limit and 404 for an unknown market", async () => {
    expect((await getJson(t, `/api/v2/market/${market.id}/trades?limit=501`)).status).toBe(422);
    expect((await getJson(t, `/api/v2/market/${market.id}/trades?before=1`)).status).toBe(422);
    expect((await getJson(t, "/api/v2/market/999999999/trades")).status).toBe(404);
  });
});

describe("GET /api/v2/market/{market_id}/lookup", () => {
  it("resolves the venue id, condition id and slug to the same record", async () => {
    const [m] = await rows<any>(
      t,
      `select m.*, e.slug as event_slug from markets m left join events e on e.id = m.event_id where m.id = '${market.id}'`,
    );
    const expected = {
      id: m.id,
      condition_id: m.condition_id,
      slug: m.slug,
      question: m.question,
      prices: {
        yes: m.price_yes === null ? null : servedAs(m.price_yes, AT.price),
        no: m.price_no === null ? null : servedAs(m.price_no, AT.price),
      },
      closed: m.closed === 1,
      end_date: m.end_date,
      image_url: m.image,
      event_id: m.event_id,
      event_slug: m.event_slug,
      neg_risk: m.neg_risk === 1,
      is_negrisk: m.neg_risk === 1,
    };
    for (const id of [
      market.id,
      market.condition_id,
      market.condition_id.toUpperCase().replace("0X", "0x"),
      market.slug,
    ]) {
      const res = await getJson(t, `/api/v2/market/${id}/lookup`);
      expect(res.status, id).toBe(200);
      expect(res.body, id).toEqual(expected);
      expect(res.headers["cache-control"]).toBe(`public, max-age=${m.closed === 1 ? 3600 : 60}`);
    }
  });

  it("caches a closed market for an hour", async () => {
    const [closed] = await rows<{ id: string }>(t, "select id from markets where closed = 1 order by id limit 1");
    const res = await getJson(t, `/api/v2/market/${closed!.id}/lookup`);
    expect(res.body.closed).toBe(true);
    expect(res.headers["cache-control"]).toBe("public, max-age=3600");
  });

  it("answers 404 (not 422) for unknown or malformed ids", async () => {
    for (const id of UNKNOWN) {
      const res = await getJson(t, `/api/v2/market/${encodeURIComponent(id)}/lookup`);
      expect(res.status, id).toBe(404);
      expect(typeof res.body.detail).toBe("string");
    }
  });
});

describe("GET /api/v2/market/{market_id}/breakdown", () => {
  it("splits the market's volume by settlement as market_stats does, with counts and shares", async () => {
    const [s] = await rows<{
      trades: number;
      volume: number;
      mint_usd: number;
      merge_usd: number;
      complementary_usd: number;
      unclassified_usd: number;
    }>(
      t,
      `select trades, volume, mint_usd, merge_usd, complementary_usd, unclassified_usd from market_stats where condition_id = '${market.condition_id}'`,
    );
    const counts = await rows<{ entry_type: string | null; n: number }>(
      t,
      `select entry_type, count(*) as n from fills where condition_id = '${market.condition_id}' and (role is null or role <> 'maker') group by entry_type`,
    );
    const res = await getJson(t, `/api/v2/market/${market.id}/breakdown`);
    expect(res.status).toBe(200);
    const b = res.body;
    expect(b.total_count).toBe(s!.trades);
    expectServed(b.total_usd, s!.volume, AT.usd);
    // Each settlement's `usd` is written as a fill's amount is, to the micro-unit.
    const usd = {
      MINT: s!.mint_usd,
      MERGE: s!.merge_usd,
      COMPLEMENTARY: s!.complementary_usd,
      UNCLASSIFIED: s!.unclassified_usd,
    };
    for (const [key, value] of Object.entries(usd)) {
      expectServed(b.breakdown[key].usd, value, AT.micro, 1, key);
      expectServed(b.breakdown[key].share_pct, (100 * value) / s!.volume, AT.percent, 1, key);
    }
    for (const key of ["MINT", "MERGE", "COMPLEMENTARY"])
      expect(b.breakdown[key].count, key).toBe(Number(counts.find((c) => c.entry_type === key)?.n ?? 0));
    const shares = ["MINT", "MERGE", "COMPLEMENTARY", "UNCLASSIFIED"].reduce(
      (sum, k) => sum + b.breakdown[k].share_pct,
      0,
    );
    expectServed(shares, 100, AT.percent, 4);
  });

  it("answers 404 for an unknown market", async () => {
    expect((await getJson(t, "/api/v2/market/no-such-market/breakdown")).status).toBe(404);
  });
});

describe("GET /api/v2/pm/{market_id}", () => {
  it("redirects (302) to the market's page under its event on the venue", async () => {
    for (const id of [market.id, market.condition_id]) {
      const res = await t.app.inject({ url: `/api/v2/pm/${id}` });
      expect(res.statusCode).toBe(302);
      expect(res.headers.location).toBe(`${t.config.venue.marketUrl}/event/${market.event_slug}/${market.slug}`);
    }
  });

  it("answers 404 for an unknown market", async () => {
    for (const id of UNKNOWN)
      expect((await t.app.inject({ url: `/api/v2/pm/${encodeURIComponent(id)}` })).statusCode, id).toBe(404);
  });

  it("uses /market/<slug> for a market without an event", async () => {
    const m = findMarket(await marketIndex(t.store, t.clock, 30, new BackgroundWork()), market.id)!;
    expect(venueUrl("https://venue.example/", { ...m, event_slug: null })).toBe(
      `https://venue.example/market/${market.slug}`,
    );
  });
});
