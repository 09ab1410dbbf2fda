/** /api/v2/markets/search, /hot, /category-stats, /resolved over the simulated world. */
import { gunzipSync } from "node:zlib";
import { AT, servedAs } from "../support/served-numbers.js";
import { hotWindowMinutes } from "../../src/analytics/markets/markets-lists.js";
import { HOT_CACHE_MS } from "../../src/api/routes/markets/markets.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { WorldApp } from "../support/world-app.js";
import { VOLUME_SQL, getJson, isSortedDesc, openMarketsWorld, rows } from "../support/api/markets.js";

let t: WorldApp;
const DAY = 86_400;

beforeAll(async () => {
  t = await openMarketsWorld();
}, 120_000);
afterAll(async () => t?.close());

/** Open markets joined with their stats, as an independent reference for the search. */
async function openMarkets() {
  return rows<{
    id: string;
    condition_id: string;
    slug: string;
    question: string;
    category: string | null;
    volume: number;
    price_yes: number | null;
    end_date: number | null;
    created_at: number | null;
    whales: number;
    event_slug: string | null;
  }>(
    t,
    `select m.id, m.condition_id, m.slug, m.question, m.category, ${VOLUME_SQL} as volume, m.price_yes, m.end_date, m.created_at,
       coalesce(s.whales_yes, 0) + coalesce(s.whales_no, 0) as whales, e.slug as event_slug
     from markets m left join market_stats s on s.condition_id = m.condition_id left join events e on e.id = m.event_id
     where m.closed = 0`,
  );
}
const withinYear = (m: { end_date: number | null }) => m.end_date === null || m.end_date <= t.now + 365 * DAY;
const ids = (list: { id: string }[]) => list.map((m) => m.id).sort();

