/**
 * Events, markets, their outcome tokens, and resolutions. Upserts are idempotent; a market's resolution, once
 * known (from Gamma or from the chain's ConditionResolution), is never cleared by a later, laggier answer.
 */
import type { Insertable, Kysely, Selectable } from "kysely";
import type { StoreTransaction } from "./database.js";
import { chunks } from "./raw-sql.js";
import type { Database, EventsTable, MarketResolutionsTable, MarketsTable, MarketTokensTable } from "./schema.js";

export type NewEvent = Insertable<EventsTable>;
export type NewMarket = Insertable<MarketsTable>;
export type NewMarketToken = Insertable<MarketTokensTable>;
export type NewResolution = Insertable<MarketResolutionsTable>;
export type StoredResolution = Selectable<MarketResolutionsTable>;

/** Rows per statement: under SQLite's 32,766 bound parameters for the widest table. */
const ROWS_PER_STATEMENT = 500;

/**
 * The last row per key (a page may list a record twice, and one statement may not update a row twice), in key
 * order (one lock order for every writer, so concurrent upserts on PostgreSQL cannot deadlock on each other).
 */
function lastByKey<T>(rows: readonly T[], key: (row: T) => string): T[] {
  return [...new Map(rows.map((row) => [key(row), row])).entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([, row]) => row);
}

export async function upsertEvents(tx: StoreTransaction, events: readonly NewEvent[]): Promise<void> {
  for (const part of chunks(
    lastByKey(events, (e) => e.id),
    ROWS_PER_STATEMENT,
  )) {
    await tx.db
      .insertInto("events")
      .values(part)
      .onConflict((oc) =>
        oc.column("id").doUpdateSet((eb) => ({
          slug: eb.ref("excluded.slug"),
          title: eb.ref("excluded.title"),
          category: eb.ref("excluded.category"),
          neg_risk: eb.ref("excluded.neg_risk"),
          neg_risk_market_id: eb.ref("excluded.neg_risk_market_id"),
          end_date: eb.ref("excluded.end_date"),
          closed: eb.ref("excluded.closed"),
          tags: eb.ref("excluded.tags"),
          updated_at: eb.ref("excluded.updated_at"),
        })),
      )
      .execute();
  }
}

/** Upserts markets and their two tokens each. A null resolution keeps the stored one (Gamma can lag the chain). */
export async function upsertMarkets(
  tx: StoreTransaction,
  markets: readonly NewMarket[],
  tokens: readonly NewMarketToken[],
): Promise<void> {
  const unique = lastByKey(markets, (m) => m.id);
  const chainResolved = await resolutionsOf(
    tx.db,
    unique.filter((m) => m.resolution == null).map((m) => m.condition_id),
  );
  for (const part of chunks(unique, ROWS_PER_STATEMENT)) {
    const rows = part.map((m) =>
      m.resolution == null
        ? Object.assign({}, m, { resolution: chainResolved.get(m.condition_id)?.resolution ?? null })
        : m,
    );
    await tx.db
      .insertInto("markets")
      .values(rows)
      .onConflict((oc) =>
        oc.column("id").doUpdateSet((eb) => ({
          question: eb.ref("excluded.question"),
          slug: eb.ref("excluded.slug"),
          event_id: eb.fn.coalesce(eb.ref("excluded.event_id"), eb.ref("markets.event_id")),
          category: eb.ref("excluded.category"),
          price_yes: eb.ref("excluded.price_yes"),
          price_no: eb.ref("excluded.price_no"),
          volume: eb.ref("excluded.volume"),
          volume_24h: eb.ref("excluded.volume_24h"),
          liquidity: eb.ref("excluded.liquidity"),
          start_date: eb.ref("excluded.start_date"),
          end_date: eb.ref("excluded.end_date"),
          closed: eb.ref("excluded.closed"),
          closed_time: eb.ref("excluded.closed_time"),
          resolution: eb.fn.coalesce(eb.ref("excluded.resolution"), eb.ref("markets.resolution")),
          neg_risk: eb.ref("excluded.neg_risk"),
          neg_risk_market_id: eb.ref("excluded.neg_risk_market_id"),
          neg_risk_question_id: eb.ref("excluded.neg_risk_question_id"),
          group_item_title: eb.ref("excluded.group_item_title"),
          fee_rate: eb.ref("excluded.fee_rate"),
          image: eb.ref("excluded.image"),
          exchange_version: eb.ref("excluded.exchange_version"),
          updated_at: eb.ref("excluded.updated_at"),
        })),
      )
      .execute();
  }
  for (const part of chunks(
    lastByKey(tokens, (t) => t.token_id),
    ROWS_PER_STATEMENT,
  )) {
    await tx.db
      .insertInto("market_tokens")
      .values(part)
      .onConflict((oc) => oc.column("token_id").doNothing())
      .execute();
  }
}

