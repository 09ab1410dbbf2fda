/**
 * Migration 0056 (src/store/migrations/0056_coded_derived_tables.ts): `wallet_fee_rows` and `wallet_last_move_rows`
 * store their month and enum texts as codes (src/store/coded-columns.ts), `market_daily_prices` moves to
 * `market_daily_price_rows` by market id. A store written in the layout before migrates: the views and the store's
 * reads give what they gave, the rows hold the codes and ids (integers, not texts), and rows written after through the
 * derived tables' writer read back alike. On SQLite, and on PostgreSQL with TEST_DATABASE_URL.
 */
import { describe, expect, it } from "vitest";
import { migrationsBefore, storeBackends } from "../../test/support/backends.js";
import type { Store } from "./database.js";
import { insertRows, upsertRows } from "./derived-tables.js";
import { marketDailyPricesStamp, readMarketDailyPrices } from "./market-daily-prices.js";
import { migrateStore } from "./migrate.js";
import { queryRows } from "./raw-sql.js";
import type { MarketDailyPricesTable, WalletFeesTable, WalletLastMovesTable } from "./schema.js";
import { readWalletFees } from "./wallet-fees.js";
import { readWalletLastMoves } from "./wallet-last-moves.js";

const WALLETS = [`0x${"a".repeat(40)}`, `0x${"b".repeat(40)}`, `0x${"c".repeat(40)}`];
const MARKETS = [1, 2, 3, 4].map((i) => `0x${String(i).repeat(64)}`);
const MONTHS = ["1970-01", "2025-12", "2026-01", "2026-08", "2099-12"];
/** The codes the rows must hold, written out here rather than taken from the code under test. */
const ENTRY_CODES = { MINT: 0, MERGE: 1, COMPLEMENTARY: 2, UNCLASSIFIED: 3 } as const;
const ROLE_CODES = { maker: 0, taker: 1, unknown: 2 } as const;
const SIDE_CODES = { BUY: 0, SELL: 1 } as const;
const ENTRY_TYPES = Object.keys(ENTRY_CODES) as (keyof typeof ENTRY_CODES)[];
const ROLES = Object.keys(ROLE_CODES) as (keyof typeof ROLE_CODES)[];

/** Months since January 1970, from the calendar. */
const monthsSince1970 = (month: string) => {
  const date = new Date(`${month}-01T00:00:00Z`);
  return (date.getUTCFullYear() - 1970) * 12 + date.getUTCMonth();
};

/** Every wallet, month, entry type and role, with sums that tell the rows apart. */
const FEES: WalletFeesTable[] = WALLETS.flatMap((wallet, w) =>
  MONTHS.flatMap((month, m) =>
    ENTRY_TYPES.flatMap((entry_type, e) =>
      ROLES.map((role, r) => {
        const n = ((w * 5 + m) * 4 + e) * 3 + r + 1;
        return { wallet, month, entry_type, role, fees: n * 7, volume: n * 1_000_003, fills: n, charged: n % 4 };
      }),
    ),
  ),
);

/** Each wallet's last move in each market, sides and entry types (null among them) taking turns. */
const MOVES: WalletLastMovesTable[] = WALLETS.flatMap((wallet, w) =>
  MARKETS.map((condition_id, m) => {
    const n = w * 4 + m;
    return {
      wallet,
      condition_id,
      ts: 1_770_000_000 + n * 61,
      fill_id: 1_000 - n,
      side: n % 2 === 0 ? "BUY" : "SELL",
      outcome_index: n % 2,
      entry_type: [null, "MINT", "MERGE", "COMPLEMENTARY"][n % 4] as WalletLastMovesTable["entry_type"],
      size: 10_000 + n,
      usd: 5_000 + n,
      price: 0.1 + 0.2 * (n / 12),
    };
  }),
);

/** Each market's prices on a few days, with doubles that must read back bit for bit. */
const PRICES: MarketDailyPricesTable[] = MARKETS.slice(0, 3).flatMap((condition_id, m) =>
  [0, 1, 5].map((d) => ({
    condition_id,
    day: 1_769_990_400 + d * 86_400,
    weighted: (0.1 + 0.2) * (m + 1) * 1_000_001,
    shares: 1_000_001 * (m + 1),
    trades: 3 + d,
    usd: 700_000 + d,
    close_ts: 1_769_990_400 + d * 86_400 + 3_600,
    close_id: 50 * m + d,
    close_yes: 1 / 3 + d / 100,
  })),
);

