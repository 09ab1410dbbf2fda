/**
 * The published Data API v1 payloads of test/fixtures/venue-real (src/venue/testing/real-payloads.ts names them),
 * each through its endpoint's row shape and normalizer: every row read, every record made from its row's own values.
 */
import type { Static, TSchema } from "typebox";
import { describe, expect, it } from "vitest";
import {
  DataActivityRowShape,
  DataClosedPositionRowShape,
  DataPositionRowShape,
  DataTradeRowShape,
  LeaderboardRowShape,
  activityRecordOf,
  closedPositionRecordOf,
  fillFromDataTrade,
  leaderboardRecordOf,
  partitionRows,
  positionRecordOf,
  type Shape,
} from "./shapes/index.js";
import {
  DATA_V1,
  DATA_V1_FILES,
  corpusJson,
  expectMicro,
  type DataV1File,
  type Json,
  type V1Endpoint,
} from "./testing/real-payloads.js";

const LOWER_ADDRESS = /^0x[0-9a-f]{40}$/;

/** One v1 endpoint: its row shape, its normalizer and what a record must carry over from its row. */
interface V1Reader {
  read(payload: unknown, source: string): { records: unknown[]; rows: Json[]; rejected: number };
  check(row: Json, record: unknown): void;
}

function v1Reader<S extends TSchema, R>(
  shape: Shape<S>,
  normalize: (row: Static<S>) => R,
  check: (row: Json, record: R) => void,
): V1Reader {
  return {
    read(payload, source) {
      const { rows, rejected } = partitionRows(shape, payload, source);
      return { records: rows.map(normalize), rows: rows as Json[], rejected: rejected.length };
    },
    check: (row, record) => check(row, record as R),
  };
}

const outcomeSideOfIndex = (index: unknown) => (index === 0 ? "YES" : index === 1 ? "NO" : null);

