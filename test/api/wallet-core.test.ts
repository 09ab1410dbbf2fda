/**
 * /api/v2/wallet/{address}: overview (and alias), rankings, positions, closed, pending-redemption, fees and trades,
 * checked against the store's fills, positions and the venue's closed positions (the world's reference P&L).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AT, expectServed, servedAs } from "../support/served-numbers.js";
import type { WorldApp } from "../support/world-app.js";
import {
  CONTRACT,
  MICRO,
  UNKNOWN,
  isSortedDesc,
  keys,
  one,
  openWalletWorld,
  request,
  rows,
} from "../support/api/wallet-core.js";

let t: WorldApp;
let premium: string;
let free: string;
/** The busiest wallet. */
let W: string;
/** A ranked wallet. */
let R: string;

const get = <T = any>(url: string, headers: Record<string, string> = {}) => request<T>(t.app, "GET", url, { headers });

beforeAll(async () => {
  t = await openWalletWorld();
  ({ premium, free } = await keys(t));
  W = (await one(t, "select wallet from wallet_stats order by total_trades desc, wallet limit 1")).wallet;
  R = (await one(t, "select wallet from wallet_stats where rank_pnl is not null order by total_pnl desc limit 1"))
    .wallet;
}, 60_000);
afterAll(async () => t.close());

