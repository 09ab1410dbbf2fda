/**
 * Hand-built worlds for the Premium whale routes: stored rows written directly (events, markets, wallets,
 * wallet_stats, positions, daily position snapshots, fills), so that each test's expected answer can be worked out
 * by hand from the rows it wrote. The app runs over a real store (SQLite, or PostgreSQL with TEST_DATABASE_URL).
 */
import { createKey } from "../../../src/accounts/keys.js";
import { insertRows } from "../../../src/store/derived-tables.js";
import { addSnapshotRows } from "../../../src/store/position-snapshots.js";
import { insertFills, type NewFill } from "../../../src/store/fills.js";
import { openTestApp, type TestApp } from "../app.js";
import type { StoreBackend } from "../backends.js";

/** 2026-06-10 12:00:00 UTC. */
export const NOW = Date.UTC(2026, 5, 10, 12) / 1000;
export const DAY = 86_400;
export const TODAY = Math.floor(NOW / DAY) * DAY;
const MICRO = 1e6;

export interface WhaleWorld extends TestApp {
  readonly key: string;
  /** GET with the Premium key in X-API-Key. */
  get<T = any>(url: string, headers?: Record<string, string>): Promise<{ status: number; body: T }>;
}

export async function openWhaleWorld(
  storeBackend: StoreBackend,
  env: Record<string, string> = {},
): Promise<WhaleWorld> {
  const t = await openTestApp({ storeBackend, env });
  t.clock.set(NOW * 1000);
  const { key } = await createKey(t.store.db, { account: "whale-world", plan: "premium", now: NOW });
  return {
    ...t,
    key,
    async get(url, headers = { "x-api-key": key }) {
      const res = await t.app.inject({ method: "GET", url, headers });
      return { status: res.statusCode, body: JSON.parse(res.body) };
    },
  };
}

/** Inserts a row of the columns given; the table's defaults fill the others (Kysely's types ask for every column). */
async function insert(
  t: TestApp,
  table: "events" | "markets" | "wallets" | "wallet_stats",
  row: Record<string, unknown>,
): Promise<void> {
  await t.store.db
    .insertInto(table)
    .values(row as never)
    .execute();
}

/** A fill, through the store's write path (fills are stored compact: src/store/fill-layout.ts). */
async function insertFill(t: TestApp, fill: NewFill): Promise<void> {
  await t.store.transaction((tx) => insertFills(tx, [fill]));
}

/** A wallet address from a small number. */
export const wallet = (n: number) => `0x${n.toString(16).padStart(40, "0")}`;
/** A condition id from a small number. */
export const condition = (n: number) => `0x${n.toString(16).padStart(64, "0")}`;

export async function addEvent(
  t: TestApp,
  e: { id: string; slug: string; title?: string; category?: string },
): Promise<void> {
  await insert(t, "events", {
    id: e.id,
    slug: e.slug,
    title: e.title ?? e.slug,
    category: e.category ?? null,
    updated_at: NOW,
  });
}

export async function addMarket(
  t: TestApp,
  m: { n: number; question?: string; eventId?: string; category?: string; priceYes?: number | null },
): Promise<{ id: string; condition_id: string; slug: string }> {
  const row = {
    id: String(1000 + m.n),
    condition_id: condition(m.n),
    slug: `market-${m.n}`,
    question: m.question ?? `Question ${m.n}?`,
  };
  const priceYes = m.priceYes === undefined ? 0.5 : m.priceYes;
  await insert(t, "markets", {
    ...row,
    event_id: m.eventId ?? null,
    category: m.category ?? "POLITICS",
    yes_token_id: `${m.n}01`,
    no_token_id: `${m.n}02`,
    price_yes: priceYes,
    price_no: priceYes === null ? null : 1 - priceYes,
    updated_at: NOW,
  });
  return row;
}

