/**
 * The venue clients (Data API, Gamma, P&L), served the bytes of test/fixtures/venue-real's payloads
 * (src/venue/testing/real-payloads.ts names them) as the venue would send them: the real v1 payloads read, the v2
 * ones never read as v1, the documentation examples skipped.
 */
import { afterEach, describe, expect, it } from "vitest";
import { DataApiClient } from "./data-api.js";
import { GammaClient } from "./gamma.js";
import { VenueHttpClient } from "./http.js";
import { collectPages } from "./paging.js";
import { PnlClient } from "./pnl.js";
import { VenueShapeError } from "./shapes/index.js";
import { fakeTime } from "./testing/fake-time.js";
import { startLoopback, type Loopback } from "./testing/loopback.js";
import {
  DATA_V1,
  DATA_V1_FILES,
  DATA_V2_FILES,
  DOCUMENTED_INVALID,
  GAMMA_MARKET_FILES,
  V1_PATHS,
  asObject,
  asRows,
  corpusJson,
  corpusText,
  type DataV2File,
  type V1Endpoint,
} from "./testing/real-payloads.js";

interface Clients {
  readonly data: DataApiClient;
  readonly gamma: GammaClient;
  readonly pnl: PnlClient;
  readonly server: Loopback;
}

let server: Loopback | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** Clients of a venue that answers `body` at offset 0 and an empty list after it (the previous venue closed). */
async function venueServing(body: string): Promise<Clients> {
  await server?.close();
  server = await startLoopback((req) => ({ text: Number(req.query.get("offset") ?? 0) === 0 ? body : "[]" }));
  const time = fakeTime();
  const http = (name: string) =>
    new VenueHttpClient({
      name,
      baseUrl: (server as Loopback).url,
      timeoutMs: 2_000,
      clock: time.clock,
      sleep: time.sleep,
      random: () => 0,
    });
  return {
    data: new DataApiClient(http("data-api")),
    gamma: new GammaClient(http("gamma")),
    pnl: new PnlClient(http("user-pnl")),
    server,
  };
}

const V1_CALLS: Record<V1Endpoint, (c: DataApiClient, wallet: string) => Parameters<typeof collectPages>[0]> = {
  trades: (c) => c.trades(),
  activity: (c, wallet) => c.activity(wallet),
  positions: (c, wallet) => c.positions(wallet),
  closedPositions: (c, wallet) => c.closedPositions(wallet),
  leaderboard: (c) => c.leaderboard(),
};

/** The project's client for the v1 endpoint of each v2 payload, served its body. */
const V2_CLIENTS: Record<
  DataV2File,
  (c: Clients, payload: unknown) => Promise<{ rows: unknown[]; rejected: unknown[] }>
> = {
  "data-api-trades.v2.py-sdk.json": (c) => collectPages(c.data.trades()),
  "data-api-trades-envelope.v2.nautilus-sanitized.json": (c) => collectPages(c.data.trades()),
  "data-api-activity.v2.py-sdk.json": (c, payload) =>
    collectPages(c.data.activity(asRows(payload)[0]?.proxy_wallet as string)),
  "data-api-positions.v2.py-sdk.json": (c, payload) =>
    collectPages(c.data.positions(asRows(payload)[0]?.proxy_wallet as string)),
  "data-api-leaderboard.v2.py-sdk.json": (c) => collectPages(c.data.leaderboard()),
  "data-api-holders.v2.py-sdk.json": (c, payload) =>
    c.data.holders([asRows(payload)[0]?.token_id as string]).then(() => ({ rows: [], rejected: [] })),
  "data-api-value.v2.py-sdk.json": (c, payload) =>
    c.data.value(asObject(payload).proxy_wallet as string).then(() => ({ rows: [], rejected: [] })),
  "data-api-user-pnl.v2.py-sdk.json": (c, payload) =>
    c.pnl.curve(asObject(payload).proxy_wallet as string).then((curve) => ({ rows: curve.points, rejected: [] })),
};

/** Payloads the v1 clients refuse whole (a VenueShapeError), rather than skipping their rows one by one. */
const V2_CLIENT_THROWS = new Set<DataV2File>([
  "data-api-trades-envelope.v2.nautilus-sanitized.json",
  "data-api-holders.v2.py-sdk.json",
  "data-api-value.v2.py-sdk.json",
  "data-api-user-pnl.v2.py-sdk.json",
]);

describe("the venue clients, served the corpus", () => {
  it.each(DATA_V1_FILES)("%s: the Data API client reads every row", async (file) => {
    const { endpoint, rows } = DATA_V1[file];
    const c = await venueServing(corpusText(file));
    const wallet = asRows(corpusJson(file))[0]?.proxyWallet as string;
    const collected = await collectPages(V1_CALLS[endpoint](c.data, wallet));
    expect([collected.rows.length, collected.rejected.length, collected.truncated]).toEqual([rows, 0, false]);
    expect(c.server.requests[0]?.path).toBe(V1_PATHS[endpoint]);
  });

  it.each(DATA_V2_FILES)("%s: the v1 client never reads it as v1", async (file) => {
    const c = await venueServing(corpusText(file));
    const reading = V2_CLIENTS[file](c, corpusJson(file));
    if (V2_CLIENT_THROWS.has(file)) {
      await expect(reading).rejects.toBeInstanceOf(VenueShapeError);
    } else {
      const { rows, rejected } = await reading;
      expect(rows).toEqual([]);
      expect(rejected).toHaveLength(asRows(corpusJson(file)).length);
    }
  });

  it.each(
    Object.entries(DOCUMENTED_INVALID).flatMap(([file, example]) =>
      example.endpoint ? [[file, example.endpoint] as const] : [],
    ),
  )("%s: the Data API client skips the example's row and goes on (%s)", async (file, endpoint) => {
    const c = await venueServing(corpusText(file));
    const collected = await collectPages(V1_CALLS[endpoint](c.data, `0x${"1".repeat(40)}`));
    expect([collected.rows.length, collected.rejected.length]).toEqual([0, 1]);
    expect(c.server.requests[0]?.path).toBe(V1_PATHS[endpoint]);
  });

  it("the Gamma client reads the events list and, one to a page, the market and event objects", async () => {
    const events = await venueServing(corpusText("gamma-events.nautilus-negrisk-dem-nominee-2028.json"));
    const eventsPage = await events.gamma.eventsPage({ limit: 10 });
    expect([eventsPage.rows.map((e) => e.id), eventsPage.rejected]).toEqual([["30829"], []]);
    // /markets and /events answer lists: each object stands alone in one, its bytes unchanged.
    for (const file of [...GAMMA_MARKET_FILES, "gamma-market-outcomes-snippet.docs.json"]) {
      const c = await venueServing(`[${corpusText(file)}]`);
      const page = await c.gamma.marketsPage({ limit: 10 });
      const valid = (GAMMA_MARKET_FILES as readonly string[]).includes(file);
      expect([page.rows.length, page.rejected.length]).toEqual(valid ? [1, 0] : [0, 1]);
    }
    const single = await venueServing(`[${corpusText("gamma-event.pscanner-microstrategy.json")}]`);
    const page = await single.gamma.eventsPage({ limit: 10 });
    expect(page.rows.map((e) => e.markets?.length)).toEqual([4]);
  });
});
