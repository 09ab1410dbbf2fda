/**
 * The Premium whale routes over a simulated world stored as ingest stores it: the contract's parameters, defaults
 * and limits in /api/openapi.json, and each answer against the stored rows read here with SQL of the test's own.
 */
import { AT, expectServed, servedAs } from "../support/served-numbers.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createKey } from "../../src/accounts/keys.js";
import type { WorldApp } from "../support/world-app.js";
import { SMART, get, marketCategories, openBoardsWorld, rows } from "../support/api/boards.js";

let t: WorldApp;
let headers: Record<string, string>;
const DAY = 86_400;

beforeAll(async () => {
  t = await openBoardsWorld();
  headers = {
    "x-api-key": (await createKey(t.store.db, { account: "whale-alerts", plan: "premium", now: t.now })).key,
  };
}, 120_000);
afterAll(async () => t?.close());

const call = <T = any>(url: string) => get<T>(t, url, headers);

function groupBy<T>(items: readonly T[], key: (item: T) => string): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const item of items) out.set(key(item), [...(out.get(key(item)) ?? []), item]);
  return out;
}

interface Fill {
  id: number;
  ts: number;
  wallet: string;
  condition_id: string;
  outcome_index: number;
  side: string;
  price: number;
  size: number;
  usd: number;
  tx_hash: string;
  entry_type: string | null;
  role: string | null;
  smart: number;
}

/** Every fill of the last `seconds`, newest first, with whether its wallet is a smart whale now. */
function fillsSince(seconds: number): Promise<Fill[]> {
  return rows<Fill>(
    t,
    `select f.id, f.ts, f.wallet, f.condition_id, f.outcome_index, f.side, f.price, f.size / 1e6 as size, f.usd / 1e6 as usd, f.tx_hash, f.entry_type, f.role,
            case when s.is_smart = 1 and s.is_farmer = 0 then 1 else 0 end as smart
       from fills f left join wallet_stats s on s.wallet = f.wallet where f.ts > ${t.now - seconds} and f.ts <= ${t.now} order by f.ts desc, f.id desc`,
  );
}

describe("the contract's parameters in /api/openapi.json", () => {
  it("lists every route with its parameters, defaults and limits", async () => {
    const doc = (
      await get<{
        paths: Record<
          string,
          {
            get: {
              parameters: Array<{ name: string; schema: { default?: unknown; maximum?: number } }>;
              security?: unknown;
            };
          }
        >;
      }>(t, "/api/openapi.json")
    ).body;
    const params = (path: string) =>
      Object.fromEntries(doc.paths[path]!.get.parameters.map((p) => [p.name, [p.schema.default, p.schema.maximum]]));
    expect(params("/api/v2/whale-alerts")).toEqual({
      minutes: [10, 1440],
      wallet: ["", undefined],
      wallets: ["", undefined],
      market_id: ["", undefined],
      category: ["", undefined],
      min_usd: [10, undefined],
      smart_only: [true, undefined],
      before_ts: [0, undefined],
      after_ts: [0, undefined],
      limit: [50, 200],
    });
    expect(params("/api/v2/whale-alerts/summary")).toEqual({ minutes: [1440, 1440] });
    expect(params("/api/v2/whale-alerts/big-positions")).toEqual({
      category: ["", undefined],
      min_usd: [500_000, undefined],
      limit: [50, 200],
    });
    expect(params("/api/v2/whale-alerts/big-positions/summary")).toEqual({ category: ["", undefined] });
    expect(params("/api/v2/whales/recent-trades")).toEqual({
      limit: [10, 100],
      hours: [1, 24],
      min_size_usd: [100, undefined],
      category: ["", undefined],
    });
    expect(params("/api/v2/whale-flips")).toEqual({ days: [7, 35], limit: [20, 100] });
    expect(params("/api/public/v1/whale-flips")).toEqual({ days: [1, 14], limit: [20, 100] });
    expect(params("/api/v2/conviction-clusters")).toEqual({ min_whales: [3, 100], limit: [10, 100] });
    expect(params("/api/public/v1/conviction-clusters")).toEqual({ min_whales: [3, 100], limit: [10, 100] });
    for (const path of ["/api/v2/whale-alerts", "/api/v2/whale-flips"])
      expect(doc.paths[path]!.get.security).toEqual([{ ApiKeyHeader: [] }]);
  });
});