describe("GET /api/v2/wallet/{address}/overview", () => {
  it("answers the stored figures of the wallet, matching its fills, positions and the venue's closed positions", async () => {
    const res = await get(`/api/v2/wallet/${W.toUpperCase().replace("0X", "0x")}/overview`);
    expect(res.status).toBe(200);
    const body = res.body;
    expect(Object.keys(body).sort()).toEqual([
      "as_of",
      "categories",
      "degraded",
      "overview",
      "profile",
      "rankings",
      "stats",
      "view",
    ]);
    const fills = await one(
      t,
      `select count(*) as n, sum(usd) as usd, count(distinct condition_id) as markets, max(ts) as last from fills where wallet = '${W}'`,
    );
    expect(body.overview.total_trades).toBe(Number(fills.n));
    expectServed(body.overview.total_volume, Number(fills.usd) / MICRO, AT.usd);
    expect(body.overview.total_markets).toBe(Number(fills.markets));
    expect(body.overview.last_trade).toBe(Number(fills.last));
    const open = await one(t, `select count(*) as n from positions where wallet = '${W}' and status = 'open'`);
    expect(body.overview.active_count).toBe(Number(open.n));

    // win_source=venue: the counters are the venue's closed positions (the world's reference P&L).
    expect(body.stats.win_source).toBe("venue");
    const venue = await one(
      t,
      `select sum(case when realized_pnl > 0 then 1 else 0 end) as wins, sum(case when realized_pnl < 0 then 1 else 0 end) as losses,
              sum(case when realized_pnl > 0 then realized_pnl else 0 end) as gp, sum(case when realized_pnl < 0 then -realized_pnl else 0 end) as gl
         from venue_closed_positions where wallet = '${W}'`,
    );
    expect(body.stats.wins).toBe(Number(venue.wins));
    expect(body.stats.losses).toBe(Number(venue.losses));
    expect(body.overview.closed_count).toBe(Number(venue.wins) + Number(venue.losses));
    expectServed(
      body.stats.win_rate,
      (100 * Number(venue.wins)) / (Number(venue.wins) + Number(venue.losses)),
      AT.percent,
    );
    const pf = Number(venue.gl) > 0 ? Math.min(Number(venue.gp) / Number(venue.gl), 99.99) : 99.99;
    expectServed(body.stats.profit_factor, pf, AT.percent);
    expect(body.overview.profit_factor).toBe(body.stats.profit_factor);
    const sync = await one(t, `select lifetime_pnl from wallet_sync where wallet = '${W}'`);
    expectServed(body.stats.total_pnl, Number(sync.lifetime_pnl) / MICRO, AT.usd);

    const world = t.world.wallets.find((w) => w.proxyWallet === W)!;
    expect(body.profile).toMatchObject({
      address: W,
      proxy_wallet: W,
      name: world.name || null,
      pseudonym: world.pseudonym,
    });
    const shares = Object.values(body.categories) as number[];
    expect(Object.keys(body.categories).sort()).toEqual([
      "CRYPTO",
      "ECONOMICS",
      "GEOPOLITICS",
      "POLITICS",
      "SPORTS",
      "TECH",
    ]);
    // Six shares, each to two decimals.
    expectServed(
      shares.reduce((a, b) => a + b, 0),
      100,
      AT.percent,
      shares.length,
    );
    expect(body.degraded).toBe(false);
    expect(body.view).toBe("proxy");
  });

  it("exposes the stored farmer, skill and hold figures as they are stored", async () => {
    const stored = await one(t, `select * from wallet_stats where wallet = '${W}'`);
    const { body } = await get(`/api/v2/wallet/${W}/overview`);
    expect(body.stats).toMatchObject({
      is_farmer: stored.is_farmer === 1,
      farmer_reason: stored.farmer_reason,
      has_skill: stored.has_skill === 1,
      skill_z: stored.skill_z === null ? null : servedAs(stored.skill_z, AT.percent),
      edge_bps: stored.edge_bps === null ? null : servedAs(stored.edge_bps, AT.percent),
      skill_sample: stored.skill_sample,
      is_smart: stored.is_smart === 1,
      market_wins: stored.market_wins,
      market_losses: stored.market_losses,
      resolved: stored.resolved,
      profitable_streak: stored.profitable_streak,
      pnl_24h: stored.pnl_24h === null ? null : servedAs(stored.pnl_24h, AT.usd),
    });
    expect(body.overview).toMatchObject({
      median_hold_days: stored.median_hold_days,
      hold_positions_count: stored.hold_positions_count,
    });
    expect(body.as_of).toBe(stored.computed_at);
  });

  it("is aliased by /api/v2/wallet/{address} with the same body", async () => {
    const [a, b] = await Promise.all([get(`/api/v2/wallet/${W}`), get(`/api/v2/wallet/${W}/overview`)]);
    expect(a.status).toBe(200);
    expect(a.body).toEqual(b.body);
  });

  it("answers 404 for an unknown wallet, 422 for a malformed address, an unknown view or parameter, 400 for a contract", async () => {
    expect((await get(`/api/v2/wallet/${UNKNOWN}`)).status).toBe(404);
    expect((await get(`/api/v2/wallet/${UNKNOWN}/overview`)).body.detail).toMatch(/not found/);
    expect((await get(`/api/v2/wallet/0x123/overview`)).status).toBe(422);
    expect((await get(`/api/v2/wallet/${W}/overview?view=everything`)).status).toBe(422);
    expect((await get(`/api/v2/wallet/${W}/overview?foo=1`)).status).toBe(422);
    const contract = await get(`/api/v2/wallet/${CONTRACT}/overview`);
    expect(contract.status).toBe(400);
    expect(contract.body).toMatchObject({
      is_contract: true,
      contract_type: "CTF Exchange V1",
      address: CONTRACT.toLowerCase(),
    });
  });

  it("serves the same answer for the overview window (60 s), then the stored figures as they are now", async () => {
    const wallet = (await one(t, "select wallet from wallet_stats order by total_trades desc, wallet limit 1 offset 3"))
      .wallet;
    const before = (await get(`/api/v2/wallet/${wallet}/overview`)).body;
    await t.store.db
      .updateTable("wallet_stats")
      .set({ total_trades: before.overview.total_trades + 1000 })
      .where("wallet", "=", wallet)
      .execute();
    try {
      t.clock.set((t.now + 30) * 1000);
      expect((await get(`/api/v2/wallet/${wallet}/overview`)).body).toEqual(before);
      t.clock.set((t.now + 61) * 1000);
      expect((await get(`/api/v2/wallet/${wallet}/overview`)).body.overview.total_trades).toBe(
        before.overview.total_trades + 1000,
      );
    } finally {
      t.clock.set(t.now * 1000);
      await t.store.db
        .updateTable("wallet_stats")
        .set({ total_trades: before.overview.total_trades })
        .where("wallet", "=", wallet)
        .execute();
    }
  });

  it("answers 404 for the signer views of a wallet with no known signer", async () => {
    expect((await get(`/api/v2/wallet/${W}?view=signer`)).status).toBe(404);
  });
});

