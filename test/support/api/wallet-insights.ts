/**
 * Helpers of the wallet insight and history tests: SQL with `?` placeholders, JSON GETs, the world's positions and
 * market facts loaded once per file, and the error checks every wallet path shares.
 */
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { categoryFromTags, type Category } from "../../../src/venue/categories.js";
import { CONTRACTS } from "../../../src/venue/contracts.js";
import { openWorldApp, type WorldApp } from "../world-app.js";

export const DAY = 86_400;
export const UNKNOWN = "0x00000000000000000000000000000000000000aa";
export const CONTRACT = CONTRACTS.ctfExchangeV1.toLowerCase();

export function sqlRows(w: () => WorldApp) {
  return async <T>(text: string, params: unknown[] = []): Promise<T[]> => {
    const parts = text.split("?");
    const query = sql.join(
      parts.map((p, i) => (i === 0 ? sql.raw(p) : sql`${params[i - 1]}${sql.raw(p)}`)),
      sql.raw(""),
    );
    return (await query.execute(w().store.db)).rows as T[];
  };
}

export function getJson(w: () => WorldApp) {
  return async (path: string) => {
    const r = await w().app.inject(path);
    return { status: r.statusCode, body: r.json() as any };
  };
}

/** A figure served as computed (durations in days are not rounded), against the test's own. */
export const close = (a: number, b: number) => expect(a).toBeCloseTo(b, 6);

export interface Pos {
  wallet: string;
  condition_id: string;
  outcome_index: number;
  shares: number;
  avg_price: number;
  total_bought: number;
  /** Realized P&L net of fees, USD. */
  net: number;
  first_ts: number;
  closed_ts: number | null;
  status: string;
}

/**
 * The world app with Smart Money reachable (it needs 10 resolved markets by default; the small world's wallets have
 * fewer) and enough free requests per minute for a test file, plus its positions and market facts.
 */
export async function openInsightsWorld() {
  const w = await openWorldApp({ env: { SMART_MIN_RESOLVED_MARKETS: "1", RATE_FREE_PER_MINUTE: "100000" } });
  const q = sqlRows(() => w);
  const positions = (
    await q<Omit<Pos, "net"> & { realized_pnl: number; fees: number }>(
      "select wallet, condition_id, outcome_index, shares, avg_price, total_bought, realized_pnl, fees, first_ts, closed_ts, status from positions",
    )
  ).map((p) => ({ ...p, net: (p.realized_pnl - p.fees) / 1e6 }));
  const smart = new Set(
    (await q<{ wallet: string }>("select wallet from wallet_stats where is_smart = 1")).map((r) => r.wallet),
  );
  const markets = await q<{
    condition_id: string;
    category: string | null;
    ecat: string | null;
    tags: string | null;
    resolution: string | null;
    chain: string | null;
  }>(
    "select m.condition_id, m.category, e.category as ecat, e.tags, m.resolution, r.resolution as chain from markets m left join events e on e.id = m.event_id left join market_resolutions r on r.condition_id = m.condition_id",
  );
  const rich = (
    await q<{ wallet: string }>(
      "select p.wallet from positions p join wallet_stats s on s.wallet = p.wallet where p.status = 'closed' and s.is_farmer = 0 group by p.wallet order by count(*) desc, p.wallet limit 1",
    )
  )[0]!.wallet;
  const whaleFan = (
    await q<{ wallet: string }>(
      "select wallet from wallet_stats where is_smart = 0 and is_farmer = 0 order by total_pnl desc limit 1",
    )
  )[0]!.wallet;
  return {
    w,
    q,
    get: getJson(() => w),
    positions,
    posOf: (wallet: string) => positions.filter((p) => p.wallet === wallet),
    smart,
    categoryOf: new Map<string, Category | null>(
      markets.map((m) => [
        m.condition_id,
        categoryFromTags(
          (JSON.parse(m.tags ?? "[]") as string[]).map((slug) => ({ slug })),
          m.category ?? m.ecat,
        ),
      ]),
    ),
    resolutionOf: new Map(markets.map((m) => [m.condition_id, m.chain ?? m.resolution])),
    /** A non-farmer with the most closed positions. */
    rich,
    /** The most profitable non-smart non-farmer: it has many matched whales. */
    whaleFan,
  };
}

export type InsightsWorld = Awaited<ReturnType<typeof openInsightsWorld>>;

/** Opens the insights world once for the test file (beforeAll) and closes it after; the fields fill in beforeAll. */
export function useInsightsWorld(): InsightsWorld {
  const world = {} as InsightsWorld;
  beforeAll(async () => {
    Object.assign(world, await openInsightsWorld());
    expect(world.smart.size).toBeGreaterThan(5);
  }, 120_000);
  afterAll(() => world.w?.close());
  return world;
}

/** 404 unknown wallet, 400 exchange contract, 422 malformed address or unknown parameter, and the OpenAPI entry. */
export function describeWalletErrors(app: () => { get: ReturnType<typeof getJson>; known: string }, paths: string[]) {
  describe("errors and description", () => {
    it("answers 404 for unknown wallets, 400 for exchange contracts, 422 for malformed input", async () => {
      const { get, known } = app();
      for (const path of paths) {
        const [route, query] = path.split("?");
        const join = query ? `?${query}&` : "?";
        expect((await get(`/api/v2/wallet/${UNKNOWN}/${path}`)).status, path).toBe(404);
        const contract = await get(`/api/v2/wallet/${CONTRACT}/${path}`);
        expect([contract.status, contract.body.is_contract, contract.body.address], path).toEqual([
          400,
          true,
          CONTRACT.toLowerCase(),
        ]);
        expect((await get(`/api/v2/wallet/0x123/${path}`)).status, path).toBe(422);
        expect((await get(`/api/v2/wallet/${known}/${route}${join}bogus=1`)).status, path).toBe(422);
        expect((await get(`/api/v2/wallet/${known}/${path}`)).status, path).toBe(200);
      }
    });

    it("lists every path in the OpenAPI document", async () => {
      const doc = (await app().get("/api/openapi.json")).body;
      for (const path of paths)
        expect(Object.keys(doc.paths)).toContain(`/api/v2/wallet/{address}/${path.split("?")[0]}`);
    });
  });
}