/** Records chain resolutions (once per condition) and sets them on the markets; returns the new ones. */
export async function recordResolutions(
  tx: StoreTransaction,
  resolutions: readonly NewResolution[],
): Promise<NewResolution[]> {
  const fresh: NewResolution[] = [];
  for (const resolution of lastByKey(resolutions, (r) => r.condition_id)) {
    const inserted = await tx.db
      .insertInto("market_resolutions")
      .values(resolution)
      .onConflict((oc) => oc.column("condition_id").doNothing())
      .returning("condition_id")
      .executeTakeFirst();
    if (!inserted) continue;
    fresh.push(resolution);
    await tx.db
      .updateTable("markets")
      .set({ resolution: resolution.resolution })
      .where("condition_id", "=", resolution.condition_id)
      .execute();
  }
  return fresh;
}

export async function resolutionsOf(
  db: Kysely<Database>,
  conditionIds: readonly string[],
): Promise<Map<string, StoredResolution>> {
  const out = new Map<string, StoredResolution>();
  for (const part of chunks(conditionIds, ROWS_PER_STATEMENT)) {
    if (part.length === 0) continue;
    for (const row of await db.selectFrom("market_resolutions").selectAll().where("condition_id", "in", part).execute())
      out.set(row.condition_id, row);
  }
  return out;
}

export interface TokenFacts {
  readonly conditionId: string;
  readonly outcomeIndex: number;
}

/** Condition and outcome of the given outcome tokens, for those the store knows. */
export async function tokenFacts(db: Kysely<Database>, tokenIds: readonly string[]): Promise<Map<string, TokenFacts>> {
  const out = new Map<string, TokenFacts>();
  for (const part of chunks(tokenIds, ROWS_PER_STATEMENT)) {
    if (part.length === 0) continue;
    const rows = await db
      .selectFrom("market_tokens")
      .select(["token_id", "condition_id", "outcome_index"])
      .where("token_id", "in", part)
      .execute();
    for (const row of rows) out.set(row.token_id, { conditionId: row.condition_id, outcomeIndex: row.outcome_index });
  }
  return out;
}

/** Which of the given condition ids belong to a stored market. */
export async function knownConditions(db: Kysely<Database>, conditionIds: readonly string[]): Promise<Set<string>> {
  const out = new Set<string>();
  for (const part of chunks(conditionIds, ROWS_PER_STATEMENT)) {
    if (part.length === 0) continue;
    for (const row of await db.selectFrom("markets").select("condition_id").where("condition_id", "in", part).execute())
      out.add(row.condition_id);
  }
  return out;
}

/** An event's stored `tags` (JSON text of tag slugs) as a list; empty when absent or malformed. */
export function parseEventTags(json: string | null): string[] {
  if (!json) return [];
  try {
    const tags: unknown = JSON.parse(json);
    return Array.isArray(tags) ? tags.filter((t): t is string => typeof t === "string") : [];
  } catch {
    return [];
  }
}
