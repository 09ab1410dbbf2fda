/**
 * The Data API's two versions: the client reads the first while it answers, and the second (`/v2/…`, snake_case
 * rows in an envelope, cursor paging) once a first-version list answers as gone, reported once; both give the same
 * rows. The second version's published rows (test/fixtures/venue-real) read as the first version's.
 */
import { afterAll, describe, expect, it } from "vitest";
import { SMALL_WORLD, closeVenues, getJson, smallVenue } from "../sim/servers/testing/venues.js";
import { generateWorld } from "../sim/world/index.js";
import { DataApiClient } from "./data-api.js";
import type { VenueHttpEvent } from "./http.js";
import { collectPages } from "./paging.js";
import { v1RowOf, type DataV2Kind } from "./shapes/data-api-v2.js";
import {
  DataActivityRowShape,
  DataClosedPositionRowShape,
  DataPositionRowShape,
  DataTradeRowShape,
} from "./shapes/data-api.js";
import { corpusJson } from "./testing/real-payloads.js";

afterAll(closeVenues);

const world = generateWorld({ ...SMALL_WORLD, seed: 5 });

function clientOf(dataApiUrl: string, events: VenueHttpEvent[]): DataApiClient {
  return DataApiClient.fromConfig({ venue: { dataApiUrl, requestTimeoutMs: 5_000 } } as never, {
    rateLimits: [],
    onEvent: (event) => void events.push(event),
  });
}

/** What a wallet's lists say, field by field as the normalizers read them (the second version adds fields). */
async function walletLists(client: DataApiClient, wallet: string) {
  const pick = <T>(rows: readonly T[], keys: readonly (keyof T)[]) => rows.map((r) => keys.map((k) => r[k]));
  const trades = await collectPages(client.trades({ user: wallet, takerOnly: false }, { pageSize: 37 }));
  const activity = await collectPages(client.activity(wallet, { sortBy: "TIMESTAMP", sortDirection: "ASC" }));
  const positions = await collectPages(client.positions(wallet, {}));
  const closed = await collectPages(client.closedPositions(wallet, {}));
  for (const list of [trades, activity, positions, closed]) expect(list.rejected).toEqual([]);
  return {
    trades: pick(trades.rows, [
      "proxyWallet",
      "side",
      "asset",
      "conditionId",
      "size",
      "price",
      "timestamp",
      "transactionHash",
    ]),
    activity: pick(activity.rows, ["type", "conditionId", "size", "usdcSize", "timestamp", "transactionHash"]),
    positions: pick(positions.rows, [
      "asset",
      "size",
      "avgPrice",
      "realizedPnl",
      "curPrice",
      "totalBought",
      "redeemable",
    ]),
    closed: pick(closed.rows, ["asset", "avgPrice", "totalBought", "realizedPnl", "curPrice", "timestamp"]),
    value: await client.value(wallet),
  };
}

