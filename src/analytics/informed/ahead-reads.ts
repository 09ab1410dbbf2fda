/**
 * Ahead of the news (issue 52): for the territory monitor's events that can move a market (a capture, a threat
 * turning critical or high), the markets their slug pattern links to, how each moved across the event, and the
 * wallets that had traded toward that move in the hours before, with their fills as evidence. The rule:
 * src/ledger/ahead-of-news.ts; the settings: AHEAD_* (src/config/sections/informed.ts).
 */
import { sql } from "kysely";
import type { Config } from "../../config/index.js";
import { eventView, isoTime, type EventRow } from "../../isw/event-view.js";
import { likePattern } from "../../isw/read-model.js";
import { iswDb } from "../../isw/tables.js";
import { aheadOfNews, yesPrice, type AheadRules, type AheadWallet, type NewsTrade } from "../../ledger/index.js";
import type { OutcomeIndex } from "../../ledger/types.js";
import type { Store } from "../../store/database.js";
import { marketFillBefore } from "../../store/fills.js";
import { isProtocolAddress } from "../../venue/contracts.js";
import { MICRO } from "../../venue/units.js";

const DAY = 86_400;
const HOUR = 3_600;
/** The events that say the front line reached a place: the news a territory market trades on. */
export const NEWS_EVENT_TYPES = ["CAPTURED", "THREAT_CRITICAL", "THREAT_HIGH"] as const;
/** The list reads at most this many events, the latest first. */
const MAX_EVENTS = 500;
/** A slug pattern links at most this many markets (a place's deadlines). */
const MAX_LINKED_MARKETS = 50;

const outcomeName = (index: OutcomeIndex) => (index === 0 ? ("YES" as const) : ("NO" as const));
const round6 = (n: number) => Math.round(n * MICRO) / MICRO;
const cents = (n: number) => Math.round(n * 100) / 100;

function walletView(w: AheadWallet) {
  return {
    wallet: w.wallet,
    outcome: outcomeName(w.outcomeIndex),
    shares: round6(w.shares),
    usd: cents(w.usd),
    avg_price: round6(w.avgPrice),
    gain_usd: cents(w.gainUsd),
    first_ts: w.firstTs,
    last_ts: w.lastTs,
    lead_hours: Math.round(w.leadHours * 100) / 100,
    fills: w.trades.map((t) => ({
      tx_hash: t.txHash,
      ts: t.ts,
      outcome: outcomeName(t.outcomeIndex),
      side: t.side,
      settlement: t.entryType,
      size: t.size / MICRO,
      price: t.price,
      usd: t.usd / MICRO,
    })),
  };
}

/**
 * One event per subscription and moment: reaching CRITICAL records THREAT_CRITICAL and CAPTURED together, the same
 * news; the capture stands for both. `rows` come the latest first.
 */
function onePerMoment(rows: readonly EventRow[]): EventRow[] {
  const rank = (row: EventRow) => NEWS_EVENT_TYPES.indexOf(row.event_type as (typeof NEWS_EVENT_TYPES)[number]);
  const kept = new Map<string, EventRow>();
  for (const row of rows) {
    const key = `${row.subscription_id}@${row.created_at}`;
    const held = kept.get(key);
    if (!held || rank(row) < rank(held)) kept.set(key, row);
  }
  return [...kept.values()];
}

export interface AheadFilter {
  readonly days: number;
  readonly city: string | null;
  readonly market: string | null;
  readonly wallet: string | null;
  readonly minUsd: number;
  readonly limit: number;
}

export class AheadOfNewsReads {
  private readonly rules: AheadRules;

  constructor(
    private readonly store: Store,
    config: Pick<Config, "aheadOfNews">,
    private readonly now: () => number,
  ) {
    this.rules = { ...config.aheadOfNews };
  }

  /** One event's linked markets and who traded ahead of it; null when there is no such event. */
  async event(eventId: number, minUsd = this.rules.minUsd) {
    const row = await iswDb(this.store.db)
      .selectFrom("isw_events")
      .selectAll()
      .where("id", "=", eventId)
      .executeTakeFirst();
    if (!row) return null;
    const rules = { ...this.rules, minUsd };
    return {
      event: eventView(row),
      news_event: (NEWS_EVENT_TYPES as readonly string[]).includes(row.event_type),
      ...this.rulesView(rules),
      markets: await this.marketsAround(row, rules),
    };
  }

