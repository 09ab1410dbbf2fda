/** Shared by the leaderboard, home and analytics tests: a world with a Smart Money population, SQL, requests. */
import { expect } from "vitest";
import { marketCategory } from "../../../src/ledger/categories.js";
import { openWorldApp, type WorldApp } from "../world-app.js";
import { rows } from "./wallet-core.js";

export { one, rows } from "./wallet-core.js";
export { isSortedDesc } from "./markets.js";

/** Large enough (120 days, 200 markets) that a few dozen wallets are Smart Money with the default thresholds. */
export function openBoardsWorld(): Promise<WorldApp> {
  return openWorldApp({ world: { markets: 200, wallets: 600, fills: 40_000, days: 120 } });
}

export async function get<T = any>(
  t: WorldApp,
  url: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: T }> {
  const res = await t.app.inject({ method: "GET", url, headers });
  return { status: res.statusCode, body: JSON.parse(res.body) as T };
}

export async function expect422(t: WorldApp, url: string, field: string): Promise<void> {
  const res = await get<{ detail: Array<{ loc: unknown[] }> }>(t, url);
  expect(res.status, url).toBe(422);
  expect(
    res.body.detail.map((d) => d.loc[1]),
    url,
  ).toContain(field);
}

/** Smart whales (never farmers) as the tests see them, straight from wallet_stats. */
export const SMART = "s.is_smart = 1 and s.is_farmer = 0";

export async function openApiPaths(t: WorldApp): Promise<string[]> {
  return Object.keys((await get<{ paths: Record<string, unknown> }>(t, "/api/openapi.json")).body.paths);
}

/** Category per condition id by the one mapping table (venue category, else the event's, plus event tags). */
export async function marketCategories(t: WorldApp): Promise<Map<string, string | null>> {
  const list = await rows<{
    condition_id: string;
    category: string | null;
    event_category: string | null;
    tags: string | null;
  }>(
    t,
    "select m.condition_id, m.category, e.category as event_category, e.tags from markets m left join events e on e.id = m.event_id",
  );
  return new Map(
    list.map((m) => [
      m.condition_id,
      marketCategory(m.category ?? m.event_category, m.tags ? (JSON.parse(m.tags) as string[]) : []),
    ]),
  );
}