describe("GET /api/v2/whale-alerts", () => {
  it("answers the smart whales' fills of the window, each as the store holds it", async () => {
    const expected = (await fillsSince(DAY)).filter((f) => f.smart === 1 && f.usd >= 10);
    expect(expected.length).toBeGreaterThan(5);
    expect(expected.length).toBeLessThanOrEqual(200);
    const res = await call("/api/v2/whale-alerts?minutes=1440&limit=200");
    expect(res.status).toBe(200);
    expect(res.body.alerts.map((a: any) => a.id)).toEqual(expected.map((f) => f.id));
    expect(res.body).toMatchObject({
      count: expected.length,
      has_more: false,
      minutes: 1440,
      min_usd: 10,
      smart_only: true,
    });
    const markets = new Map(
      (
        await rows<{ condition_id: string; id: string; question: string }>(
          t,
          "select condition_id, id, question from markets",
        )
      ).map((m) => [m.condition_id, m]),
    );
    const whales = new Map(
      (
        await rows<{ wallet: string; name: string | null; win_rate: number; total_pnl: number }>(
          t,
          `select s.wallet, coalesce(w.name, w.pseudonym) as name, s.win_rate, s.total_pnl from wallet_stats s left join wallets w on w.address = s.wallet where ${SMART}`,
        )
      ).map((w) => [w.wallet, w]),
    );
    for (const [i, a] of res.body.alerts.entries()) {
      const f = expected[i]!;
      const m = markets.get(f.condition_id)!;
      expect(a).toMatchObject({
        timestamp: f.ts,
        wallet: f.wallet,
        is_smart: true,
        market_id: m.id,
        question: m.question,
        condition_id: f.condition_id,
        side: f.outcome_index === 0 ? "YES" : "NO",
        direction: f.side,
        price: servedAs(f.price, AT.price),
        entry_type: f.entry_type,
        wallet_role: f.role,
        tx_hash: f.tx_hash,
        name: whales.get(f.wallet)!.name || null,
        win_rate: servedAs(whales.get(f.wallet)!.win_rate, AT.percent),
        total_pnl: servedAs(whales.get(f.wallet)!.total_pnl, AT.usd),
      });
      expectServed(a.usd_amount, f.usd, AT.micro);
      expectServed(a.token_amount, f.size, AT.micro);
    }
  });

  it("pages through the window with next_before_ts, missing and repeating nothing", async () => {
    const expected = (await fillsSince(DAY)).filter((f) => f.smart === 1 && f.usd >= 10).map((f) => f.id);
    const seen: number[] = [];
    let before = 0;
    for (let page = 0; page < 100; page++) {
      const body = (await call(`/api/v2/whale-alerts?minutes=1440&limit=7&before_ts=${before}`)).body;
      seen.push(...body.alerts.map((a: any) => a.id));
      expect(body.count).toBeLessThanOrEqual(7);
      if (!body.has_more) break;
      before = body.next_before_ts;
    }
    expect(seen).toEqual(expected);
  });

  it("filters: amount, wallet, market by any of its ids, category, every wallet", async () => {
    const day = await fillsSince(DAY);
    const smart = day.filter((f) => f.smart === 1);
    const ids = async (query: string) =>
      (await call(`/api/v2/whale-alerts?minutes=1440&limit=200&${query}`)).body.alerts.map((a: any) => a.id);
    expect(await ids("min_usd=250")).toEqual(smart.filter((f) => f.usd >= 250).map((f) => f.id));
    const busiest = [...groupBy(smart, (f) => f.wallet)].sort((a, b) => b[1].length - a[1].length)[0]!;
    expect(await ids(`wallet=${busiest[0]}&min_usd=0`)).toEqual(busiest[1].map((f) => f.id));
    const market = [...groupBy(smart, (f) => f.condition_id)].sort((a, b) => b[1].length - a[1].length)[0]!;
    const [m] = await rows<{ id: string; slug: string }>(
      t,
      `select id, slug from markets where condition_id = '${market[0]}'`,
    );
    for (const id of [m!.id, m!.slug, market[0]])
      expect(await ids(`market_id=${id}&min_usd=0`), id).toEqual(market[1].map((f) => f.id));
    const categoryOf = await marketCategories(t);
    const crypto = smart.filter((f) => f.usd >= 10 && categoryOf.get(f.condition_id) === "CRYPTO").map((f) => f.id);
    expect(await ids("category=crypto")).toEqual(crypto);
    const hour = (await fillsSince(3_600)).filter((f) => f.usd >= 10);
    const all = (await call("/api/v2/whale-alerts?minutes=60&limit=200&smart_only=false")).body.alerts;
    expect(hour.length).toBeLessThanOrEqual(200);
    expect(all.map((a: any) => [a.id, a.is_smart])).toEqual(hour.map((f) => [f.id, f.smart === 1]));
  });
});

