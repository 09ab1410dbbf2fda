/**
 * Whale history and backtest (issue 25) against the simulated world's own reference ledger (the venue's method,
 * replayed by the simulation: src/sim/world/reference-pnl.ts) and its markets' resolutions: every resolved outcome
 * side a wallet bought, its average entry, cost, settled P&L net of fees and whether its side won.
 */
import { updatePositionsSql } from "../../src/store/testing/positions.js";
import { AT, expectServed, servedAs } from "../support/served-numbers.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { referencePnl } from "../../src/sim/world/index.js";
import { queryRows } from "../../src/store/raw-sql.js";
import { get, openDrilldownWorld, type Fixture, type Reply } from "../support/api/drilldowns.js";

interface Expected {
  market_id: string;
  condition_id: string;
  slug: string;
  side: "YES" | "NO";
  resolution: string;
  avg_entry_price: number;
  tokens_bought: number;
  net_cost: number;
  pnl: number;
  won: boolean;
  last_trade_ts: number;
  resolved_at: number;
}

let f: Fixture;
let wallet: string;
let expected: Expected[];

/** The wallet's resolved outcome sides by the reference ledger, in the backtest's order. */
function referenceSides(fx: Fixture, w: number): Expected[] {
  const world = fx.w.world;
  const fees = new Map<number, number>();
  for (const i of world.fillsOfWallet(w)) {
    const fill = world.fill(i);
    fees.set(fill.token, (fees.get(fill.token) ?? 0) + fill.fee);
  }
  const rows: Expected[] = [];
  const positions = [...referencePnl(world, w).positions, ...referencePnl(world, w).closedPositions];
  const seen = new Set<number>();
  for (const p of positions) {
    if (seen.has(p.token)) continue;
    seen.add(p.token);
    const market = world.markets[p.market]!;
    if (!market.resolution || p.micro.totalBought === 0) continue;
    const side = p.outcome === 0 ? "YES" : "NO";
    const payout = market.resolution === "50-50" ? 0.5 : market.resolution === side ? 1 : 0;
    const avg = p.micro.avgPrice / 1e6;
    rows.push({
      market_id: market.id,
      condition_id: market.conditionId,
      slug: market.slug,
      side,
      resolution: market.resolution,
      avg_entry_price: avg,
      tokens_bought: p.micro.totalBought / 1e6,
      net_cost: (p.micro.totalBought / 1e6) * avg,
      pnl: (p.micro.realizedPnl - (fees.get(p.token) ?? 0)) / 1e6 + (p.micro.amount / 1e6) * (payout - avg),
      won: market.resolution === side,
      last_trade_ts: p.micro.lastTs,
      resolved_at: market.resolvedAt!,
    });
  }
  return rows.sort(
    (a, b) =>
      b.last_trade_ts - a.last_trade_ts ||
      (a.market_id < b.market_id ? -1 : a.market_id > b.market_id ? 1 : 0) ||
      (a.side === "YES" ? -1 : 1),
  );
}

beforeAll(async () => {
  f = await openDrilldownWorld();
  const world = f.w.world;
  // The wallet with the most resolved sides, for pages worth reading.
  const counts = world.wallets
    .map((_, w) => ({ w, n: referenceSides(f, w).length }))
    .sort((a, b) => b.n - a.n || a.w - b.w);
  wallet = world.wallets[counts[0]!.w]!.proxyWallet;
  expected = referenceSides(f, counts[0]!.w);
}, 180_000);
afterAll(async () => f?.w.close());

/** Allowance for `n` micro-dollars (two half steps of six decimals each). */
const microDollars = (n: number): number[] => Array<number>(2 * n).fill(AT.micro);

const matches = (actual: any[], want: Expected[]) => {
  expect(actual.map((p) => `${p.market_id} ${p.side}`)).toEqual(want.map((p) => `${p.market_id} ${p.side}`));
  actual.forEach((p, i) => {
    const e = want[i]!;
    expect(p).toMatchObject({
      condition_id: e.condition_id,
      slug: e.slug,
      resolution: e.resolution,
      won: e.won,
      last_trade_ts: e.last_trade_ts,
      avg_entry_price: e.avg_entry_price === null ? null : servedAs(e.avg_entry_price, AT.price),
      tokens_bought: e.tokens_bought,
    });
    expectServed(p.net_cost, e.net_cost, AT.usd);
    // Pelagic books a losing side at its resolution, the reference at its redemption: truncations differ by a micro-dollar.
    expectServed(p.pnl, e.pnl, AT.usd, microDollars(1));
    expect(typeof p.question).toBe("string");
  });
};

