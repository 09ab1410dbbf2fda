/**
 * A wallet in one market (issue 25): market-trades and market-summary, v2 and public v1, against the simulated
 * world's own fills. Expected rows and sums are computed here from the world (the summary by an independent BigInt
 * replay of the reference method), never read back from the API.
 */
import { AT, servedAs } from "../support/served-numbers.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { metrics } from "../../src/platform/metrics.js";
import { insertFills, type NewFill } from "../../src/store/fills.js";
import { CONTRACTS } from "../../src/venue/contracts.js";
import {
  busiestPair,
  get,
  openDrilldownWorld,
  replaySides,
  type ReplayedSide,
  variedPairs,
  walletMarketPairs,
  worldFills,
  type Fixture,
  type WalletMarketPair,
  type WorldFill,
} from "../support/api/drilldowns.js";

let f: Fixture;
let pair: WalletMarketPair;
let varied: WalletMarketPair[];

beforeAll(async () => {
  f = await openDrilldownWorld();
  const fills = worldFills(f.w.world);
  pair = busiestPair(fills);
  varied = variedPairs(fills, 25);
}, 120_000);
afterAll(async () => f?.w.close());

/** The pair's fills newest first (timestamp, then chain order desc), as the route pages them. */
const newestFirst = (fills: readonly WorldFill[]) => [...fills].sort((a, b) => b.ts - a.ts || b.order - a.order);
const rowOf = (x: WorldFill) => ({
  timestamp: x.ts,
  wallet_role: x.role,
  direction: x.side,
  side: x.outcome === 0 ? "YES" : "NO",
  token_amount: x.size / 1e6,
  usd_amount: x.usd / 1e6,
  entry_type: x.entryType,
  tx_hash: x.txHash,
  counterparty: x.counterparty,
});
const pick = (t: any) => ({
  timestamp: t.timestamp,
  wallet_role: t.wallet_role,
  direction: t.direction,
  side: t.side,
  token_amount: t.token_amount,
  usd_amount: t.usd_amount,
  entry_type: t.entry_type,
  tx_hash: t.tx_hash,
  counterparty: t.counterparty,
});

/** A fill of the pair's wallet in its market, as an ingest would store it late (a YES buy of 2,000 tokens for 1,000 USD). */
function madeFill(p: WalletMarketPair, ts: number, n: number): NewFill {
  return {
    fill_key: `test:wallet-market:${n}`,
    source: "data_api",
    tx_hash: `0x${n.toString(16).padStart(64, "0")}`,
    log_index: null,
    block_number: null,
    wallet: p.wallet,
    counterparty: null,
    role: null,
    condition_id: p.conditionId,
    token_id: "1",
    outcome_index: 0,
    side: "BUY",
    size: 2_000e6,
    usd: 1_000e6,
    price: 0.5,
    fee: 0,
    ts,
    entry_type: null,
    exchange_version: null,
  };
}

