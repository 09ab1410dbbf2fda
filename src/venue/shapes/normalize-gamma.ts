/**
 * Gamma payloads → Pelagic's market and event records. Pure; the input is already validated by its shape.
 * Outcome index 0 is Pelagic's YES side and index 1 its NO side (for sports markets the labels are team
 * names, the order is the venue's).
 */
import { categoryFromTags, type Category } from "../categories.js";
import { parseVenueTime, toMicro, toMicroOrNull } from "../units.js";
import type { GammaEvent, GammaEventSummary, GammaMarket, GammaTag } from "./gamma.js";
import { parseJsonStringArray } from "./shape.js";

export type Resolution = "YES" | "NO" | "50-50";

export type Normalized<T> = { ok: true; record: T } | { ok: false; reason: string };

export interface MarketFeeSchedule {
  /** `feeSchedule.rate`: taker fee = shares × rate × (p × (1 − p))^exponent. */
  readonly rate: number;
  readonly exponent: number;
  readonly takerOnly: boolean;
  readonly rebateRate: number;
}

export interface MarketRecord {
  readonly id: string;
  /** Lower-case 0x hex. */
  readonly conditionId: string;
  readonly question: string;
  readonly slug: string;
  readonly outcomeLabels: readonly [string, string];
  /** Decimal uint256 strings, as the venue writes them. */
  readonly yesTokenId: string;
  readonly noTokenId: string;
  /** `outcomePrices` in micro-units (1_000_000 = 1.00); null when the market has none yet. */
  readonly yesPriceMicro: number | null;
  readonly noPriceMicro: number | null;
  readonly active: boolean;
  readonly closed: boolean;
  /** Unix seconds. */
  readonly startTime: number | null;
  readonly endTime: number | null;
  readonly closedTime: number | null;
  readonly umaResolutionStatus: string | null;
  /** Settled outcome; null while open or closed-but-pending. */
  readonly resolution: Resolution | null;
  readonly negRisk: boolean;
  readonly negRiskMarketId: string | null;
  readonly negRiskRequestId: string | null;
  readonly negRiskOther: boolean;
  readonly groupItemTitle: string | null;
  readonly feesEnabled: boolean | null;
  /** The taker fee rate: 0 when fees are disabled, null when the market states no schedule. */
  readonly feeRate: number | null;
  readonly feeSchedule: MarketFeeSchedule | null;
  readonly category: Category | null;
  readonly tagSlugs: readonly string[];
  readonly eventId: string | null;
  readonly eventSlug: string | null;
  /** USD amounts in micro-units. */
  readonly volumeMicro: number | null;
  readonly volume24hrMicro: number | null;
  readonly liquidityMicro: number | null;
  /** Prices in micro-units. */
  readonly bestBidMicro: number | null;
  readonly bestAskMicro: number | null;
  readonly lastTradePriceMicro: number | null;
  /** The exchange generation the market trades on. */
  readonly version: "v1" | "v2" | null;
}

export interface EventRecord {
  readonly id: string;
  readonly slug: string;
  readonly title: string | null;
  readonly category: Category | null;
  readonly tagSlugs: readonly string[];
  readonly active: boolean | null;
  readonly closed: boolean | null;
  readonly startTime: number | null;
  readonly endTime: number | null;
  readonly negRisk: boolean;
  readonly negRiskMarketId: string | null;
  readonly enableNegRisk: boolean;
  readonly negRiskAugmented: boolean;
  readonly openInterestMicro: number | null;
  readonly volumeMicro: number | null;
  readonly marketIds: readonly string[];
}

export interface NormalizedEvent {
  readonly event: EventRecord;
  readonly markets: readonly MarketRecord[];
  /** Markets of the event that could not be normalized, with the reason (to log and count). */
  readonly rejectedMarkets: readonly { readonly id: string; readonly reason: string }[];
}

/**
 * Resolution per the venue's documentation: closed, UMA status "resolved" (or absent, for markets settled before UMA), and
 * prices exactly 1/0, 0/1 or 0.5/0.5. Anything else closed is pending (e.g. "proposed", "disputed").
 */
export function resolutionOf(
  closed: boolean,
  umaResolutionStatus: string | null,
  prices: readonly [number, number] | null,
): Resolution | null {
  if (!closed || prices === null) return null;
  if (umaResolutionStatus !== null && umaResolutionStatus !== "resolved") return null;
  const [yes, no] = prices;
  if (yes === 1_000_000 && no === 0) return "YES";
  if (yes === 0 && no === 1_000_000) return "NO";
  if (yes === 500_000 && no === 500_000) return "50-50";
  return null;
}

function tagSlugsOf(tags: readonly GammaTag[] | null | undefined): string[] {
  return (tags ?? []).map((t) => (t.slug || t.label || String(t.id)).toLowerCase());
}

function pair<T>(items: readonly T[] | null): readonly [T, T] | null {
  return items !== null && items.length === 2 ? [items[0] as T, items[1] as T] : null;
}

export function normalizeGammaMarket(market: GammaMarket, parentEvent?: GammaEventSummary): Normalized<MarketRecord> {
  try {
    return buildMarketRecord(market, parentEvent);
  } catch (error) {
    // toMicro refuses amounts beyond 2^53 micro-units: a malformed record, not a crash.
    return { ok: false, reason: `market ${market.id}: ${(error as Error).message}` };
  }
}