describe("GET /api/v2/markets/search", () => {
  it("answers every open market within a year by default, volume_24h first, with the row fields", async () => {
    const expected = (await openMarkets()).filter(withinYear);
    const res = await getJson(t, "/api/v2/markets/search?limit=200");
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ total: expected.length, limit: 200, offset: 0 });
    expect(typeof res.body._elapsed_ms).toBe("number");
    expect(ids(res.body.markets)).toEqual(ids(expected));
    expect(isSortedDesc(res.body.markets.map((m: any) => m.volume_24h))).toBe(true);
    const stats = await rows<{ condition_id: string; whales_yes: number; whales_no: number }>(
      t,
      "select condition_id, whales_yes, whales_no from market_stats",
    );
    for (const m of res.body.markets) {
      expect(Object.keys(m)).toEqual(
        expect.arrayContaining([
          "id",
          "condition_id",
          "slug",
          "question",
          "category",
          "price_yes",
          "whales_yes",
          "whales_no",
          "volume",
          "volume_24h",
          "end_date",
        ]),
      );
      const s = stats.find((x) => x.condition_id === m.condition_id);
      expect([m.whales_yes, m.whales_no]).toEqual([s?.whales_yes ?? 0, s?.whales_no ?? 0]);
    }
    const def = await getJson(t, "/api/v2/markets/search");
    expect(def.body.limit).toBe(50);
    expect(def.body.markets).toEqual(res.body.markets.slice(0, 50));
  });

  it("pages with limit and offset over the same order; total stays the full count", async () => {
    const all = (await getJson(t, "/api/v2/markets/search?limit=200")).body;
    const page = (await getJson(t, "/api/v2/markets/search?limit=5&offset=7")).body;
    expect(page.total).toBe(all.total);
    expect(page.markets).toEqual(all.markets.slice(7, 12));
  });

  it("filters by category, volume, whales, price, days, window and creation date", async () => {
    const open = (await openMarkets()).filter(withinYear);
    const cases: Array<[string, (m: (typeof open)[number]) => boolean]> = [
      ["category=Sports", (m) => m.category?.toLowerCase() === "sports"],
      ["category=ECONOMICS", (m) => m.category?.toLowerCase() === "economics"],
      ["min_volume=50000", (m) => m.volume >= 50_000],
      ["min_whales=3", (m) => m.whales >= 3],
      ["price_min=20&price_max=60", (m) => m.price_yes !== null && m.price_yes * 100 >= 20 && m.price_yes * 100 <= 60],
      [
        "min_days=10&max_days=60",
        (m) => m.end_date !== null && m.end_date - t.now >= 10 * DAY && m.end_date - t.now <= 60 * DAY,
      ],
      ["window_hours=72", (m) => m.end_date !== null && m.end_date >= t.now && m.end_date <= t.now + 72 * 3600],
      ["created_within_days=90", (m) => m.created_at !== null && m.created_at >= t.now - 90 * DAY],
    ];
    for (const [query, keep] of cases) {
      const expected = open.filter(keep);
      expect(expected.length, query).toBeGreaterThan(0);
      expect(expected.length, query).toBeLessThan(open.length);
      const res = await getJson(t, `/api/v2/markets/search?limit=200&${query}`);
      expect(res.status, query).toBe(200);
      expect(ids(res.body.markets), query).toEqual(ids(expected));
      expect(res.body.total, query).toBe(expected.length);
    }
    expect(open.filter((m) => m.category?.toLowerCase() === "sports").length).toBeGreaterThan(0);
    const all = await getJson(t, "/api/v2/markets/search?limit=200&category=All");
    expect(all.body.total).toBe(open.length);
  });

  it("finds by text exactly the open markets whose question, slug or event holds every word (any part of a word)", async () => {
    const open = (
      await rows<{ id: string; text: string; end_date: number | null }>(
        t,
        `select m.id, lower(m.question || ' ' || m.slug || ' ' || coalesce(e.slug, '') || ' ' || coalesce(e.title, '')) as text, m.end_date
         from markets m left join events e on e.id = m.event_id where m.closed = 0`,
      )
    ).filter(withinYear);
    const words = [...new Set(open.flatMap((m) => m.text.split(/\s+/)))].filter((w) => w.length >= 4).slice(0, 40);
    const queries = [...words.map((w) => w.slice(1, -1)), `${words[0]} ${words[1]}`, "ll", "zzqq"];
    for (const q of queries) {
      const res = await getJson(t, `/api/v2/markets/search?limit=200&q=${encodeURIComponent(q)}`);
      const expected = open.filter((m) => q.split(" ").every((w) => m.text.includes(w)));
      expect(res.body.total, q).toBe(expected.length);
      if (expected.length <= 200) expect(ids(res.body.markets), q).toEqual(ids(expected));
    }
  });

  it("answers a repeated search within MARKET_SEARCH_CACHE_SECONDS with the same body but its own _elapsed_ms", async () => {
    const url = "/api/v2/markets/search?limit=20&min_days=1";
    const first = await getJson(t, url);
    const again = await getJson(t, url);
    expect({ ...again.body, _elapsed_ms: 0 }).toEqual({ ...first.body, _elapsed_ms: 0 });
    expect(typeof again.body._elapsed_ms).toBe("number");
    const window = t.config.markets.searchCacheSeconds;
    expect(window).toBeGreaterThan(1);
    t.clock.advance(1_000);
    try {
      const soon = await getJson(t, url);
      expect(soon.body.markets).toEqual(first.body.markets);
      // Past the window (at most its length, shortened at random by up to a quarter) the answer is computed again.
      t.clock.advance(window * 1_000);
      const later = await getJson(t, url);
      expect(later.body.markets[0].days_left).toBeCloseTo(first.body.markets[0].days_left - (1 + window) / DAY, 9);
    } finally {
      t.clock.set(t.now * 1000);
    }
  });

  it("sends a search compressed to a client that accepts gzip, revalidated by its weak ETag", async () => {
    const url = "/api/v2/markets/search?limit=200&max_days=3650";
    const plain = await getJson(t, url);
    const packed = await t.app.inject({ url, headers: { "accept-encoding": "gzip" } });
    expect(packed.headers["content-encoding"]).toBe("gzip");
    const unpacked = JSON.parse(gunzipSync(packed.rawPayload).toString());
    expect({ ...unpacked, _elapsed_ms: 0 }).toEqual({ ...plain.body, _elapsed_ms: 0 });
    expect(packed.rawPayload.length).toBeLessThan(JSON.stringify(plain.body).length / 3);
    const etag = String(packed.headers.etag);
    expect(etag.startsWith("W/")).toBe(true);
    const again = await t.app.inject({ url, headers: { "accept-encoding": "gzip", "if-none-match": etag } });
    expect(again.statusCode).toBe(304);
  });

  it("matches free text on every word, and a venue URL, slug or condition id exactly", async () => {
    const open = (await openMarkets()).filter(withinYear);
    const target = open.find((m) => m.event_slug)!;
    const word = target.question
      .split(" ")
      .find((w) => w.length > 5)!
      .toLowerCase();
    const text = await getJson(t, `/api/v2/markets/search?limit=200&q=${encodeURIComponent(word.toUpperCase())}`);
    const textExpected = open.filter((m) =>
      `${m.question} ${m.slug} ${m.event_slug ?? ""}`.toLowerCase().includes(word),
    );
    expect(text.body.total).toBeGreaterThanOrEqual(textExpected.length);
    expect(ids(text.body.markets)).toEqual(expect.arrayContaining(ids(textExpected)));
    expect(text.body.markets.map((m: any) => m.id)).toContain(target.id);

    for (const q of [
      `https://polymarket.com/event/${target.event_slug}/${target.slug}`,
      `polymarket.com/market/${target.slug}`,
      target.slug,
      target.condition_id.toUpperCase().replace("0X", "0x"),
    ]) {
      const res = await getJson(t, `/api/v2/markets/search?q=${encodeURIComponent(q)}`);
      expect(
        res.body.markets.map((m: any) => m.id),
        q,
      ).toEqual([target.id]);
    }
    const siblings = await rows<{ n: number }>(
      t,
      `select count(*) as n from markets m join events e on e.id = m.event_id where e.slug = '${target.event_slug}'`,
    );
    const event = await getJson(
      t,
      `/api/v2/markets/search?limit=200&q=${encodeURIComponent(`https://polymarket.com/event/${target.event_slug}`)}`,
    );
    expect(event.body.total).toBe(Number(siblings[0]!.n));
    const none = await getJson(t, "/api/v2/markets/search?q=zzzz%20qqqq");
    expect(none.body).toMatchObject({ total: 0, markets: [] });
  });

  it("finds a closed market by URL but never by free text", async () => {
    const [closed] = await rows<{ id: string; slug: string; question: string }>(
      t,
      "select id, slug, question from markets where closed = 1 order by id limit 1",
    );
    const byUrl = await getJson(
      t,
      `/api/v2/markets/search?q=${encodeURIComponent(`https://polymarket.com/market/${closed!.slug}`)}`,
    );
    expect(byUrl.body.markets.map((m: any) => [m.id, m.closed])).toEqual([[closed!.id, true]]);
    const byText = await getJson(t, `/api/v2/markets/search?limit=200&q=${encodeURIComponent(closed!.question)}`);
    expect(byText.body.markets.map((m: any) => m.id)).not.toContain(closed!.id);
  });

  it("answers 422 past its limits and for unknown values", async () => {
    for (const query of [
      "limit=201",
      "limit=0",
      "offset=-1",
      "category=Weather",
      "price_min=101",
      "price_max=-1",
      "price_min=70&price_max=20",
      "min_days=30&max_days=10",
      "min_volume=-5",
      "nope=1",
    ]) {
      const res = await getJson(t, `/api/v2/markets/search?${query}`);
      expect(res.status, query).toBe(422);
      expect(Array.isArray(res.body.detail), query).toBe(true);
    }
  });
});

