/** Test support: a `markets` row with every column, an open binary market by default, for tests that add one. */
import type { Insertable } from "kysely";
import type { MarketsTable } from "../schema.js";

type Required = Pick<Insertable<MarketsTable>, "id" | "condition_id" | "question" | "slug">;

export function marketRow(market: Required & Partial<Insertable<MarketsTable>>): Insertable<MarketsTable> {
  return {
    event_id: null,
    category: null,
    yes_token_id: `${market.id}1`,
    no_token_id: `${market.id}2`,
    price_yes: 0.5,
    price_no: 0.5,
    volume: 0,
    volume_24h: 0,
    liquidity: 0,
    start_date: null,
    end_date: null,
    created_at: null,
    closed: 0,
    closed_time: null,
    resolution: null,
    neg_risk: 0,
    neg_risk_market_id: null,
    neg_risk_question_id: null,
    group_item_title: null,
    fee_rate: 0,
    image: null,
    exchange_version: 2,
    updated_at: 0,
    ...market,
  };
}
