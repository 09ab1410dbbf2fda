/**
 * The busiest wallet's history one page at a time (issue 24): closed positions paged in close-time order, raw trades
 * and open positions kept serialized, each compared with what SQL over the stored rows (or a sort done here) gives,
 * after the changes that must retire a kept answer: a new fill, the clock moving the 30-day window, a venue sync.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { worldFillRows } from "../../src/derive/testing/stored-world.js";
import { insertFills } from "../../src/store/fills.js";
import { replaceVenuePositions } from "../../src/store/wallet-cache.js";
import { storeBackends } from "../support/backends.js";
import { AT, expectServed } from "../support/served-numbers.js";
import { openWorldApp, type WorldApp } from "../support/world-app.js";
import { keys, one, request, rows, storeVenuePositions } from "../support/api/wallet-core.js";

const DAY = 86_400;

describe.each(storeBackends)("on $kind", (backend) => {
  let t: WorldApp;
  let premium: string;
  /** The busiest wallet. */
  let W: string;

  const get = <T = any>(url: string, headers: Record<string, string> = {}) =>
    request<T>(t.app, "GET", url, { headers });

  beforeAll(async () => {
    t = await openWorldApp({ env: { DEGRADED_EVENT_LOOP_DELAY_MS: "3600000" }, storeBackend: backend });
    ({ premium } = await keys(t));
    W = (await one(t, "select wallet from wallet_stats order by total_trades desc, wallet limit 1")).wallet;
  }, 120_000);
  afterAll(async () => t.close());

  describe("changes-since and hold, from the daily sums and the close-time index", () => {
    it("counts the fills of any range as SQL over the fills does", async () => {
      const now = t.clock.now();
      for (const since of [now - 61, now - DAY - 1, now - 7 * DAY, now - 7 * DAY + 12_345, now - 29 * DAY, 1]) {
        const { body } = await get(`/api/v2/wallet/${W}/changes-since?since=${since}`);
        const from = Math.max(since, now - 30 * DAY);
        const sql = await one(
          t,
          `select count(*) as n, coalesce(sum(usd), 0) as usd from fills where wallet = '${W}' and ts > ${from} and ts <= ${now}`,
        );
        expect(body.trades_count, `since ${since}`).toBe(Number(sql.n));
        expectServed(body.volume_usd, Number(sql.usd) / 1e6, AT.usd);
      }
    });

    it("gives the hold figures of every position row read here", async () => {
      const now = t.clock.now();
      const positions = await rows<{ status: string; first_ts: number; closed_ts: number | null }>(
        t,
        `select status, first_ts, closed_ts from positions where wallet = '${W}'`,
      );
      const holds = positions
        .filter((p) => p.status === "closed" && p.closed_ts !== null && Number(p.closed_ts) >= now - 90 * DAY)
        .map((p) => (Number(p.closed_ts) - Number(p.first_ts)) / DAY)
        .sort((a, b) => a - b);
      const open = positions.filter((p) => p.status === "open");
      const { body } = await get(`/api/v2/wallet/${W}/hold`);
      expect(holds.length).toBeGreaterThan(3);
      expect(body.hold_positions_count).toBe(holds.length);
      expect(body.mean_hold_days).toBeCloseTo(holds.reduce((a, h) => a + h, 0) / holds.length, 6);
      expect(body.longest_hold_days).toBeCloseTo(holds.at(-1)!, 6);
      expect(body.open_positions).toBe(open.length);
      expect(body.open_avg_age_days).toBeCloseTo(
        open.reduce((a, p) => a + (now - Number(p.first_ts)), 0) / open.length / DAY,
        6,
      );
    });
  });

  describe("closed positions, paged in close-time order", () => {
    /** The wallet with the most closed positions: pages of 7 over more than 20 of them. */
    let C: string;
    beforeAll(async () => {
      C = (
        await one(
          t,
          "select wallet from positions where status = 'closed' group by wallet order by count(*) desc, wallet limit 1",
        )
      ).wallet;
    });

    it.each([
      ["recent", -1],
      ["oldest", 1],
    ] as const)("walks sort=%s page by page as a sort of every closed position done here", async (sort, direction) => {
      const closed = await rows<{ token_id: string; condition_id: string; outcome_index: number; closed_ts: number }>(
        t,
        `select token_id, condition_id, outcome_index, closed_ts from positions where wallet = '${C}' and status = 'closed'`,
      );
      expect(closed.length).toBeGreaterThan(20);
      const byte = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
      const expected = [...closed]
        .sort(
          (a, b) =>
            direction * (Number(a.closed_ts) - Number(b.closed_ts)) ||
            byte(a.condition_id, b.condition_id) ||
            Number(a.outcome_index) - Number(b.outcome_index),
        )
        .map((p) => p.token_id);
      const served: string[] = [];
      for (let offset = 0; ; offset += 7) {
        const { body } = await get(`/api/v2/wallet/${C}/closed?sort=${sort}&limit=7&offset=${offset}`);
        expect(body.total).toBe(closed.length);
        served.push(...body.closed.map((c: any) => c.token_id));
        expect(body.has_more).toBe(offset + 7 < closed.length);
        if (!body.has_more) break;
      }
      expect(served).toEqual(expected);
    });
  });

  describe("raw trades, kept per wallet and query", () => {
    const trades = (query = "") => get(`/api/v2/wallet/${W}/trades${query}`, { "x-api-key": premium });
    /** The first page by SQL: the wallet's fills after `from`, newest first. */
    const expected = async (from: number, limit = 100) => {
      const stored = await rows<{ tx_hash: string; ts: number }>(
        t,
        `select tx_hash, ts from fills where wallet = '${W}' and ts > ${from} order by ts desc, id desc limit ${limit + 1}`,
      );
      return {
        hashes: stored.slice(0, limit).map((f) => f.tx_hash),
        has_more: stored.length > limit,
      };
    };
    const served = (body: any) => ({
      hashes: body.trades.map((f: any) => f.transaction_hash),
      has_more: body.has_more,
    });

    it("serves a new fill of the wallet at once, and follows the 30-day window as the clock moves", async () => {
      const now = t.clock.now();
      expect(served((await trades()).body)).toEqual(await expected(now - 30 * DAY));
      expect(served((await trades("?limit=10")).body)).toEqual(await expected(now - 30 * DAY, 10));

      const model = [...worldFillRows(t.world)].find((f) => f.wallet === W)!;
      await t.store.transaction((tx) =>
        insertFills(tx, [
          { ...model, fill_key: "test:pages:new", source: "data_api", tx_hash: "0xfeed", log_index: null, ts: now - 5 },
        ]),
      );
      const after = (await trades()).body;
      expect(after.trades[0].transaction_hash).toBe("0xfeed");
      expect(served(after)).toEqual(await expected(now - 30 * DAY));

      // A fill 30 s inside the window's start: the oldest a full page reads. The clock moves the start past it within
      // the kept answer's time to live, and the page is read again.
      await t.store.transaction((tx) =>
        insertFills(tx, [
          {
            ...model,
            fill_key: "test:pages:edge",
            source: "data_api",
            tx_hash: "0xedge",
            log_index: null,
            ts: now - 30 * DAY + 30,
          },
        ]),
      );
      const full = await expected(now - 30 * DAY, 500);
      expect(full.has_more).toBe(false);
      expect(full.hashes.at(-1)).toBe("0xedge");
      expect(served((await trades("?limit=500")).body)).toEqual(full);
      t.clock.set((now + 31) * 1000);
      try {
        const moved = served((await trades("?limit=500")).body);
        expect(moved.hashes).not.toContain("0xedge");
        expect(moved).toEqual(await expected(now + 31 - 30 * DAY, 500));
      } finally {
        t.clock.set(now * 1000);
      }
    });
  });

  describe("open positions, kept per wallet", () => {
    it("serves a fresh venue sync's prices at once (v2 and v1), and the market's again once the sync is stale", async () => {
      const v2 = () => get(`/api/v2/wallet/${W}/positions`);
      const v1 = () => get(`/api/public/v1/wallet/${W}/positions`, { "x-api-key": premium });
      const open = await rows(t, `select * from positions where wallet = '${W}' and status = 'open'`);
      expect(open.length).toBeGreaterThan(0);
      await t.store.transaction((tx) => replaceVenuePositions(tx, W, []));
      await t.store.db.updateTable("wallet_sync").set({ status: "error" }).where("wallet", "=", W).execute();
      expect((await v2()).body).toMatchObject({ source: "cache", total: open.length });
      expect((await v1()).body).toMatchObject({ source: "cache", count: open.length });

      const now = t.clock.now();
      await storeVenuePositions(t, W, open, 0.37);
      const synced = await one(t, `select count(*) as n from wallet_sync where wallet = '${W}'`);
      if (Number(synced.n) === 0) throw new Error("the world's busiest wallet has no sync row");
      // Synced long enough ago that it goes stale 20 s from now, within a kept answer's time to live.
      const fresh = t.config.ingest.walletSyncFreshSeconds;
      const syncedAt = now - fresh + 20;
      await t.store.db
        .updateTable("wallet_sync")
        .set({ synced_at: syncedAt, status: "ok" })
        .where("wallet", "=", W)
        .execute();
      for (const res of [await v2(), await v1()]) {
        expect(res.body).toMatchObject({ source: "merged", is_estimated: false });
        expect(res.body.positions.map((p: any) => p.current_price)).toEqual(open.map(() => 0.37));
      }

      t.clock.set((now + 21) * 1000);
      try {
        expect((await v2()).body).toMatchObject({ source: "cache", is_estimated: true });
        expect((await v1()).body).toMatchObject({ source: "cache", is_estimated: true });
      } finally {
        t.clock.set(now * 1000);
      }
    });
  });
});
