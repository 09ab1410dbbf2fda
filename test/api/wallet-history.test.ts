/**
 * Wallet history endpoints (P&L curves, changes-since, last-moves) and wallet-search over a simulated world.
 * Expectations come from SQL over the stored tables written here, never from the analytics under test.
 */
import { AT, expectServed, servedAs } from "../support/served-numbers.js";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { openWorldApp, type WorldApp } from "../support/world-app.js";
import { rebuild } from "../../src/derive/rebuild.js";
import { insertFills } from "../../src/store/fills.js";
import { insertRows } from "../../src/store/derived-tables.js";
import { deletePnlSeries, mergePnlPoints } from "../../src/store/pnl-series.js";
import { dailyPnlAt, storedPnlPoints } from "../../src/store/testing/pnl-points.js";
import { DAY, describeWalletErrors, getJson, sqlRows } from "../support/api/wallet-insights.js";

let w: WorldApp;
const q = sqlRows(() => w);
const get = getJson(() => w);

let active: string; // the wallet with the most fills
let cached: string; // a wallet with closed positions in the venue cache
let uncached: string; // a traded wallet without any

beforeAll(async () => {
  w = await openWorldApp({ env: { RATE_FREE_PER_MINUTE: "100000" } });
  active = (
    await q<{ wallet: string }>("select wallet from fills group by wallet order by count(*) desc, wallet limit 1")
  )[0]!.wallet;
  cached = (
    await q<{ wallet: string }>(
      "select wallet from venue_closed_positions group by wallet order by count(*) desc, wallet limit 1",
    )
  )[0]!.wallet;
  uncached = (
    await q<{ wallet: string }>(
      "select wallet from wallet_stats where wallet not in (select wallet from venue_closed_positions) order by wallet limit 1",
    )
  )[0]!.wallet;
}, 120_000);

afterAll(() => w?.close());

describe("pnl-history", () => {
  it("answers daily points of the last 30 days by default and all of them for ALL", async () => {
    const rows = await storedPnlPoints(w.store, { wallet: active, resolution: "day" });
    expect(rows.length).toBeGreaterThan(2);
    const all = rows.map((r) => ({ t: r.t, p: servedAs(r.pnl, AT.usd) }));
    const { status, body } = await get(`/api/v2/wallet/${active}/pnl-history`);
    expect(status).toBe(200);
    expect(body).toEqual({ address: active, period: "1M", points: all.filter((p) => p.t >= w.now - 30 * DAY) });
    expect((await get(`/api/v2/wallet/${active}/pnl-history?period=ALL`)).body.points).toEqual(all);
  });

  it("answers the hourly points the rebuild wrote for 1D: a wallet rebuilt from the store has its intraday curve", async () => {
    const rows = (await storedPnlPoints(w.store, { wallet: active, resolution: "hour" })).filter(
      (r) => r.t >= w.now - DAY,
    );
    expect(rows.length).toBeGreaterThan(1);
    const day = (await get(`/api/v2/wallet/${active}/pnl-history?period=1D`)).body;
    expect(day.points).toEqual(rows.map((r) => ({ t: r.t, p: servedAs(r.pnl, AT.usd) })));
  });

  it("answers hourly points over 24 h for 1D and over a week for 1W", async () => {
    const hours = Array.from({ length: 10 * 24 }, (_, i) => ({
      wallet: cached,
      resolution: "hour" as const,
      t: w.now - (i + 1) * 3600,
      pnl: 1000 - i,
    }));
    const dropHours = () => w.store.transaction((tx) => deletePnlSeries(tx, ["hour"], [cached]));
    await dropHours();
    await w.store.transaction((tx) => mergePnlPoints(tx, hours));
    try {
      const expectWithin = (seconds: number) =>
        hours
          .filter((h) => h.t >= w.now - seconds)
          .sort((a, b) => a.t - b.t)
          .map((h) => ({ t: h.t, p: h.pnl }));
      const day = (await get(`/api/v2/wallet/${cached}/pnl-history?period=1D`)).body;
      expect(day.points).toEqual(expectWithin(DAY));
      expect(day.points).toHaveLength(24);
      expect((await get(`/api/v2/wallet/${cached}/pnl-history?period=1W`)).body.points).toEqual(expectWithin(7 * DAY));

      // changes-since reads the hourly series where it reaches back that far.
      const since = w.now - 5 * 3600 - 10;
      const change = (await get(`/api/v2/wallet/${cached}/changes-since?since=${since}`)).body;
      const reference = hours.filter((h) => h.t <= since).sort((a, b) => b.t - a.t)[0]!;
      const latest = hours.sort((a, b) => b.t - a.t)[0]!;
      expect(change.pnl_delta).toBeCloseTo(latest.pnl - reference.pnl, 9);
    } finally {
      await dropHours();
    }
  });

  it("refuses unknown periods", async () => {
    expect((await get(`/api/v2/wallet/${active}/pnl-history?period=2D`)).status).toBe(422);
  });
});