describe("GET /api/v2/wallet/{address}/rankings", () => {
  it("ranks among wallets with enough resolved markets, best first", async () => {
    const res = await get(`/api/v2/wallet/${R}/rankings`);
    expect(res.status).toBe(200);
    const population = await rows(
      t,
      "select wallet, total_pnl, win_rate, total_volume, profit_factor from wallet_stats where resolved >= 2",
    );
    const me = population.find((p) => p.wallet === R)!;
    const rank = (k: string) => 1 + population.filter((p) => p[k] > me[k]).length;
    expect(res.body.rankings).toMatchObject({
      rank_pnl: rank("total_pnl"),
      rank_winrate: rank("win_rate"),
      rank_volume: rank("total_volume"),
      rank_profit_factor: rank("profit_factor"),
      total_traders: population.length,
    });
    expect(res.body.rankings.rank_pnl).toBe(1);
    const overview = await get(`/api/v2/wallet/${R}/overview`);
    expect(overview.body.rankings).toEqual(res.body.rankings);
  });

  it("leaves an unranked wallet's ranks null and 404s an unknown wallet", async () => {
    const unranked = (await one(t, "select wallet from wallet_stats where resolved < 2 limit 1")).wallet;
    const res = await get(`/api/v2/wallet/${unranked}/rankings`);
    expect(res.body.rankings.rank_pnl).toBeNull();
    expect(res.body.rankings.total_traders).toBeGreaterThan(0);
    expect((await get(`/api/v2/wallet/${UNKNOWN}/rankings`)).status).toBe(404);
  });
});

describe("GET /api/v2/wallet/{address}/positions", () => {
  it("lists every open position, largest current value first, valued at the market's price", async () => {
    const res = await get(`/api/v2/wallet/${W}/positions`);
    expect(res.status).toBe(200);
    const stored = await rows(
      t,
      `select p.token_id, p.shares, p.avg_price, p.outcome_index, m.price_yes, m.price_no, m.question from positions p join markets m on m.condition_id = p.condition_id
        where p.wallet = '${W}' and p.status = 'open'`,
    );
    expect(res.body.total).toBe(stored.length);
    expect(res.body.count).toBe(Math.min(500, stored.length));
    expect(res.body.source).toBe("cache");
    expect(res.body.is_estimated).toBe(true);
    expect(isSortedDesc(res.body.positions.map((p: any) => p.current_value))).toBe(true);
    for (const p of res.body.positions) {
      const s = stored.find((r) => r.token_id === p.token_id)!;
      const price = s.outcome_index === 0 ? s.price_yes : (s.price_no ?? 1 - s.price_yes);
      expectServed(p.tokens, s.shares / MICRO, AT.micro);
      expectServed(p.current_price, price, AT.price);
      expectServed(p.current_value, (s.shares / MICRO) * price, AT.usd);
      expectServed(p.pnl, (s.shares / MICRO) * (price - s.avg_price), AT.usd);
      expect(p.side).toBe(s.outcome_index === 0 ? "token1" : "token2");
      expect(p.question).toBe(s.question);
    }
  });

  it("pages with limit and offset, and checks them", async () => {
    const all = (await get(`/api/v2/wallet/${W}/positions`)).body.positions;
    const page = await get(`/api/v2/wallet/${W}/positions?limit=3&offset=2`);
    expect(page.body.positions).toEqual(all.slice(2, 5));
    expect(page.body.offset).toBe(2);
    expect((await get(`/api/v2/wallet/${W}/positions?limit=0`)).status).toBe(422);
    expect((await get(`/api/v2/wallet/${W}/positions?limit=501`)).status).toBe(422);
    expect((await get(`/api/v2/wallet/${W}/positions?offset=-1`)).status).toBe(422);
    expect((await get(`/api/v2/wallet/${W}/positions?sort=pnl`)).status).toBe(422);
  });

  it("reads the proxy given in ?proxy=, 422 on a malformed one, 404 and 400 as the overview", async () => {
    const viaProxy = await get(`/api/v2/wallet/${UNKNOWN}/positions?proxy=${R}`);
    expect(viaProxy.status).toBe(200);
    expect(viaProxy.body.address).toBe(R);
    expect(viaProxy.body.positions).toEqual((await get(`/api/v2/wallet/${R}/positions`)).body.positions);
    expect((await get(`/api/v2/wallet/${W}/positions?proxy=nope`)).status).toBe(422);
    expect((await get(`/api/v2/wallet/${UNKNOWN}/positions`)).status).toBe(404);
    expect((await get(`/api/v2/wallet/${CONTRACT}/positions`)).status).toBe(400);
  });
});