describe("GET /api/v2/whale/{address}/backtest", () => {
  const url = (q = "") => `/api/v2/whale/${wallet}/backtest${q}`;

  it("answers every resolved outcome side by last trade desc, market id, side, with the contract's fields", async () => {
    expect(expected.length).toBeGreaterThan(10);
    const r = await get(f, url());
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ wallet, count: expected.length, has_more: false, offset: 0 });
    matches(r.body.positions, expected);
    for (const p of r.body.positions)
      expect(Object.keys(p)).toEqual(
        expect.arrayContaining([
          "market_id",
          "question",
          "side",
          "avg_entry_price",
          "net_cost",
          "pnl",
          "won",
          "category",
        ]),
      );
  });

  it("pages stably with has_more, and sums each page alone in its summary", async () => {
    const pages: any[] = [];
    for (let offset = 0; ; offset += 4) {
      const r = await get(f, url(`?limit=4&offset=${offset}`));
      expect(r.status).toBe(200);
      pages.push(...r.body.positions);
      const page = r.body.positions as any[];
      const wins = page.filter((p) => p.resolution === p.side).length;
      const losses = page.filter((p) => p.resolution !== "50-50" && p.resolution !== p.side).length;
      const cost = page.reduce((s, p) => s + p.net_cost, 0);
      const pnl = page.reduce((s, p) => s + p.pnl, 0);
      expect(r.body.summary.positions).toBe(page.length);
      expect(r.body.summary.wins).toBe(wins);
      expect(r.body.summary.losses).toBe(losses);
      expectServed(r.body.summary.win_rate, wins + losses > 0 ? (100 * wins) / (wins + losses) : 0, AT.percent);
      // Sums of the page's served figures, each rounded to cents.
      expectServed(r.body.summary.total_net_cost, cost, AT.usd, page.length + 1);
      expectServed(r.body.summary.total_pnl, pnl, AT.usd, page.length + 1);
      expect(r.body.has_more).toBe(offset + 4 < expected.length);
      if (!r.body.has_more) break;
    }
    matches(pages, expected);
  });

  it("filters by since and until (UTC days, inclusive, on last_trade_ts) and by slug_prefix", async () => {
    const day = (ts: number) => new Date(ts * 1000).toISOString().slice(0, 10);
    const mid = expected[Math.floor(expected.length / 2)]!.last_trade_ts;
    const dayStart = Date.parse(`${day(mid)}T00:00:00Z`) / 1000;
    const since = await get(f, url(`?since=${day(mid)}`));
    matches(
      since.body.positions,
      expected.filter((p) => p.last_trade_ts >= dayStart),
    );
    const until = await get(f, url(`?until=${day(mid)}`));
    matches(
      until.body.positions,
      expected.filter((p) => p.last_trade_ts < dayStart + 86_400),
    );
    const one = await get(f, url(`?since=${day(mid)}&until=${day(mid)}`));
    matches(
      one.body.positions,
      expected.filter((p) => p.last_trade_ts >= dayStart && p.last_trade_ts < dayStart + 86_400),
    );
    const prefix = expected[0]!.slug.slice(0, 5).toUpperCase();
    const bySlug = await get(f, url(`?slug_prefix=${prefix}`));
    matches(
      bySlug.body.positions,
      expected.filter((p) => p.slug.startsWith(prefix.toLowerCase())),
    );
  });

  it("refuses a limit past 1000, an impossible date and since after until with 422s naming them", async () => {
    expect((await get(f, url("?limit=1001"))).body.detail[0]).toMatchObject({
      loc: ["query", "limit"],
      type: "less_than_equal",
    });
    expect((await get(f, url("?since=2026-02-30"))).body.detail[0].loc).toEqual(["query", "since"]);
    expect((await get(f, url("?until=26-01-01"))).body.detail[0].loc).toEqual(["query", "until"]);
    expect((await get(f, url("?since=2026-03-02&until=2026-03-01"))).body.detail[0].loc).toEqual(["query", "since"]);
    expect((await get(f, url("?offset=-1"))).status).toBe(422);
  });
});