describe("pnl-history-chain", () => {
  it("accumulates the venue's closed positions by UTC day", async () => {
    const rows = await q<{ ts: number; realized_pnl: number }>(
      "select ts, realized_pnl from venue_closed_positions where wallet = ?",
      [cached],
    );
    const byDay = new Map<number, number>();
    for (const r of rows)
      byDay.set(Math.floor(r.ts / DAY) * DAY, (byDay.get(Math.floor(r.ts / DAY) * DAY) ?? 0) + r.realized_pnl);
    let sum = 0;
    const points = [...byDay.entries()]
      .sort((a, b) => a[0] - b[0])
      .map(([t, micro]) => ({ t, p: (sum += micro) / 1e6 }));
    const { status, body } = await get(`/api/v2/wallet/${cached}/pnl-history-chain`);
    expect(status).toBe(200);
    expect(body.source).toBe("chain");
    expect(body.address).toBe(cached);
    expect(body.points.map((p: any) => p.t)).toEqual(points.map((p) => p.t));
    body.points.forEach((p: any, i: number) => expectServed(p.p, points[i]!.p, AT.usd));
  });

  it("keeps the answer until the wallet's next venue sync, whose closed positions it then shows", async () => {
    const url = `/api/v2/wallet/${cached}/pnl-history-chain`;
    const first = (await get(url)).body;
    const [last] = await q<{ ts: number }>("select max(ts) as ts from venue_closed_positions where wallet = ?", [
      cached,
    ]);
    const later = Math.floor(Number(last!.ts) / DAY) * DAY + 3 * DAY;
    // A sync that lists one closed position more, two days after the last one, written as a sync writes it.
    const [model] = await q<Record<string, unknown>>("select * from venue_closed_positions where wallet = ? limit 1", [
      cached,
    ]);
    await w.store.transaction((tx) =>
      insertRows(tx, "venue_closed_positions", [
        {
          wallet: cached,
          token_id: "test-chain-token",
          condition_id: String(model!.condition_id),
          outcome_index: 0,
          avg_price: 0.5,
          cur_price: 1,
          total_bought: 2_000_000,
          realized_pnl: 1_250_000,
          ts: later,
          title: null,
          slug: null,
          event_slug: null,
          synced_at: later,
        },
      ]),
    );
    expect((await get(url)).body).toEqual(first);
    await q(
      "update wallet_sync set updated_at = updated_at + 1, closed_positions_count = closed_positions_count + 1 where wallet = ?",
      [cached],
    );
    const moved = (await get(url)).body;
    expect(moved.points.slice(0, -1)).toEqual(first.points);
    expect(moved.points.at(-1).t).toBe(later);
    expectServed(moved.points.at(-1).p, first.points.at(-1).p + 1.25, AT.usd);
  });

  it("answers empty points for a wallet outside the cache", async () => {
    expect((await get(`/api/v2/wallet/${uncached}/pnl-history-chain`)).body).toEqual({
      address: uncached,
      period: "ALL",
      source: "chain",
      points: [],
    });
  });
});