describe("GET /api/v2/wallet/{address}/closed", () => {
  it("lists closed positions, most recent first, 200 by default, P&L matching the venue's reference P&L", async () => {
    const res = await get(`/api/v2/wallet/${W}/closed`);
    expect(res.status).toBe(200);
    const total = Number(
      (await one(t, `select count(*) as n from positions where wallet = '${W}' and status = 'closed'`)).n,
    );
    expect(res.body.total).toBe(total);
    expect(res.body.count).toBe(Math.min(200, total));
    expect(res.body.sort).toBe("recent");
    expect(isSortedDesc(res.body.closed.map((c: any) => c.closed_ts))).toBe(true);
    // The venue's closed positions (reference method, before fees): a redeemed or sold-out position's P&L agrees to the cent.
    const venue = await rows(t, `select token_id, realized_pnl from venue_closed_positions where wallet = '${W}'`);
    let compared = 0;
    for (const v of venue) {
      const mine = res.body.closed.find((c: any) => c.token_id === v.token_id);
      if (!mine || mine.unredeemed_tokens > 0) continue;
      // To the cent, with the two served terms rounded to cents.
      expectServed(mine.realized_pnl + mine.fees, v.realized_pnl / MICRO, AT.usd, 3);
      compared++;
    }
    expect(compared).toBeGreaterThan(0);
  });

  it("sorts by pnl, pnl_asc, size and oldest", async () => {
    const pnl = (await get(`/api/v2/wallet/${W}/closed?sort=pnl`)).body.closed.map((c: any) => c.realized_pnl);
    expect(isSortedDesc(pnl)).toBe(true);
    const asc = (await get(`/api/v2/wallet/${W}/closed?sort=pnl_asc`)).body.closed.map((c: any) => -c.realized_pnl);
    expect(isSortedDesc(asc)).toBe(true);
    const size = (await get(`/api/v2/wallet/${W}/closed?sort=size`)).body.closed.map((c: any) => c.buy_cost);
    expect(isSortedDesc(size)).toBe(true);
    const oldest = (await get(`/api/v2/wallet/${W}/closed?sort=oldest`)).body.closed.map((c: any) => -c.closed_ts);
    expect(isSortedDesc(oldest)).toBe(true);
    expect((await get(`/api/v2/wallet/${W}/closed?sort=best`)).status).toBe(422);
  });

  it("filters by buy cost and average entry, and pages", async () => {
    const res = await get(`/api/v2/wallet/${W}/closed?min_buy_cost=20&avg_entry_min=0.2&avg_entry_max=0.8&limit=1000`);
    const expected = await one(
      t,
      `select count(*) as n from positions where wallet = '${W}' and status = 'closed' and total_bought * avg_price >= 20000000 and avg_price >= 0.2 and avg_price <= 0.8`,
    );
    expect(res.body.total).toBe(Number(expected.n));
    expect(res.body.closed).toHaveLength(Number(expected.n));
    for (const c of res.body.closed) {
      expect(c.buy_cost).toBeGreaterThanOrEqual(20 - 1e-9);
      expect(c.avg_entry).toBeGreaterThanOrEqual(0.2);
      expect(c.avg_entry).toBeLessThanOrEqual(0.8);
    }
    const all = (await get(`/api/v2/wallet/${W}/closed?limit=1000`)).body.closed;
    const page = await get(`/api/v2/wallet/${W}/closed?limit=2&offset=1`);
    expect(page.body.closed).toEqual(all.slice(1, 3));
    expect(page.body.has_more).toBe(all.length > 3);
    expect((await get(`/api/v2/wallet/${W}/closed?avg_entry_min=0.9&avg_entry_max=0.1`)).status).toBe(422);
    expect((await get(`/api/v2/wallet/${W}/closed?avg_entry_max=2`)).status).toBe(422);
    expect((await get(`/api/v2/wallet/${W}/closed?limit=1001`)).status).toBe(422);
    expect((await get(`/api/v2/wallet/${W}/closed?min_buy_cost=-1`)).status).toBe(422);
  });
});

