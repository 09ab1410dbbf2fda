import { describe, expect, it } from "vitest";
import {
  activityEvent,
  indexSetQuestions,
  orderedBatchEvents,
  type StoredActivity,
  type StoredFill,
  storedFill,
} from "./stored-events.js";
import { newFill } from "../store/testing/new-fill.js";

const W = "0x00000000000000000000000000000000000000aa";

function fill(key: string, ts: number, logIndex: number | null): StoredFill {
  return storedFill(newFill({ fill_key: key, wallet: W, ts, log_index: logIndex, entry_type: "COMPLEMENTARY" }));
}

function activity(
  key: string,
  ts: number,
  logIndex: number | null,
  overrides: Partial<StoredActivity> = {},
): StoredActivity {
  return {
    activity_key: key,
    wallet: W,
    type: "SPLIT",
    condition_id: "0xc",
    size: 1_000_000,
    usd: 1_000_000,
    ts,
    log_index: logIndex,
    neg_risk_market_id: null,
    index_set: null,
    fee: null,
    ...overrides,
  };
}

describe("stored events", () => {
  it("are applied in time order, then by log index on chain, fills before activity, then in storage order", () => {
    const events = orderedBatchEvents(
      [
        fill("f-late", 20, 1),
        fill("f-log5", 10, 5),
        fill("f-log2", 10, 2),
        fill("api-1", 15, null),
        fill("api-2", 15, null),
      ],
      [activity("a-log3", 10, 3), activity("api-split", 15, null)],
    );
    expect(events.map((e) => e.key)).toEqual(["f-log2", "a-log3", "f-log5", "api-1", "api-2", "api-split", "f-late"]);
  });

  it("read a conversion's index set as the question indices whose NO is given up", () => {
    expect(indexSetQuestions("5")).toEqual([0, 2]);
    expect(indexSetQuestions((2n ** 70n + 2n).toString())).toEqual([1, 70]);
    expect(
      activityEvent(
        activity("c", 1, 1, {
          type: "CONVERSION",
          condition_id: null,
          neg_risk_market_id: "0xnr",
          index_set: "6",
          fee: 1_000,
        }),
      ),
    ).toEqual({
      kind: "activity",
      type: "CONVERSION",
      wallet: W,
      ts: 1,
      negRiskEventId: "0xnr",
      indexSet: [1, 2],
      amount: 1_000_000,
      fee: 1_000,
    });
  });

  it("leave out the rows the ledger cannot use", () => {
    // The Data API lists conversions without their NegRisk market or index set.
    expect(activityEvent(activity("c", 1, null, { type: "CONVERSION", condition_id: null }))).toBeNull();
    expect(activityEvent(activity("s", 1, null, { type: "SPLIT", condition_id: null }))).toBeNull();
    expect(activityEvent(activity("r", 1, null, { type: "REWARD", condition_id: null, usd: 7 }))).toMatchObject({
      type: "REWARD",
      usd: 7,
    });
    expect(activityEvent(activity("d", 1, 4, { type: "REDEEM" }))).toMatchObject({
      type: "REDEEM",
      conditionId: "0xc",
      payoutYes: null,
    });
  });
});