describe("GET /api/v2/markets/hot", () => {
  async function whaleCounts(minutes: number) {
    return rows<{ condition_id: string; n: number }>(
      t,
      `select f.condition_id, count(*) as n from fills f join wallet_stats w on w.wallet = f.wallet
       where w.is_smart = 1 and f.ts > ${t.now - minutes * 60} and f.ts <= ${t.now} group by f.condition_id`,
    );
  }

  it("ranks markets by smart-whale fills in the window", async () => {
    const minutes = 7 * 1440;
    const expected = await whaleCounts(minutes);
    expect(expected.length).toBeGreaterThan(3);
    const res = await getJson(t, `/api/v2/markets/hot?minutes=${minutes}&limit=100`);
    expect(res.status).toBe(200);
    expect(res.body.minutes).toBe(minutes);
    expect(res.body.markets.length).toBe(expected.length);
    for (const m of res.body.markets) {
      expect(m.whale_trades).toBe(Number(expected.find((e) => e.condition_id === m.condition_id)!.n));
      expect(m.last_whale_trade).toBeLessThanOrEqual(t.now);
    }
    expect(isSortedDesc(res.body.markets.map((m: any) => m.whale_trades))).toBe(true);
    const short = await getJson(t, `/api/v2/markets/hot?minutes=${minutes}&limit=3`);
    expect(short.body.markets).toEqual(res.body.markets.slice(0, 3));
  });

  it("defaults to 60 minutes and 20 rows", async () => {
    const res = await getJson(t, "/api/v2/markets/hot");
    expect(res.body.minutes).toBe(60);
    expect(res.body.markets.length).toBe(Math.min(20, (await whaleCounts(60)).length));
  });

  it("answers 422 past its limits", async () => {
    for (const query of ["minutes=0", "minutes=10081", "limit=0", "limit=101", "x=1"])
      expect((await getJson(t, `/api/v2/markets/hot?${query}`)).status, query).toBe(422);
  });

  it("keeps an answer serialized no longer than the shared copy it was cut from (HOT_CACHE_MS)", async () => {
    const path = "/api/v2/markets/hot?minutes=1440&limit=4";
    const seconds = HOT_CACHE_MS / 1000;
    const first = await getJson(t, path);
    try {
      t.clock.set((first.body.as_of + seconds - 1) * 1000);
      expect((await getJson(t, path)).body).toEqual(first.body);
      t.clock.set((first.body.as_of + seconds) * 1000);
      expect((await getJson(t, path)).body.as_of).toBe(first.body.as_of + seconds);
    } finally {
      t.clock.set(t.now * 1000);
    }
  });

  it("rounds the window up to a bucket and says which: cycling the minutes cannot make every request a cold scan", async () => {
    const windows = new Set<number>();
    for (const [asked, used] of [
      [1, 5],
      [59, 60],
      [61, 120],
      [1_439, 1_440],
      [1_441, 1_800],
      [10_079, 10_080],
    ] as const) {
      const res = await getJson(t, `/api/v2/markets/hot?minutes=${asked}&limit=100`);
      expect(res.body.minutes, String(asked)).toBe(used);
      expect(res.body.markets.length, String(asked)).toBe((await whaleCounts(used)).length);
    }
    for (let minutes = 1; minutes <= 10_080; minutes++) {
      const used = hotWindowMinutes(minutes);
      expect(used).toBeGreaterThanOrEqual(minutes);
      windows.add(used);
    }
    expect(windows.size).toBeLessThanOrEqual(60);
  });
});

