import { afterEach, describe, expect, it } from "vitest";
import { ArcGisClient } from "./arcgis.js";
import { VenueHttpClient, VenueHttpError } from "./http.js";
import { fakeTime } from "./testing/fake-time.js";
import { startLoopback, type Loopback, type LoopbackHandler } from "./testing/loopback.js";

let server: Loopback | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const CONTROL = "VIEW_RussiaCoTinUkraine_V3/FeatureServer/49";
const ADVANCE = "AssessedRussianAdvanceInUkraine_V2_view/FeatureServer/0";

function feature(id: number) {
  const x = 37 + id / 100;
  return {
    type: "Feature",
    id,
    geometry: {
      type: "Polygon",
      coordinates: [
        [
          [x, 48],
          [x + 0.01, 48],
          [x + 0.01, 48.01],
          [x, 48],
        ],
      ],
    },
    properties: { OBJECTID: id, EditDate: 1_684_000_000_000 },
  };
}

/** A layer of `count` features served in pages, flagging more pages at the top level or under `properties` by turns. */
function layerPages(count: number): LoopbackHandler {
  let page = 0;
  return (req) => {
    const offset = Number(req.query.get("resultOffset"));
    const size = Number(req.query.get("resultRecordCount"));
    const features = Array.from({ length: Math.max(0, Math.min(size, count - offset)) }, (_, i) =>
      feature(offset + i + 1),
    );
    const more = offset + features.length < count;
    page += 1;
    return {
      body:
        page % 2 === 1
          ? { type: "FeatureCollection", features, exceededTransferLimit: more }
          : { type: "FeatureCollection", features, properties: { exceededTransferLimit: more } },
    };
  };
}

async function arcgis(handler: LoopbackHandler, maxConcurrent = 1) {
  server = await startLoopback(handler);
  const time = fakeTime(1_700_000_000_000);
  const http = new VenueHttpClient({
    name: "arcgis",
    baseUrl: `${server.url}/arcgis/rest/services`,
    timeoutMs: 2_000,
    clock: time.clock,
    sleep: time.sleep,
    random: () => 0.5,
    maxConcurrent,
  });
  return { client: new ArcGisClient(http, { clock: time.clock }), time, server };
}

describe("ArcGisClient metadata", () => {
  it("checks lastEditDate with a cache-busting parameter", async () => {
    const { client, server, time } = await arcgis(() => ({
      body: { name: "control", editingInfo: { lastEditDate: 1_684_000_000_000 } },
    }));
    expect(await client.checkLayer(CONTROL, 1_683_000_000_000)).toMatchObject({
      lastEditDate: 1_684_000_000_000,
      changed: true,
    });
    time.clock.advance(5_000);
    expect(await client.checkLayer(CONTROL, 1_684_000_000_000)).toMatchObject({ changed: false });
    expect(server.requests.map((r) => [r.path, r.query.get("f"), r.query.get("_")])).toEqual([
      [`/arcgis/rest/services/${CONTROL}`, "json", "1700000000000"],
      [`/arcgis/rest/services/${CONTROL}`, "json", "1700000005000"],
    ]);
  });

  it("says it cannot tell when the layer has no edit dates", async () => {
    const { client } = await arcgis(() => ({ body: { name: "gains 24h" } }));
    expect(
      await client.checkLayer("Assessed_Russian_Gains_in_the_Past_24_Hours_view/FeatureServer/0", null),
    ).toMatchObject({ lastEditDate: null, changed: null });
  });
});

describe("ArcGisClient features", () => {
  it("pages with resultOffset/resultRecordCount/orderByFields while exceededTransferLimit says so", async () => {
    const { client, server } = await arcgis(layerPages(5));
    const items = [];
    for await (const item of client.features(CONTROL, { pageSize: 2, orderByFields: "OBJECTID", geometryPrecision: 4 }))
      items.push(item);
    expect(items.map((i) => (i.type === "page" ? i.features.map((f) => f.id) : i))).toEqual([
      [1, 2],
      [3, 4],
      [5],
      { type: "end", featureCount: 5, pageCount: 3 },
    ]);
    const q = server.requests[1]?.query;
    expect(server.requests[1]?.path).toBe(`/arcgis/rest/services/${CONTROL}/query`);
    expect(Object.fromEntries(q ?? [])).toEqual({
      where: "1=1",
      outFields: "*",
      returnGeometry: "true",
      outSR: "4326",
      f: "geojson",
      orderByFields: "OBJECTID",
      resultOffset: "2",
      resultRecordCount: "2",
      geometryPrecision: "4",
    });
  });

  it("treats a throttling error inside HTTP 200 as a retryable 429", async () => {
    const pages = layerPages(3);
    let calls = 0;
    const { client, time } = await arcgis((req) =>
      ++calls <= 2 ? { body: { error: { code: 429, message: "Too many requests", details: [] } } } : pages(req),
    );
    const features = await client.allFeatures(ADVANCE, { pageSize: 10 });
    expect(features).toHaveLength(3);
    expect(calls).toBe(3);
    // Backoff with full jitter (random 0.5) from 500 ms: 250, then 500.
    expect(time.sleeps).toEqual([250, 500]);
  });

  it("fails on a refused query inside HTTP 200 without retrying", async () => {
    const { client, server } = await arcgis(() => ({
      body: { error: { code: 400, message: "Invalid query parameters" } },
    }));
    const error = await client.allFeatures(ADVANCE).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(VenueHttpError);
    expect(error).toMatchObject({ status: 400 });
    expect(server.requests).toHaveLength(1);
  });

  it("fetches layers one after another, never in parallel, even when asked at once", async () => {
    let active = 0;
    let peak = 0;
    const pages = layerPages(4);
    const { client, server } = await arcgis(async (req) => {
      active += 1;
      peak = Math.max(peak, active);
      await new Promise((r) => setTimeout(r, 5));
      active -= 1;
      return pages(req);
    });
    const layers = await client.fetchLayers([
      { layer: CONTROL, query: { pageSize: 2 } },
      { layer: ADVANCE, query: { pageSize: 2 } },
    ]);
    expect([...layers.values()].map((f) => f.length)).toEqual([4, 4]);
    expect(server.requests.map((r) => r.path.includes("Advance"))).toEqual([false, false, true, true]);
    await Promise.all([client.allFeatures(CONTROL, { pageSize: 2 }), client.allFeatures(ADVANCE, { pageSize: 2 })]);
    expect(peak).toBe(1);
  });
});
