/**
 * A batch's matched fills, as the matcher stores them in the ingest's transaction: one `alert_matches` row, the
 * least that transaction can write (each fill's facts and the ids of the rules it matched, as JSON arrays). A
 * delivery worker fans the rows out (`fanOutMatches`), in one transaction: rows taken (deleted; PostgreSQL skips
 * those another process is taking), each rule read as it is now (one paused or deleted meanwhile alerts nobody; its
 * destinations that are active now), the category filters applied once the markets are read, a delivery stored per
 * (rule, destination, fill) under the unique key. The rows go and their deliveries come in one commit, and the key
 * keeps one delivery per (rule, destination, event) whoever stores it again.
 */
import type { Store, StoreTransaction } from "../store/database.js";
import { inSlices, placeholders, queryRows } from "../store/raw-sql.js";
import type { FillsTable } from "../store/schema.js";
import { parseCategory, type Category } from "../venue/categories.js";
import { fromMicro } from "../venue/units.js";
import { alertLinks, type AlertEvent, type AlertTrade } from "./alert-event.js";
import { insertDeliveries, ruleDeliveries } from "./delivery-rows.js";
import { ruleOf, type Rule } from "./rules.js";
import { alertsDb } from "./tables.js";

export type MatchedFill = Pick<
  FillsTable,
  "fill_key" | "tx_hash" | "wallet" | "condition_id" | "outcome_index" | "side" | "size" | "usd" | "price" | "ts"
>;

/** A fill and what it matched: rule ids, and the price moves it completed. */
export interface FillMatch {
  readonly fill: MatchedFill;
  readonly rules: readonly number[];
  readonly moves: readonly { readonly rule: number; readonly from: number; readonly to: number }[];
}

type EncodedMatch = [
  fill_key: string,
  tx_hash: string,
  wallet: string,
  condition_id: string,
  outcome_index: number,
  side: "BUY" | "SELL",
  size: number,
  usd: number,
  price: number,
  ts: number,
  rules: number[],
  moves: number[],
];

export function encodeMatches(matches: readonly FillMatch[]): string {
  return JSON.stringify(
    matches.map(({ fill: f, rules, moves }): EncodedMatch => {
      const flatMoves: number[] = [];
      for (const m of moves) flatMoves.push(m.rule, m.from, m.to);
      return [
        f.fill_key,
        f.tx_hash,
        f.wallet,
        f.condition_id,
        f.outcome_index,
        f.side,
        f.size,
        f.usd,
        f.price,
        f.ts,
        rules as number[],
        flatMoves,
      ];
    }),
  );
}

export function decodeMatches(text: string): FillMatch[] {
  return (JSON.parse(text) as EncodedMatch[]).map(
    ([fill_key, tx_hash, wallet, condition_id, outcome_index, side, size, usd, price, ts, rules, flat]) => {
      const moves = [];
      for (let i = 0; i < flat.length; i += 3) moves.push({ rule: flat[i]!, from: flat[i + 1]!, to: flat[i + 2]! });
      const fill = { fill_key, tx_hash, wallet, condition_id, outcome_index, side, size, usd, price, ts };
      return { fill, rules, moves };
    },
  );
}

/** Stores a batch's matches in its transaction: one row. */
export async function storeMatches(tx: StoreTransaction, matches: readonly FillMatch[], nowMs: number) {
  await alertsDb(tx.db)
    .insertInto("alert_matches")
    .values({ created_at_ms: nowMs, fills: encodeMatches(matches) })
    .execute();
}

interface MarketFacts {
  readonly id: string;
  readonly question: string;
  readonly category: Category | null;
}

async function readMarkets(tx: StoreTransaction, conditionIds: string[]): Promise<Map<string, MarketFacts>> {
  const rows = await inSlices(conditionIds, (slice) =>
    queryRows<{ condition_id: string; id: string; question: string; category: string | null }>(
      tx.db,
      tx.kind,
      `select condition_id, id, question, category from markets where condition_id in ${placeholders(slice.length)}`,
      slice,
    ),
  );
  return new Map(
    rows.map((row) => [
      row.condition_id,
      { id: row.id, question: row.question, category: row.category ? (parseCategory(row.category) ?? null) : null },
    ]),
  );
}