describe("GET /api/v2/whale-alerts/summary", () => {
  it("counts the smart whales' fills of at least 1000 USD in the window and the one before", async () => {
    for (const minutes of [1440, 180]) {
      const span = minutes * 60;
      const fills = (await fillsSince(2 * span)).filter((f) => f.smart === 1 && f.usd >= 1000);
      const now = fills.filter((f) => f.ts > t.now - span);
      const before = fills.filter((f) => f.ts <= t.now - span);
      const body = (await call(`/api/v2/whale-alerts/summary?minutes=${minutes}`)).body;
      expect(body.total_alerts, String(minutes)).toBe(now.length);
      expect(body.previous_alerts).toBe(before.length);
      expectServed(
        body.total_volume,
        now.reduce((s, f) => s + f.usd, 0),
        AT.usd,
      );
      expect(body.alerts_delta_pct).toEqual(
        before.length > 0 ? servedAs((100 * (now.length - before.length)) / before.length, AT.percent) : null,
      );
      if (now.length > 0) expectServed(body.biggest_single.usd_amount, Math.max(...now.map((f) => f.usd)), AT.micro);
      const counts = [...groupBy(now, (f) => f.wallet).values()].map((list) => list.length);
      if (now.length > 0) expect(body.most_active_whale.trades).toBe(Math.max(...counts));
    }
  });

  it("moves with the clock (an answer is kept for its second only)", async () => {
    const url = "/api/v2/whale-alerts/summary?minutes=1440";
    const first = (await call(url)).body;
    expect(first.total_alerts).toBeGreaterThan(0);
    t.clock.advance(1440 * 60 * 1000);
    try {
      const later = (await call(url)).body;
      expect(later.previous_alerts).toBe(first.total_alerts);
      expect(later.total_alerts).toBe(0);
    } finally {
      t.clock.set(t.now * 1000);
    }
  });
});

describe("GET /api/v2/whales/recent-trades", () => {
  it("is a plain list of the newest smart-whale fills of at least min_size_usd", async () => {
    const expected = (await fillsSince(DAY)).filter((f) => f.smart === 1 && f.usd >= 50).slice(0, 25);
    expect(expected.length).toBeGreaterThan(3);
    const res = await call("/api/v2/whales/recent-trades?hours=24&min_size_usd=50&limit=25");
    expect(Array.isArray(res.body)).toBe(true);
    expect(res.body.map((r: any) => r.tx_hash)).toEqual(expected.map((f) => f.tx_hash));
    expect(Object.keys(res.body[0]).slice(0, 6)).toEqual([
      "tx_hash",
      "size_usd",
      "whale_name",
      "side",
      "price",
      "question",
    ]);
  });
});