/** The economic meaning of a fill, written out independently of the code under test. */
function expectedLabel(f: {
  side: string;
  outcome_index: number;
  entry_type: string | null;
  size: number;
  usd: number;
  price: number;
}) {
  const names = ["YES", "NO"];
  if (f.side === "BUY")
    return { action_label: `Bought ${names[f.outcome_index]}`, side_label: names[f.outcome_index], usd: f.usd / 1e6 };
  if (f.entry_type === "MINT")
    return {
      action_label: `Bought ${names[1 - f.outcome_index]}`,
      side_label: names[1 - f.outcome_index],
      usd: (f.size / 1e6) * (1 - f.price),
    };
  const verb = f.entry_type === "MERGE" ? "Merged" : "Sold";
  return { action_label: `${verb} ${names[f.outcome_index]}`, side_label: names[f.outcome_index], usd: f.usd / 1e6 };
}

type FillRow = {
  id: number;
  condition_id: string;
  side: string;
  outcome_index: number;
  entry_type: string | null;
  size: number;
  usd: number;
  price: number;
  ts: number;
};

describe("changes-since", () => {
  it("counts fills since the moment, capped at 30 days back, and reports the last move", async () => {
    const since = w.now - 3 * DAY;
    const [count] = await q<{ n: number }>("select count(*) as n from fills where wallet = ? and ts > ?", [
      active,
      since,
    ]);
    const last = (
      await q<FillRow>("select * from fills where wallet = ? order by ts desc, id desc limit 1", [active])
    )[0]!;
    const { status, body } = await get(`/api/v2/wallet/${active}/changes-since?since=${since}`);
    expect(status).toBe(200);
    expect(body.trades_count).toBe(Number(count!.n));
    expect(body.effective_since).toBe(since);
    expect(body.last_move).toMatchObject({
      condition_id: last.condition_id,
      ts: last.ts,
      entry_type: last.entry_type,
      ...expectedLabel(last),
    });

    const capped = (await get(`/api/v2/wallet/${active}/changes-since?since=1`)).body;
    const [month] = await q<{ n: number }>("select count(*) as n from fills where wallet = ? and ts > ?", [
      active,
      w.now - 30 * DAY,
    ]);
    expect(capped.effective_since).toBe(w.now - 30 * DAY);
    expect(capped.trades_count).toBe(Number(month!.n));
    const pnlAt = await dailyPnlAt(w.store);
    expectServed(capped.pnl_delta, pnlAt(active, w.now) - pnlAt(active, w.now - 30 * DAY), AT.usd);
  });

  it("counts nothing when since is under 60 s ago", async () => {
    const fresh = w.now - 3600;
    await w.store.transaction((tx) =>
      insertFills(tx, [
        {
          fill_key: "test:fresh",
          source: "chain",
          tx_hash: "0xfresh",
          log_index: 0,
          block_number: null,
          wallet: active,
          counterparty: null,
          role: "taker",
          condition_id: "0xfresh",
          token_id: "1",
          outcome_index: 0,
          side: "BUY",
          size: 1e6,
          usd: 5e5,
          price: 0.5,
          fee: 0,
          ts: w.now - 30,
          entry_type: null,
          exchange_version: 2,
        },
      ]),
    );
    try {
      expect((await get(`/api/v2/wallet/${active}/changes-since?since=${w.now - 59}`)).body.trades_count).toBe(0);
      expect((await get(`/api/v2/wallet/${active}/changes-since?since=${w.now - 61}`)).body.trades_count).toBe(1);
      expect(
        (await get(`/api/v2/wallet/${active}/changes-since?since=${fresh}`)).body.trades_count,
      ).toBeGreaterThanOrEqual(1);
    } finally {
      await q("delete from fill_rows where key_text = 'test:fresh'");
    }
  });

  it("requires an integer since", async () => {
    expect((await get(`/api/v2/wallet/${active}/changes-since`)).status).toBe(422);
    expect((await get(`/api/v2/wallet/${active}/changes-since?since=soon`)).status).toBe(422);
    expect((await get(`/api/v2/wallet/${active}/changes-since?since=-5`)).status).toBe(422);
  });
});

