/**
 * The key-oriented wallet API (/api/public/v1), the batch calls, the load-degraded and live signer views. Presence
 * and community lookups: wallet-presence.test.ts.
 */
import { AT, expectServed } from "../support/served-numbers.js";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LoadMonitor } from "../../src/api/routes/wallet/wallet-load.js";
import { startSimVenue, venueEnvironment } from "../../src/sim/servers/index.js";
import type { WorldApp } from "../support/world-app.js";
import {
  CONTRACT,
  UNKNOWN,
  one,
  openWalletFixture,
  request,
  rows,
  storeVenuePositions,
  variantApp,
  type ByTrades,
} from "../support/api/wallet-core.js";

let t: WorldApp;
let premium: string;
let free: string;
let byTrades: ByTrades;
const closers: Array<() => Promise<void>> = [];

const get = <T = any>(url: string, headers: Record<string, string> = {}) => request<T>(t.app, "GET", url, { headers });
const keyed = () => ({ "x-api-key": premium });

beforeAll(async () => ({ t, premium, free, byTrades } = await openWalletFixture()), 60_000);
afterAll(async () => {
  for (const close of closers) await close();
  await t.close();
});

describe("GET /api/public/v1/wallet/{address}/overview", () => {
  it("is Premium, with Bearer or X-API-Key", async () => {
    const url = `/api/public/v1/wallet/${byTrades[0]!.wallet}/overview`;
    expect((await get(url)).status).toBe(401);
    expect((await get(url, { "x-api-key": free })).status).toBe(403);
    expect((await get(url, { authorization: `Bearer ${premium}` })).status).toBe(200);
    expect((await get(url, keyed())).status).toBe(200);
  });

  it("answers the v2 overview, by address or by venue username or pseudonym", async () => {
    const named = t.world.wallets.find((w) => w.name && byTrades.some((b) => b.wallet === w.proxyWallet))!;
    const v2 = await get(`/api/v2/wallet/${named.proxyWallet}/overview`);
    const byName = await get(`/api/public/v1/wallet/${encodeURIComponent(named.name)}/overview`, keyed());
    expect(byName.status).toBe(200);
    expect(byName.body).toEqual(v2.body);
    const pseudonymous = t.world.wallets.find(
      (w) =>
        !w.name &&
        byTrades.some((b) => b.wallet === w.proxyWallet) &&
        t.world.wallets.filter((o) => o.pseudonym === w.pseudonym).length === 1,
    )!;
    const byPseudonym = await get(`/api/public/v1/wallet/${pseudonymous.pseudonym}/overview`, keyed());
    expect(byPseudonym.body.profile.address).toBe(pseudonymous.proxyWallet);
    expect((await get(`/api/public/v1/wallet/no-such-trader/overview`, keyed())).status).toBe(404);
    expect((await get(`/api/public/v1/wallet/${UNKNOWN}/overview`, keyed())).status).toBe(404);
    expect((await get(`/api/public/v1/wallet/${CONTRACT}/overview`, keyed())).status).toBe(400);
    expect((await get(`/api/public/v1/wallet/${named.proxyWallet}/overview?view=all`, keyed())).status).toBe(422);
  });

  it("answers 202 with Retry-After 30 while a very heavy wallet's cold overview computes, then 200", async () => {
    const heavy = byTrades[0]!;
    const light = byTrades[byTrades.length - 1]!;
    const loaded = await variantApp(t, { WALLET_HEAVY_TRADES: String(heavy.total_trades) });
    closers.push(loaded.close);
    const url = (w: string) => `/api/public/v1/wallet/${w}/overview`;
    const cold = await request(loaded.app, "GET", url(heavy.wallet), { headers: keyed() });
    expect(cold.status).toBe(202);
    expect(cold.headers["retry-after"]).toBe("30");
    expect(cold.body).toMatchObject({ status: "computing", retry_after_seconds: 30 });
    let warm = cold;
    for (let attempt = 0; attempt < 50 && warm.status === 202; attempt++) {
      await new Promise((r) => setTimeout(r, 10));
      warm = await request(loaded.app, "GET", url(heavy.wallet), { headers: keyed() });
    }
    expect(warm.status).toBe(200);
    expect(warm.body.overview.total_trades).toBe(heavy.total_trades);
    // A wallet under the threshold never waits; the heavy one is cold again once its cache window has passed.
    expect((await request(loaded.app, "GET", url(light.wallet), { headers: keyed() })).status).toBe(200);
    t.clock.advance(61_000);
    expect((await request(loaded.app, "GET", url(heavy.wallet), { headers: keyed() })).status).toBe(202);
  });
});