const V1: Record<V1Endpoint, V1Reader> = {
  trades: v1Reader(DataTradeRowShape, fillFromDataTrade, (row, fill) => {
    expect(fill.source).toBe("data-api");
    expect(fill.wallet).toBe((row.proxyWallet as string).toLowerCase());
    expect(fill.txHash).toBe((row.transactionHash as string).toLowerCase());
    expect(fill.conditionId).toBe((row.conditionId as string).toLowerCase());
    expect(fill.tokenId).toBe(row.asset);
    expect(fill.direction).toBe(row.side);
    expect(fill.outcomeIndex).toBe(row.outcomeIndex);
    expect(fill.outcomeSide).toBe(outcomeSideOfIndex(row.outcomeIndex));
    expectMicro(fill.sizeMicro, row.size);
    expectMicro(fill.priceMicro, row.price);
    expect(fill.feeMicro).toBeNull();
    expect(fill.timestamp).toBe(row.timestamp);
  }),
  activity: v1Reader(DataActivityRowShape, activityRecordOf, (row, record) => {
    expect(record.wallet).toBe((row.proxyWallet as string).toLowerCase());
    expect(record.type).toBe(row.type);
    // REWARD and rebates: conditionId ""; REDEEM, REWARD, rebates: asset "", side "", price 0, outcomeIndex 999.
    expect(record.conditionId).toBe(row.conditionId === "" ? null : (row.conditionId as string).toLowerCase());
    expect(record.tokenId).toBe(row.asset === "" ? null : row.asset);
    expect(record.direction).toBe(row.side === "" ? null : row.side);
    expect(record.outcomeIndex).toBe(row.outcomeIndex === 999 ? null : row.outcomeIndex);
    expect(record.outcomeSide).toBe(outcomeSideOfIndex(row.outcomeIndex));
    if (row.asset === "") expect(record.priceMicro).toBeNull();
    else expectMicro(record.priceMicro, row.price);
    expectMicro(record.sizeMicro, row.size);
    expectMicro(record.usdcSizeMicro, row.usdcSize);
  }),
  positions: v1Reader(DataPositionRowShape, positionRecordOf, (row, record) => {
    expect(record.wallet).toBe((row.proxyWallet as string).toLowerCase());
    expect(record.tokenId).toBe(row.asset);
    expect(record.oppositeTokenId).toBe(row.oppositeAsset);
    expect(record.conditionId).toBe((row.conditionId as string).toLowerCase());
    for (const [micro, raw] of [
      [record.sizeMicro, row.size],
      [record.avgPriceMicro, row.avgPrice],
      [record.curPriceMicro, row.curPrice],
      [record.initialValueMicro, row.initialValue],
      [record.currentValueMicro, row.currentValue],
      [record.cashPnlMicro, row.cashPnl],
      [record.realizedPnlMicro, row.realizedPnl],
      [record.totalBoughtMicro, row.totalBought],
    ] as const)
      expectMicro(micro, raw);
    expect([record.percentPnl, record.percentRealizedPnl]).toEqual([row.percentPnl, row.percentRealizedPnl]);
    expect([record.redeemable, record.mergeable, record.negativeRisk]).toEqual([
      row.redeemable,
      row.mergeable,
      row.negativeRisk,
    ]);
    // `eventId` is a string in these payloads; the record keeps a string either way.
    expect(record.eventId).toBe(String(row.eventId));
    expect(record.endTime).toBe(row.endDate);
  }),
  closedPositions: v1Reader(DataClosedPositionRowShape, closedPositionRecordOf, (row, record) => {
    expect(record.wallet).toBe((row.proxyWallet as string).toLowerCase());
    expect(record.tokenId).toBe(row.asset);
    expect(record.conditionId).toBe((row.conditionId as string).toLowerCase());
    expectMicro(record.avgPriceMicro, row.avgPrice);
    expectMicro(record.totalBoughtMicro, row.totalBought);
    expectMicro(record.realizedPnlMicro, row.realizedPnl);
    expectMicro(record.curPriceMicro, row.curPrice);
    expect(record.timestamp).toBe(row.timestamp);
    expect(record.outcomeSide).toBe(outcomeSideOfIndex(row.outcomeIndex));
  }),
  leaderboard: v1Reader(LeaderboardRowShape, leaderboardRecordOf, (row, record) => {
    // `rank` comes as a string ("1".."50") and leaves as a number.
    expect(typeof row.rank).toBe("string");
    expect(record.rank).toBe(Number(row.rank));
    expect(record.wallet).toBe((row.proxyWallet as string).toLowerCase());
    expectMicro(record.volumeMicro, row.vol);
    expectMicro(record.pnlMicro, row.pnl);
    expect(record.xUsername).toBe(row.xUsername || null);
    expect(record.profileImage).toBe(row.profileImage || null);
  }),
};

