/**
 * Who is looking, and who looked: wallet page presence (ping / watching), community lookups (counted once per
 * client, wallet and hour), and the short life of a cached "not found" overview.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { WorldApp } from "../support/world-app.js";
import {
  CONTRACT,
  UNKNOWN,
  one,
  openWalletFixture,
  request,
  variantApp,
  type ByTrades,
} from "../support/api/wallet-core.js";

let t: WorldApp;
let premium: string;
let byTrades: ByTrades;
const closers: Array<() => Promise<void>> = [];

const get = <T = any>(url: string, headers: Record<string, string> = {}) => request<T>(t.app, "GET", url, { headers });
const keyed = () => ({ "x-api-key": premium });

beforeAll(async () => ({ t, premium, byTrades } = await openWalletFixture()), 60_000);
afterAll(async () => {
  for (const close of closers) await close();
  await t.close();
});

describe("community lookups", () => {
  it("counts overview lookups by distinct clients and lists the 6 most looked-up wallets of the last 24 h with names", async () => {
    const wallets = byTrades.slice(20, 27).map((w) => w.wallet);
    const other = await variantApp(t, {});
    closers.push(other.close);
    for (const [i, wallet] of wallets.entries()) {
      for (let n = 0; n < 7 - i; n++) {
        // Lookups through another API process count in the same store.
        const app = n % 2 === 0 ? t.app : other.app;
        const url = n % 3 === 0 ? `/api/v2/wallet/${wallet}` : `/api/v2/wallet/${wallet}/overview`;
        expect((await request(app, "GET", url, { from: `198.51.100.${n + 1}` })).status).toBe(200);
      }
    }
    const res = await get("/api/v2/home/community-lookups");
    expect(res.status).toBe(200);
    expect(res.body.window_hours).toBe(24);
    const profiles = new Map(t.world.wallets.map((w) => [w.proxyWallet, w.name || w.pseudonym]));
    const listed = wallets
      .slice(0, 6)
      .map((wallet, i) => ({ wallet, name: profiles.get(wallet), pseudonym: expect.any(String), lookups: 7 - i }));
    expect(res.body.wallets).toEqual(listed);

    // One client repeating a lookup, under as many invented sessions as it likes, through either process, counts once.
    const pushed = byTrades[27]!.wallet;
    for (let n = 0; n < 30; n++) {
      const app = n % 2 === 0 ? t.app : other.app;
      const headers = { "x-service-session": `fake-${n}` };
      expect(
        (await request(app, "GET", `/api/v2/wallet/${pushed}/overview`, { headers, from: "203.0.113.50" })).status,
      ).toBe(200);
    }
    t.clock.advance(61_000);
    expect((await get("/api/v2/home/community-lookups")).body.wallets).toEqual(listed);
  });
});

describe("POST /api/v2/wallet/{address}/ping and GET /watching", () => {
  it("counts unique sessions (header, else client IP) for 90 s, across API processes", async () => {
    const wallet = byTrades[9]!.wallet;
    const other = await variantApp(t, {}, t.platform);
    closers.push(other.close);
    const ping = (headers: Record<string, string> = {}) =>
      request(t.app, "POST", `/api/v2/wallet/${wallet}/ping`, { headers });
    const watching = async () => (await request(other.app, "GET", `/api/v2/wallet/${wallet}/watching`)).body.watching;
    expect(await watching()).toBe(0);
    const first = await ping({ "x-service-session": "tab-a" });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ address: wallet, watching: 1, ttl_seconds: 90 });
    await ping({ "x-service-session": "tab-b" });
    await ping();
    await ping({ "x-service-session": "tab-a" });
    expect(await watching()).toBe(3);
    t.clock.advance(60_000);
    await ping({ "x-service-session": "tab-a" });
    t.clock.advance(31_000);
    expect(await watching()).toBe(1);
    t.clock.set(t.clock.nowMs() + 90_000);
    expect(await watching()).toBe(0);
    expect((await request(t.app, "POST", `/api/v2/wallet/${CONTRACT}/ping`)).status).toBe(400);
    expect((await request(t.app, "POST", `/api/v2/wallet/0xabc/ping`)).status).toBe(422);
  });

  it("refuses a wallet the store has never seen, as the other wallet routes do, and keeps nothing for it", async () => {
    const res = await request(t.app, "POST", `/api/v2/wallet/${UNKNOWN}/ping`, {
      headers: { "x-service-session": "tab-a" },
    });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ detail: `Wallet ${UNKNOWN} not found` });
    expect(res.body).toEqual((await get(`/api/v2/wallet/${UNKNOWN}/positions`)).body);
    expect((await get(`/api/v2/wallet/${UNKNOWN}/watching`)).body.watching).toBe(0);
  });

  it("never counts a session header as a client address", async () => {
    const wallet = byTrades[10]!.wallet;
    const ping = (headers: Record<string, string> = {}) =>
      request(t.app, "POST", `/api/v2/wallet/${wallet}/ping`, { headers, from: "192.0.2.7" });
    await ping();
    await ping({ "x-service-session": "ip:192.0.2.7" });
    expect((await get(`/api/v2/wallet/${wallet}/watching`)).body.watching).toBe(2);
  });
});

describe("community lookups, a day later", () => {
  it("forgets lookups older than 24 h; public v1 overview lookups count too, once per client", async () => {
    t.clock.advance(25 * 3_600_000);
    const res = await get("/api/v2/home/community-lookups");
    expect(res.body.wallets).toEqual([]);
    await get(`/api/v2/wallet/${byTrades[1]!.wallet}`);
    await get(`/api/v2/wallet/${byTrades[1]!.wallet}/overview`);
    await request(t.app, "GET", `/api/public/v1/wallet/${byTrades[1]!.wallet}/overview`, {
      headers: keyed(),
      from: "203.0.113.61",
    });
    t.clock.advance(61_000);
    expect((await get("/api/v2/home/community-lookups")).body.wallets.map((w: any) => [w.wallet, w.lookups])).toEqual([
      [byTrades[1]!.wallet, 2],
    ]);
  });
});

describe("an unknown wallet's overview", () => {
  it("is 'not found' for CACHE_NOT_FOUND_SECONDS (30 s), not the overview window (60 s): a wallet that appears is found", async () => {
    const appearing = "0x00000000000000000000000000000000000000bb";
    const url = `/api/v2/wallet/${appearing}/overview`;
    expect((await get(url)).status).toBe(404);
    const model = await one(t, `select * from wallet_stats where wallet = '${byTrades[5]!.wallet}'`);
    await t.store.db
      .insertInto("wallet_stats")
      .values({
        ...(model as any),
        wallet: appearing,
        rank_pnl: null,
        rank_winrate: null,
        rank_volume: null,
        rank_profit_factor: null,
      })
      .execute();
    t.clock.advance(29_000);
    expect((await get(url)).status).toBe(404);
    t.clock.advance(1_000);
    const found = await get(url);
    expect(found.status).toBe(200);
    expect(found.body.profile.address).toBe(appearing);
  });
});
