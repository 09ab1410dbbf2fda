/**
 * The world's events and markets: dates, price paths, resolutions, fee schedules and identifiers.
 * Markets are numbered in event order; NegRisk events are multi-outcome groups with exactly one YES.
 */
import { alignUp } from "./chain.js";
import { ID_DOMAIN, bytes32, negRiskMarketId, negRiskQuestionId, uint256Decimal } from "./ids.js";
import { slugify } from "./names.js";
import { LatentPath, PRICE_SCALE, hazardLadder, latentLadder, negRiskPaths, type PricePath } from "./prices.js";
import type { Rng } from "./random.js";
import { CATEGORY_WEIGHTS, TEMPLATES, territoryDrafts, type EventDraft } from "./templates.js";
import {
  CATEGORIES,
  type Category,
  type FeeSchedule,
  type MarketStatus,
  type Resolution,
  type ResolvedWorldOptions,
  type WorldEvent,
  type WorldMarket,
} from "./types.js";

const DAY = 86_400;
const HOUR = 3_600;

export interface Catalog {
  events: WorldEvent[];
  markets: WorldMarket[];
  /** One YES price path per market (same index). */
  paths: PricePath[];
}

/** the venue's fee schedule rates; sports vary per market. */
function feeRateBps(category: Category, rng: Rng): number {
  switch (category) {
    case "CRYPTO":
      return 700;
    case "POLITICS":
    case "TECH":
      return 400;
    case "ECONOMICS":
      return 500;
    case "GEOPOLITICS":
      return 0;
    case "SPORTS":
      return rng.pick([0, 0, 300, 300, 400]);
  }
}

function feeSchedule(rateBps: number): FeeSchedule {
  return { rate: rateBps / 10_000, rateBps, exponent: 1, takerOnly: true, rebateRate: rateBps > 0 ? 0.25 : 0 };
}

function pickCategory(rng: Rng): Category {
  let u = rng.next();
  for (const c of CATEGORIES) {
    u -= CATEGORY_WEIGHTS[c];
    if (u < 0) return c;
  }
  return "SPORTS";
}

function pickTemplate(rng: Rng, category: Category) {
  const candidates = TEMPLATES[category];
  const total = candidates.reduce((a, t) => a + t.weight, 0);
  let u = rng.next() * total;
  for (const t of candidates) {
    u -= t.weight;
    if (u < 0) return t;
  }
  return candidates[0]!;
}

function uniqueSlug(base: string, used: Set<string>): string {
  let slug = base;
  for (let n = 2; used.has(slug); n++) slug = `${base}-${n}`;
  used.add(slug);
  return slug;
}

interface PlacedDraft {
  draft: EventDraft;
  start: number;
  end: number;
}

function draftEvents(o: ResolvedWorldOptions, rng: Rng): PlacedDraft[] {
  const placed: PlacedDraft[] = [];
  let count = 0;
  for (const t of territoryDrafts(rng, o.start, o.end, Math.floor(o.markets / 4))) {
    const last = t.draft.markets[t.draft.markets.length - 1]!.deadline!;
    placed.push({ draft: t.draft, start: t.start, end: last });
    count += t.draft.markets.length;
  }
  let guard = 0;
  while (count < o.markets && guard++ < o.markets * 20) {
    const remaining = o.markets - count;
    const category = pickCategory(rng);
    const template = pickTemplate(rng, category);
    const life = Math.max(1, rng.between(template.life[0], template.life[1])) * DAY;
    // Every event is still trading when the world begins (nothing resolves before its first block).
    const start = Math.max(Math.round(rng.between(o.start - 60 * DAY, o.end - DAY)), o.start + DAY - life);
    const draft = template.build(rng, start, start + life);
    if (draft.markets.length > remaining) {
      if (remaining < 2 || draft.model === "hazard") continue;
      draft.markets = draft.markets.slice(0, remaining);
    }
    placed.push({ draft, start, end: start + life });
    count += draft.markets.length;
  }
  return placed;
}