function buildMarketRecord(market: GammaMarket, parentEvent?: GammaEventSummary): Normalized<MarketRecord> {
  const labels = pair(parseJsonStringArray(market.outcomes));
  if (!labels) return { ok: false, reason: `market ${market.id}: outcomes is not a pair: ${market.outcomes}` };
  const tokens = pair(market.clobTokenIds ? parseJsonStringArray(market.clobTokenIds) : null);
  if (!tokens) return { ok: false, reason: `market ${market.id}: clobTokenIds is not a pair` };
  const priceStrings = parseJsonStringArray(market.outcomePrices) ?? [];
  if (priceStrings.length !== 0 && priceStrings.length !== 2) {
    return { ok: false, reason: `market ${market.id}: outcomePrices is not a pair: ${market.outcomePrices}` };
  }
  const prices = pair(priceStrings.map((p) => toMicro(p)));
  const event = parentEvent ?? market.events?.[0] ?? null;
  const uma = market.umaResolutionStatus || null;
  const schedule = market.feeSchedule
    ? {
        rate: market.feeSchedule.rate,
        exponent: market.feeSchedule.exponent ?? 1,
        takerOnly: market.feeSchedule.takerOnly ?? true,
        rebateRate: market.feeSchedule.rebateRate ?? 0,
      }
    : null;
  const tags = market.tags?.length ? market.tags : (event?.tags ?? []);
  return {
    ok: true,
    record: {
      id: market.id,
      conditionId: market.conditionId.toLowerCase(),
      question: market.question,
      slug: market.slug,
      outcomeLabels: labels,
      yesTokenId: tokens[0],
      noTokenId: tokens[1],
      yesPriceMicro: prices?.[0] ?? null,
      noPriceMicro: prices?.[1] ?? null,
      active: market.active,
      closed: market.closed,
      startTime: parseVenueTime(market.startDate),
      endTime: parseVenueTime(market.endDate),
      closedTime: parseVenueTime(market.closedTime),
      umaResolutionStatus: uma,
      resolution: resolutionOf(market.closed, uma, prices),
      negRisk: market.negRisk ?? false,
      negRiskMarketId: market.negRiskMarketID || null,
      negRiskRequestId: market.negRiskRequestID || null,
      negRiskOther: market.negRiskOther ?? false,
      groupItemTitle: market.groupItemTitle || null,
      feesEnabled: market.feesEnabled ?? null,
      feeRate: market.feesEnabled === false ? 0 : (schedule?.rate ?? null),
      feeSchedule: schedule,
      category: categoryFromTags(tags, market.category ?? event?.category),
      tagSlugs: tagSlugsOf(tags),
      eventId: event?.id ?? null,
      eventSlug: event?.slug ?? null,
      volumeMicro: toMicroOrNull(market.volume ?? market.volumeNum),
      volume24hrMicro: toMicroOrNull(market.volume24hr),
      liquidityMicro: toMicroOrNull(market.liquidity),
      bestBidMicro: toMicroOrNull(market.bestBid),
      bestAskMicro: toMicroOrNull(market.bestAsk),
      lastTradePriceMicro: toMicroOrNull(market.lastTradePrice),
      version: market.version ?? null,
    },
  };
}

export function normalizeGammaEvent(event: GammaEvent): NormalizedEvent {
  const markets: MarketRecord[] = [];
  const rejectedMarkets: { id: string; reason: string }[] = [];
  for (const market of event.markets ?? []) {
    const result = normalizeGammaMarket(market, event);
    if (result.ok) markets.push(result.record);
    else rejectedMarkets.push({ id: market.id, reason: result.reason });
  }
  const tags = event.tags ?? [];
  return {
    event: {
      id: event.id,
      slug: event.slug,
      title: event.title ?? null,
      category: categoryFromTags(tags, event.category) ?? mostCommonCategory(markets),
      tagSlugs: tagSlugsOf(tags),
      active: event.active ?? null,
      closed: event.closed ?? null,
      startTime: parseVenueTime(event.startDate),
      endTime: parseVenueTime(event.endDate),
      negRisk: event.negRisk ?? false,
      negRiskMarketId: event.negRiskMarketID || null,
      enableNegRisk: event.enableNegRisk ?? false,
      negRiskAugmented: event.negRiskAugmented ?? false,
      openInterestMicro: decorationMicro(event.openInterest),
      volumeMicro: decorationMicro(event.volume),
      marketIds: (event.markets ?? []).map((m) => m.id),
    },
    markets,
    rejectedMarkets,
  };
}

function mostCommonCategory(markets: readonly MarketRecord[]): Category | null {
  const counts = new Map<Category, number>();
  for (const m of markets) if (m.category) counts.set(m.category, (counts.get(m.category) ?? 0) + 1);
  let best: Category | null = null;
  for (const [category, count] of counts) if (best === null || count > (counts.get(best) ?? 0)) best = category;
  return best;
}

/** Display amounts of an event: an unreadable one becomes null rather than rejecting the event and its markets. */
function decorationMicro(value: number | string | null | undefined): number | null {
  try {
    return toMicroOrNull(value);
  } catch {
    return null;
  }
}