describe("GET /api/v2/wallet/{address}/pending-redemption", () => {
  it("lists resolved paying shares still held, with their redeemable value", async () => {
    const expected = await rows(
      t,
      `select p.wallet, p.token_id, p.shares, m.resolution, p.outcome_index from positions p join markets m on m.condition_id = p.condition_id
        where p.status = 'closed' and p.shares > 0 and m.resolution is not null and not (m.resolution = 'YES' and p.outcome_index = 1) and not (m.resolution = 'NO' and p.outcome_index = 0)`,
    );
    expect(expected.length).toBeGreaterThan(0);
    const wallet = expected[0]!.wallet;
    const mine = expected.filter((e) => e.wallet === wallet);
    const res = await get(`/api/v2/wallet/${wallet}/pending-redemption`);
    expect(res.status).toBe(200);
    expect(res.body.count).toBe(mine.length);
    const value = mine.reduce((s, e) => s + (e.shares / MICRO) * (e.resolution === "50-50" ? 0.5 : 1), 0);
    expect(res.body.total_redeemable_usd).toBeCloseTo(value, 6);
    expect(new Set(res.body.positions.map((p: any) => p.token_id))).toEqual(new Set(mine.map((e) => e.token_id)));
    expect((await get(`/api/v2/wallet/${UNKNOWN}/pending-redemption`)).status).toBe(404);
  });

  it("answers a market's changed resolution at once, though the wallet's positions did not move", async () => {
    // The chain's resolution first, else the venue's: the test changes the one the answer reads.
    const [held] = await rows(
      t,
      `select p.wallet, m.condition_id, coalesce(r.resolution, m.resolution) as resolution, r.condition_id as chain
        from positions p join markets m on m.condition_id = p.condition_id
        left join market_resolutions r on r.condition_id = p.condition_id
        where p.status = 'closed' and p.shares > 0 and coalesce(r.resolution, m.resolution) in ('YES', 'NO')
          and p.outcome_index = case coalesce(r.resolution, m.resolution) when 'YES' then 0 else 1 end`,
    );
    const url = `/api/v2/wallet/${held!.wallet}/pending-redemption`;
    const before = (await get(url)).body;
    const listed = (body: any) => body.positions.some((p: any) => p.condition_id === held!.condition_id);
    expect(listed(before)).toBe(true);
    const table = held!.chain ? "market_resolutions" : "markets";
    const flip = (resolution: "YES" | "NO") =>
      t.store.db.updateTable(table).set({ resolution }).where("condition_id", "=", held!.condition_id).execute();
    try {
      await flip(held!.resolution === "YES" ? "NO" : "YES");
      const after = (await get(url)).body;
      expect(listed(after)).toBe(false);
      expect(after.count).toBe(before.count - 1);
    } finally {
      await flip(held!.resolution as "YES" | "NO");
    }
    expect(listed((await get(url)).body)).toBe(true);
  });
});

describe("GET /api/v2/wallet/{address}/fees", () => {
  it("totals the fills' fees, by month, entry type and role", async () => {
    const res = await get(`/api/v2/wallet/${W}/fees`);
    expect(res.status).toBe(200);
    const fills = await one(
      t,
      `select sum(fee) as fee, sum(usd) as usd, count(*) as n, sum(case when fee > 0 then 1 else 0 end) as charged from fills where wallet = '${W}'`,
    );
    expectServed(res.body.total_fees_usd, fills.fee / MICRO, AT.usd);
    expectServed(res.body.total_volume_usd, fills.usd / MICRO, AT.usd);
    expect(res.body.fills).toBe(Number(fills.n));
    expect(res.body.fills_charged).toBe(Number(fills.charged));
    const sum = (list: any[]) => list.reduce((s, r) => s + r.fees_usd, 0);
    expectServed(sum(res.body.by_month), fills.fee / MICRO, AT.usd, res.body.by_month.length);
    expectServed(sum(res.body.by_role), fills.fee / MICRO, AT.usd, res.body.by_role.length);
    const mint = await one(t, `select sum(fee) as fee from fills where wallet = '${W}' and entry_type = 'MINT'`);
    expectServed(res.body.by_entry_type.find((r: any) => r.entry_type === "MINT").fees_usd, mint.fee / MICRO, AT.usd);
    const months = await rows(t, `select distinct ts from fills where wallet = '${W}'`);
    expect(res.body.by_month.map((m: any) => m.month)).toEqual(
      [...new Set(months.map((m) => new Date(m.ts * 1000).toISOString().slice(0, 7)))].sort(),
    );
  });
});