describe("last-moves", () => {
  it("maps each market to the wallet's latest fill, labelled by its economic meaning", async () => {
    const fills = await q<FillRow>("select * from fills where wallet = ? order by ts, id", [active]);
    const latest = new Map<string, FillRow>();
    for (const f of fills) latest.set(f.condition_id, f);
    const { status, body } = await get(`/api/v2/wallet/${active}/last-moves`);
    expect(status).toBe(200);
    expect(Object.keys(body).sort()).toEqual([...latest.keys()].sort());
    for (const [cid, f] of latest) {
      const move = body[cid];
      const want = expectedLabel(f);
      expect({ ...move, usd: undefined }).toEqual({
        entry_type: f.entry_type,
        action_label: want.action_label,
        side_label: want.side_label,
        ts: f.ts,
        usd: undefined,
      });
      expect(move.usd).toBeCloseTo(want.usd, 9);
    }
  });

  it("gives every wallet's latest fill in each of its markets (ties at one second: the last stored)", async () => {
    const wallets = (await q<{ wallet: string }>("select distinct wallet from fills order by wallet")).map(
      (r) => r.wallet,
    );
    const sample = wallets.filter((_, i) => i % Math.max(1, Math.floor(wallets.length / 40)) === 0);
    for (const wallet of sample) {
      const latest = new Map<string, FillRow>();
      for (const f of await q<FillRow>("select * from fills where wallet = ? order by ts, id", [wallet]))
        latest.set(f.condition_id, f);
      const body = (await get(`/api/v2/wallet/${wallet}/last-moves`)).body;
      expect(Object.keys(body).sort(), wallet).toEqual([...latest.keys()].sort());
      for (const [cid, f] of latest)
        expect([body[cid].ts, body[cid].entry_type, body[cid].action_label], wallet).toEqual([
          f.ts,
          f.entry_type,
          expectedLabel(f).action_label,
        ]);
    }
  });

  it("labels a MINT-settled SELL of YES as an entry into NO", async () => {
    const cid = (
      await q<{ condition_id: string }>("select condition_id from fills where wallet = ? limit 1", [active])
    )[0]!.condition_id;
    await w.store.transaction((tx) =>
      insertFills(tx, [
        {
          fill_key: "test:mint-sell",
          source: "chain",
          tx_hash: "0xmint",
          log_index: 0,
          block_number: null,
          wallet: active,
          counterparty: null,
          role: "maker",
          condition_id: cid,
          token_id: "1",
          outcome_index: 0,
          side: "SELL",
          size: 100e6,
          usd: 30e6,
          price: 0.3,
          fee: 0,
          ts: w.now - 10,
          entry_type: "MINT",
          exchange_version: 2,
        },
      ]),
    );
    // The table last-moves reads is derived: the new fill shows once derived.
    await rebuild(w.store, w.config, w.clock);
    try {
      expect((await get(`/api/v2/wallet/${active}/last-moves`)).body[cid]).toEqual({
        entry_type: "MINT",
        action_label: "Bought NO",
        side_label: "NO",
        usd: 70,
        ts: w.now - 10,
      });
    } finally {
      await q("delete from fill_rows where key_text = 'test:mint-sell'");
      await rebuild(w.store, w.config, w.clock);
    }
  });
});

