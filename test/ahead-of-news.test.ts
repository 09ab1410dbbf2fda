/**
 * Ahead of the news (issue 52) through the API, on every store: the territory monitor probes the twelve real map
 * snapshots (a day apart) and records when a point east of Bakhmut's centre is captured; a market its slug pattern
 * links to trades around that moment as worked out by hand in src/ledger/ahead-of-news.test.ts (YES from 0.35 to
 * 0.70 after the event; B, I and C ahead of it for $640, $400 and $340); a market the pattern does not link trades
 * the same and is never named.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createKey } from "../src/accounts/keys.js";
import type { CityInput } from "../src/isw/cities.js";
import type { EventRow } from "../src/isw/event-view.js";
import { replayProbe } from "../src/isw/testing/replay-probe.js";
import { insertFills, type NewFill } from "../src/store/fills.js";
import { marketRow } from "../src/store/testing/market-row.js";
import { storeBackends } from "./support/backends.js";
import { openTestApp, type TestApp } from "./support/app.js";

const HOUR = 3_600;
const DAY_MS = 86_400_000;
const BASE_MS = Date.UTC(2026, 2, 1, 14);
const ENV = { ISW_CONFIRM_AFTER_HOURS: "0", AHEAD_MIN_USD: "100", RATE_FREE_PER_MINUTE: "100000" };
const wallet = (name: string) => `0x${name.charCodeAt(0).toString(16).padStart(40, "0")}`;
const LINKED = { id: "7001", condition: `0x${"71".repeat(32)}`, slug: "will-russia-capture-bakhmut-by-march-31" };
const LATER = { id: "7002", condition: `0x${"72".repeat(32)}`, slug: "will-russia-capture-bakhmut-by-june-30" };
const OTHER = { id: "7003", condition: `0x${"73".repeat(32)}`, slug: "will-russia-capture-kupiansk-by-march-31" };
const CITIES: CityInput[] = [
  {
    name: "Bakhmut",
    lon: 37.999,
    lat: 48.595,
    subscriptions: [
      {
        label: "east of the centre",
        check_type: "single",
        point: [37.97, 48.58],
        buffer_advance_m: 0,
        market_slug_pattern: "will-russia-capture-bakhmut-by-*",
      },
    ],
  },
];

/** [wallet, hours from the event, outcome, side, shares, price, settlement], as in the ledger's worked example. */
const SCENARIO: Array<[string, number, 0 | 1, "BUY" | "SELL", number, number, "COMPLEMENTARY" | "MINT"]> = [
  ["A", -8, 0, "BUY", 1_000, 0.3, "COMPLEMENTARY"],
  ["B", -5, 0, "BUY", 2_000, 0.32, "COMPLEMENTARY"],
  ["I", -4, 1, "SELL", 1_000, 0.6, "MINT"],
  ["C", -3, 1, "SELL", 1_000, 0.66, "COMPLEMENTARY"],
  ["D", -2, 1, "BUY", 500, 0.65, "COMPLEMENTARY"],
  ["E", -1, 0, "BUY", 200, 0.35, "COMPLEMENTARY"],
  ["F", 0.5, 0, "BUY", 1_000, 0.6, "COMPLEMENTARY"],
  ["G", 1.5, 1, "SELL", 100, 0.3, "COMPLEMENTARY"],
  ["H", 3, 0, "BUY", 100, 0.9, "COMPLEMENTARY"],
];

function market(m: typeof LINKED, eventTs: number) {
  return marketRow({
    id: m.id,
    condition_id: m.condition,
    question: `Will Russia capture ${m.slug.split("-")[3]}?`,
    slug: m.slug,
    category: "Geopolitics",
    price_yes: 0.7,
    price_no: 0.3,
    volume: 10_000,
    end_date: eventTs + 30 * 86_400,
    updated_at: eventTs,
  });
}

function fills(m: typeof LINKED, eventTs: number): NewFill[] {
  return SCENARIO.map(([name, hours, outcome, side, shares, price, settlement], k) => ({
    fill_key: `data:${m.id}:${k}`,
    source: "data_api",
    tx_hash: `0x${m.id}${String(k).padStart(60, "0")}`,
    log_index: null,
    block_number: null,
    wallet: wallet(name),
    counterparty: null,
    role: null,
    condition_id: m.condition,
    token_id: `${m.id}${outcome + 1}`,
    outcome_index: outcome,
    side,
    size: shares * 1_000_000,
    usd: Math.round(shares * price * 1_000_000),
    price,
    fee: 0,
    ts: eventTs + hours * HOUR,
    entry_type: settlement,
    exchange_version: 2,
  }));
}

