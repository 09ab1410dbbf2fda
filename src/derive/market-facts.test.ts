import { afterEach, describe, expect, it } from "vitest";
import { storeBackends } from "../../test/support/backends.js";
import type { Store } from "../store/database.js";
import { recordResolutions, upsertEvents, upsertMarkets, type NewMarket } from "../store/markets.js";
import { loadMarketFacts, questionIndexOf } from "./market-facts.js";

const NR = `0x${"ab".repeat(31)}00`;
const T = 1_780_000_000;

function market(id: string, overrides: Partial<NewMarket> = {}): NewMarket {
  return {
    id,
    condition_id: `0xc${id}`,
    question: `question ${id}`,
    slug: `q-${id}`,
    event_id: "e1",
    category: null,
    yes_token_id: `${id}1`,
    no_token_id: `${id}2`,
    price_yes: 0.3,
    price_no: 0.7,
    volume: 0,
    volume_24h: 0,
    liquidity: 0,
    closed: 0,
    neg_risk: 1,
    neg_risk_market_id: NR,
    fee_rate: 0,
    updated_at: T,
    ...overrides,
  };
}

describe("questionIndexOf", () => {
  it("reads the question's position from the low byte of its questionId", () => {
    expect(questionIndexOf(`${NR.slice(0, 64)}03`)).toBe(3);
    expect(questionIndexOf(`${NR.slice(0, 64)}1f`)).toBe(31);
    expect(questionIndexOf(null)).toBeNull();
    expect(questionIndexOf("not hex")).toBeNull();
  });
});

describe.each(storeBackends)("market facts from $kind", (backend) => {
  let dispose: (() => Promise<void>) | undefined;
  afterEach(async () => dispose?.());

  async function seeded(): Promise<Store> {
    const opened = await backend.open();
    dispose = opened.dispose;
    await opened.store.transaction(async (tx) => {
      await upsertEvents(tx, [
        {
          id: "e1",
          slug: "e1",
          title: "Event",
          category: "Sports",
          neg_risk: 1,
          neg_risk_market_id: NR,
          closed: 0,
          tags: JSON.stringify(["nba", "sports"]),
          updated_at: T,
        },
      ]);
      await upsertMarkets(
        tx,
        [
          market("1", { neg_risk_question_id: `${NR.slice(0, 64)}00` }),
          // Resolved on chain at T + 50; Gamma's closedTime says T + 99.
          market("2", {
            neg_risk_question_id: `${NR.slice(0, 64)}01`,
            closed: 1,
            closed_time: T + 99,
            resolution: "NO",
            category: "Crypto",
          }),
          // Resolved by Gamma only.
          market("3", {
            neg_risk_question_id: `${NR.slice(0, 64)}02`,
            closed: 1,
            closed_time: T + 70,
            resolution: "YES",
          }),
          // Closed, not resolved yet.
          market("4", {
            event_id: null,
            neg_risk: 0,
            neg_risk_market_id: null,
            closed: 1,
            closed_time: T + 10,
            price_yes: null,
            price_no: null,
            updated_at: T + 500,
          }),
        ],
        [],
      );
      await recordResolutions(tx, [
        {
          condition_id: "0xc2",
          resolution: "NO",
          payout_numerators: '["0","1"]',
          resolved_at: T + 50,
          block_number: 1,
          tx_hash: "0x1",
          log_index: 0,
        },
      ]);
    });
    return opened.store;
  }

  it("builds each market's NegRisk event, question index and count, category and tags, resolution and time, prices", async () => {
    const store = await seeded();
    const facts = new Map((await loadMarketFacts(store.db)).map((f) => [f.conditionId, f]));
    expect(facts.get("0xc1")).toEqual({
      conditionId: "0xc1",
      yesTokenId: "11",
      noTokenId: "12",
      category: "Sports",
      tags: ["nba", "sports"],
      eventId: "e1",
      negRiskEventId: NR,
      questionIndex: 0,
      questionCount: 3,
      resolution: null,
      resolvedAt: null,
      priceYes: 0.3,
      priceNo: 0.7,
    });
    expect(facts.get("0xc2")).toMatchObject({
      category: "Crypto",
      questionIndex: 1,
      resolution: "NO",
      resolvedAt: T + 50,
    });
    expect(facts.get("0xc3")).toMatchObject({ questionIndex: 2, resolution: "YES", resolvedAt: T + 70 });
    expect(facts.get("0xc4")).toMatchObject({
      negRiskEventId: null,
      questionIndex: null,
      questionCount: null,
      resolution: null,
      resolvedAt: null,
      priceYes: null,
      tags: [],
    });
  });

  it("lists only the markets updated since a time", async () => {
    const store = await seeded();
    expect((await loadMarketFacts(store.db, T + 1)).map((f) => f.conditionId)).toEqual(["0xc4"]);
  });
});