const run = (store: Store, text: string, params: readonly unknown[] = []) =>
  queryRows<Record<string, unknown>>(store.db, store.kind, text, params);

/** The rows as the layout before 0056 held them: texts in the fees' and last moves' rows, a table of texts for prices. */
async function writeBefore0056(store: Store): Promise<void> {
  for (const [table, column, values] of [
    ["address_ids", "address", WALLETS],
    ["condition_ids", "condition_id", MARKETS],
  ] as const)
    for (const value of values) await run(store, `insert into ${table} (${column}) values (?)`, [value]);
  const wallet = "(select id from address_ids where address = ?)";
  const market = "(select id from condition_ids where condition_id = ?)";
  for (const f of FEES)
    await run(
      store,
      `insert into wallet_fee_rows (wallet_id, month, entry_type, role, fees, volume, fills, charged)
        values (${wallet}, ?, ?, ?, ?, ?, ?, ?)`,
      [f.wallet, f.month, f.entry_type, f.role, f.fees, f.volume, f.fills, f.charged],
    );
  for (const m of MOVES)
    await run(
      store,
      `insert into wallet_last_move_rows (wallet_id, condition_ref, ts, fill_id, side, outcome_index, entry_type, size, usd, price)
        values (${wallet}, ${market}, ?, ?, ?, ?, ?, ?, ?, ?)`,
      [m.wallet, m.condition_id, m.ts, m.fill_id, m.side, m.outcome_index, m.entry_type, m.size, m.usd, m.price],
    );
  await store.db.insertInto("market_daily_prices").values(PRICES).execute();
}

/** Everything the views give, in the order of their texts, and the store's reads over them: as stored, unconverted. */
async function viewReads(store: Store) {
  return {
    fees: await run(store, "select * from wallet_fees order by wallet, month, entry_type, role"),
    moves: await run(store, "select * from wallet_last_moves order by wallet, condition_id"),
    prices: await run(store, "select * from market_daily_prices order by condition_id, day"),
    walletFees: await Promise.all(
      WALLETS.map(async (w) => (await readWalletFees(store.db, w)).map((r) => JSON.stringify(r)).sort()),
    ),
    lastMoves: await Promise.all(WALLETS.map((w) => readWalletLastMoves(store.db, store.kind, w))),
  };
}

/** A market's days as `readMarketDailyPrices` reads them (since 0056 from the rows, by the market's id). */
const daysOf = (prices: readonly MarketDailyPricesTable[], market: string) =>
  prices.filter((p) => p.condition_id === market).sort((a, b) => a.day - b.day);

