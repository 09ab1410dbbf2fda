/**
 * Whale alerts, their summary and recent whale trades over a hand-built world: a few fills written directly, the
 * expected answers worked out from them by hand (NOW = 2026-06-10 12:00 UTC).
 */
import { storedHash } from "../../src/store/fill-layout.js";
import { AT, servedAs } from "../support/served-numbers.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { storeBackends } from "../support/backends.js";
import {
  NOW,
  addEvent,
  addFill,
  addMarket,
  addWhale,
  bumpStatsGeneration,
  openWhaleWorld,
  type WhaleWorld,
} from "../support/api/whale-world.js";

const H = 3_600;

describe.each(storeBackends)("whale alerts over a hand-built world on $kind", (backend) => {
  let w: WhaleWorld;
  let A: string, B: string, F: string, N: string;
  const tx: Record<number, string> = {};
  const alerts = async (query: string) =>
    (
      await w.get<{
        alerts: Array<{ tx_hash: string } & Record<string, unknown>>;
        has_more: boolean;
        next_before_ts: number | null;
        count: number;
        as_of: number;
      }>(`/api/v2/whale-alerts${query}`)
    ).body;
  const txs = (body: { alerts: Array<{ tx_hash: string }> }) => body.alerts.map((a) => a.tx_hash);

  beforeAll(async () => {
    w = await openWhaleWorld(backend);
    await addEvent(w, { id: "e1", slug: "election" });
    await addMarket(w, { n: 1, eventId: "e1", category: "POLITICS", question: "Who wins?" });
    await addMarket(w, { n: 2, category: "SPORTS", question: "Final?" });
    A = await addWhale(w, { n: 1, name: "alpha", winRate: 70, totalPnl: 5_000 });
    B = await addWhale(w, { n: 2, name: null, winRate: 60, totalPnl: 900 });
    F = await addWhale(w, { n: 3, farmer: true });
    N = await addWhale(w, { n: 4, smart: false });
    // Numbered as in the comments below; a fill's row id grows with its number.
    tx[1] = await addFill(w, { wallet: A, market: 1, ts: NOW - 60, usd: 5_000, price: 0.5 });
    tx[2] = await addFill(w, {
      wallet: B,
      market: 2,
      ts: NOW - 60,
      usd: 20,
      outcome: 1,
      side: "SELL",
      price: 0.25,
      role: "maker",
      entryType: "COMPLEMENTARY",
    });
    tx[3] = await addFill(w, { wallet: A, market: 2, ts: NOW - 120, usd: 9.99 });
    tx[4] = await addFill(w, { wallet: N, market: 1, ts: NOW - 30, usd: 50_000 });
    tx[5] = await addFill(w, { wallet: F, market: 1, ts: NOW - 30, usd: 60_000 });
    tx[6] = await addFill(w, { wallet: B, market: 1, ts: NOW - 700, usd: 2_000 });
    tx[8] = await addFill(w, { wallet: A, market: 1, ts: NOW - 90_000, usd: 3_000 });
    tx[9] = await addFill(w, { wallet: B, market: 1, ts: NOW - 100_000, usd: 1_000 });
    tx[10] = await addFill(w, { wallet: A, market: 2, ts: NOW - 30 * H, usd: 999.99 });
    tx[11] = await addFill(w, { wallet: A, market: 1, ts: NOW - 49 * H, usd: 10_000 });
    tx[12] = await addFill(w, { wallet: A, market: 1, ts: NOW - 300, usd: 100 });
    tx[13] = await addFill(w, { wallet: B, market: 2, ts: NOW - 400, usd: 100 });
    tx[14] = await addFill(w, { wallet: A, market: 2, ts: NOW - 400, usd: 100 });
    tx[16] = await addFill(w, { wallet: B, market: 2, ts: NOW - 95_000, usd: 4_000 });
  }, 60_000);
  afterAll(async () => w?.close());

  it("answers the smart whales' fills of the last 10 minutes of at least 10 USD, newest first (then by id)", async () => {
    const body = await alerts("");
    // Not 3 (9.99 USD), 4 (not Smart Money), 5 (a farmer), 6 (700 s ago).
    expect(txs(body)).toEqual([tx[2], tx[1], tx[12], tx[14], tx[13]]);
    expect(body).toMatchObject({
      count: 5,
      has_more: false,
      next_before_ts: null,
      minutes: 10,
      min_usd: 10,
      smart_only: true,
      as_of: NOW,
    });
    expect(body.alerts[0]).toEqual({
      id: expect.any(Number),
      timestamp: NOW - 60,
      wallet: B,
      name: null,
      is_smart: true,
      win_rate: 60,
      total_pnl: 900,
      market_id: "1002",
      condition_id: expect.stringMatching(/^0x0+2$/),
      question: "Final?",
      slug: "market-2",
      event_slug: null,
      category: "SPORTS",
      side: "NO",
      direction: "SELL",
      price: 0.25,
      usd_amount: 20,
      token_amount: 80,
      entry_type: "COMPLEMENTARY",
      wallet_role: "maker",
      tx_hash: tx[2],
    });
    expect(body.alerts[1]).toMatchObject({
      wallet: A,
      name: "alpha",
      market_id: "1001",
      event_slug: "election",
      category: "POLITICS",
      side: "YES",
      direction: "BUY",
      usd_amount: 5_000,
      token_amount: 10_000,
    });
  });

  it("filters by window, amount, wallet, wallets, market (any id), category and smartness", async () => {
    expect(txs(await alerts("?minutes=60"))).toEqual([tx[2], tx[1], tx[12], tx[14], tx[13], tx[6]]);
    expect(txs(await alerts("?min_usd=0"))).toEqual([tx[2], tx[1], tx[3], tx[12], tx[14], tx[13]]);
    expect(txs(await alerts("?min_usd=100"))).toEqual([tx[1], tx[12], tx[14], tx[13]]);
    expect(txs(await alerts(`?wallet=${A.toUpperCase().replace("0X", "0x")}`))).toEqual([tx[1], tx[12], tx[14]]);
    expect(txs(await alerts(`?wallets=${B},%20${A}`))).toEqual([tx[2], tx[1], tx[12], tx[14], tx[13]]);
    expect(txs(await alerts(`?wallet=${A}&wallets=${N}`))).toEqual([tx[1], tx[12], tx[14]]);
    for (const id of ["1001", "0x" + "0".repeat(63) + "1", "market-1"])
      expect(txs(await alerts(`?market_id=${id}`)), id).toEqual([tx[1], tx[12]]);
    expect(txs(await alerts("?category=sports"))).toEqual([tx[2], tx[14], tx[13]]);
    const all = await alerts("?smart_only=false");
    expect(txs(all)).toEqual([tx[5], tx[4], tx[2], tx[1], tx[12], tx[14], tx[13]]);
    expect(all.alerts.map((a) => a.is_smart)).toEqual([false, false, true, true, true, true, true]);
    expect(all.alerts[0]).toMatchObject({ wallet: F, name: "whale-3", win_rate: 60, total_pnl: 1_000 });
    expect(txs(await alerts("?smart_only=0&category=Politics&min_usd=1000"))).toEqual([tx[5], tx[4], tx[1]]);
    expect(txs(await alerts(`?smart_only=false&wallet=${N}&minutes=1440`))).toEqual([tx[4]]);
  });

  it("bounds the window with before_ts and after_ts (both exclusive)", async () => {
    expect(txs(await alerts(`?minutes=60&before_ts=${NOW - 60}`))).toEqual([tx[12], tx[14], tx[13], tx[6]]);
    expect(txs(await alerts(`?minutes=60&after_ts=${NOW - 300}`))).toEqual([tx[2], tx[1]]);
    expect(txs(await alerts(`?minutes=60&after_ts=${NOW - 401}&before_ts=${NOW - 300}`))).toEqual([tx[14], tx[13]]);
    // The window still ends `minutes` back: an older before_ts finds nothing.
    expect(txs(await alerts(`?before_ts=${NOW - 3_000}`))).toEqual([]);
  });

  it("pages whole seconds: next_before_ts continues exactly where a page stopped", async () => {
    const first = await alerts("?limit=4");
    // The 4th alert shares its second with the 5th: the page stops before that second.
    expect(txs(first)).toEqual([tx[2], tx[1], tx[12]]);
    expect(first).toMatchObject({ count: 3, has_more: true, next_before_ts: NOW - 300 });
    const second = await alerts(`?limit=4&before_ts=${first.next_before_ts}`);
    expect(txs(second)).toEqual([tx[14], tx[13]]);
    expect(second).toMatchObject({ has_more: false, next_before_ts: null });
    const exact = await alerts("?limit=3");
    expect(txs(exact)).toEqual([tx[2], tx[1], tx[12]]);
    expect(exact.next_before_ts).toBe(NOW - 300);
    // More alerts in one second than the limit: the page cuts inside the second.
    expect(await alerts("?limit=1")).toMatchObject({ count: 1, has_more: true, next_before_ts: NOW - 60 });
  });

  it("refuses what it cannot answer: unknown market 404; bad values, limits and bounds 422", async () => {
    expect((await w.get("/api/v2/whale-alerts?market_id=no-such-market")).status).toBe(404);
    for (const query of [
      "minutes=1441",
      "minutes=0",
      "limit=201",
      "limit=0",
      "min_usd=-1",
      "category=weather",
      "wallet=0x12",
      `wallets=${A},nope`,
      `wallets=${Array.from({ length: 51 }, (_, i) => `0x${String(i).padStart(40, "0")}`).join(",")}`,
      `after_ts=${NOW}&before_ts=${NOW}`,
      "hours=1",
    ]) {
      const res = await w.get<{ detail: Array<{ loc: string[] }> }>(`/api/v2/whale-alerts?${query}`);
      expect(res.status, query).toBe(422);
      expect(res.body.detail[0]!.loc[1], query).toBe(query.startsWith("after_ts") ? "after_ts" : query.split("=")[0]);
    }
  });

  it("keeps every wallet's feed while the store's last fill and the window stand; a fill stored since shows at once", async () => {
    const query = "?smart_only=false&min_usd=7&minutes=60";
    const before = await alerts(query);
    expect(before.count).toBeGreaterThan(3);
    w.clock.set((NOW + 5) * 1000);
    try {
      // Kept: computed at NOW, its oldest fill still in the window.
      expect(await alerts(query)).toEqual(before);
      const added = await addFill(w, { wallet: N, market: 2, ts: NOW - 10, usd: 8 });
      try {
        const after = await alerts(query);
        expect(txs(after)).toEqual([added, ...txs(before)]);
        expect(after.as_of).toBe(NOW + 5);
      } finally {
        await w.store.db.deleteFrom("fill_rows").where("tx_hash", "=", storedHash(added).bytes).execute();
      }
    } finally {
      w.clock.set(NOW * 1000);
    }
  });

  it("summarizes the alerts of at least 1000 USD of the last 24 h against the 24 h before", async () => {
    const res = await w.get("/api/v2/whale-alerts/summary");
    expect(res.status).toBe(200);
    // Now: 1 (5,000, A) and 6 (2,000, B). Before: 8 (3,000), 9 (1,000), 16 (4,000); 10 is under 1,000 and 11 older than 48 h.
    expect(res.body).toEqual({
      window_minutes: 1_440,
      total_alerts: 2,
      previous_alerts: 3,
      alerts_delta_pct: servedAs((100 * (2 - 3)) / 3, AT.percent),
      total_volume: 7_000,
      previous_volume: 8_000,
      biggest_single: {
        usd_amount: 5_000,
        question: "Who wins?",
        market_id: "1001",
        condition_id: expect.any(String),
        wallet: A,
        name: "alpha",
        side: "YES",
        direction: "BUY",
        price: 0.5,
        timestamp: NOW - 60,
        tx_hash: tx[1],
      },
      most_active_whale: { name: "alpha", trades: 1, wallet: A, volume_usd: 5_000 },
      min_usd: 1_000,
      as_of: NOW,
    });
    const hour = (await w.get("/api/v2/whale-alerts/summary?minutes=60")).body;
    expect(hour).toMatchObject({
      window_minutes: 60,
      total_alerts: 2,
      previous_alerts: 0,
      alerts_delta_pct: null,
      total_volume: 7_000,
    });
    const empty = (await w.get("/api/v2/whale-alerts/summary?minutes=1")).body;
    expect(empty).toMatchObject({ total_alerts: 0, biggest_single: null, most_active_whale: null });
    expect((await w.get("/api/v2/whale-alerts/summary?minutes=1441")).status).toBe(422);
  });

  it("lists recent whale trades as a plain list, newest first", async () => {
    const res = await w.get<Array<Record<string, unknown>>>("/api/v2/whales/recent-trades");
    expect(res.status).toBe(200);
    expect(res.body.map((r) => r.tx_hash)).toEqual([tx[1], tx[12], tx[14], tx[13], tx[6]]);
    expect(res.body[0]).toEqual({
      tx_hash: tx[1],
      size_usd: 5_000,
      whale_name: "alpha",
      side: "YES",
      price: 0.5,
      question: "Who wins?",
      wallet: A,
      timestamp: NOW - 60,
      direction: "BUY",
      token_amount: 10_000,
      market_id: "1001",
      condition_id: expect.any(String),
      category: "POLITICS",
      entry_type: "MINT",
    });
    expect(
      (await w.get<Array<{ tx_hash: string }>>("/api/v2/whales/recent-trades?limit=2")).body.map((r) => r.tx_hash),
    ).toEqual([tx[1], tx[12]]);
    expect(
      (await w.get<Array<{ tx_hash: string }>>("/api/v2/whales/recent-trades?category=SPORTS")).body.map(
        (r) => r.tx_hash,
      ),
    ).toEqual([tx[14], tx[13]]);
    expect(
      (await w.get<Array<{ tx_hash: string }>>("/api/v2/whales/recent-trades?min_size_usd=2000&hours=24")).body.map(
        (r) => r.tx_hash,
      ),
    ).toEqual([tx[1], tx[6]]);
    for (const query of ["limit=101", "hours=25", "hours=0", "min_size_usd=-5", "category=x"])
      expect((await w.get(`/api/v2/whales/recent-trades?${query}`)).status, query).toBe(422);
  });

  it("keeps an answer while its copy lasts, until the window's start passes the oldest fill it holds", async () => {
    // The copy brought up to date at NOW - 1 (a clock set back is a new copy); the next second uses the same copy.
    w.clock.set((NOW - 1) * 1000);
    const minute = await alerts("?minutes=1");
    expect(txs(minute)).toEqual([tx[2], tx[1]]);
    expect(minute.as_of).toBe(NOW - 1);
    const tenMinutes = await alerts("?minutes=10");
    w.clock.set(NOW * 1000);
    // Fills 1 and 2 (NOW - 60) have left the one-minute window: the answer kept at NOW - 1 is not sent.
    const next = await alerts("?minutes=1");
    expect(txs(next)).toEqual([]);
    expect(next.as_of).toBe(NOW - 1);
    expect(await alerts("?minutes=10")).toEqual(tenMinutes);
    expect(txs(tenMinutes)).toEqual([tx[2], tx[1], tx[12], tx[14], tx[13]]);
    // Back to a copy of NOW for the next test.
    w.clock.set((NOW - 5) * 1000);
    await alerts("");
    w.clock.set(NOW * 1000);
    expect((await alerts("?minutes=1")).as_of).toBe(NOW);
  });

  it("adds stored fills within WHALE_ALERTS_REFRESH_SECONDS, and follows the Smart Money list when the statistics are rewritten", async () => {
    const late = await addFill(w, { wallet: A, market: 1, ts: NOW + 1, usd: 700 });
    w.clock.set((NOW + 1) * 1000);
    expect(txs(await alerts(""))[0]).toBe(tx[2]);
    w.clock.set((NOW + 2) * 1000);
    const fresh = await alerts("");
    expect(txs(fresh)[0]).toBe(late);
    expect(fresh.as_of).toBe(NOW + 2);
    // The cached recent-trades list of the minute does not move until its window ends.
    expect((await w.get<Array<{ tx_hash: string }>>("/api/v2/whales/recent-trades")).body[0]!.tx_hash).toBe(tx[1]);
    await w.store.db.updateTable("wallet_stats").set({ is_farmer: 1 }).where("wallet", "=", A).execute();
    await w.store.db.updateTable("wallet_stats").set({ is_smart: 1 }).where("wallet", "=", N).execute();
    await bumpStatsGeneration(w);
    w.clock.set((NOW + 4) * 1000);
    // A (now a farmer) is gone; N (now Smart Money) is in, its older fill read by wallet.
    expect(txs(await alerts(""))).toEqual([tx[4], tx[2], tx[13]]);
    w.clock.set((NOW + 60) * 1000);
    expect(
      (await w.get<Array<{ tx_hash: string }>>("/api/v2/whales/recent-trades")).body.map((r) => r.tx_hash),
    ).toEqual([tx[4], tx[13], tx[6]]);
  });
});
