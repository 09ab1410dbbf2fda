/**
 * A market's whale trades (issue 25), v2 and public v1, on every store backend: each trade is a maker's fill (the
 * maker and its taker), whale-class when either is in today's Smart Money set, whose changes a kept answer follows. Expected rows come from the
 * simulated world's fills and the stored Smart Money flags; keyset pages are read while fills keep arriving; a read
 * past the time-out answers 503 with Retry-After.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql } from "kysely";
import { insertFills, type NewFill } from "../../src/store/fills.js";
import { writeSmartWallets } from "../../src/store/smart-wallets.js";
import { storeBackends } from "../support/backends.js";
import { get, openDrilldownWorld, worldFills, type Fixture, type WorldFill } from "../support/api/drilldowns.js";

/** The route's order: timestamp desc, then storage (chain) order desc. */
const newestFirst = (fills: readonly WorldFill[]) => [...fills].sort((a, b) => b.ts - a.ts || b.order - a.order);
const expectedRow = (x: WorldFill, smart: ReadonlySet<string>) => ({
  timestamp: x.ts,
  maker: x.wallet,
  taker: x.counterparty,
  maker_is_whale: smart.has(x.wallet),
  taker_is_whale: smart.has(x.counterparty),
  side: x.outcome === 0 ? "YES" : "NO",
  direction: x.side,
  usd_amount: x.usd / 1e6,
  token_amount: x.size / 1e6,
  entry_type: x.entryType,
  tx_hash: x.txHash,
});
const served = (t: any) => {
  const { id: _id, price: _price, ...rest } = t;
  return rest;
};

/** Maker fills of `market` made up for a test, after the world's end; `who` picks each one's maker and taker. */
function madeUpFills(
  market: WorldFill,
  from: number,
  count: number,
  ts: (i: number) => number,
  who: (i: number) => [string, string],
  usd = 900e6,
): NewFill[] {
  return Array.from({ length: count }, (_, i) => ({
    fill_key: `test:${market.conditionId}:${from + i}`,
    source: "chain" as const,
    tx_hash: `0x${(from + i).toString(16).padStart(64, "0")}`,
    log_index: 0,
    block_number: 1,
    wallet: who(i)[0],
    counterparty: who(i)[1],
    role: "maker" as const,
    condition_id: market.conditionId,
    token_id: "1",
    outcome_index: 0,
    side: "BUY" as const,
    size: 1_000e6,
    usd,
    price: usd / 1_000e6,
    fee: 0,
    ts: ts(i),
    entry_type: "COMPLEMENTARY" as const,
    exchange_version: 2,
  }));
}