function tradeOf(fill: MatchedFill, market: MarketFacts | undefined): AlertTrade {
  return {
    wallet: fill.wallet,
    side: fill.side,
    outcome: fill.outcome_index === 0 ? "YES" : "NO",
    shares: fromMicro(fill.size),
    price: fill.price,
    usd: fromMicro(fill.usd),
    condition_id: fill.condition_id,
    market_id: market?.id ?? null,
    market_question: market?.question ?? null,
    category: market?.category ?? null,
    tx_hash: fill.tx_hash,
    ts: fill.ts,
  };
}

const unique = <T>(values: Iterable<T>): T[] => [...new Set(values)];

/**
 * Fans out up to `rows` stored matches into their deliveries, in one transaction; returns how many match rows it
 * took (0: none left) and how many deliveries it stored.
 */
export async function fanOutMatches(
  store: Store,
  dashboardUrl: string,
  rows = 2,
): Promise<{ taken: number; stored: number }> {
  return store.transaction(async (tx) => {
    const db = alertsDb(tx.db);
    let oldest = db.selectFrom("alert_matches").select("id").orderBy("id").limit(rows);
    if (tx.kind === "postgres") oldest = oldest.forUpdate().skipLocked();
    // Taken by deleting them, first: on SQLite the transaction then holds the write lock before it reads.
    const taken = await db.deleteFrom("alert_matches").where("id", "in", oldest).returningAll().execute();
    if (taken.length === 0) return { taken: 0, stored: 0 };
    const matched = taken.flatMap((row) =>
      decodeMatches(row.fills).map((match) => ({ ...match, createdAtMs: Number(row.created_at_ms) })),
    );
    const ruleIds = unique(matched.flatMap((m) => [...m.rules, ...m.moves.map((move) => move.rule)]));
    const rules = new Map<number, Rule>();
    for (const row of await inSlices(ruleIds, (slice) =>
      db.selectFrom("alert_rules").selectAll().where("id", "in", slice).where("status", "=", "active").execute(),
    ))
      rules.set(Number(row.id), ruleOf(row));
    const destinationIds = unique([...rules.values()].flatMap((rule) => rule.destination_ids));
    const active = new Set(
      (
        await inSlices(destinationIds, (slice) =>
          db
            .selectFrom("alert_destinations")
            .select("id")
            .where("id", "in", slice)
            .where("status", "=", "active")
            .execute(),
        )
      ).map((d) => Number(d.id)),
    );
    const markets = await readMarkets(tx, unique(matched.map((m) => m.fill.condition_id)));
    const deliveries = [];
    for (const { fill, rules: matchedRules, moves, createdAtMs } of matched) {
      const market = markets.get(fill.condition_id);
      const category = market?.category ?? null;
      const trade = tradeOf(fill, market);
      const links = alertLinks(dashboardUrl, fill.wallet, trade.market_id);
      const told = [
        ...matchedRules.map((id) => ({ id, move: undefined })),
        ...moves.map((m) => ({ id: m.rule, move: m })),
      ];
      for (const { id, move } of told) {
        const rule = rules.get(id);
        if (!rule) continue;
        const { categories } = rule.filters;
        if (categories.length > 0 && !(category && categories.includes(category))) continue;
        const event: AlertEvent = {
          type: `alert.${rule.kind}`,
          rule: { id: rule.id, name: rule.name, kind: rule.kind },
          trade,
          links,
          ...(move
            ? { move: { from: move.from, to: move.to, window_minutes: rule.filters.window_minutes ?? 60 } }
            : {}),
          test: false,
        };
        const destinations = rule.destination_ids.filter((d) => active.has(d));
        deliveries.push(
          ...ruleDeliveries(rule, destinations, {
            key: fill.fill_key,
            payload: JSON.stringify(event),
            nowMs: createdAtMs,
          }),
        );
      }
    }
    const stored = await insertDeliveries(db, deliveries);
    return { taken: taken.length, stored };
  });
}
