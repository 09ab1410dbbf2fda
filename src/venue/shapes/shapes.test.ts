import { describe, expect, it } from "vitest";
import { gammaEvent, gammaMarket } from "../testing/fixtures.js";
import {
  ArcGisErrorShape,
  ArcGisLayerMetadataShape,
  GeoJsonQueryPageShape,
  pageExceededTransferLimit,
} from "./arcgis.js";
import {
  DataActivityRowShape,
  DataClosedPositionRowShape,
  DataHoldersShape,
  DataPositionRowShape,
  DataTradeRowShape,
  DataTradedShape,
  DataValueShape,
  LeaderboardRowShape,
  OffsetCeilingErrorShape,
  PnlPointShape,
} from "./data-api.js";
import { GammaEventShape, GammaEventsKeysetPageShape, GammaMarketShape } from "./gamma.js";
import { JsonRpcRequestShape, JsonRpcResponseShape, RpcBlockShape, RpcLogShape } from "./json-rpc.js";
import { RtdsEnvelopeShape, RtdsSubscribeMessageShape, RtdsTradePayloadShape } from "./rtds.js";
import { VenueShapeError, partitionRows } from "./shape.js";

const WALLET = "0x56687bf447db6ffa42ffe2204a05edaa20f55839";
const CONDITION = `0x${"ab".repeat(32)}`;
const TX = `0x${"cd".repeat(32)}`;

const tradeRow = {
  proxyWallet: WALLET,
  side: "BUY",
  asset: "71321045679252212594626385532706912750332728571942532289631379312455583992563",
  conditionId: CONDITION,
  size: 120.5,
  price: 0.61,
  timestamp: 1_770_000_000,
  title: "Q",
  slug: "q",
  icon: "",
  eventSlug: "e",
  outcome: "Yes",
  outcomeIndex: 0,
  name: "whale",
  pseudonym: "Calm-Heron",
  bio: "",
  profileImage: "",
  profileImageOptimized: "",
  transactionHash: TX,
};

describe("Gamma shapes", () => {
  it("accept a recorded-style market and event", () => {
    expect(GammaMarketShape.issues(gammaMarket(1))).toEqual([]);
    expect(GammaEventShape.issues(gammaEvent(9, [gammaMarket(1), gammaMarket(2)]))).toEqual([]);
    expect(GammaEventsKeysetPageShape.is({ events: [gammaEvent(9, [])], next_cursor: "abc" })).toBe(true);
    expect(GammaEventsKeysetPageShape.is({ events: [gammaEvent(9, [])] })).toBe(true);
  });

  it("insist that outcomes, outcomePrices and clobTokenIds are JSON-encoded strings", () => {
    const paths = (overrides: object) =>
      GammaMarketShape.issues({ ...gammaMarket(1), ...overrides }).map((i) => i.path);
    expect(paths({ outcomes: ["Yes", "No"] })).toContain("/outcomes");
    expect(paths({ outcomes: "Yes,No" })).toContain("/outcomes");
    expect(paths({ outcomePrices: '["0.6", "high"]' })).toContain("/outcomePrices");
    expect(paths({ outcomePrices: "[0.6, 0.4]" })).toContain("/outcomePrices");
    expect(paths({ clobTokenIds: '["0x12", "34"]' })).toContain("/clobTokenIds");
    expect(paths({ id: 12 })).toContain("/id");
    expect(paths({ volume: 12.5 })).toContain("/volume");
    expect(paths({ version: "v3" })).toContain("/version");
  });

  it("accept venue extras and nulls in optional fields", () => {
    expect(GammaMarketShape.is({ ...gammaMarket(1), somethingNew: { x: 1 }, bestBid: null, feeSchedule: null })).toBe(
      true,
    );
  });
});