describe("GET /api/v2/whale/{address}/history", () => {
  it("answers the whale's statistics and its resolved markets, newest resolution first, both sides together", async () => {
    const r = await get(f, `/api/v2/whale/${wallet}/history?limit=500`);
    expect(r.status).toBe(200);
    const stats = await f.w.store.db
      .selectFrom("wallet_stats")
      .selectAll()
      .where("wallet", "=", wallet)
      .executeTakeFirstOrThrow();
    const profile = f.w.world.wallets[f.w.world.walletIndex(wallet)]!;
    expect(r.body.whale).toEqual({
      wallet,
      name: profile.name || profile.pseudonym,
      total_pnl: servedAs(stats.total_pnl, AT.usd),
      win_rate: servedAs(stats.win_rate, AT.percent),
      profit_factor: servedAs(stats.profit_factor, AT.percent),
      resolved_markets: stats.resolved,
      is_smart: stats.is_smart === 1,
    });
    const byMarket = new Map<string, Expected[]>();
    for (const p of expected) byMarket.set(p.condition_id, [...(byMarket.get(p.condition_id) ?? []), p]);
    const markets = [...byMarket.values()].sort(
      (a, b) => b[0]!.resolved_at - a[0]!.resolved_at || (a[0]!.market_id < b[0]!.market_id ? -1 : 1),
    );
    expect(r.body.total).toBe(markets.length);
    expect(r.body.history.map((h: any) => h.condition_id)).toEqual(markets.map((m) => m[0]!.condition_id));
    r.body.history.forEach((h: any, i: number) => {
      const sides = markets[i]!;
      const pnl = sides.reduce((s, p) => s + p.pnl, 0);
      expect(h).toMatchObject({
        market_id: sides[0]!.market_id,
        resolution: sides[0]!.resolution,
        resolved_at: sides[0]!.resolved_at,
        sides_traded: sides.length,
        won: pnl > 0,
      });
      expectServed(h.pnl, pnl, AT.usd, microDollars(sides.length));
      expectServed(
        h.net_cost,
        sides.reduce((s, p) => s + p.net_cost, 0),
        AT.usd,
      );
      expect(h.side).toBe([...sides].sort((a, b) => b.net_cost - a.net_cost)[0]!.side);
    });
    const limited = await get(f, `/api/v2/whale/${wallet}/history`);
    expect(limited.body.history.length).toBe(Math.min(50, markets.length));
    expect((await get(f, `/api/v2/whale/${wallet}/history?limit=501`)).status).toBe(422);
    expect((await get(f, `/api/v2/whale/0x${"2".repeat(40)}/history`)).status).toBe(404);
  });
});

describe("kept answers", () => {
  it("serve the same bytes while the wallet's statistics row is unchanged, and the new ledger rows once it is written", async () => {
    const first = expected[0]!;
    const backtest = `/api/v2/whale/${wallet}/backtest?limit=5`;
    const history = `/api/v2/whale/${wallet}/history?limit=500`;
    const before = { backtest: await get(f, backtest), history: await get(f, history) };
    const entry = (r: Reply) => r.body.history.find((h: any) => h.condition_id === first.condition_id);
    const position = "wallet = ? and condition_id = ? and outcome_index = ?";
    const key = [wallet, first.condition_id, first.side === "YES" ? 0 : 1];
    const rawUpdate = (text: string, params: unknown[]) => queryRows(f.w.store.db, f.w.store.kind, text, params);
    try {
      // A position written alone (no Deriver does that): the kept answers stand.
      await rawUpdate(updatePositionsSql("realized_pnl = realized_pnl + 1000000", position), key);
      expect((await get(f, backtest)).body).toEqual(before.backtest.body);
      expect((await get(f, history)).body).toEqual(before.history.body);
      // The Deriver writes a wallet's positions with its statistics row: that write retires them.
      await rawUpdate("update wallet_stats set computed_at = computed_at + 1 where wallet = ?", [wallet]);
      const after = { backtest: await get(f, backtest), history: await get(f, history) };
      expect(after.backtest.body.positions[0].market_id).toBe(first.market_id);
      expectServed(after.backtest.body.positions[0].pnl, before.backtest.body.positions[0].pnl + 1, AT.usd, [AT.usd]);
      expectServed(entry(after.history).pnl, entry(before.history).pnl + 1, AT.usd, [AT.usd]);
    } finally {
      await rawUpdate(updatePositionsSql("realized_pnl = realized_pnl - 1000000", position), key);
      await rawUpdate("update wallet_stats set computed_at = computed_at - 1 where wallet = ?", [wallet]);
    }
  });
});
