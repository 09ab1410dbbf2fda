/**
 * Every payload the simulated venue serves validates against the shapes of src/venue, on several pages of
 * each endpoint; Data API rows carry every field their schema names. The same options give byte-identical bodies.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Type, type TSchema } from "typebox";
import {
  ArcGisLayerMetadataShape,
  DataActivityPayloadSchema,
  DataActivityRowSchema,
  DataClosedPositionRowSchema,
  DataHoldersShape,
  DataPositionRowSchema,
  DataTradeRowSchema,
  DataTradedShape,
  DataValueShape,
  GammaEventShape,
  GammaEventsKeysetPageShape,
  GammaMarketShape,
  GeoJsonQueryPageShape,
  LeaderboardRowSchema,
  OffsetCeilingErrorShape,
  PnlCurveSchema,
  RpcBlockShape,
  RpcLogsShape,
  defineShape,
  type Shape,
} from "../../venue/shapes/index.js";
import { blockAt } from "../world/index.js";
import { ISW_LAYERS, type SimVenue } from "./index.js";
import { closeVenues, getJson, hex, rpc, smallVenue } from "./testing/venues.js";

/** A row schema with every named field required, as a list. */
function completeList(name: string, row: TSchema): Shape<TSchema> {
  return defineShape(name, Type.Array(Type.Required(row as never) as TSchema));
}

let venue: SimVenue;
let twin: SimVenue;

beforeAll(async () => {
  [venue, twin] = await Promise.all([smallVenue(), smallVenue()]);
});
afterAll(closeVenues);

/** Busy, ordinary and idle wallets, markets open and resolved, NegRisk and plain. */
function samples(v: SimVenue) {
  const world = v.world;
  const byFills = world.wallets
    .map((w) => w.index)
    .sort((a, b) => world.fillsOfWallet(b).length - world.fillsOfWallet(a).length);
  const wallets = [byFills[0]!, byFills[50]!, byFills[byFills.length - 1]!].map((w) => world.wallets[w]!.proxyWallet);
  const converter = world.wallets.find((w) => w.archetype === "negrisk_converter")!.proxyWallet;
  const maker = world.wallets.find((w) => w.archetype === "market_maker")!.proxyWallet;
  const resolved = world.markets.find((m) => m.status === "resolved")!;
  const negRisk = world.markets.find((m) => m.negRisk)!;
  return { wallets: [...wallets, converter, maker], markets: [resolved, negRisk, world.markets[0]!] };
}

function urlsOf(v: SimVenue): { url: string; shape: Shape<TSchema> }[] {
  const { wallets, markets } = samples(v);
  const list: { url: string; shape: Shape<TSchema> }[] = [];
  const add = (url: string, shape: Shape<TSchema>) => list.push({ url, shape });
  const gammaMarkets = defineShape("markets", Type.Array(GammaMarketShape.schema));
  const gammaEvents = defineShape("events", Type.Array(GammaEventShape.schema));
  for (const closed of [false, true])
    for (const offset of [0, 7, 30])
      add(`${v.urls.gamma}/markets?limit=7&offset=${offset}&closed=${closed}`, gammaMarkets);
  add(
    `${v.urls.gamma}/markets?${markets.map((m) => `condition_ids=${m.conditionId}`).join("&")}&closed=true`,
    gammaMarkets,
  );
  add(`${v.urls.gamma}/markets?order=volumeNum&ascending=false&limit=5`, gammaMarkets);
  for (const closed of [false, true]) add(`${v.urls.gamma}/events?limit=4&offset=2&closed=${closed}`, gammaEvents);
  add(`${v.urls.gamma}/events/keyset?limit=3`, GammaEventsKeysetPageShape as unknown as Shape<TSchema>);
  const trades = completeList("trades", DataTradeRowSchema);
  for (const offset of [0, 500, 10_000]) add(`${v.urls.dataApi}/trades?limit=200&offset=${offset}`, trades);
  add(
    `${v.urls.dataApi}/trades?takerOnly=false&limit=50&market=${markets.map((m) => m.conditionId).join(",")}`,
    trades,
  );
  add(`${v.urls.dataApi}/trades?filterType=CASH&filterAmount=500&side=SELL&limit=20`, trades);
  add(`${v.urls.dataApi}/v1/leaderboard?timePeriod=ALL&limit=50`, completeList("leaderboard", LeaderboardRowSchema));
  add(
    `${v.urls.dataApi}/v1/leaderboard?timePeriod=WEEK&orderBy=VOL&category=crypto&offset=10&limit=10`,
    completeList("leaderboard", LeaderboardRowSchema),
  );
  add(
    `${v.urls.dataApi}/holders?market=${markets.map((m) => m.conditionId).join(",")}`,
    DataHoldersShape as unknown as Shape<TSchema>,
  );
  for (const user of wallets) {
    add(`${v.urls.dataApi}/trades?user=${user}&limit=100`, trades);
    for (const offset of [0, 40])
      add(
        `${v.urls.dataApi}/activity?user=${user}&limit=40&offset=${offset}`,
        completeList("activity", DataActivityRowSchema),
      );
    add(
      `${v.urls.dataApi}/activity?user=${user}&type=SPLIT,MERGE,REDEEM,REWARD,CONVERSION&sortBy=CASH`,
      defineShape("activity", DataActivityPayloadSchema),
    );
    add(
      `${v.urls.dataApi}/positions?user=${user}&limit=50&sizeThreshold=0`,
      completeList("positions", DataPositionRowSchema),
    );
    add(
      `${v.urls.dataApi}/closed-positions?user=${user}&limit=50`,
      completeList("closed positions", DataClosedPositionRowSchema),
    );
    add(`${v.urls.dataApi}/value?user=${user}`, DataValueShape as unknown as Shape<TSchema>);
    add(`${v.urls.dataApi}/traded?user=${user}`, DataTradedShape as unknown as Shape<TSchema>);
    add(`${v.urls.pnl}/user-pnl?user_address=${user}&interval=all&fidelity=1d`, defineShape("pnl", PnlCurveSchema));
  }
  for (const layer of Object.values(ISW_LAYERS)) {
    add(`${v.urls.arcgis}/${layer.path}?f=json`, ArcGisLayerMetadataShape as unknown as Shape<TSchema>);
    for (const offset of [0, 2])
      add(
        `${v.urls.arcgis}/${layer.path}/query?where=1%3D1&outFields=*&f=geojson&resultOffset=${offset}&resultRecordCount=2&geometryPrecision=4`,
        GeoJsonQueryPageShape as unknown as Shape<TSchema>,
      );
  }
  return list;
}