describe("GET /api/v2/wallet/{address}/market-trades", () => {
  const url = (q: string) => `/api/v2/wallet/${pair.wallet}/market-trades?market=${pair.conditionId}&${q}`;

  it("answers the wallet's fills in the market within (after, before), newest first, with the contract's fields", async () => {
    const sorted = newestFirst(pair.fills);
    const after = sorted.at(-1)!.ts - 1;
    const before = sorted[0]!.ts + 1;
    const r = await get(f, url(`after=${after}&before=${before}&limit=500`));
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      wallet: pair.wallet,
      market: pair.conditionId,
      count: sorted.length,
      has_more: false,
      next_before: null,
    });
    expect(r.body.trades.map(pick)).toEqual(sorted.map(rowOf));
    for (const t of r.body.trades) {
      expect(Object.keys(t)).toEqual(
        expect.arrayContaining([
          "id",
          "timestamp",
          "wallet_role",
          "direction",
          "side",
          "price",
          "usd_amount",
          "token_amount",
          "entry_type",
          "tx_hash",
          "counterparty",
        ]),
      );
      expect(t.price).toBeCloseTo(t.usd_amount / t.token_amount, 6);
    }
  });

  it("keeps before and after exclusive, and pages with next_before / next_before_id without a gap or a repeat", async () => {
    const sorted = newestFirst(pair.fills);
    const mid = sorted[Math.floor(sorted.length / 2)]!.ts;
    const bounded = await get(f, url(`after=${sorted.at(-1)!.ts}&before=${mid}&limit=500`));
    expect(bounded.body.trades.map(pick)).toEqual(
      sorted.filter((x) => x.ts < mid && x.ts > sorted.at(-1)!.ts).map(rowOf),
    );

    const seen: any[] = [];
    let cursor = `before=${sorted[0]!.ts + 1}`;
    for (let page = 0; page < 100; page++) {
      const r = await get(f, url(`after=0&${cursor}&limit=3`));
      expect(r.status).toBe(200);
      seen.push(...r.body.trades);
      if (!r.body.has_more) break;
      cursor = `before=${r.body.next_before}&before_id=${r.body.next_before_id}`;
    }
    expect(seen.map(pick)).toEqual(sorted.map(rowOf));
    expect(new Set(seen.map((t) => t.id)).size).toBe(seen.length);
  });

  it("keeps a page as sent, and shows a fill stored late inside it at the next request", async () => {
    // A pair no other test reads, with a few fills: the fill stored here stays in the store.
    const inUse = new Set([pair, ...varied].map((q) => `${q.wallet} ${q.conditionId}`));
    const p = walletMarketPairs(worldFills(f.w.world)).find(
      (q) => q.fills.length >= 3 && !inUse.has(`${q.wallet} ${q.conditionId}`),
    )!;
    const sorted = newestFirst(p.fills);
    const before = sorted[0]!.ts + 1;
    const pageUrl = `/api/v2/wallet/${p.wallet}/market-trades?market=${p.conditionId}&after=0&before=${before}&limit=500`;
    const first = await get(f, pageUrl);
    expect(first.body.trades.map(pick)).toEqual(sorted.map(rowOf));
    const again = await get(f, pageUrl);
    expect(again.headers.etag).toBe(first.headers.etag);

    // A fill at the page's newest second, stored after the page was computed: the next request lists it first.
    await f.w.store.transaction((tx) => insertFills(tx, [madeFill(p, sorted[0]!.ts, 7)]));
    const moved = await get(f, pageUrl);
    expect(moved.body.count).toBe(first.body.count + 1);
    expect(moved.body.trades[0]).toMatchObject({ timestamp: sorted[0]!.ts, usd_amount: 1_000, token_amount: 2_000 });
    expect(moved.body.trades.slice(1).map(pick)).toEqual(sorted.map(rowOf));
  });

  it("refuses after at or above before, a limit past 500, and a missing after (v2 describes it as required) with 422s naming them", async () => {
    const bad = await get(f, url("after=100&before=100"));
    expect(bad.status).toBe(422);
    expect(bad.body.detail[0].loc).toEqual(["query", "after"]);
    expect(bad.body.detail[0].msg).toMatch(/below before/);
    expect((await get(f, url("after=0&before=100&limit=501"))).body.detail[0]).toMatchObject({
      loc: ["query", "limit"],
      type: "less_than_equal",
    });
    expect((await get(f, url("before=100"))).body.detail[0]).toMatchObject({
      loc: ["query", "after"],
      type: "missing",
    });
    expect(
      (await get(f, `/api/v2/wallet/${pair.wallet}/market-trades?after=0&before=100`)).body.detail[0],
    ).toMatchObject({ loc: ["query", "market"], type: "missing" });
    expect((await get(f, `/api/v2/wallet/${pair.wallet}/market-trades?market=0x12&after=0&before=100`)).status).toBe(
      422,
    );
  });

  it("answers 404 for an unknown market or wallet, and the contract-address body for an exchange", async () => {
    const unknownMarket = `0x${"ab".repeat(32)}`;
    expect(
      (await get(f, `/api/v2/wallet/${pair.wallet}/market-trades?market=${unknownMarket}&after=0&before=100`)).status,
    ).toBe(404);
    expect(
      (await get(f, `/api/v2/wallet/0x${"1".repeat(40)}/market-trades?market=${pair.conditionId}&after=0&before=100`))
        .status,
    ).toBe(404);
    const exchange = await get(
      f,
      `/api/v2/wallet/${CONTRACTS.ctfExchangeV1.toLowerCase()}/market-trades?market=${pair.conditionId}&after=0&before=100`,
    );
    expect(exchange.status).toBe(400);
    expect(exchange.body.is_contract).toBe(true);
  });
});

describe("GET /api/public/v1/wallet/{address}/market-trades", () => {
  it("needs market and before, takes after=0 by default, and answers the same rows", async () => {
    const sorted = newestFirst(pair.fills);
    const v1 = await get(
      f,
      `/api/public/v1/wallet/${pair.wallet}/market-trades?market=${pair.conditionId}&before=${sorted[0]!.ts + 1}&limit=10`,
      { authorization: `Bearer ${f.premium}` },
    );
    expect(v1.status).toBe(200);
    expect(v1.body.trades.map(pick)).toEqual(sorted.slice(0, 10).map(rowOf));
    expect(
      (await get(f, `/api/public/v1/wallet/${pair.wallet}/market-trades?market=${pair.conditionId}`)).body.detail[0],
    ).toMatchObject({ loc: ["query", "before"], type: "missing" });
    expect(
      (await get(f, `/api/public/v1/wallet/${pair.wallet}/market-trades?market=${pair.conditionId}&before=50&after=60`))
        .body.detail[0].loc,
    ).toEqual(["query", "after"]);
  });
});