/** A wallet with statistics: smart unless told otherwise. */
export async function addWhale(
  t: TestApp,
  w: { n: number; name?: string | null; smart?: boolean; farmer?: boolean; winRate?: number; totalPnl?: number },
): Promise<string> {
  const address = wallet(w.n);
  await insert(t, "wallets", {
    address,
    name: w.name === undefined ? `whale-${w.n}` : w.name,
    pseudonym: null,
    updated_at: NOW,
  });
  await insert(t, "wallet_stats", {
    wallet: address,
    computed_at: NOW,
    is_smart: w.smart === false ? 0 : 1,
    is_farmer: w.farmer ? 1 : 0,
    win_rate: w.winRate ?? 60,
    total_pnl: w.totalPnl ?? 1_000,
  });
  return address;
}

/** An open position of `shares` at `avgPrice` (cost = shares × avgPrice USD). */
export async function addPosition(
  t: TestApp,
  p: { wallet: string; market: number; outcome: 0 | 1; shares: number; avgPrice: number; status?: "open" | "closed" },
): Promise<void> {
  // Stored by ids through the derived tables' writer (src/store/id-keyed.ts).
  const position = {
    wallet: p.wallet,
    token_id: `${p.market}0${p.outcome + 1}`,
    condition_id: condition(p.market),
    outcome_index: p.outcome,
    shares: Math.round(p.shares * MICRO),
    avg_price: p.avgPrice,
    total_bought: Math.round(p.shares * MICRO),
    realized_pnl: 0,
    fees: 0,
    first_ts: NOW - 30 * DAY,
    last_ts: NOW - DAY,
    closed_ts: p.status === "closed" ? NOW - DAY : null,
    status: p.status ?? ("open" as const),
  };
  await t.store.transaction((tx) => insertRows(tx, "positions", [position]));
}

export async function addSnapshot(
  t: TestApp,
  s: { day: number; wallet: string; market: number; yesCost: number; noCost: number },
): Promise<void> {
  // Stored as a run of the day (src/store/position-snapshots.ts).
  await t.store.transaction((tx) =>
    addSnapshotRows(tx, [
      {
        day: s.day,
        wallet: s.wallet,
        condition_id: condition(s.market),
        yes_shares: Math.round(s.yesCost * 2 * MICRO),
        yes_cost: s.yesCost,
        no_shares: Math.round(s.noCost * 2 * MICRO),
        no_cost: s.noCost,
      },
    ]),
  );
}

let fills = 0;

/** A fill of `usd` USD at `price` (shares = usd / price). */
export async function addFill(
  t: TestApp,
  f: {
    wallet: string;
    market: number;
    ts: number;
    usd: number;
    outcome?: 0 | 1;
    side?: "BUY" | "SELL";
    price?: number;
    role?: "maker" | "taker" | null;
    entryType?: "MINT" | "MERGE" | "COMPLEMENTARY" | null;
  },
): Promise<string> {
  const n = ++fills;
  const price = f.price ?? 0.5;
  const tx = `0x${n.toString(16).padStart(64, "a")}`;
  await insertFill(t, {
    fill_key: `test:${n}`,
    source: "chain",
    tx_hash: tx,
    log_index: n,
    wallet: f.wallet,
    role: f.role === undefined ? "taker" : f.role,
    condition_id: condition(f.market),
    token_id: `${f.market}0${(f.outcome ?? 0) + 1}`,
    outcome_index: f.outcome ?? 0,
    side: f.side ?? "BUY",
    size: Math.round((f.usd / price) * MICRO),
    usd: Math.round(f.usd * MICRO),
    price,
    fee: 0,
    ts: f.ts,
    entry_type: f.entryType === undefined ? "MINT" : f.entryType,
  });
  return tx;
}

/** Tells the API processes that wallet_stats was rewritten (as a Deriver refresh does). */
export async function bumpStatsGeneration(t: TestApp): Promise<void> {
  const row = await t.store.db
    .selectFrom("derive_state")
    .select("value")
    .where("name", "=", "stats_generation")
    .executeTakeFirst();
  if (row)
    await t.store.db
      .updateTable("derive_state")
      .set({ value: Number(row.value) + 1 })
      .where("name", "=", "stats_generation")
      .execute();
  else await t.store.db.insertInto("derive_state").values({ name: "stats_generation", value: 1 }).execute();
}
