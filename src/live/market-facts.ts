/** The market metadata the indexed stream attaches to each fill: one query per committed batch, by condition. */
import type { Kysely } from "kysely";
import type { Database } from "../store/schema.js";
import type { MarketFacts } from "./trade-events.js";

/** Under SQLite's bound-parameter limit. */
const IDS_PER_QUERY = 500;

function chunked(ids: readonly string[]): string[][] {
  const unique = [...new Set(ids)];
  const out: string[][] = [];
  for (let i = 0; i < unique.length; i += IDS_PER_QUERY) out.push(unique.slice(i, i + IDS_PER_QUERY));
  return out;
}

export interface BatchMarketFacts {
  /** By condition id. */
  readonly markets: Map<string, MarketFacts>;
  /** Outcome label by token id. */
  readonly outcomes: Map<string, string>;
}

export async function marketFactsOf(
  db: Kysely<Database>,
  conditionIds: readonly string[],
  tokenIds: readonly string[],
): Promise<BatchMarketFacts> {
  const markets = new Map<string, MarketFacts>();
  const outcomes = new Map<string, string>();
  for (const ids of chunked(conditionIds)) {
    const rows = await db
      .selectFrom("markets as m")
      .leftJoin("events as e", "e.id", "m.event_id")
      .select([
        "m.condition_id",
        "m.id",
        "m.slug",
        "m.question",
        "m.category",
        "e.slug as event_slug",
        "e.title as event_title",
      ])
      .where("m.condition_id", "in", ids)
      .execute();
    for (const r of rows) {
      const category = r.category;
      markets.set(r.condition_id, {
        marketId: r.id,
        marketSlug: r.slug,
        title: r.question,
        eventSlug: r.event_slug,
        eventTitle: r.event_title,
        category,
      });
    }
  }
  for (const ids of chunked(tokenIds)) {
    const rows = await db
      .selectFrom("market_tokens")
      .select(["token_id", "outcome"])
      .where("token_id", "in", ids)
      .execute();
    for (const r of rows) outcomes.set(r.token_id, r.outcome);
  }
  return { markets, outcomes };
}