/** A spot check of each real v1 payload's records (values copied from the payload). */
const SPOTS: Record<DataV1File, (records: unknown[]) => void> = {
  "data-api-trades.v1.smart-money.json": (records) =>
    // size 30974.624038 at 0.968534758: a $30,000 trade (the publisher filtered on CASH 10000).
    expect(records[0]).toMatchObject({
      wallet: "0xac482f27ac3d1144ca4f778af405eb5cac5d2feb",
      direction: "BUY",
      outcomeIndex: 1,
      outcomeSide: "NO",
      outcomeLabel: "No",
      sizeMicro: 30_974_624_038,
      priceMicro: 968_535,
      usdMicro: 29_999_999_997,
      feeMicro: null,
      timestamp: 1_784_327_295,
    }),
  "data-api-activity.v1.smart-money-redeem-trade.json": (records) => {
    for (const record of records as ReturnType<typeof activityRecordOf>[]) {
      expect(record).toMatchObject({ type: "REDEEM", tokenId: null, direction: null, outcomeIndex: null });
      expect(record.priceMicro).toBeNull();
      expect(record.conditionId).toMatch(/^0x[0-9a-f]{64}$/);
      expect(record.sizeMicro).toBe(record.usdcSizeMicro);
    }
    expect(records[0]).toMatchObject({ sizeMicro: 10_980_911_728_675, timestamp: 1_784_064_509 });
  },
  "data-api-activity.v1.smart-money-rewards-rebates.json": (records) => {
    const list = records as ReturnType<typeof activityRecordOf>[];
    const count = (type: string) => list.filter((r) => r.type === type).length;
    expect(["TRADE", "REWARD", "REDEEM", "MAKER_REBATE", "TAKER_REBATE"].map(count)).toEqual([42, 4, 2, 1, 1]);
    for (const r of list) {
      if (r.type === "REDEEM" || r.type === "TRADE") expect(r.conditionId).toMatch(/^0x[0-9a-f]{64}$/);
      else expect([r.conditionId, r.title, r.tokenId, r.outcomeIndex]).toEqual([null, null, null, null]);
    }
    expect(list[0]).toMatchObject({ type: "MAKER_REBATE", usdcSizeMicro: 3_597_760_300, priceMicro: null });
  },
  "data-api-positions.v1.smart-money.json": (records) => {
    // Unredeemed losers: redeemable, worth 0, percentRealizedPnl -100 with realizedPnl 0.
    expect(records[0]).toMatchObject({
      redeemable: true,
      curPriceMicro: 0,
      currentValueMicro: 0,
      cashPnlMicro: -1_145_352_948_600,
      sizeMicro: 2_251_963_123_700,
      avgPriceMicro: 508_600,
      realizedPnlMicro: 0,
      percentPnl: -99.9999,
      percentRealizedPnl: -100,
      eventId: "672628",
      endTime: "2026-07-11",
      negativeRisk: true,
    });
    expect(records[1]).toMatchObject({ redeemable: true, percentPnl: -100, negativeRisk: false });
  },
  "data-api-positions.v1.pscanner-redeemable-losers.json": (records) => {
    const list = records as ReturnType<typeof positionRecordOf>[];
    expect(list.map((r) => [r.redeemable, r.curPriceMicro])).toEqual([
      [false, 914_500],
      [false, 525_000],
      [true, 1_000_000],
      [true, 0],
      [true, 0],
    ]);
  },
  "data-api-closed-positions.v1.pscanner.json": (records) => {
    const list = records as ReturnType<typeof closedPositionRecordOf>[];
    expect(list.every((r) => r.curPriceMicro === 1_000_000)).toBe(true);
    expect(list[1]).toMatchObject({
      totalBoughtMicro: 2_000_000_296_094,
      realizedPnlMicro: 986_792_146_091,
      avgPriceMicro: 506_604,
      timestamp: 1_770_616_967,
      endTime: "2026-02-08T00:00:00Z",
    });
  },
  "data-api-leaderboard.v1.smart-money.json": (records) => {
    const list = records as ReturnType<typeof leaderboardRecordOf>[];
    expect(list.map((r) => r.rank)).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
    expect(list[0]).toMatchObject({
      wallet: "0x09b428f7c2b469786286214aa5c90dd9015f7320",
      userName: "DEEDDIT",
      pnlMicro: 8_052_184_542_897,
      volumeMicro: 72_132_442_519_510,
      xUsername: null,
      verifiedBadge: false,
    });
    // rank 4 has `vol: 0` (an integer).
    expect(list[3]).toMatchObject({ rank: 4, volumeMicro: 0 });
  },
};

describe("Data API v1 payloads", () => {
  it.each(DATA_V1_FILES)("%s: every row has the v1 shape and normalizes from its own values", (file) => {
    const { endpoint, rows: count } = DATA_V1[file];
    const spot = SPOTS[file];
    const reader = V1[endpoint];
    const { records, rows, rejected } = reader.read(corpusJson(file), file);
    expect(rejected).toBe(0);
    expect(records).toHaveLength(count);
    rows.forEach((row, i) => reader.check(row, records[i]));
    for (const record of records) expect((record as { wallet: string }).wallet).toMatch(LOWER_ADDRESS);
    spot(records);
  });
});