describe("wallet-search", () => {
  it("matches an address prefix, exact address first", async () => {
    const prefix = active.slice(0, 4);
    const { status, body } = await get(`/api/v2/wallet-search?q=${prefix.toUpperCase().replace("0X", "0x")}`);
    expect(status).toBe(200);
    expect(typeof body._elapsed_ms).toBe("number");
    expect(body.results.length).toBeGreaterThan(0);
    expect(body.results.length).toBeLessThanOrEqual(20);
    for (const r of body.results) expect(r.address.startsWith(prefix)).toBe(true);
    const [n] = await q<{ n: number }>("select count(*) as n from wallets where address like ?", [`${prefix}%`]);
    expect(body.results.length).toBe(Math.min(20, Number(n!.n)));
    expect((await get(`/api/v2/wallet-search?q=${active}`)).body.results[0]).toMatchObject({
      address: active,
      source: "profile",
    });
  });

  it("matches display names and pseudonyms case-insensitively", async () => {
    const named = (
      await q<{ address: string; name: string; pseudonym: string }>(
        // whose pseudonym no other wallet's name or pseudonym contains: searched by it, it is the one answer
        `select a.address, a.name, a.pseudonym from wallets a where a.name is not null and a.pseudonym is not null
          and not exists (select 1 from wallets b where b.address <> a.address
            and (lower(b.name) like '%' || lower(a.pseudonym) || '%' or lower(b.pseudonym) like '%' || lower(a.pseudonym) || '%'))
          order by a.address limit 1`,
      )
    )[0]!;
    const part = named.name.slice(1, 4).toUpperCase();
    const body = (await get(`/api/v2/wallet-search?q=${encodeURIComponent(part)}`)).body;
    const want = await q<{ address: string }>(
      "select address from wallets where lower(name) like ? or lower(pseudonym) like ?",
      [`%${part.toLowerCase()}%`, `%${part.toLowerCase()}%`],
    );
    const wanted = new Set(want.map((r) => r.address));
    expect(body.results).toHaveLength(Math.min(20, wanted.size));
    for (const r of body.results) expect(wanted.has(r.address)).toBe(true);
    expect(body.results.map((r: any) => r.address)).toContain(named.address);
    const byPseudonym = (await get(`/api/v2/wallet-search?q=${encodeURIComponent(named.pseudonym.toLowerCase())}`)).body
      .results;
    expect(byPseudonym[0]).toEqual({ address: named.address, name: named.name, source: "profile" });
  });

  it("finds ledger traders without a stored profile by address", async () => {
    const row = (await q<Record<string, unknown>>("select * from wallets where address = ?", [uncached]))[0]!;
    await q("delete from wallets where address = ?", [uncached]);
    try {
      await vi.waitFor(async () =>
        expect((await get(`/api/v2/wallet-search?q=${uncached}`)).body.results).toEqual([
          { address: uncached, name: null, source: "traders" },
        ]),
      );
    } finally {
      await w.store.db
        .insertInto("wallets")
        .values(row as never)
        .execute();
    }
  });

  it("keeps a query's results for WALLET_SEARCH_CACHE_SECONDS, then reads the store again", async () => {
    const named = (
      await q<{ address: string; name: string }>(
        "select address, name from wallets where name is not null order by address desc limit 1",
      )
    )[0]!;
    const query = `/api/v2/wallet-search?q=${encodeURIComponent(named.name)}`;
    const first = (await get(query)).body.results;
    expect(first.map((r: any) => r.address)).toContain(named.address);
    await q("update wallets set name = ? where address = ?", [`${named.name}-renamed`, named.address]);
    try {
      // Kept: the same results, the store's change not read yet.
      expect(
        (await get(query.toUpperCase().replace("/API/V2/WALLET-SEARCH?Q=", "/api/v2/wallet-search?q="))).body.results,
      ).toEqual(first);
      w.clock.set(w.clock.nowMs() + 31_000);
      const renamed = (await get(query)).body.results.find((r: any) => r.address === named.address);
      expect(renamed?.name ?? null).not.toBe(named.name);
    } finally {
      await q("update wallets set name = ? where address = ?", [named.name, named.address]);
    }
  });

  it("answers nothing for an empty query and refuses unknown parameters", async () => {
    expect((await get("/api/v2/wallet-search")).body.results).toEqual([]);
    expect((await get("/api/v2/wallet-search?q=%25")).body.results).toEqual([]);
    expect((await get("/api/v2/wallet-search?query=x")).status).toBe(422);
  });
});

describeWalletErrors(
  () => ({ get, known: active }),
  ["pnl-history", "pnl-history-chain", "changes-since?since=1", "last-moves"],
);

it("lists wallet-search in the OpenAPI document", async () => {
  expect(Object.keys((await get("/api/openapi.json")).body.paths)).toContain("/api/v2/wallet-search");
});
