/**
 * Gamma payloads → rows of `events`, `markets` and `market_tokens`, through the venue's normalizers. Payloads that
 * fail normalization come back as skipped records; a market without outcome tokens yet (not tradable) is left
 * out without counting as malformed.
 */
import type { NewEvent, NewMarket, NewMarketToken } from "../store/markets.js";
import {
  fromMicro,
  normalizeGammaEvent,
  normalizeGammaMarket,
  type EventRecord,
  type GammaEvent,
  type GammaMarket,
  type MarketRecord,
} from "../venue/index.js";
import type { SkippedRecord } from "./batch-writer.js";

export interface MarketRows {
  events: NewEvent[];
  markets: NewMarket[];
  tokens: NewMarketToken[];
  skipped: SkippedRecord[];
}

export function emptyMarketRows(): MarketRows {
  return { events: [], markets: [], tokens: [], skipped: [] };
}

/** Adds `from`'s rows to `into`; returns `into`. */
export function mergeMarketRows(into: MarketRows, from: MarketRows): MarketRows {
  into.events.push(...from.events);
  into.markets.push(...from.markets);
  into.tokens.push(...from.tokens);
  into.skipped.push(...from.skipped);
  return into;
}

export function eventRow(event: EventRecord, now: number): NewEvent {
  return {
    id: event.id,
    slug: event.slug,
    title: event.title ?? event.slug,
    category: event.category,
    neg_risk: event.negRisk ? 1 : 0,
    neg_risk_market_id: event.negRiskMarketId,
    end_date: event.endTime,
    closed: event.closed ? 1 : 0,
    tags: JSON.stringify(event.tagSlugs),
    updated_at: now,
  };
}

/** Gamma's `questionID` (not in the venue's shape list, but on every real market), else the NegRisk request id. */
function questionIdOf(raw: GammaMarket, record: MarketRecord): string | null {
  const questionId = (raw as { questionID?: unknown }).questionID;
  return typeof questionId === "string" && /^0x[0-9a-fA-F]{64}$/.test(questionId)
    ? questionId.toLowerCase()
    : record.negRiskRequestId;
}

function createdAtOf(raw: GammaMarket): number | null {
  const createdAt = (raw as { createdAt?: unknown }).createdAt;
  const ms = typeof createdAt === "string" ? Date.parse(createdAt) : NaN;
  return Number.isFinite(ms) ? Math.floor(ms / 1000) : null;
}

const price = (micro: number | null) => (micro === null ? null : fromMicro(micro));

export function marketRow(record: MarketRecord, raw: GammaMarket, now: number): NewMarket {
  return {
    id: record.id,
    condition_id: record.conditionId,
    question: record.question,
    slug: record.slug,
    event_id: record.eventId,
    category: record.category,
    yes_token_id: record.yesTokenId,
    no_token_id: record.noTokenId,
    price_yes: price(record.yesPriceMicro),
    price_no: price(record.noPriceMicro),
    volume: fromMicro(record.volumeMicro ?? 0),
    volume_24h: fromMicro(record.volume24hrMicro ?? 0),
    liquidity: fromMicro(record.liquidityMicro ?? 0),
    start_date: record.startTime,
    end_date: record.endTime,
    created_at: createdAtOf(raw),
    closed: record.closed ? 1 : 0,
    closed_time: record.closedTime,
    resolution: record.resolution,
    neg_risk: record.negRisk ? 1 : 0,
    neg_risk_market_id: record.negRiskMarketId,
    neg_risk_question_id: questionIdOf(raw, record),
    group_item_title: record.groupItemTitle,
    fee_rate: record.feeRate ?? 0,
    image: raw.image || null,
    exchange_version: record.version === "v1" ? 1 : record.version === "v2" ? 2 : null,
    updated_at: now,
  };
}

export function tokenRows(record: MarketRecord): NewMarketToken[] {
  return [
    {
      token_id: record.yesTokenId,
      condition_id: record.conditionId,
      outcome_index: 0,
      outcome: record.outcomeLabels[0],
    },
    {
      token_id: record.noTokenId,
      condition_id: record.conditionId,
      outcome_index: 1,
      outcome: record.outcomeLabels[1],
    },
  ];
}

const notTradableYet = (raw: GammaMarket) => raw.clobTokenIds === null || raw.clobTokenIds === undefined;

function addMarket(rows: MarketRows, record: MarketRecord, raw: GammaMarket, now: number): void {
  rows.markets.push(marketRow(record, raw, now));
  rows.tokens.push(...tokenRows(record));
}

/** Rows of events listed with their markets (`/events`, `/events/keyset`). */
export function addEvents(rows: MarketRows, events: readonly GammaEvent[], origin: string, now: number): void {
  for (const raw of events) {
    const normalized = normalizeGammaEvent(raw);
    rows.events.push(eventRow(normalized.event, now));
    const byId = new Map((raw.markets ?? []).map((m) => [m.id, m]));
    for (const record of normalized.markets) addMarket(rows, record, byId.get(record.id) as GammaMarket, now);
    for (const rejected of normalized.rejectedMarkets) {
      const market = byId.get(rejected.id);
      if (market && notTradableYet(market)) continue;
      rows.skipped.push({ origin: `${origin} event ${raw.id}`, reason: rejected.reason });
    }
  }
}

/** Rows of markets listed on their own (`/markets`), with the event each names. */
export function addMarkets(rows: MarketRows, markets: readonly GammaMarket[], origin: string, now: number): void {
  for (const raw of markets) {
    const result = normalizeGammaMarket(raw);
    if (!result.ok) {
      if (!notTradableYet(raw)) rows.skipped.push({ origin: `${origin} market ${raw.id}`, reason: result.reason });
      continue;
    }
    const summary = raw.events?.[0];
    if (summary) rows.events.push(eventRow(normalizeGammaEvent(summary).event, now));
    addMarket(rows, result.record, raw, now);
  }
}