describe("GET /api/v2/markets/category-stats", () => {
  it("counts all_time, all_open and active_quality with the configured thresholds", async () => {
    const { qualityMinVolume, qualityPriceMin, qualityPriceMax } = t.config.markets;
    for (const [category, stored] of [
      ["", null],
      ["Sports", "sports"],
      ["Politics", "politics"],
      ["Tech/AI", "tech"],
    ] as const) {
      const where = stored ? `where lower(m.category) = '${stored}'` : "";
      const [c] = await rows<{ all_time: number; all_open: number; quality: number }>(
        t,
        `select count(*) as all_time, sum(case when m.closed = 0 then 1 else 0 end) as all_open,
           sum(case when m.closed = 0 and (m.end_date is null or m.end_date >= ${t.now}) and ${VOLUME_SQL} >= ${qualityMinVolume}
                     and m.price_yes >= ${qualityPriceMin} and m.price_yes <= ${qualityPriceMax} then 1 else 0 end) as quality
         from markets m left join market_stats s on s.condition_id = m.condition_id ${where}`,
      );
      const res = await getJson(t, `/api/v2/markets/category-stats?category=${encodeURIComponent(category)}`);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        all_time: Number(c!.all_time),
        all_open: Number(c!.all_open),
        active_quality: Number(c!.quality ?? 0),
      });
      expect(res.body.thresholds).toEqual({
        min_volume: qualityMinVolume,
        price_min: qualityPriceMin,
        price_max: qualityPriceMax,
      });
    }
  });

  it("answers 422 for an unknown category", async () => {
    expect((await getJson(t, "/api/v2/markets/category-stats?category=Weather")).status).toBe(422);
  });
});