describe.each(storeBackends)("ahead of the news on $kind", (backend) => {
  let t: TestApp;
  let premium = "";
  let free = "";
  let capture: EventRow;
  const get = async (url: string, key = premium) => {
    const response = await t.app.inject({ url, headers: key ? { "x-api-key": key } : {} });
    return { status: response.statusCode, body: response.json() };
  };

  beforeAll(async () => {
    t = await openTestApp({ storeBackend: backend, env: ENV });
    const run = replayProbe(t.store, { cities: CITIES, clock: t.clock, env: ENV });
    const events: EventRow[] = [];
    for (let day = 0; day < 12; day++) {
      t.clock.set(BASE_MS + day * DAY_MS);
      events.push(...(await run.day(day)));
    }
    capture = events.find((e) => e.event_type === "CAPTURED")!;
    expect(capture, "the replay captures the point east of the centre").toBeDefined();
    const at = capture.created_at;
    await t.store.db
      .insertInto("markets")
      .values([market(LINKED, at), market(LATER, at), market(OTHER, at)])
      .execute();
    await t.store.transaction((tx) => insertFills(tx, [...fills(LINKED, at), ...fills(OTHER, at)]));
    t.clock.set((at + 2 * 86_400) * 1000);
    premium = (await createKey(t.store.db, { account: "desk", plan: "premium", now: t.clock.now() })).key;
    free = (await createKey(t.store.db, { account: "reader", plan: "free", now: t.clock.now() })).key;
  }, 120_000);
  afterAll(async () => t?.close());

  it("shows the capture's linked market moving 0.35 to 0.70 and B, I and C ahead of it, with their fills", async () => {
    const { status, body } = await get(`/api/v2/isw/events/${capture.id}/ahead-of-news`);
    expect(status).toBe(200);
    expect(body.event).toMatchObject({ id: capture.id, event_type: "CAPTURED", city: "Bakhmut" });
    expect(body).toMatchObject({ news_event: true, hours_before: 6, hours_after: 2, min_move: 0.1, min_usd: 100 });
    // The later deadline linked too, but nothing traded it; Kupiansk is not linked.
    expect(body.markets.map((m: { condition_id: string }) => m.condition_id)).toEqual([LINKED.condition]);
    const [linked] = body.markets;
    expect(linked).toMatchObject({
      market_id: LINKED.id,
      slug: LINKED.slug,
      price_window_start: 0.3,
      price_before: 0.35,
      price_after: 0.7,
      move: 0.35,
      moved_to: "YES",
    });
    expect(linked.wallets.map((w: { wallet: string }) => w.wallet)).toEqual([wallet("B"), wallet("I"), wallet("C")]);
    expect(linked.wallets[0]).toMatchObject({
      outcome: "YES",
      shares: 2_000,
      usd: 640,
      avg_price: 0.32,
      gain_usd: 760,
      lead_hours: 5,
      first_ts: capture.created_at - 5 * HOUR,
    });
    expect(linked.wallets[1]).toMatchObject({ shares: 1_000, usd: 400, avg_price: 0.4, gain_usd: 300, lead_hours: 4 });
    expect(linked.wallets[1].fills).toEqual([
      {
        tx_hash: `0x${LINKED.id}${"2".padStart(60, "0")}`,
        ts: capture.created_at - 4 * HOUR,
        outcome: "NO",
        side: "SELL",
        settlement: "MINT",
        size: 1_000,
        price: 0.6,
        usd: 600,
      },
    ]);
    expect(linked.wallets[2]).toMatchObject({ shares: 1_000, usd: 340, gain_usd: 360, lead_hours: 3 });
  });

  it("lists the wallets ahead of recent events, filtered by wallet, market, city and size", async () => {
    const all = await get("/api/v2/ahead-of-news?days=30");
    expect(all.status).toBe(200);
    const ofCapture = all.body.signals.filter((s: { event: { id: number } }) => s.event.id === capture.id);
    expect(ofCapture.map((s: { wallet: string }) => s.wallet)).toEqual([wallet("B"), wallet("I"), wallet("C")]);
    expect(ofCapture[0]).toMatchObject({ condition_id: LINKED.condition, move: 0.35, usd: 640, moved_to: "YES" });
    expect(all.body.signals.every((s: { condition_id: string }) => s.condition_id === LINKED.condition)).toBe(true);
    const one = await get(`/api/v2/ahead-of-news?days=30&wallet=${wallet("C").toUpperCase().replace("0X", "0x")}`);
    expect(one.body.signals.map((s: { wallet: string; usd: number }) => [s.wallet, s.usd])).toEqual([
      [wallet("C"), 340],
    ]);
    expect((await get(`/api/v2/ahead-of-news?days=30&market=${LINKED.id}`)).body.count).toBe(all.body.count);
    expect((await get(`/api/v2/ahead-of-news?days=30&market=${OTHER.condition}`)).body.count).toBe(0);
    expect((await get("/api/v2/ahead-of-news?days=30&city=bakhmut")).body.count).toBe(all.body.count);
    expect((await get("/api/v2/ahead-of-news?days=30&city=Kherson")).body.count).toBe(0);
    const large = await get("/api/v2/ahead-of-news?days=30&min_usd=500");
    expect(large.body.min_usd).toBe(500);
    expect(large.body.signals.map((s: { wallet: string }) => s.wallet)).toEqual(
      ofCapture.filter((s: { usd: number }) => s.usd >= 500).map((s: { wallet: string }) => s.wallet),
    );
    expect((await get("/api/v2/ahead-of-news?days=30&limit=2")).body.signals).toHaveLength(2);
  });

  it("is Premium, and says when the event is unknown", async () => {
    expect((await get("/api/v2/ahead-of-news", "")).status).toBe(401);
    expect((await get("/api/v2/ahead-of-news", free)).status).toBe(403);
    expect((await get(`/api/v2/isw/events/${capture.id}/ahead-of-news`, free)).status).toBe(403);
    const missing = await get("/api/v2/isw/events/999999/ahead-of-news");
    expect(missing.status).toBe(404);
    expect(missing.body.detail).toBe("Event not found");
    expect((await get("/api/v2/ahead-of-news?min_usd=-1")).status).toBe(422);
  });
});