describe.each(storeBackends)("market whale trades on $kind", (backend) => {
  let f: Fixture;
  let smart: Set<string>;
  let makers: WorldFill[];
  let market: string;
  let whaleClass: WorldFill[];

  beforeAll(async () => {
    f = await openDrilldownWorld({ storeBackend: backend });
    smart = new Set(
      (
        await f.w.store.db
          .selectFrom("wallet_stats")
          .select("wallet")
          .where("is_smart", "=", 1)
          .where("is_farmer", "=", 0)
          .execute()
      ).map((r) => r.wallet),
    );
    makers = worldFills(f.w.world).filter((x) => x.role === "maker");
    const isWhaleClass = (x: WorldFill) => smart.has(x.wallet) || smart.has(x.counterparty);
    const counts = new Map<string, number>();
    for (const x of makers) if (isWhaleClass(x)) counts.set(x.conditionId, (counts.get(x.conditionId) ?? 0) + 1);
    market = [...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))[0]![0];
    whaleClass = newestFirst(makers.filter((x) => x.conditionId === market && isWhaleClass(x)));
  }, 120_000);
  afterAll(async () => f?.w.close());

  const url = (q: string) => `/api/v2/market/${market}/whale-trades?${q}`;

  it("answers the market's whale-class trades newest first, with the contract's fields and flags from today's list", async () => {
    expect(smart.size).toBeGreaterThan(0);
    expect(whaleClass.length).toBeGreaterThan(20);
    const r = await get(f, url("before=0&min_usd=1&limit=500"));
    expect(r.status).toBe(200);
    const expected = whaleClass.filter((x) => x.usd >= 1e6);
    expect(r.body).toMatchObject({ market, count: Math.min(500, expected.length), min_usd: 1, wallets: "smart" });
    expect(r.body.trades.map(served)).toEqual(expected.slice(0, 500).map((x) => expectedRow(x, smart)));
    for (const t of r.body.trades) expect(t.maker_is_whale || t.taker_is_whale).toBe(true);
  });

  it("filters by min_usd, before (inclusive) and before_id (strict), and wallets=all returns every trade", async () => {
    const usds = whaleClass.map((x) => x.usd).sort((a, b) => a - b);
    const minUsd = Math.max(1, Math.floor(usds[Math.floor(usds.length / 2)]! / 1e6));
    const big = await get(f, url(`before=0&min_usd=${minUsd}&limit=500`));
    expect(big.body.trades.map(served)).toEqual(
      whaleClass.filter((x) => x.usd >= minUsd * 1e6).map((x) => expectedRow(x, smart)),
    );

    const pivot = whaleClass[5]!;
    const before = await get(f, url(`before=${pivot.ts}&min_usd=1&limit=500`));
    expect(before.body.trades.map(served)).toEqual(
      whaleClass.filter((x) => x.ts <= pivot.ts && x.usd >= 1e6).map((x) => expectedRow(x, smart)),
    );
    const pivotId = before.body.trades.find((t: any) => t.tx_hash === pivot.txHash && t.maker === pivot.wallet).id;
    const strict = await get(f, url(`before=${pivot.ts}&before_id=${pivotId}&min_usd=1&limit=500`));
    expect(strict.body.trades.map(served)).toEqual(
      whaleClass
        .filter((x) => (x.ts < pivot.ts || (x.ts === pivot.ts && x.order < pivot.order)) && x.usd >= 1e6)
        .map((x) => expectedRow(x, smart)),
    );

    // At or above the contract's default size the read takes the whale-size index: the same rows.
    const whaleSize = await get(f, url("before=0&min_usd=500&limit=500"));
    expect(whaleSize.body.trades.length).toBeGreaterThan(0);
    expect(whaleSize.body.trades.map(served)).toEqual(
      whaleClass.filter((x) => x.usd >= 500e6).map((x) => expectedRow(x, smart)),
    );

    const all = await get(f, url("before=0&min_usd=1&limit=500&wallets=all"));
    const everyTrade = newestFirst(makers.filter((x) => x.conditionId === market && x.usd >= 1e6));
    expect(all.body.trades.map(served)).toEqual(everyTrade.slice(0, 500).map((x) => expectedRow(x, smart)));
    expect(all.body.wallets).toBe("all");
  });

  it("refuses a missing before, a limit past 500, min_usd under 1, an unknown wallets value and before_id without before (422), and an unknown market (404)", async () => {
    const loc = async (q: string) => (await get(f, url(q))).body.detail?.[0]?.loc;
    expect(await loc("min_usd=1")).toEqual(["query", "before"]);
    expect(await loc("before=0&limit=501")).toEqual(["query", "limit"]);
    expect(await loc("before=0&min_usd=0")).toEqual(["query", "min_usd"]);
    expect(await loc("before=0&wallets=whales")).toEqual(["query", "wallets"]);
    expect(await loc("before=0&before_id=5")).toEqual(["query", "before_id"]);
    expect((await get(f, `/api/v2/market/0x${"ef".repeat(32)}/whale-trades?before=0`)).status).toBe(404);
    expect((await get(f, "/api/v2/market/not-a-market/whale-trades?before=0")).status).toBe(404);
  });

  it("pages by keyset without a repeat or a gap while new trades arrive between the reads", async () => {
    const whale = [...smart].sort()[0]!;
    const other = makers.find((x) => !smart.has(x.wallet))!.wallet;
    const seen: any[] = [];
    const madeUp = new Set<string>();
    let query = "before=0&min_usd=1&limit=7";
    let rounds = 0;
    for (let page = 0; page < 200; page++) {
      const r = await get(f, `/api/public/v1/market/${market}/whale-trades?${query}`);
      expect(r.status).toBe(200);
      seen.push(...r.body.trades);
      if (!r.body.has_more) break;
      expect(r.body.next_before).toBe(r.body.trades.at(-1).timestamp);
      // Between two reads, three whale-class trades: one newer than every page, one in the very second the next page
      // starts from (stored after the cursor's row, so after it in the order), one older than the cursor (late).
      const cursorTs = r.body.next_before;
      const times = [f.w.now + 10 + page, cursorTs, cursorTs - 1];
      const rows = madeUpFills(
        whaleClass[0]!,
        1_000 * (page + 1),
        3,
        (i) => times[i]!,
        () => [whale, other],
      );
      for (const row of rows) madeUp.add(row.tx_hash);
      await f.w.store.transaction((tx) => insertFills(tx, rows));
      rounds++;
      query = `before=${r.body.next_before}&before_id=${r.body.next_before_id}&min_usd=1&limit=7`;
    }
    expect(rounds).toBeGreaterThan(3);
    const ids = seen.map((t) => t.id);
    expect(new Set(ids).size).toBe(ids.length);
    const original = seen.filter((t) => !madeUp.has(t.tx_hash));
    expect(original.map(served)).toEqual(whaleClass.filter((x) => x.usd >= 1e6).map((x) => expectedRow(x, smart)));
    // Each late trade (older than its cursor) was read once by a later page; the newer ones and those inside a
    // cursor's second were not.
    const late = seen.filter((t) => madeUp.has(t.tx_hash));
    expect(late.length).toBe(rounds);
    for (const t of seen) expect(t.timestamp).toBeLessThanOrEqual(whaleClass[0]!.ts);
  });

  it("answers a repeated read from the answer it computed for WHALE_TRADES_CACHE_SECONDS, then reads again", async () => {
    const query = url("before=0&min_usd=2&limit=5");
    const first = await get(f, query);
    const whale = [...smart].sort()[0]!;
    const later = madeUpFills(
      whaleClass[0]!,
      900_000,
      1,
      () => f.w.now + 5_000,
      () => [whale, whale],
    );
    await f.w.store.transaction((tx) => insertFills(tx, later));
    const again = await get(f, query);
    expect(again.body).toEqual(first.body);
    f.w.clock.set((f.w.now + 11) * 1000);
    const fresh = await get(f, query);
    expect(fresh.body.as_of).toBe(f.w.now + 11);
    expect(fresh.body.trades[0].tx_hash).toBe(later[0]!.tx_hash);
    f.w.clock.set(f.w.now * 1000);
  });

  it("follows the Smart Money set within SMART_LIST_CHECK_SECONDS, before its kept answer would expire", async () => {
    const query = url("before=0&min_usd=1&limit=50");
    const before = (await get(f, query)).body.trades;
    const leaving: string = before.find((t: { maker_is_whale: boolean }) => t.maker_is_whale).maker;
    const setSmart = (flag: number) =>
      f.w.store.transaction(async (tx) => {
        await sql`update wallet_stats set is_smart = ${flag} where wallet = ${leaving}`.execute(tx.db);
        await writeSmartWallets(tx, [leaving]);
      });
    const afterCheck = (checks: number) =>
      f.w.clock.set((f.w.now + checks * (f.w.config.drilldowns.smartListCheckSeconds + 1)) * 1000);
    try {
      await setSmart(0);
      afterCheck(1);
      const without = (await get(f, query)).body.trades;
      expect(without.length).toBeGreaterThan(0);
      for (const t of without) {
        expect(t.maker_is_whale || t.taker_is_whale).toBe(true);
        expect((t.maker === leaving && t.maker_is_whale) || (t.taker === leaving && t.taker_is_whale)).toBe(false);
      }
      await setSmart(1);
      afterCheck(2);
      expect((await get(f, query)).body.trades).toEqual(before);
    } finally {
      f.w.clock.set(f.w.now * 1000);
    }
  });

  it("answers 503 with Retry-After when a read runs past WHALE_TRADES_TIMEOUT_MS", async () => {
    const slow = await openDrilldownWorld({
      storeBackend: backend,
      env: { WHALE_TRADES_TIMEOUT_MS: "1", WHALE_TRADES_RETRY_AFTER_SECONDS: "17" },
    });
    try {
      const nobody = (i: number): [string, string] => [
        `0x${(i % 997).toString(16).padStart(40, "a")}`,
        `0x${(i % 991).toString(16).padStart(40, "b")}`,
      ];
      await slow.w.store.transaction((tx) =>
        insertFills(
          tx,
          madeUpFills(whaleClass[0]!, 10_000_000, 15_000, (i) => slow.w.now - i, nobody),
        ),
      );
      const r = await get(slow, `/api/v2/market/${market}/whale-trades?before=${slow.w.now}&min_usd=500`);
      expect(r.status).toBe(503);
      expect(r.headers["retry-after"]).toBe("17");
      expect(r.body.detail).toMatch(/longer than 1 ms/);
    } finally {
      await slow.w.close();
    }
  }, 180_000);
});