describe("GET /api/v2/markets/resolved", () => {
  const resolvedSql = (extra: string) =>
    `select m.id, m.slug, m.resolution, m.end_date, coalesce(r.resolved_at, m.closed_time, m.end_date) as at
     from markets m left join market_resolutions r on r.condition_id = m.condition_id where ${extra}`;

  it("lists YES/NO resolutions of the last `days`, newest first", async () => {
    const expected = await rows<{ id: string; resolution: string; at: number }>(
      t,
      resolvedSql(
        `m.resolution in ('YES', 'NO') and coalesce(r.resolved_at, m.closed_time, m.end_date) >= ${t.now - 30 * DAY}`,
      ),
    );
    expect(expected.length).toBeGreaterThan(2);
    const res = await getJson(t, "/api/v2/markets/resolved?days=30&limit=100");
    expect(res.status).toBe(200);
    expect(res.body.total).toBe(expected.length);
    expect(ids(res.body.markets)).toEqual(ids(expected));
    for (const m of res.body.markets) {
      const e = expected.find((x) => x.id === m.id)!;
      expect(m.outcome).toBe(e.resolution);
      expect(m.final_price_yes).toBe(e.resolution === "YES" ? 1 : 0);
      expect(m.resolved_at).toBe(Number(e.at));
    }
    expect(isSortedDesc(res.body.markets.map((m: any) => m.resolved_at))).toBe(true);
    const def = await getJson(t, "/api/v2/markets/resolved");
    expect(def.body.limit).toBe(30);
    expect(def.body.total).toBe(
      (
        await rows(
          t,
          resolvedSql(
            `m.resolution in ('YES', 'NO') and coalesce(r.resolved_at, m.closed_time, m.end_date) >= ${t.now - 7 * DAY}`,
          ),
        )
      ).length,
    );
  });

  it("adds PENDING and 50-50 only with include_pending=1", async () => {
    const pending = await rows<{ id: string; price_yes: number | null }>(
      t,
      "select id, price_yes from markets where closed = 1 and resolution is null",
    );
    const even = await rows<{ id: string }>(t, "select id from markets where resolution = '50-50'");
    const all = await getJson(t, "/api/v2/markets/resolved?days=3650&limit=100&include_pending=1");
    const plain = await getJson(t, "/api/v2/markets/resolved?days=3650&limit=100");
    expect(all.body.total).toBe(plain.body.total + pending.length + even.length);
    expect(plain.body.markets.every((m: any) => m.outcome === "YES" || m.outcome === "NO")).toBe(true);
    for (const p of pending) {
      const row = all.body.markets.find((m: any) => m.id === p.id);
      expect(row).toMatchObject({
        outcome: "PENDING",
        final_price_yes: p.price_yes === null ? null : servedAs(p.price_yes, AT.price),
        resolved_at: null,
      });
    }
  });

  it("with slug_prefix lists every resolution of the prefix by end date, within end_from..end_to, with has_more", async () => {
    const [{ slug }] = (await rows<{ slug: string }>(
      t,
      "select slug from markets where resolution in ('YES','NO') order by slug limit 1",
    )) as [{ slug: string }];
    const prefix = slug.split("-").slice(0, 2).join("-");
    const expected = await rows<{ id: string; end_date: number }>(
      t,
      resolvedSql(`m.resolution in ('YES', 'NO') and m.slug like '${prefix}%'`),
    );
    const res = await getJson(t, `/api/v2/markets/resolved?slug_prefix=${prefix}&limit=500&days=1`);
    expect(res.body.total).toBe(expected.length);
    expect(isSortedDesc(res.body.markets.map((m: any) => m.end_date))).toBe(true);
    expect(res.body.has_more).toBe(false);
    if (expected.length > 1) {
      const first = await getJson(t, `/api/v2/markets/resolved?slug_prefix=${prefix}&limit=1`);
      expect(first.body).toMatchObject({ has_more: true, count: 1 });
      expect(first.body.markets[0]).toEqual(res.body.markets[0]);
    }
    const day = new Date(Number(expected[0]!.end_date) * 1000).toISOString().slice(0, 10);
    const dayStart = Date.parse(`${day}T00:00:00Z`) / 1000;
    const onDay = expected.filter((m) => m.end_date >= dayStart && m.end_date < dayStart + DAY);
    const ranged = await getJson(t, `/api/v2/markets/resolved?slug_prefix=${prefix}&end_from=${day}&end_to=${day}`);
    expect(ids(ranged.body.markets)).toEqual(ids(onDay));
  });

  it("answers 422 past its limits", async () => {
    for (const query of [
      "limit=101",
      "limit=501&slug_prefix=will",
      "limit=0",
      "end_from=2026-13-01",
      "end_from=yesterday",
      "end_from=2026-05-02&end_to=2026-05-01",
      "days=0",
      "include_pending=maybe",
    ]) {
      expect((await getJson(t, `/api/v2/markets/resolved?${query}`)).status, query).toBe(422);
    }
    expect((await getJson(t, "/api/v2/markets/resolved?limit=500&slug_prefix=will")).status).toBe(200);
  });
});

it("documents every market path in /api/openapi.json", async () => {
  const doc = (await getJson(t, "/api/openapi.json")).body;
  for (const path of [
    "/api/v2/markets/search",
    "/api/v2/markets/hot",
    "/api/v2/markets/category-stats",
    "/api/v2/markets/resolved",
    "/api/v2/market/{market_id}",
    "/api/v2/market/{market_id}/trades",
    "/api/v2/market/{market_id}/lookup",
    "/api/v2/market/{market_id}/breakdown",
    "/api/v2/pm/{market_id}",
    "/api/public/v1/market/{market_id}",
  ]) {
    expect(doc.paths[path], path).toBeDefined();
  }
});