describe("GET /api/public/v1/wallet/{address}/positions", () => {
  it("returns the full open set with the envelope; limit and offset are accepted, not enforced", async () => {
    const wallet = byTrades[0]!.wallet;
    const open = Number(
      (await one(t, `select count(*) as n from positions where wallet = '${wallet}' and status = 'open'`)).n,
    );
    const res = await get(`/api/public/v1/wallet/${wallet}/positions?limit=5&offset=3`, keyed());
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ address: wallet, count: open, source: "cache", is_estimated: true });
    expect(res.body.positions).toHaveLength(open);
    expect(Object.keys(res.body.positions[0]).sort()).toEqual(
      [
        "avg_entry",
        "category",
        "condition_id",
        "cost",
        "current_price",
        "current_value",
        "initial_value",
        "last_trade_ts",
        "market_id",
        "outcome",
        "pnl",
        "pnl_pct",
        "question",
        "side",
        "slug",
        "token_id",
        "tokens",
      ].sort(),
    );
    expect((await get(`/api/public/v1/wallet/${wallet}/positions`)).status).toBe(401);
    expect((await get(`/api/public/v1/wallet/${wallet}/positions?limit=-1`, keyed())).status).toBe(422);
    expect((await get(`/api/public/v1/wallet/${wallet}/positions?page=2`, keyed())).status).toBe(422);
    expect((await get(`/api/public/v1/wallet/${UNKNOWN}/positions`, keyed())).status).toBe(404);
  });

  it("overlays the venue's freshly synced prices (source merged, not estimated)", async () => {
    const { wallet } = await one(
      t,
      "select wallet from positions where status = 'open' group by wallet having count(*) between 2 and 6 order by wallet limit 1",
    );
    const open = await rows(t, `select * from positions where wallet = '${wallet}' and status = 'open'`);
    const now = t.clock.now();
    await storeVenuePositions(t, wallet, open, 0.42);
    await t.store.db
      .updateTable("wallet_sync")
      .set({ synced_at: now, status: "ok" })
      .where("wallet", "=", wallet)
      .execute();
    const res = await get(`/api/public/v1/wallet/${wallet}/positions`, keyed());
    expect(res.body).toMatchObject({ source: "merged", is_estimated: false, count: open.length });
    for (const p of res.body.positions) {
      expect(p.current_price).toBe(0.42);
      expectServed(p.current_value, p.tokens * 0.42, AT.usd);
    }
  });
});

describe("GET /api/public/v1/wallet/{address}/trades", () => {
  it("is Premium with either header and answers the raw fills like the v2 route", async () => {
    const wallet = byTrades[1]!.wallet;
    const url = `/api/public/v1/wallet/${wallet}/trades?since=1&limit=500`;
    expect((await get(url)).status).toBe(401);
    const bearer = await get(url, { authorization: `Bearer ${premium}` });
    expect(bearer.status).toBe(200);
    const stored = Number((await one(t, `select count(*) as n from fills where wallet = '${wallet}'`)).n);
    expect(bearer.body.count).toBe(Math.min(500, stored));
    expect(bearer.body).toEqual((await get(`/api/v2/wallet/${wallet}/trades?since=1&limit=500`, keyed())).body);
    const recent = await get(`/api/public/v1/wallet/${wallet}/trades`, keyed());
    const from = t.clock.now() - 30 * 86_400;
    expect(recent.body.count).toBe(
      Math.min(
        100,
        Number((await one(t, `select count(*) as n from fills where wallet = '${wallet}' and ts > ${from}`)).n),
      ),
    );
    expect((await get(`/api/public/v1/wallet/${wallet}/trades?limit=501`, keyed())).status).toBe(422);
  });
});