describe("big positions and conviction clusters", () => {
  /** Per smart whale and market: each side's cost (USD) of its open positions. */
  const holdings = () =>
    rows<{ wallet: string; condition_id: string; yes: number; no: number; event_slug: string | null }>(
      t,
      `select p.wallet, p.condition_id, e.slug as event_slug,
              sum(case when p.outcome_index = 0 then p.shares * p.avg_price / 1e6 else 0 end) as yes,
              sum(case when p.outcome_index = 1 then p.shares * p.avg_price / 1e6 else 0 end) as no
         from positions p join wallet_stats s on s.wallet = p.wallet join markets m on m.condition_id = p.condition_id left join events e on e.id = m.event_id
        where ${SMART} and p.status = 'open' and p.shares > 0 group by p.wallet, p.condition_id, e.slug`,
    );

  it("big positions: one row per whale and market, the larger side, at least min_usd at cost", async () => {
    const expected = (await holdings())
      .map((h) => ({ ...h, cost: Math.max(h.yes, h.no) }))
      .filter((h) => h.cost >= 100)
      .sort((a, b) => b.cost - a.cost);
    expect(expected.length).toBeGreaterThan(10);
    const body = (await call("/api/v2/whale-alerts/big-positions?min_usd=100&limit=200")).body;
    expect(body.total).toBe(expected.length);
    expect(body.items.map((i: any) => i.cost_basis)).toEqual(
      expected.slice(0, 200).map((h) => servedAs(h.cost, AT.usd)),
    );
    for (const item of body.items.slice(0, 20)) {
      const h = expected.find((e) => e.wallet === item.wallet && e.condition_id === item.condition_id)!;
      expect(item.side).toBe(h.no > h.yes ? "NO" : "YES");
    }
    const summary = (await call("/api/v2/whale-alerts/big-positions/summary")).body;
    expect(summary.total_positions).toBe(expected.filter((h) => h.cost >= 500_000).length);
  });

  it("conviction clusters: every member stands on the side of at least 2 of the event's markets", async () => {
    const byEvent = new Map<string, Map<string, Set<string>>>();
    for (const h of await holdings()) {
      const net = h.yes - h.no;
      if (!h.event_slug || Math.abs(net) < 100) continue;
      const key = `${h.event_slug}/${net > 0 ? "YES" : "NO"}`;
      const members = byEvent.get(key) ?? new Map<string, Set<string>>();
      members.set(h.wallet, (members.get(h.wallet) ?? new Set()).add(h.condition_id));
      byEvent.set(key, members);
    }
    const expected = [...byEvent]
      .map(
        ([key, m]) =>
          [
            key,
            [...m]
              .filter(([, markets]) => markets.size >= 2)
              .map(([w]) => w)
              .sort(),
          ] as const,
      )
      .filter(([, w]) => w.length >= 1);
    const body = (await call("/api/v2/conviction-clusters?min_whales=1&limit=100")).body;
    expect(body.clusters.length).toBe(Math.min(100, expected.length));
    for (const c of body.clusters) {
      const members = expected.find(([key]) => key === `${c.event_slug}/${c.side}`)![1];
      expect(c.whales.map((w: any) => w.wallet).sort(), c.event_slug).toEqual(members);
      expect(c.whale_count).toBe(members.length);
    }
    const flips = (await call("/api/v2/whale-flips")).body;
    // `rebuild` takes the kept days' snapshots from the stored history: the comparison is the one 7 days back.
    const weekBack = new Date((Math.floor(t.now / 86_400) - 7) * 86_400_000).toISOString().slice(0, 10);
    expect(flips).toMatchObject({ comparison_date: weekBack, lookback_days: 7 });
    expect(Array.isArray(flips.flips)).toBe(true);
  });
});