describe("GET /api/v2/wallet/{address}/trades (Premium)", () => {
  const url = (q = "") => `/api/v2/wallet/${W}/trades${q}`;

  it("needs a Premium key in X-API-Key", async () => {
    expect((await get(url())).status).toBe(401);
    expect((await get(url(), { "x-api-key": free })).status).toBe(403);
    expect((await get(url(), { authorization: `Bearer ${premium}` })).status).toBe(401);
    expect((await get(url(), { "x-api-key": premium })).status).toBe(200);
  });

  it("answers the last 30 days by default, newest first, with the raw fill fields", async () => {
    const res = await get(url(), { "x-api-key": premium });
    const from = t.now - 30 * 86_400;
    const stored = await rows(
      t,
      `select * from fills where wallet = '${W}' and ts > ${from} order by ts desc, id desc`,
    );
    expect(res.body.count).toBe(Math.min(100, stored.length));
    expect(res.body.has_more).toBe(stored.length > 100);
    const first = stored[0]!;
    expect(res.body.trades[0]).toMatchObject({
      condition_id: first.condition_id,
      side: first.side,
      size: first.size / MICRO,
      price: first.price,
      usd_amount: first.usd / MICRO,
      timestamp: first.ts,
      transaction_hash: first.tx_hash,
      entry_type: first.entry_type,
      fee_usd: first.fee / MICRO,
    });
    expect(res.body.trades.every((f: any) => f.timestamp > from)).toBe(true);
    expect(isSortedDesc(res.body.trades.map((f: any) => f.timestamp))).toBe(true);
  });

  it("reads the full archive with since=1 and honours since/before as exclusive bounds", async () => {
    const all = await rows(t, `select ts from fills where wallet = '${W}' order by ts desc, id desc`);
    const full = await get(url("?since=1&limit=500"), { "x-api-key": premium });
    expect(full.body.count).toBe(Math.min(500, all.length));
    expect(full.body.has_more).toBe(all.length > 500);
    const mid = all[Math.floor(all.length / 2)]!.ts;
    const after = await get(url(`?since=${mid}&limit=500`), { "x-api-key": premium });
    expect(after.body.count).toBe(all.filter((f) => f.ts > mid).length);
    const before = await get(url(`?since=1&before=${mid}&limit=500`), { "x-api-key": premium });
    expect(before.body.count).toBe(Math.min(500, all.filter((f) => f.ts < mid).length));
    expect(before.body.trades.every((f: any) => f.timestamp < mid)).toBe(true);
    const paged = await get(url("?since=1&limit=5&offset=5"), { "x-api-key": premium });
    expect(paged.body.trades).toEqual(full.body.trades.slice(5, 10));
  });

  it("checks its parameters", async () => {
    const h = { "x-api-key": premium };
    expect((await get(url("?limit=501"), h)).status).toBe(422);
    expect((await get(url("?since=-5"), h)).status).toBe(422);
    expect((await get(url("?until=5"), h)).status).toBe(422);
    expect((await get(`/api/v2/wallet/${UNKNOWN}/trades`, h)).status).toBe(404);
    expect((await get(`/api/v2/wallet/${CONTRACT}/trades`, h)).status).toBe(400);
  });
});

describe("every wallet core route", () => {
  it("refuses unknown query parameters (422), malformed addresses (422) and contract addresses (400)", async () => {
    const h = { "x-api-key": premium };
    for (const path of [
      "",
      "/overview",
      "/rankings",
      "/positions",
      "/closed",
      "/pending-redemption",
      "/fees",
      "/trades",
      "/watching",
    ]) {
      expect((await get(`/api/v2/wallet/${W}${path}?foo=1`, h)).status).toBe(422);
      expect((await get(`/api/v2/wallet/0xnothex${path}`, h)).status).toBe(422);
      expect((await get(`/api/v2/wallet/${CONTRACT}${path}`, h)).status).toBe(400);
    }
    expect((await get("/api/v2/home/community-lookups?limit=3")).status).toBe(422);
  });
});

describe("the OpenAPI document", () => {
  it("lists every wallet core path", async () => {
    const paths = Object.keys((await get("/api/openapi.json")).body.paths);
    for (const p of [
      "/api/v2/wallet/{address}",
      "/api/v2/wallet/{address}/overview",
      "/api/v2/wallet/{address}/rankings",
      "/api/v2/wallet/{address}/positions",
      "/api/v2/wallet/{address}/closed",
      "/api/v2/wallet/{address}/pending-redemption",
      "/api/v2/wallet/{address}/fees",
      "/api/v2/wallet/{address}/trades",
      "/api/v2/wallet/{address}/ping",
      "/api/v2/wallet/{address}/watching",
      "/api/v2/home/community-lookups",
      "/api/public/v1/wallet/{address}/overview",
      "/api/public/v1/wallet/{address}/positions",
      "/api/public/v1/wallet/{address}/trades",
      "/api/public/v1/wallets/overview",
      "/api/public/v1/wallets/positions",
    ]) {
      expect(paths).toContain(p);
    }
  });
});