describe("the Data API's versions", () => {
  it("moves to the second version when the first is gone, once, and reads the same rows there", async () => {
    const served = await smallVenue({ world });
    const retired = await smallVenue({ world, dataApi: { v1: "gone" } });
    const firstEvents: VenueHttpEvent[] = [];
    const secondEvents: VenueHttpEvent[] = [];
    const first = clientOf(served.urls.dataApi, firstEvents);
    const second = clientOf(retired.urls.dataApi, secondEvents);
    const busiest = [...world.wallets]
      .sort((a, b) => world.fillsOfWallet(b.index).length - world.fillsOfWallet(a.index).length)
      .slice(0, 3);
    // The value alone moves a client too.
    const lone: VenueHttpEvent[] = [];
    expect(await clientOf(retired.urls.dataApi, lone).value(busiest[0]!.proxyWallet)).toBe(
      await first.value(busiest[0]!.proxyWallet),
    );
    expect(lone.map((e) => e.type === "version" && e.path)).toEqual(["/value"]);
    for (const wallet of busiest) {
      const v1 = await walletLists(first, wallet.proxyWallet);
      const v2 = await walletLists(second, wallet.proxyWallet);
      expect(v1.trades.length).toBeGreaterThan(37);
      expect(v1.closed.length + v1.positions.length).toBeGreaterThan(0);
      expect(v2).toEqual(v1);
    }
    expect(first.apiVersion).toBe("v1");
    expect(second.apiVersion).toBe("v2");
    expect(firstEvents.filter((e) => e.type === "version")).toEqual([]);
    expect(secondEvents.filter((e) => e.type === "version")).toEqual([
      { type: "version", client: "data-api", path: "/trades", from: "v1", to: "v2", status: 410 },
    ]);
  });

  it("pages the second version by cursor only: an offset or an oversized page is a 400, a cursor walks to the end", async () => {
    const venue = await smallVenue({ world, dataApi: { v1: "gone" } });
    const wallet = world.wallets[0]!.proxyWallet;
    expect((await getJson(`${venue.urls.dataApi}/trades?user=${wallet}`)).status).toBe(410);
    expect((await getJson(`${venue.urls.dataApi}/v2/trades?user=${wallet}&offset=10`)).status).toBe(400);
    expect((await getJson(`${venue.urls.dataApi}/v2/trades?user=${wallet}&limit=1001`)).status).toBe(400);
    const page = (await getJson(`${venue.urls.dataApi}/v2/trades?taker_only=false&limit=2`)).body as {
      data: Array<Record<string, unknown>>;
      pagination: { next_cursor: string | null; has_more: boolean };
    };
    expect(page.data).toHaveLength(2);
    expect(Object.keys(page.data[0]!)).toEqual(expect.arrayContaining(["proxy_wallet", "token_id", "condition_id"]));
    expect(page.pagination.has_more).toBe(true);
    const next = await getJson(
      `${venue.urls.dataApi}/v2/trades?taker_only=false&limit=2&cursor=${page.pagination.next_cursor}`,
    );
    expect((next.body as { data: unknown[] }).data).toHaveLength(2);
    // A cursor of another endpoint is refused.
    expect(
      (await getJson(`${venue.urls.dataApi}/v2/activity?user=${wallet}&cursor=${page.pagination.next_cursor}`)).status,
    ).toBe(400);
  });

  it("reads the second version's published rows as the first version's", () => {
    const cases: Array<[string, DataV2Kind, { is(value: unknown): boolean }]> = [
      ["data-api-trades.v2.py-sdk.json", "trades", DataTradeRowShape],
      ["data-api-activity.v2.py-sdk.json", "activity", DataActivityRowShape],
      ["data-api-positions.v2.py-sdk.json", "positions", DataPositionRowShape],
    ];
    for (const [file, kind, shape] of cases) {
      const rows = corpusJson(file) as Array<Record<string, unknown>>;
      expect(rows.length, file).toBeGreaterThan(0);
      for (const raw of rows) {
        const row = v1RowOf(kind, raw) as Record<string, unknown>;
        expect(shape.is(row), `${file}: ${JSON.stringify(raw).slice(0, 200)}`).toBe(true);
        expect([row.proxyWallet, row.asset, row.conditionId]).toEqual([
          raw.proxy_wallet,
          raw.token_id,
          raw.condition_id,
        ]);
      }
    }
    const [position] = corpusJson("data-api-positions.v2.py-sdk.json") as Array<Record<string, number>>;
    const read = v1RowOf("positions", position) as Record<string, number>;
    expect([read.size, read.avgPrice, read.curPrice, read.totalBought]).toEqual([
      position!.current_size,
      position!.avg_price,
      position!.current_price,
      position!.total_size,
    ]);
    expect(read.initialValue).toBe(position!.current_size! * position!.avg_price!);
    // A closed position is dated by its last event.
    const closed = v1RowOf("closed-positions", { ...position, status: "CLOSED", last_event_at: 1_788_000_000 });
    expect(DataClosedPositionRowShape.is(closed)).toBe(true);
    expect((closed as { timestamp: number }).timestamp).toBe(1_788_000_000);
  });
});