describe("GET /api/v2/wallet/{address}/market-summary/{condition_id}", () => {
  const url = (q = "") => `/api/v2/wallet/${pair.wallet}/market-summary/${pair.conditionId}${q}`;
  // The replay divides integer micro-units by 1e6: tokens are served exactly, USD to cents, the entry price to four decimals.
  const served = (side: ReplayedSide) => ({
    ...side,
    buy_cost_usd: servedAs(side.buy_cost_usd, AT.usd),
    sell_cost_usd: servedAs(side.sell_cost_usd, AT.usd),
    net_cost_usd: servedAs(side.net_cost_usd, AT.usd),
    avg_entry_price: side.avg_entry_price === null ? null : servedAs(side.avg_entry_price, AT.price),
  });
  const close = (actual: any, expected: ReturnType<typeof replaySides>) =>
    expect(actual.sides).toEqual({ YES: served(expected.YES), NO: served(expected.NO) });

  it("sums every trade per side with the reference average entry at at=0", async () => {
    expect(varied.length).toBeGreaterThanOrEqual(10);
    for (const p of [pair, ...varied]) {
      const r = await get(f, `/api/v2/wallet/${p.wallet}/market-summary/${p.conditionId}`);
      expect(r.status).toBe(200);
      expect(r.body).toMatchObject({ wallet: p.wallet, condition_id: p.conditionId, at: 0, found: true });
      close(r.body, replaySides(p.fills));
    }
  });

  it("rebuilds the sides at a past instant from the fills up to it (inclusive)", async () => {
    for (const p of [pair, ...varied]) {
      const times = [...new Set(p.fills.map((x) => x.ts))].sort((a, b) => a - b);
      for (const at of [
        times[0]!,
        times[Math.floor(times.length / 3)]!,
        times[Math.floor((2 * times.length) / 3)]! - 1,
      ]) {
        const r = await get(f, `/api/v2/wallet/${p.wallet}/market-summary/${p.conditionId}?at=${at}`);
        expect(r.status).toBe(200);
        expect(r.body.at).toBe(at);
        close(r.body, replaySides(p.fills.filter((x) => x.ts <= at)));
      }
    }
  });

  it("answers found=false with empty sides before the first trade, in both families", async () => {
    const first = Math.min(...pair.fills.map((x) => x.ts));
    const r = await get(f, `/api/public/v1/wallet/${pair.wallet}/market-summary/${pair.conditionId}?at=${first - 1}`, {
      authorization: `Bearer ${f.premium}`,
    });
    expect(r.status).toBe(200);
    expect(r.body.found).toBe(false);
    expect(r.body.sides.YES).toEqual({
      buy_tokens: 0,
      buy_cost_usd: 0,
      sell_tokens: 0,
      sell_cost_usd: 0,
      net_tokens: 0,
      net_cost_usd: 0,
      trade_count: 0,
      avg_entry_price: null,
      first_trade_ts: null,
      last_trade_ts: null,
    });
  });

  it("keeps a past instant's answer as computed, and answers a fill stored late up to that instant at once", async () => {
    const p = varied[0]!;
    const times = [...new Set(p.fills.map((x) => x.ts))].sort((a, b) => a - b);
    const at = times[Math.floor(times.length / 2)]!;
    const summaryUrl = `/api/v2/wallet/${p.wallet}/market-summary/${p.conditionId}?at=${at}`;
    const keptHits = async () =>
      (await metrics.cacheLookups.get()).values.find((v) => v.labels.cache === "body" && v.labels.result === "hit")
        ?.value ?? 0;
    const first = await get(f, summaryUrl);
    const hitsBefore = await keptHits();
    const again = await get(f, summaryUrl);
    expect(await keptHits()).toBe(hitsBefore + 1);
    expect(again.body).toEqual(first.body);
    expect(again.headers.etag).toBe(first.headers.etag);
    close(again.body, replaySides(p.fills.filter((x) => x.ts <= at)));

    // Stored since, one fill after the instant (the answer stays) and one at it, stored late (the answer moves).
    const made = (ts: number, n: number) => madeFill(p, ts, n);
    await f.w.store.transaction((tx) => insertFills(tx, [made(at + 1, 1)]));
    expect((await get(f, summaryUrl)).body).toEqual(first.body);
    await f.w.store.transaction((tx) => insertFills(tx, [made(at, 2)]));
    const moved = await get(f, summaryUrl);
    const late = {
      ...p.fills[0]!,
      order: Number.MAX_SAFE_INTEGER,
      ts: at,
      outcome: 0 as const,
      side: "BUY" as const,
      size: 2_000e6,
      usd: 1_000e6,
      entryType: "COMPLEMENTARY" as const,
    };
    close(moved.body, replaySides([...p.fills.filter((x) => x.ts <= at), late]));
    expect(moved.body.sides.YES.trade_count).toBe(first.body.sides.YES.trade_count + 1);
  });

  it("refuses a negative at (422) and answers 404 for an unknown market", async () => {
    expect((await get(f, url("?at=-1"))).status).toBe(422);
    expect((await get(f, `/api/v2/wallet/${pair.wallet}/market-summary/0x${"cd".repeat(32)}`)).status).toBe(404);
    expect((await get(f, `/api/v2/wallet/${pair.wallet}/market-summary/not-a-condition`)).status).toBe(404);
  });
});
