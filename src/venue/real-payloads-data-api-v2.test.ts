/**
 * The published Data API v2 payloads of test/fixtures/venue-real (src/venue/testing/real-payloads.ts names them).
 * Pelagic has no v2 reader yet: what marks them, and that the v1 shapes refuse them.
 */
import type { TSchema } from "typebox";
import { describe, expect, it } from "vitest";
import {
  DataActivityRowShape,
  DataHoldersShape,
  DataPositionRowShape,
  DataTradeRowShape,
  DataValueShape,
  LeaderboardRowShape,
  PnlPointShape,
  VenueShapeError,
  partitionRows,
  type Shape,
} from "./shapes/index.js";
import { DATA_V2_FILES, asObject, asRows, corpusJson, type DataV2File, type Json } from "./testing/real-payloads.js";

const SNAKE_KEY = /^[a-z][a-z0-9]*(_[a-z0-9]+)*$/;

/** Every key of these objects, and of the objects and arrays they hold, is snake_case. */
function expectSnakeCase(value: unknown): void {
  if (Array.isArray(value)) return value.forEach(expectSnakeCase);
  if (value === null || typeof value !== "object") return;
  for (const [key, inner] of Object.entries(value)) {
    expect(key).toMatch(SNAKE_KEY);
    expectSnakeCase(inner);
  }
}

interface V2Case {
  /** The objects that stand where v1 has rows. */
  readonly rows: (payload: unknown) => Json[];
  /** Keys that name a v2 row (v1 spells them otherwise or lacks them). */
  readonly keys: readonly string[];
  /** The v1 reading of the same endpoint refuses it: no row comes out of it. */
  readonly refusedByV1: (payload: unknown, source: string) => void;
}

/** Every row rejected (skipped and counted), none read. */
const rowsRejectedBy =
  (shape: Shape<TSchema>) =>
  (payload: unknown, source: string): void => {
    const { rows, rejected } = partitionRows(shape, payload, source);
    expect(rows).toEqual([]);
    expect(rejected).toHaveLength((payload as unknown[]).length);
    expect(rejected.flatMap((r) => r.issues).some((i) => i.message.includes("required"))).toBe(true);
  };

const DATA_V2: Record<DataV2File, V2Case> = {
  "data-api-trades.v2.py-sdk.json": {
    rows: asRows,
    keys: ["proxy_wallet", "token_id", "condition_id", "transaction_hash", "outcome_index", "event_slug"],
    refusedByV1: rowsRejectedBy(DataTradeRowShape),
  },
  "data-api-trades-envelope.v2.nautilus-sanitized.json": {
    rows: (payload) => asRows(asObject(payload).data),
    keys: ["proxy_wallet", "token_id", "condition_id", "transaction_hash", "outcome_index"],
    refusedByV1: (payload, source) => {
      // The envelope is no list: the v1 page reader throws rather than read it.
      expect(() => partitionRows(DataTradeRowShape, payload, source)).toThrow(VenueShapeError);
      rowsRejectedBy(DataTradeRowShape)(asObject(payload).data, source);
    },
  },
  "data-api-activity.v2.py-sdk.json": {
    rows: asRows,
    keys: ["proxy_wallet", "token_id", "condition_id", "usdc_size", "transaction_hash", "outcome_index"],
    refusedByV1: rowsRejectedBy(DataActivityRowShape),
  },
  "data-api-positions.v2.py-sdk.json": {
    rows: asRows,
    keys: ["proxy_wallet", "token_id", "condition_id", "current_size", "total_size", "opposite_token_id", "status"],
    refusedByV1: rowsRejectedBy(DataPositionRowShape),
  },
  "data-api-leaderboard.v2.py-sdk.json": {
    rows: asRows,
    keys: ["user_id", "user_name", "x_username", "volume"],
    refusedByV1: rowsRejectedBy(LeaderboardRowShape),
  },
  "data-api-holders.v2.py-sdk.json": {
    rows: (payload) => asRows(payload).flatMap((group) => asRows(group.holders)),
    keys: ["proxy_wallet", "token_id", "outcome_index", "display_username_public"],
    refusedByV1: (payload) => {
      expect(asRows(payload).every((group) => "token_id" in group && !("token" in group))).toBe(true);
      expect(() => DataHoldersShape.parse(payload)).toThrow(VenueShapeError);
    },
  },
  "data-api-value.v2.py-sdk.json": {
    rows: (payload) => [asObject(payload)],
    keys: ["proxy_wallet", "value"],
    // One object, not v1's `[{user, value}]`.
    refusedByV1: (payload) => expect(() => DataValueShape.parse(payload)).toThrow(VenueShapeError),
  },
  "data-api-user-pnl.v2.py-sdk.json": {
    rows: (payload) => asRows(asObject(payload).points),
    keys: ["timestamp", "source_block", "realized_pnl", "unrealized_pnl", "fees_paid", "maker_rebate"],
    // An object around `points`, not user-pnl-api's `[{t, p}]`.
    refusedByV1: (payload, source) => {
      expect(() => partitionRows(PnlPointShape, payload, source)).toThrow(VenueShapeError);
      rowsRejectedBy(PnlPointShape)(asObject(payload).points, source);
    },
  },
};

describe("Data API v2 payloads (no v2 reader yet)", () => {
  it.each(DATA_V2_FILES)("%s is snake_case v2 data that the v1 shapes refuse", (file) => {
    const v2 = DATA_V2[file];
    const payload = corpusJson(file);
    expectSnakeCase(payload);
    const rows = v2.rows(payload);
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) {
      for (const key of v2.keys) expect(row).toHaveProperty(key);
      // None of v1's camelCase names.
      for (const v1Key of ["proxyWallet", "conditionId", "outcomeIndex", "transactionHash", "asset"])
        expect(row).not.toHaveProperty(v1Key);
    }
    v2.refusedByV1(payload, file);
  });

  it("the envelope is {data, pagination} with a cursor, and its rows are v2 trades", () => {
    const payload = asObject(corpusJson("data-api-trades-envelope.v2.nautilus-sanitized.json"));
    expect(Object.keys(payload).sort()).toEqual(["data", "pagination"]);
    expect(payload.pagination).toEqual({ limit: 500, offset: 0, has_more: false, next_cursor: null });
    expect(asRows(payload.data).map((r) => r.price)).toEqual([0.7, 0.709999959, 0.2972581967]);
  });

  it("v2 quirks a v2 reader must meet: outcome_index 999 on ordinary trades, rank an integer, null P&L parts", () => {
    const trades = asRows(corpusJson("data-api-trades.v2.py-sdk.json"));
    expect(trades.map((t) => [t.side, t.outcome_index, t.event_slug])).toEqual([
      ["BUY", 999, ""],
      ["SELL", 999, ""],
    ]);
    const leaderboard = asRows(corpusJson("data-api-leaderboard.v2.py-sdk.json"));
    expect(leaderboard.map((r) => r.rank)).toEqual([1, 2]);
    const pnl = asObject(corpusJson("data-api-user-pnl.v2.py-sdk.json"));
    expect(asRows(pnl.points).map((p) => [p.deposits, p.withdrawals, p.cashflow_net])).toEqual([
      [null, null, null],
      [null, null, null],
    ]);
  });
});