export function buildCatalog(o: ResolvedWorldOptions, key: readonly [number, number], rng: Rng): Catalog {
  const events: WorldEvent[] = [];
  const markets: WorldMarket[] = [];
  const paths: PricePath[] = [];
  const eventSlugs = new Set<string>();
  const marketSlugs = new Set<string>();
  const toDay = (ts: number) => (ts - o.start) / DAY;
  const fromDay = (day: number) => Math.round(o.start + day * DAY);

  for (const { draft, start, end } of draftEvents(o, rng)) {
    const eventIndex = events.length;
    const k = draft.markets.length;
    const negRisk = draft.model === "negrisk";
    const startTs = alignUp(start);
    let truths: (0 | 1)[];
    let eventPaths: PricePath[];
    let stops: number[];
    if (draft.model === "latent") {
      const r = latentLadder(
        rng,
        toDay(startTs),
        toDay(end),
        draft.markets.map((m) => m.initialPrice ?? 0.5),
      );
      truths = r.truths;
      eventPaths = r.paths;
      stops = draft.markets.map(() => end);
    } else if (draft.model === "hazard") {
      const r = hazardLadder(
        rng,
        toDay(startTs),
        draft.markets.map((m) => toDay(m.deadline ?? end)),
        draft.finalProbability ?? 0.3,
      );
      truths = r.truths;
      eventPaths = r.paths;
      stops = r.stopDays.map(fromDay);
    } else {
      const r = negRiskPaths(rng, toDay(startTs), toDay(end), k);
      truths = draft.markets.map((_, i) => (i === r.winner ? 0 : 1));
      eventPaths = r.paths;
      stops = draft.markets.map(() => end);
    }
    const eventPending = rng.chance(0.05);
    const eventSlug = uniqueSlug(slugify(draft.title), eventSlugs);
    const image = `https://polymarket-upload.s3.us-east-2.amazonaws.com/${eventSlug}.png`;
    const nrMarketId = negRisk ? negRiskMarketId(key, eventIndex) : null;
    const category = categoryOf(draft);
    const rateBps = feeRateBps(category, rng);
    const eventPopularity = draft.popularity * rng.logNormal(1, 0.9);
    const marketIndexes: number[] = [];

    for (let q = 0; q < k; q++) {
      const md = draft.markets[q]!;
      const index = markets.length;
      const path = eventPaths[q]!;
      const deadline = md.deadline ?? end;
      const tradingStop = alignUp(stops[q]!);
      let truth: 0 | 1 | 2 = truths[q]!;
      let status: MarketStatus = "open";
      let resolution: Resolution | null = null;
      let resolvedAt: number | null = null;
      if (tradingStop <= o.end) {
        const at = alignUp(tradingStop + Math.round(rng.between(1, 30) * HOUR));
        if (eventPending || at >= o.end) status = "pending";
        else {
          status = "resolved";
          resolvedAt = at;
          if (path instanceof LatentPath && k === 1 && rng.chance(0.03)) {
            truth = 2;
            path.fiftyFifty = true;
          }
          resolution = truth === 0 ? "YES" : truth === 1 ? "NO" : "50-50";
        }
      }
      const initialYes = path.yesAt(toDay(startTs)) / PRICE_SCALE;
      const popularity =
        eventPopularity * rng.logNormal(1, 0.6) * (negRisk ? (0.3 + 2.5 * initialYes) / Math.sqrt(k) : 1);
      const slug = uniqueSlug(slugify(md.question), marketSlugs);
      markets.push({
        index,
        id: String(500_000 + index * 7 + rng.int(7)),
        conditionId: bytes32(key, ID_DOMAIN.condition, index),
        questionId: nrMarketId ? negRiskQuestionId(nrMarketId, q) : bytes32(key, ID_DOMAIN.question, index),
        yesTokenId: uint256Decimal(key, ID_DOMAIN.tokenYes, index),
        noTokenId: uint256Decimal(key, ID_DOMAIN.tokenNo, index),
        eventIndex,
        slug,
        question: md.question,
        description: draft.description,
        groupItemTitle: md.groupItemTitle,
        image,
        category,
        tags: draft.tags,
        negRisk,
        negRiskMarketId: nrMarketId,
        negRiskQuestionIndex: negRisk ? q : null,
        fee: feeSchedule(rateBps),
        createdAt: alignUp(startTs - Math.round(rng.between(0, 2) * DAY)),
        startDate: startTs,
        endDate: alignUp(deadline),
        tradingStop,
        status,
        resolution,
        resolvedAt,
        truth,
        popularity,
        territory: md.territory ?? null,
      });
      paths.push(path);
      marketIndexes.push(index);
    }
    events.push({
      index: eventIndex,
      id: String(20_000 + eventIndex * 3 + rng.int(3)),
      slug: eventSlug,
      title: draft.title,
      description: draft.description,
      category,
      tags: draft.tags,
      kind: negRisk ? "negrisk" : k > 1 ? "ladder" : "single",
      negRisk,
      negRiskMarketId: nrMarketId,
      convertFeeBips: negRisk && rng.chance(0.15) ? rng.pick([10, 20, 50]) : 0,
      marketIndexes,
      startDate: startTs,
      endDate: alignUp(end),
      image,
    });
  }
  return { events, markets, paths };
}

function categoryOf(draft: EventDraft): Category {
  const first = draft.tags[0]?.slug;
  switch (first) {
    case "sports":
      return "SPORTS";
    case "crypto":
      return "CRYPTO";
    case "politics":
      return "POLITICS";
    case "geopolitics":
      return "GEOPOLITICS";
    case "economy":
      return "ECONOMICS";
    default:
      return "TECH";
  }
}
