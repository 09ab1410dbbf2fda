/**
 * Market facts (question, contract category, prices, resolution) by condition id, as the wallet, whale and window
 * read models attach them to their rows, all by indexed reads; and the outcome side of a stored outcome index.
 */
import { marketCategory, type OutcomeSide } from "../../ledger/index.js";
import type { Store } from "../../store/database.js";
import { parseEventTags } from "../../store/markets.js";
import { inSlices } from "../../store/raw-sql.js";
import type { Resolution } from "../../store/schema.js";
import type { Category } from "../../venue/categories.js";

export const outcomeSide = (outcomeIndex: number): OutcomeSide => (outcomeIndex === 0 ? "YES" : "NO");

/** A row-count safe size for `in (...)` lists on both dialects. */
const CHUNK = 500;

export interface MarketInfo {
  market_id: string;
  condition_id: string;
  question: string;
  slug: string;
  category: Category | null;
  closed: boolean;
  end_date: number | null;
  price_yes: number | null;
  price_no: number | null;
  volume_24h: number;
  /** YES, NO or 50-50 once resolved (the chain's resolution first, else Gamma's). */
  resolution: Resolution | null;
}

function marketQuery(store: Store) {
  return store.db
    .selectFrom("markets as m")
    .leftJoin("events as e", "e.id", "m.event_id")
    .leftJoin("market_resolutions as r", "r.condition_id", "m.condition_id")
    .select([
      "m.id",
      "m.condition_id",
      "m.question",
      "m.slug",
      "m.category",
      "e.category as event_category",
      "e.tags",
      "m.closed",
      "m.end_date",
      "m.price_yes",
      "m.price_no",
      "m.volume_24h",
      "m.resolution",
      "r.resolution as chain_resolution",
    ]);
}

type MarketRow = Awaited<ReturnType<ReturnType<typeof marketQuery>["execute"]>>[number];

function marketInfo(row: MarketRow): MarketInfo {
  return {
    market_id: row.id,
    condition_id: row.condition_id,
    question: row.question,
    slug: row.slug,
    category: marketCategory(row.category ?? row.event_category, parseEventTags(row.tags)),
    closed: row.closed === 1,
    end_date: row.end_date,
    price_yes: row.price_yes,
    price_no: row.price_no,
    volume_24h: row.volume_24h,
    resolution: row.chain_resolution ?? row.resolution,
  };
}

/** Facts of the given markets by condition id; unknown ids are absent from the map. */
export async function loadMarkets(store: Store, conditionIds: Iterable<string>): Promise<Map<string, MarketInfo>> {
  // A whole roster's markets in the window aggregates: slices with the event loop let run between them.
  const rows = await inSlices(
    [...new Set(conditionIds)],
    (part) => marketQuery(store).where("m.condition_id", "in", part).execute(),
    CHUNK,
    true,
  );
  return new Map(rows.map((row) => [row.condition_id, marketInfo(row)]));
}

/** Facts of every market, by condition id. */
export async function loadAllMarkets(store: Store): Promise<Map<string, MarketInfo>> {
  const rows = await marketQuery(store).execute();
  return new Map(rows.map((row) => [row.condition_id, marketInfo(row)]));
}

/** Open markets whose end date is after `now`. */
export async function loadActiveMarkets(store: Store, now: number): Promise<MarketInfo[]> {
  const rows = await marketQuery(store).where("m.closed", "=", 0).where("m.end_date", ">", now).execute();
  return rows.map(marketInfo);
}

/** Market reference fields every market-bearing row of these endpoints carries. */
export function marketRef(conditionId: string, market: MarketInfo | undefined) {
  return { condition_id: conditionId, market_id: market?.market_id ?? null, question: market?.question ?? null };
}