describe.each(storeBackends)("coded derived tables, on $kind", (backend) => {
  it("migration 0056 codes the fees' and last moves' texts and keys the daily prices by market id: every read as before", async () => {
    const { store, dispose } = await backend.open({ migrations: migrationsBefore("0056_coded_derived_tables") });
    try {
      await writeBefore0056(store);
      const before = await viewReads(store);
      expect(before.fees).toHaveLength(FEES.length);
      expect(before.walletFees.flat()).toHaveLength(FEES.length);
      expect(before.moves.map((m) => m.entry_type)).toEqual(
        [...MOVES]
          .sort((a, b) => (a.wallet + a.condition_id < b.wallet + b.condition_id ? -1 : 1))
          .map((m) => m.entry_type),
      );
      expect(before.prices).toHaveLength(PRICES.length);

      await migrateStore(store);
      expect(await viewReads(store)).toEqual(before);
      for (const market of MARKETS) {
        expect(await readMarketDailyPrices(store.db, store.kind, market)).toEqual(daysOf(PRICES, market));
        const trades = daysOf(PRICES, market).reduce((sum, p) => sum + p.trades, 0);
        expect(await marketDailyPricesStamp(store, market)).toBe(trades);
      }

      // The rows hold integers: the codes, months since 1970, the market's id.
      const ids = async (table: string, column: string) =>
        new Map(
          (await run(store, `select id, ${column} as v from ${table}`)).map((r) => [r.v as string, Number(r.id)]),
        );
      const [wallets, markets] = [await ids("address_ids", "address"), await ids("condition_ids", "condition_id")];
      const fees = await run(store, "select wallet_id, month, entry_type, role, fills from wallet_fee_rows");
      for (const r of fees) for (const c of ["month", "entry_type", "role"]) expect(typeof r[c]).toBe("number");
      const byKey = (r: Record<string, unknown>) => [r.wallet_id, r.month, r.entry_type, r.role].map(Number).join(" ");
      expect(fees.map(byKey).sort()).toEqual(
        FEES.map((f) =>
          [wallets.get(f.wallet), monthsSince1970(f.month), ENTRY_CODES[f.entry_type], ROLE_CODES[f.role]].join(" "),
        ).sort(),
      );
      const moves = await run(store, "select wallet_id, condition_ref, side, entry_type from wallet_last_move_rows");
      expect(
        moves
          .map((r) => [r.wallet_id, r.condition_ref, r.side, r.entry_type].map((v) => (v === null ? null : Number(v))))
          .sort(),
      ).toEqual(
        MOVES.map((m) => [
          wallets.get(m.wallet),
          markets.get(m.condition_id),
          SIDE_CODES[m.side],
          m.entry_type === null ? null : ENTRY_CODES[m.entry_type],
        ]).sort(),
      );
      for (const r of moves) expect(typeof r.side).toBe("number");
      const prices = await run(store, "select condition_ref, day from market_daily_price_rows");
      expect(prices.map((r) => `${Number(r.condition_ref)} ${Number(r.day)}`).sort()).toEqual(
        PRICES.map((p) => `${markets.get(p.condition_id)} ${p.day}`).sort(),
      );
      if (store.sqlite) {
        const types = store.sqlite
          .prepare("select distinct typeof(month) || typeof(entry_type) || typeof(role) as t from wallet_fee_rows")
          .pluck()
          .all();
        expect(types).toEqual(["integerintegerinteger"]);
        // The key's order is the codes': months in time order, entry types in their codes' order.
        const stored = store.sqlite
          .prepare("select wallet_id, month, entry_type, role from wallet_fee_rows")
          .raw()
          .all() as number[][];
        const sorted = [...stored].sort((a, b) => {
          for (let i = 0; i < 4; i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
          return 0;
        });
        expect(stored).toEqual(sorted);
      }

      // Written after through the derived tables' writer: added to a stored row, a new one, a later last move, a new
      // market's day; and a text the code has none for is refused.
      const [w, first] = [WALLETS[0]!, FEES[0]!];
      const added = { ...first, fees: 1, volume: 2, fills: 3, charged: 1 };
      const fresh: WalletFeesTable = { ...first, month: "2027-02", entry_type: "COMPLEMENTARY", role: "unknown" };
      await store.transaction((tx) => upsertRows(tx, "wallet_fees", [added, fresh], "add"));
      const later = { ...MOVES[0]!, ts: MOVES[0]!.ts + 1, fill_id: 5_000, side: "SELL" as const, entry_type: null };
      await store.transaction((tx) => upsertRows(tx, "wallet_last_moves", [later], "add"));
      const newMarket = `0x${"9".repeat(64)}`;
      const day = { ...PRICES[0]!, condition_id: newMarket };
      await store.transaction((tx) => insertRows(tx, "market_daily_prices", [day]));
      const after = await viewReads(store);
      const summed = {
        ...first,
        fees: first.fees + 1,
        volume: first.volume + 2,
        fills: first.fills + 3,
        charged: first.charged + 1,
      };
      expect(after.walletFees[0]).toEqual(
        [...FEES.filter((f) => f.wallet === w && f !== first), summed, fresh].map((r) => JSON.stringify(r)).sort(),
      );
      expect(after.lastMoves[0]!.find((m) => m.condition_id === MARKETS[0])).toEqual(later);
      expect(await readMarketDailyPrices(store.db, store.kind, newMarket)).toEqual([day]);
      expect(await marketDailyPricesStamp(store, newMarket)).toBe(day.trades);
      await expect(
        store.transaction((tx) => upsertRows(tx, "wallet_fees", [{ ...first, entry_type: "OTHER" as never }], "add")),
      ).rejects.toThrow();
    } finally {
      await dispose();
    }
  });
});
