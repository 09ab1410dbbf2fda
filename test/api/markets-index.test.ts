/** The in-memory market index behind search: reloaded in the background once older than its refresh window. */
import { afterAll, beforeAll, expect, it, vi } from "vitest";
import { marketIndex } from "../../src/analytics/markets/market-index.js";
import { BackgroundWork } from "../../src/platform/background-work.js";
import { marketRow } from "../../src/store/testing/market-row.js";
import { openTestApp, type TestApp } from "../support/app.js";

let t: TestApp;
const NOW = Date.UTC(2026, 5, 1) / 1000;

async function addMarket(id: string, question: string) {
  await t.store.db
    .insertInto("markets")
    .values(
      marketRow({
        id,
        condition_id: `0x${id.padStart(64, "0")}`,
        question,
        slug: question.toLowerCase().replace(/\W+/g, "-"),
        category: "Crypto",
        price_yes: 0.4,
        price_no: 0.6,
        volume: 1000,
        volume_24h: 10,
        start_date: NOW - 86_400,
        end_date: NOW + 10 * 86_400,
        created_at: NOW - 86_400,
        updated_at: NOW,
      }),
    )
    .execute();
}

const search = async (q: string) =>
  JSON.parse((await t.app.inject({ url: `/api/v2/markets/search?q=${q}` })).body) as {
    total: number;
    markets: { id: string; category: string }[];
  };

beforeAll(async () => {
  t = await openTestApp({ env: { MARKET_INDEX_REFRESH_SECONDS: "30" } });
  t.clock.set(NOW * 1000);
  await addMarket("1", "Will bitcoin reach 200k?");
}, 60_000);
afterAll(async () => t?.close());

it("serves the loaded index inside the window, then reloads it in the background", async () => {
  expect((await search("bitcoin")).markets.map((m) => [m.id, m.category])).toEqual([["1", "CRYPTO"]]);
  await addMarket("2", "Will bitcoin fall under 50k?");
  t.clock.advance(29_000);
  expect((await search("bitcoin")).total).toBe(1);
  t.clock.advance(2_000);
  const during = await search("bitcoin");
  expect(during.total).toBeGreaterThanOrEqual(1);
  // The reload runs in the background, letting requests in between its steps (an answer computed meanwhile is from
  // the index that still answers); once it is in, the answers computed next read it.
  const current = () => marketIndex(t.store, t.clock, t.config.markets.indexRefreshSeconds, new BackgroundWork());
  await vi.waitFor(async () => expect((await current()).byId.has("2")).toBe(true), { timeout: 10_000 });
  // Answers already given may be repeated for MARKET_SEARCH_CACHE_SECONDS; the next ones read the new load.
  t.clock.advance(t.config.markets.searchCacheSeconds * 1_000);
  expect((await search("bitcoin")).markets.map((m) => m.id).sort()).toEqual(["1", "2"]);
});

it("after the window, keeps the loaded index while the tables are unchanged, and reloads once a market's row changes (even in the same second)", async () => {
  const refresh = t.config.markets.indexRefreshSeconds;
  const current = () => marketIndex(t.store, t.clock, refresh, new BackgroundWork());
  const before = await current();
  t.clock.advance((refresh + 1) * 1_000);
  await current();
  await vi.waitFor(async () => expect((await current()).loadedAt).toBe(t.clock.now()), { timeout: 10_000 });
  const checked = await current();
  expect(checked.byId).toBe(before.byId);
  expect(checked.markets).toBe(before.markets);

  // Written again in the second of its last write: its update time does not move.
  await t.store.db.updateTable("markets").set({ price_yes: 0.9, updated_at: NOW }).where("id", "=", "1").execute();
  t.clock.advance((refresh + 1) * 1_000);
  await current();
  await vi.waitFor(async () => expect((await current()).byId.get("1")?.price_yes).toBe(0.9), { timeout: 10_000 });
  expect((await current()).markets).not.toBe(before.markets);
});