describe("batch calls", () => {
  it("POST /wallets/overview: per-wallet status, one request per wallet, at most 50", async () => {
    const [a, b] = [byTrades[2]!.wallet, byTrades[3]!.wallet];
    const res = await t.app.inject({
      method: "POST",
      url: "/api/public/v1/wallets/overview",
      headers: keyed(),
      payload: { wallets: [a, b, UNKNOWN, CONTRACT, 'no"such\\trader'] },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers["x-ratelimit-consumed"]).toBe("5");
    const body = res.json();
    expect(body.count).toBe(5);
    expect(body.wallets.map((w: any) => w.status)).toEqual(["ok", "ok", "not_found", "not_found", "not_found"]);
    expect(body.wallets[0].overview).toEqual((await get(`/api/v2/wallet/${a}/overview`)).body);
    expect(body.wallets[3]).toMatchObject({ is_contract: true, contract_type: "CTF Exchange V1", overview: null });
    // Each item as sent, escaped: the answer is composed from kept overviews, not serialized whole.
    expect(body.wallets[4]).toEqual({ wallet: 'no"such\\trader', address: null, status: "not_found", overview: null });
    const tooMany = Array.from({ length: 51 }, (_, i) => `0x${i.toString(16).padStart(40, "0")}`);
    expect(
      (
        await request(t.app, "POST", "/api/public/v1/wallets/overview", {
          headers: keyed(),
          payload: { wallets: tooMany },
        })
      ).status,
    ).toBe(422);
    expect(
      (await request(t.app, "POST", "/api/public/v1/wallets/overview", { headers: keyed(), payload: { wallets: [] } }))
        .status,
    ).toBe(422);
    expect(
      (await request(t.app, "POST", "/api/public/v1/wallets/overview", { payload: { wallets: [a] } })).status,
    ).toBe(401);
  });

  it("POST /wallets/overview reports a cold very heavy wallet as computing, then ok", async () => {
    const heavy = byTrades[0]!;
    const loaded = await variantApp(t, { WALLET_HEAVY_TRADES: String(heavy.total_trades) });
    closers.push(loaded.close);
    const call = () =>
      request(loaded.app, "POST", "/api/public/v1/wallets/overview", {
        headers: keyed(),
        payload: { wallets: [heavy.wallet, byTrades[5]!.wallet] },
      });
    expect((await call()).body.wallets.map((w: any) => w.status)).toEqual(["computing", "ok"]);
    let statuses: string[] = [];
    for (let attempt = 0; attempt < 50 && statuses[0] !== "ok"; attempt++) {
      await new Promise((r) => setTimeout(r, 10));
      statuses = (await call()).body.wallets.map((w: any) => w.status);
    }
    expect(statuses).toEqual(["ok", "ok"]);
  });

  it("POST /wallets/positions: full open sets, at most 20", async () => {
    const a = byTrades[4]!.wallet;
    const res = await request(t.app, "POST", "/api/public/v1/wallets/positions", {
      headers: keyed(),
      payload: { wallets: [a, UNKNOWN, CONTRACT] },
    });
    expect(res.status).toBe(200);
    expect(res.headers["x-ratelimit-consumed"]).toBe("3");
    const open = Number(
      (await one(t, `select count(*) as n from positions where wallet = '${a}' and status = 'open'`)).n,
    );
    expect(res.body.wallets[0]).toMatchObject({ status: "ok", address: a, count: open });
    expect(res.body.wallets[0].positions).toEqual(
      (await get(`/api/public/v1/wallet/${a}/positions`, keyed())).body.positions,
    );
    expect(res.body.wallets.slice(1).map((w: any) => [w.status, w.positions])).toEqual([
      ["not_found", null],
      ["not_found", null],
    ]);
    const tooMany = Array.from({ length: 21 }, () => a);
    expect(
      (
        await request(t.app, "POST", "/api/public/v1/wallets/positions", {
          headers: keyed(),
          payload: { wallets: tooMany },
        })
      ).status,
    ).toBe(422);
  });
});

describe("degraded under load", () => {
  it("drops the secondary counters and keeps the primary stats", async () => {
    const loaded = await variantApp(t, { DEGRADED_IN_FLIGHT_REQUESTS: "0" });
    closers.push(loaded.close);
    const wallet = byTrades[6]!.wallet;
    const normal = (await get(`/api/v2/wallet/${wallet}/overview`)).body;
    const res = await request(loaded.app, "GET", `/api/v2/wallet/${wallet}/overview`);
    expect(res.status).toBe(200);
    expect(res.body.degraded).toBe(true);
    expect(normal.degraded).toBe(false);
    expect(res.body.overview).toMatchObject({
      active_count: null,
      closed_count: null,
      total_trades: normal.overview.total_trades,
      total_volume: normal.overview.total_volume,
    });
    expect(res.body.stats).toMatchObject({
      wins: null,
      losses: null,
      market_wins: null,
      market_losses: null,
      win_rate: normal.stats.win_rate,
      total_pnl: normal.stats.total_pnl,
    });
    expect(normal.overview.active_count).not.toBeNull();
    const v1 = await request(loaded.app, "GET", `/api/public/v1/wallet/${wallet}/overview`, { headers: keyed() });
    expect(v1.body.degraded).toBe(true);
  });
});

describe("the load signal", () => {
  it("counts requests in flight and notices a stalled event loop", async () => {
    const monitor = new LoadMonitor({ inFlight: 1, loopDelayMs: 50 });
    try {
      monitor.enter();
      expect(monitor.degraded()).toBe(false);
      monitor.enter();
      expect(monitor.degraded()).toBe(true);
      monitor.leave();
      monitor.leave();
      // A stall of 250 ms, again (three at most) while the monitor has not seen one: on a loaded machine the
      // histogram's timer may not have sampled the loop around the first.
      for (let stalls = 0; stalls < 3 && monitor.loopDelayMs() <= 50; stalls++) {
        await new Promise<void>((resolve) =>
          setTimeout(() => {
            const until = performance.now() + 250;
            while (performance.now() < until);
            resolve();
          }, 30),
        );
        await new Promise((r) => setTimeout(r, 40));
      }
      expect(monitor.loopDelayMs()).toBeGreaterThan(50);
      expect(monitor.degraded()).toBe(true);
    } finally {
      monitor.close();
    }
  });
});

describe("view=signer and view=union (live venue reads)", () => {
  let venue: Server;
  let venueUrl: string;
  let venueRequests = 0;
  const signer = "0x5151515151515151515151515151515151515151";
  const closed = [25.5, 10, -4].map((pnl, i) => ({
    proxyWallet: signer,
    asset: String(1000 + i),
    conditionId: `0x${String(i + 1).padStart(64, "0")}`,
    avgPrice: 0.4,
    totalBought: 100,
    realizedPnl: pnl,
    curPrice: 1,
    timestamp: 1_779_000_000 + i,
    outcomeIndex: 0,
  }));
  const open = [
    {
      proxyWallet: signer,
      asset: "2000",
      conditionId: `0x${"a".repeat(64)}`,
      size: 10,
      avgPrice: 0.5,
      initialValue: 5,
      currentValue: 6,
      cashPnl: 1,
      totalBought: 10,
      realizedPnl: 0,
      curPrice: 0.6,
      redeemable: false,
      mergeable: false,
      outcomeIndex: 0,
    },
  ];

  beforeAll(async () => {
    venue = createServer((req, res) => {
      venueRequests++;
      const url = new URL(req.url ?? "/", "http://x");
      const offset = Number(url.searchParams.get("offset") ?? 0);
      const body =
        url.pathname === "/closed-positions"
          ? offset === 0
            ? closed
            : []
          : url.pathname === "/positions"
            ? offset === 0
              ? open
              : []
            : url.pathname === "/user-pnl"
              ? [
                  { t: 1_779_000_000, p: 12 },
                  { t: 1_779_100_000, p: 31.5 },
                ]
              : null;
      res
        .writeHead(body ? 200 : 404, { "content-type": "application/json" })
        .end(JSON.stringify(body ?? { error: "not found" }));
    });
    await new Promise<void>((r) => venue.listen(0, "127.0.0.1", r));
    venueUrl = `http://127.0.0.1:${(venue.address() as AddressInfo).port}`;
  });
  afterAll(async () => new Promise<void>((r) => venue.close(() => r())));

  it("reads the signer's counters from the venue, and merges them with the proxy's for union", async () => {
    const proxy = byTrades[7]!.wallet;
    await t.store.db.updateTable("wallets").set({ signer }).where("address", "=", proxy).execute();
    const live = await variantApp(t, { VENUE_DATA_API_URL: venueUrl, VENUE_PNL_URL: venueUrl });
    closers.push(live.close);
    const proxyView = (await request(live.app, "GET", `/api/v2/wallet/${proxy}/overview`)).body;
    expect(proxyView.profile.signer).toBe(signer);
    const res = await request(live.app, "GET", `/api/v2/wallet/${proxy}/overview?view=signer`);
    expect(res.status).toBe(200);
    expect(res.body.view).toBe("signer");
    expect(res.body.stats).toMatchObject({ wins: 2, losses: 1, total_pnl: 31.5, win_source: "venue" });
    expectServed(res.body.stats.profit_factor, 35.5 / 4, AT.percent);
    expect(res.body.overview.active_count).toBe(1);
    const union = await request(live.app, "GET", `/api/v2/wallet/${proxy}/overview?view=union`);
    expect(union.status).toBe(200);
    expect(union.body.stats.wins).toBe(proxyView.stats.wins + 2);
    expect(union.body.stats.losses).toBe(proxyView.stats.losses + 1);
    // The proxy's served total is rounded too.
    expectServed(union.body.stats.total_pnl, proxyView.stats.total_pnl + 31.5, AT.usd, 2);
    expect(union.body.overview.active_count).toBe(proxyView.overview.active_count + 1);
    expect(union.body.overview.total_trades).toBe(proxyView.overview.total_trades);
    // The signer's own address resolves to its proxy.
    const viaSigner = await request(live.app, "GET", `/api/v2/wallet/${signer}/overview`);
    expect(viaSigner.body.profile).toMatchObject({ address: signer, proxy_wallet: proxy });
    expect(viaSigner.body.stats.total_trades).toBe(proxyView.stats.total_trades);
  });

  it("keeps a live view per signer for the overview window, and limits each client's live computations", async () => {
    const [first, second] = [byTrades[12]!.wallet, byTrades[13]!.wallet];
    await t.store.db.updateTable("wallets").set({ signer }).where("address", "=", first).execute();
    await t.store.db
      .updateTable("wallets")
      .set({ signer: "0x5252525252525252525252525252525252525252" })
      .where("address", "=", second)
      .execute();
    const live = await variantApp(t, {
      VENUE_DATA_API_URL: venueUrl,
      VENUE_PNL_URL: venueUrl,
      RATE_LIVE_VIEWS_PER_MINUTE: "1",
    });
    closers.push(live.close);
    const before = venueRequests;
    expect((await request(live.app, "GET", `/api/v2/wallet/${first}/overview?view=signer`)).status).toBe(200);
    const perView = venueRequests - before;
    expect(perView).toBeGreaterThan(0);
    expect((await request(live.app, "GET", `/api/v2/wallet/${first}/overview?view=union`)).status).toBe(200);
    expect(venueRequests - before).toBe(perView);
    const limited = await request(live.app, "GET", `/api/v2/wallet/${second}/overview?view=signer`);
    expect(limited.status).toBe(429);
    expect(limited.body.detail).toMatch(/Live views/);
    expect(venueRequests - before).toBe(perView);
    expect((await request(live.app, "GET", `/api/v2/wallet/${second}/overview`)).status).toBe(200);
  });

  it("answers 502 when the venue is down, and the default view does not notice", async () => {
    const proxy = byTrades[8]!.wallet;
    await t.store.db.updateTable("wallets").set({ signer }).where("address", "=", proxy).execute();
    const down = await variantApp(t, {
      VENUE_DATA_API_URL: "http://127.0.0.1:9",
      VENUE_PNL_URL: "http://127.0.0.1:9",
      VENUE_LIVE_TIMEOUT_MS: "500",
    });
    closers.push(down.close);
    const res = await request(down.app, "GET", `/api/v2/wallet/${proxy}/overview?view=union`);
    expect(res.status).toBe(502);
    expect(res.body.detail).toMatch(/temporarily unavailable/);
    expect((await request(down.app, "GET", `/api/v2/wallet/${proxy}/overview`)).status).toBe(200);
  });
});

describe("view=signer on a wallet whose signer the store does not know", () => {
  it("asks the chain (Safe.getOwners), records the signer, and resolves the signer's address to its proxy", async () => {
    const venue = await startSimVenue({ world: t.world, now: t.now });
    closers.push(venue.close);
    const proxy = byTrades[10]!.wallet;
    const expected = t.world.wallets.find((w) => w.proxyWallet === proxy)!.signer.toLowerCase();
    expect((await one(t, `select signer from wallets where address = '${proxy}'`)).signer).toBeNull();
    const live = await variantApp(t, venueEnvironment(venue.urls));
    closers.push(live.close);

    const res = await request(live.app, "GET", `/api/v2/wallet/${proxy}/overview?view=signer`);
    expect(res.status).toBe(200);
    expect(res.body.profile.signer).toBe(expected);
    // The simulated signers never trade themselves: the venue has nothing for them.
    expect(res.body.stats).toMatchObject({ wins: 0, losses: 0, win_source: "venue" });
    expect((await one(t, `select signer from wallets where address = '${proxy}'`)).signer).toBe(expected);
    const viaSigner = await request(live.app, "GET", `/api/v2/wallet/${expected}/overview`);
    expect(viaSigner.status).toBe(200);
    expect(viaSigner.body.profile).toMatchObject({ address: expected, proxy_wallet: proxy });
  });

  it("answers 404 when no RPC is configured to ask, and 502 when the node is down", async () => {
    const proxy = byTrades[11]!.wallet;
    const none = await variantApp(t, { VENUE_RPC_URL: "" });
    closers.push(none.close);
    const missing = await request(none.app, "GET", `/api/v2/wallet/${proxy}/overview?view=union`);
    expect(missing.status).toBe(404);
    expect(missing.body.detail).toMatch(/No signer is known/);
    const down = await variantApp(t, { VENUE_RPC_URL: "http://127.0.0.1:9", VENUE_LIVE_TIMEOUT_MS: "500" });
    closers.push(down.close);
    const res = await request(down.app, "GET", `/api/v2/wallet/${proxy}/overview?view=signer`);
    expect(res.status).toBe(502);
    expect(res.body.detail).toMatch(/temporarily unavailable/);
  });
});