describe("payload shapes", () => {
  it("every endpoint's pages validate against src/venue's shapes", async () => {
    for (const { url, shape } of urlsOf(venue)) {
      const { status, body } = await getJson(url);
      expect.soft(status, url).toBe(200);
      expect.soft(shape.issues(body).slice(0, 3), url).toEqual([]);
    }
  });

  it("lists are not trivially empty where the world has data", async () => {
    const { wallets } = samples(venue);
    for (const path of [
      "/trades?limit=5",
      `/activity?user=${wallets[0]}`,
      `/positions?user=${wallets[0]}`,
      `/closed-positions?user=${wallets[0]}`,
      "/v1/leaderboard",
    ]) {
      expect((await getJson(`${venue.urls.dataApi}${path}`)).body, path).not.toEqual([]);
    }
    const control = await getJson(
      `${venue.urls.arcgis}/${ISW_LAYERS.control.path}/query?where=1%3D1&outFields=*&f=geojson`,
    );
    expect((control.body as { features: unknown[] }).features.length).toBeGreaterThan(0);
  });

  it("Gamma's volumes carry the venue's float noise, in numbers and numeric strings, and still validate", async () => {
    const { body } = await getJson(`${venue.urls.gamma}/markets?limit=500&closed=true`);
    const markets = body as Array<{ volume: string; volumeNum: number }>;
    expect(GammaMarketShape.issues(markets[0]).slice(0, 3)).toEqual([]);
    // More digits than micro-units hold, as in the published 64234.19264499972.
    const noisy = markets.filter((m) => (String(m.volumeNum).split(".")[1] ?? "").length > 6);
    expect(noisy.length).toBeGreaterThan(0);
    for (const m of noisy) expect(Number(m.volume)).toBe(m.volumeNum);
  });

  it("past the offset ceiling: HTTP 400 with the venue's body", async () => {
    for (const path of ["/trades?offset=10001", `/activity?user=${samples(venue).wallets[0]}&offset=10001`]) {
      const { status, body } = await getJson(`${venue.urls.dataApi}${path}`);
      expect(status).toBe(400);
      expect(OffsetCeilingErrorShape.is(body)).toBe(true);
    }
    expect((await getJson(`${venue.urls.dataApi}/trades?offset=10001`)).body).toEqual({
      error: "max historical trades offset of 10000 exceeded",
    });
    expect((await getJson(`${venue.urls.gamma}/events/keyset?offset=10`)).status).toBe(422);
  });

  it("JSON-RPC blocks and logs", async () => {
    const head = Number(BigInt((await rpc(venue, "eth_blockNumber")).result as string));
    expect(head).toBe(blockAt(venue.world.end));
    expect(RpcBlockShape.issues((await rpc(venue, "eth_getBlockByNumber", [hex(head - 5), false])).result)).toEqual([]);
    expect((await rpc(venue, "eth_getBlockByNumber", [hex(head + 1), false])).result).toBeNull();
    const match = venue.world.match(venue.world.matchCount - 100);
    const { result } = await rpc(venue, "eth_getLogs", [
      { fromBlock: hex(match.block - 3_000), toBlock: hex(match.block) },
    ]);
    expect(RpcLogsShape.issues(result)).toEqual([]);
    expect((result as unknown[]).length).toBeGreaterThan(10);
  });
});

describe("determinism", () => {
  it("the same options give byte-identical responses", async () => {
    const a = urlsOf(venue).map((u) => u.url.replace(new URL(venue.urls.gamma).host, "HOST"));
    const b = urlsOf(twin).map((u) => u.url.replace(new URL(twin.urls.gamma).host, "HOST"));
    expect(a).toEqual(b);
    const base = (v: SimVenue) => `http://${new URL(v.urls.gamma).host}`;
    for (const path of a) {
      const [x, y] = await Promise.all([
        getJson(path.replace("http://HOST", base(venue))),
        getJson(path.replace("http://HOST", base(twin))),
      ]);
      expect(x.text, path).toBe(y.text);
    }
    const range = [{ fromBlock: hex(blockAt(venue.world.end) - 20_000), toBlock: "latest" }];
    const [x, y] = await Promise.all([rpc(venue, "eth_getLogs", range), rpc(twin, "eth_getLogs", range)]);
    expect(JSON.stringify(x)).toBe(JSON.stringify(y));
  });
});