  /** The wallets named ahead of the recent events, the latest event first and the largest within it. */
  async signals(filter: AheadFilter) {
    let events = iswDb(this.store.db)
      .selectFrom("isw_events")
      .selectAll()
      .where("event_type", "in", NEWS_EVENT_TYPES)
      .where("created_at", ">=", this.now() - filter.days * DAY);
    if (filter.city) events = events.where(sql<boolean>`lower(city) = ${filter.city.toLowerCase()}`);
    const rows = await events.orderBy("created_at", "desc").orderBy("id", "desc").limit(MAX_EVENTS).execute();
    const rules = { ...this.rules, minUsd: filter.minUsd };
    const signals = [];
    for (const row of onePerMoment(rows)) {
      for (const market of await this.marketsAround(row, rules, filter.market)) {
        const { wallets, ...evidence } = market;
        for (const wallet of wallets) {
          if (filter.wallet && wallet.wallet !== filter.wallet) continue;
          signals.push({
            event: {
              id: row.id,
              event_type: row.event_type,
              city: row.city,
              subscription_label: row.subscription_label,
              timestamp: isoTime(row.created_at),
            },
            ...evidence,
            ...wallet,
          });
          if (signals.length === filter.limit) return this.list(filter, signals);
        }
      }
    }
    return this.list(filter, signals);
  }

  private list<T>(filter: AheadFilter, signals: T[]) {
    return {
      days: filter.days,
      ...this.rulesView({ ...this.rules, minUsd: filter.minUsd }),
      count: signals.length,
      signals,
    };
  }

  private rulesView(rules: AheadRules) {
    return {
      hours_before: rules.hoursBefore,
      hours_after: rules.hoursAfter,
      min_move: rules.minMove,
      min_usd: rules.minUsd,
    };
  }

  /**
   * The markets the event's slug pattern links to (only `market`, its condition or market id, when given) that traded
   * around it, each with its move and wallets.
   */
  private async marketsAround(event: EventRow, rules: AheadRules, market: string | null = null) {
    let linked = this.store.db
      .selectFrom("markets")
      .select(["id", "condition_id", "question", "slug"])
      .where(sql<boolean>`slug like ${likePattern(event.market_slug_pattern)} escape '\\'`);
    if (market) linked = linked.where((eb) => eb.or([eb("condition_id", "=", market), eb("id", "=", market)]));
    const markets = await linked.orderBy("end_date").orderBy("id").limit(MAX_LINKED_MARKETS).execute();
    const out = [];
    for (const market of markets) {
      const trades = await this.trades(market.condition_id, event.created_at, rules);
      if (trades.length === 0) continue;
      const opening = await this.priceBefore(market.condition_id, event.created_at - rules.hoursBefore * HOUR);
      const found = aheadOfNews(trades, event.created_at, rules, opening);
      const { move } = found;
      out.push({
        condition_id: market.condition_id,
        market_id: market.id,
        market_title: market.question,
        slug: market.slug,
        price_window_start: move.priceWindowStart,
        price_before: move.priceBefore,
        price_after: move.priceAfter,
        move: move.move,
        moved_to: move.rising === null ? null : outcomeName(move.rising),
        wallets: found.wallets.map(walletView),
      });
    }
    return out;
  }

  /** The market's fills from the window's start to `hoursAfter` after the event, in time order. */
  private async trades(conditionId: string, eventTs: number, rules: AheadRules): Promise<NewsTrade[]> {
    const rows = await this.store.db
      .selectFrom("fills")
      .select(["wallet", "tx_hash", "ts", "outcome_index", "side", "size", "usd", "price", "entry_type"])
      .where("condition_id", "=", conditionId)
      .where("ts", ">=", eventTs - Math.round(rules.hoursBefore * HOUR))
      .where("ts", "<=", eventTs + Math.round(rules.hoursAfter * HOUR))
      .orderBy("ts")
      .orderBy("id")
      .execute();
    return rows
      .filter((r) => !isProtocolAddress(r.wallet))
      .map((r) => ({
        wallet: r.wallet,
        txHash: r.tx_hash,
        ts: Number(r.ts),
        outcomeIndex: Number(r.outcome_index) as OutcomeIndex,
        side: r.side,
        size: Number(r.size),
        usd: Number(r.usd),
        price: Number(r.price),
        entryType: r.entry_type,
      }));
  }

  /** The YES price of the market's last fill before `ts`. */
  private async priceBefore(conditionId: string, ts: number): Promise<number | null> {
    const row = await marketFillBefore(this.store, conditionId, ts);
    return row ? yesPrice({ outcomeIndex: Number(row.outcome_index) as OutcomeIndex, price: Number(row.price) }) : null;
  }
}