describe("Data API shapes", () => {
  it("trade rows: typed fields required, profile fields optional", () => {
    expect(DataTradeRowShape.issues(tradeRow)).toEqual([]);
    const { name: _n, bio: _b, profileImage: _p, ...bare } = tradeRow;
    expect(DataTradeRowShape.is(bare)).toBe(true);
    expect(DataTradeRowShape.is({ ...tradeRow, size: "120.5" })).toBe(false);
    expect(DataTradeRowShape.is({ ...tradeRow, side: "buy" })).toBe(false);
    expect(DataTradeRowShape.is({ ...tradeRow, price: 1.2 })).toBe(false);
  });

  it("activity rows, including REDEEM and REWARD with their empty fields", () => {
    const base = {
      proxyWallet: WALLET,
      timestamp: 1_770_000_000,
      conditionId: CONDITION,
      size: 10,
      usdcSize: 6,
      transactionHash: TX,
      price: 0.6,
      asset: "123",
      side: "BUY",
      outcomeIndex: 1,
      type: "TRADE",
    };
    expect(DataActivityRowShape.issues(base)).toEqual([]);
    expect(DataActivityRowShape.is({ ...base, type: "REDEEM", asset: "", side: "", price: 0, outcomeIndex: 999 })).toBe(
      true,
    );
    expect(
      DataActivityRowShape.is({
        ...base,
        type: "REWARD",
        conditionId: "",
        asset: "",
        side: "",
        price: 0,
        outcomeIndex: 999,
      }),
    ).toBe(true);
    expect(DataActivityRowShape.is({ ...base, type: "GIFT" })).toBe(false);
  });

  it("positions, closed positions, value, traded, holders, leaderboard, P&L points", () => {
    const position = {
      proxyWallet: WALLET,
      asset: "123",
      conditionId: CONDITION,
      size: 100,
      avgPrice: 0.4,
      initialValue: 40,
      currentValue: 0,
      cashPnl: -40,
      percentPnl: -100,
      totalBought: 100,
      realizedPnl: 0,
      percentRealizedPnl: 0,
      curPrice: 0,
      redeemable: true,
      mergeable: false,
      title: "Q",
      slug: "q",
      icon: "",
      eventSlug: "e",
      eventId: "77",
      outcome: "No",
      outcomeIndex: 1,
      oppositeOutcome: "Yes",
      oppositeAsset: "456",
      endDate: "2026-05-01",
      negativeRisk: false,
    };
    expect(DataPositionRowShape.issues(position)).toEqual([]);
    const closed = {
      proxyWallet: WALLET,
      asset: "123",
      conditionId: CONDITION,
      avgPrice: 0.4,
      totalBought: 100,
      realizedPnl: 60,
      curPrice: 1,
      timestamp: 1_770_000_000,
      outcomeIndex: 0,
    };
    expect(DataClosedPositionRowShape.issues(closed)).toEqual([]);
    expect(DataValueShape.is([{ user: WALLET, value: 1.5 }])).toBe(true);
    expect(DataTradedShape.is({ user: WALLET, traded: 12 })).toBe(true);
    expect(
      DataHoldersShape.is([
        { token: "123", holders: [{ proxyWallet: WALLET, asset: "123", amount: 5, outcomeIndex: 0, name: "x" }] },
      ]),
    ).toBe(true);
    const leader = {
      rank: "1",
      proxyWallet: WALLET,
      userName: "top",
      vol: 1e6,
      pnl: 2e5,
      profileImage: "",
      xUsername: "",
      verifiedBadge: true,
    };
    expect(LeaderboardRowShape.is(leader)).toBe(true);
    expect(LeaderboardRowShape.is({ ...leader, rank: 1 })).toBe(false);
    expect(PnlPointShape.is({ t: 1_770_000_000, p: -5.5 })).toBe(true);
  });

  it("recognise the offset-ceiling body and nothing else", () => {
    expect(OffsetCeilingErrorShape.is({ error: "max historical trades offset of 10000 exceeded" })).toBe(true);
    expect(OffsetCeilingErrorShape.is({ error: "invalid user" })).toBe(false);
    expect(OffsetCeilingErrorShape.is("max historical trades offset of 10000 exceeded")).toBe(false);
  });
});

describe("RTDS shapes", () => {
  it("subscribe message, envelope and trade payload", () => {
    expect(
      RtdsSubscribeMessageShape.is({
        action: "subscribe",
        subscriptions: [{ topic: "activity", type: "trades", filters: '{"event_slug":"x"}' }],
      }),
    ).toBe(true);
    expect(RtdsSubscribeMessageShape.is({ action: "subscribe", subscriptions: [] })).toBe(false);
    const { profileImageOptimized: _o, ...payload } = tradeRow;
    expect(
      RtdsEnvelopeShape.is({
        connection_id: "abc",
        topic: "activity",
        type: "trades",
        timestamp: 1_770_000_000_123,
        payload,
      }),
    ).toBe(true);
    expect(RtdsTradePayloadShape.issues(payload)).toEqual([]);
    expect(RtdsTradePayloadShape.is({ ...payload, fee: 0.0291 })).toBe(true);
    expect(RtdsTradePayloadShape.is({ ...payload, timestamp: "1770000000" })).toBe(false);
  });
});

