/**
 * The ledger's market facts from the store: `markets` with their event's category and tags, the NegRisk
 * event id and question index, the resolution and its time, and current prices.
 */
import { sql, type Kysely } from "kysely";
import type { MarketFacts } from "../ledger/index.js";
import type { Database, Resolution } from "../store/schema.js";
import { parseEventTags } from "../store/markets.js";

/** The question's position in its NegRisk event: the low byte of its questionId (null when unknown). */
export function questionIndexOf(questionId: string | null): number | null {
  if (!questionId || !/^0x[0-9a-fA-F]{2,}$/.test(questionId)) return null;
  return Number.parseInt(questionId.slice(-2), 16);
}

interface FactsRow {
  condition_id: string;
  yes_token_id: string;
  no_token_id: string;
  category: string | null;
  event_id: string | null;
  event_category: string | null;
  event_tags: string | null;
  neg_risk: number;
  neg_risk_market_id: string | null;
  neg_risk_question_id: string | null;
  market_resolution: Resolution | null;
  closed_time: number | null;
  chain_resolution: Resolution | null;
  chain_resolved_at: number | null;
  price_yes: number | null;
  price_no: number | null;
}

/**
 * A resolution takes its time from the chain's ConditionResolution when the store has it, else from Gamma's
 * `closedTime`; a market Gamma shows closed but not yet resolved gets no resolution.
 */
function factsOf(row: FactsRow, questionCounts: ReadonlyMap<string, number>): MarketFacts {
  const resolution = row.chain_resolution ?? row.market_resolution;
  const resolvedAt = resolution ? (row.chain_resolved_at ?? row.closed_time) : null;
  const negRiskEventId = row.neg_risk ? row.neg_risk_market_id : null;
  return {
    conditionId: row.condition_id,
    yesTokenId: row.yes_token_id,
    noTokenId: row.no_token_id,
    category: row.category ?? row.event_category,
    tags: parseEventTags(row.event_tags),
    eventId: row.event_id,
    negRiskEventId,
    questionIndex: negRiskEventId ? questionIndexOf(row.neg_risk_question_id) : null,
    questionCount: negRiskEventId ? (questionCounts.get(negRiskEventId) ?? null) : null,
    resolution: resolvedAt === null ? null : resolution,
    resolvedAt,
    priceYes: row.price_yes,
    priceNo: row.price_no,
  };
}

/** Which markets' facts to read: those of these conditions, and every question of these NegRisk events. */
export interface MarketsWanted {
  readonly conditionIds: readonly string[];
  readonly negRiskMarketIds: readonly string[];
}

/**
 * Facts of every stored market, or of those updated at or after `updatedSince` (Gamma's syncs set
 * `updated_at`; chain resolutions reach the ledger through the ingest's committed batches), or of the `wanted` ones.
 */
export async function loadMarketFacts(
  db: Kysely<Database>,
  updatedSince?: number,
  wanted?: MarketsWanted,
): Promise<MarketFacts[]> {
  let query = db
    .selectFrom("markets as m")
    .leftJoin("events as e", "e.id", "m.event_id")
    .leftJoin("market_resolutions as r", "r.condition_id", "m.condition_id")
    .select([
      "m.condition_id",
      "m.yes_token_id",
      "m.no_token_id",
      "m.category",
      "m.event_id",
      "e.category as event_category",
      "e.tags as event_tags",
      "m.neg_risk",
      "m.neg_risk_market_id",
      "m.neg_risk_question_id",
      "m.resolution as market_resolution",
      "m.closed_time",
      "r.resolution as chain_resolution",
      "r.resolved_at as chain_resolved_at",
      "m.price_yes",
      "m.price_no",
    ]);
  if (updatedSince !== undefined) query = query.where("m.updated_at", ">=", updatedSince);
  if (wanted) {
    const { conditionIds, negRiskMarketIds } = wanted;
    if (conditionIds.length + negRiskMarketIds.length === 0) return [];
    query = query.where((eb) =>
      eb.or([
        ...(conditionIds.length ? [eb("m.condition_id", "in", conditionIds)] : []),
        ...(negRiskMarketIds.length ? [eb("m.neg_risk_market_id", "in", negRiskMarketIds)] : []),
      ]),
    );
  }
  const rows = (await query.execute()) as FactsRow[];
  if (rows.length === 0) return [];
  const counts = await db
    .selectFrom("markets")
    .select(["neg_risk_market_id", sql<number>`count(*)`.as("questions")])
    .where("neg_risk", "=", 1)
    .where("neg_risk_market_id", "is not", null)
    .groupBy("neg_risk_market_id")
    .execute();
  const questionCounts = new Map(counts.map((c) => [c.neg_risk_market_id!, Number(c.questions)]));
  return rows.map((row) => factsOf(row, questionCounts));
}