describe("JSON-RPC shapes", () => {
  it("request, response, error, log and block", () => {
    expect(
      JsonRpcRequestShape.is({ jsonrpc: "2.0", id: 1, method: "eth_getLogs", params: [{ fromBlock: "0x1" }] }),
    ).toBe(true);
    expect(JsonRpcResponseShape.is({ jsonrpc: "2.0", id: 1, result: "0x10" })).toBe(true);
    expect(JsonRpcResponseShape.is({ jsonrpc: "2.0", id: 1, error: { code: -32005, message: "limit exceeded" } })).toBe(
      true,
    );
    expect(JsonRpcResponseShape.is({ jsonrpc: "1.0", id: 1, result: 1 })).toBe(false);
    const log = {
      address: WALLET,
      topics: [TX],
      data: "0x",
      blockNumber: "0x1b4",
      blockHash: TX,
      transactionHash: TX,
      transactionIndex: "0x0",
      logIndex: "0x3",
      removed: false,
    };
    expect(RpcLogShape.issues(log)).toEqual([]);
    expect(RpcLogShape.is({ ...log, data: "0x123" })).toBe(false);
    expect(RpcLogShape.is({ ...log, topics: [TX, TX, TX, TX, TX] })).toBe(false);
    expect(
      RpcBlockShape.is({ number: "0x1b4", hash: TX, parentHash: TX, timestamp: "0x6553f100", transactions: [] }),
    ).toBe(true);
  });
});

describe("ArcGIS shapes", () => {
  it("metadata, pages with exceededTransferLimit in either place, and the throttling error", () => {
    expect(ArcGisLayerMetadataShape.is({ name: "x", editingInfo: { lastEditDate: 1_684_000_000_000 } })).toBe(true);
    const feature = {
      type: "Feature",
      id: 1,
      geometry: {
        type: "MultiPolygon",
        coordinates: [
          [
            [
              [37, 48, 0],
              [37.1, 48],
              [37, 48.1],
              [37, 48, 0],
            ],
          ],
        ],
      },
      properties: { OBJECTID: 1 },
    };
    const top = {
      type: "FeatureCollection",
      features: [feature, { ...feature, geometry: null }],
      exceededTransferLimit: true,
    };
    const nested = { type: "FeatureCollection", features: [feature], properties: { exceededTransferLimit: true } };
    const last = { type: "FeatureCollection", features: [feature] };
    for (const page of [top, nested, last]) expect(GeoJsonQueryPageShape.issues(page)).toEqual([]);
    expect([top, nested, last].map((p) => pageExceededTransferLimit(GeoJsonQueryPageShape.parse(p)))).toEqual([
      true,
      true,
      false,
    ]);
    expect(
      GeoJsonQueryPageShape.is({
        ...last,
        features: [{ ...feature, geometry: { type: "Polygon", coordinates: [[[37]]] } }],
      }),
    ).toBe(false);
    expect(ArcGisErrorShape.is({ error: { code: 429, message: "Too many requests", details: [] } })).toBe(true);
    expect(ArcGisErrorShape.is(top)).toBe(false);
  });
});

describe("shape helpers", () => {
  it("parse throws a VenueShapeError naming the source; partitionRows keeps the good rows", () => {
    expect(() => DataTradeRowShape.parse({}, "data-api /trades row 3")).toThrow(VenueShapeError);
    expect(() => DataTradeRowShape.parse({}, "data-api /trades row 3")).toThrow(/row 3/);
    const { rows, rejected } = partitionRows(DataTradeRowShape, [tradeRow, { nope: 1 }, tradeRow], "t");
    expect(rows).toHaveLength(2);
    expect(rejected.map((r) => r.index)).toEqual([1]);
    expect(() => partitionRows(DataTradeRowShape, { rows: [] }, "t")).toThrow(VenueShapeError);
  });
});
