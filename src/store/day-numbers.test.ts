/**
 * Days stored as day numbers (src/store/day-numbers.ts, migration 0058): a store whose snapshot runs were written
 * before migrates, its runs then hold their first day's number and their length in days, and the views by the old
 * names, the read of a wallet's snapshot on a day and of a wallet's daily fills answer as before; rows written after
 * read alike, a day after 2038 too. On SQLite (with the reads' plans on the key), and on PostgreSQL with
 * TEST_DATABASE_URL.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { migrationsBefore, storeBackends } from "../../test/support/backends.js";
import { insertSnapshotRowsBefore0065 } from "../../test/support/earlier-layout.js";
import type { Store } from "./database.js";
import { DAY_SECONDS, dayNumber, dayNumberOf, daySeconds } from "./day-numbers.js";
import { insertRowStream, upsertRows } from "./derived-tables.js";
import { idOf } from "./id-keyed.js";
import { migrateStore } from "./migrate.js";
import { recordSnapshotDays, replaceSnapshot, SNAPSHOT_RUNS, SNAPSHOT_STAGE } from "./position-snapshots.js";
import { queryRows } from "./raw-sql.js";
import type { PositionSnapshotRunsTable, PositionSnapshotsTable, WalletDailyFillsTable } from "./schema.js";
import { SNAPSHOT_COST_CODES } from "./snapshot-costs.js";
import { walletFillTotals } from "./wallet-daily-fills.js";

const WALLETS = [`0x${"a".repeat(40)}`, `0x${"b".repeat(40)}`] as const;
const MARKETS = [`0x${"1".repeat(64)}`, `0x${"2".repeat(64)}`, `0x${"3".repeat(64)}`];
/** A market only the first derivation's runs hold. */
const DERIVED_MARKET = `0x${"4".repeat(64)}`;
/** 2026-10-01, the first day taken. */
const FIRST_DAY = 20_727;
/** 2040-01-01: its midnight times 86,400 overflows a 4-byte integer. */
const DAY_AFTER_2038 = 25_567;

type Values = Pick<PositionSnapshotsTable, "yes_shares" | "yes_cost" | "no_shares" | "no_cost">;
const positionOf = (v: number): Values => ({
  yes_shares: v * 2_000_000,
  yes_cost: v / 3,
  no_shares: v === 2 ? 7 : 0,
  no_cost: v === 2 ? 0.1 : 0,
});

/** A day's positions: for each (wallet, market), none or one of two. */
const dayPositions = fc.array(fc.constantFrom(0, 1, 2), {
  minLength: WALLETS.length * MARKETS.length,
  maxLength: WALLETS.length * MARKETS.length,
});

function rowsOf(day: number, positions: readonly number[]): PositionSnapshotsTable[] {
  return positions.flatMap((v, i) =>
    v === 0
      ? []
      : [
          {
            day: daySeconds(day),
            wallet: WALLETS[Math.floor(i / MARKETS.length)]!,
            condition_id: MARKETS[i % MARKETS.length]!,
            ...positionOf(v),
          },
        ],
  );
}

/** The runs of taken days (in order): a (wallet, market) with the same values from one taken day to the next. */
function runsOf(
  days: readonly { day: number; rows: readonly PositionSnapshotsTable[] }[],
): PositionSnapshotRunsTable[] {
  const open = new Map<string, PositionSnapshotRunsTable>();
  const runs: PositionSnapshotRunsTable[] = [];
  for (const { day, rows } of days) {
    const seen = new Set<string>();
    for (const row of rows) {
      const key = `${row.wallet} ${row.condition_id}`;
      seen.add(key);
      const run = open.get(key);
      const same = run && (["yes_shares", "yes_cost", "no_shares", "no_cost"] as const).every((c) => run[c] === row[c]);
      if (run && same) {
        run.until_day = daySeconds(day + 1);
        continue;
      }
      const { day: _, ...position } = row;
      const started = { ...position, from_day: daySeconds(day), until_day: daySeconds(day + 1) };
      open.set(key, started);
      runs.push(started);
    }
    for (const key of open.keys()) if (!seen.has(key)) open.delete(key);
  }
  return runs;
}

/** Runs and taken days written as a store before 0058 held them: both days in unix seconds, `until_day`. */
async function writeRunsAsBefore0058(store: Store, runs: readonly PositionSnapshotRunsTable[], days: number[]) {
  // The staged rows (whose form 0058 keeps) give the wallets and markets their dictionary ids.
  await insertSnapshotRowsBefore0065(
    store,
    runs.map(({ from_day, until_day: _, ...run }) => ({ day: from_day, ...run })),
  );
  await store.transaction(async (tx) => {
    for (const r of runs)
      await queryRows(
        tx.db,
        tx.kind,
        `insert into ${SNAPSHOT_RUNS} (wallet_id, condition_ref, from_day, until_day, yes_shares, yes_cost, no_shares, no_cost)
          values (${idOf("wallet")}, ${idOf("condition_id")}, ?, ?, ?, ?, ?, ?)`,
        [r.wallet, r.condition_id, r.from_day, r.until_day, r.yes_shares, r.yes_cost, r.no_shares, r.no_cost],
      );
    await queryRows(tx.db, tx.kind, `delete from ${SNAPSHOT_STAGE}`);
    await recordSnapshotDays(tx, days.map(daySeconds));
  });
}

/** Rows with their integer columns as numbers (PostgreSQL gives a `bigint` as a string). */
const numbers = <R extends Record<string, unknown>>(rows: readonly R[], columns: readonly (keyof R)[]): R[] =>
  rows.map((r) => ({ ...r, ...Object.fromEntries(columns.map((c) => [c, Number(r[c])])) }));
/** Rows in one order, whatever order their columns come in. */
const sorted = <R extends object>(rows: R[]) => {
  const text = (row: R) => JSON.stringify(Object.entries(row).sort(([a], [b]) => (a < b ? -1 : 1)));
  return rows.sort((a, b) => (text(a) < text(b) ? -1 : 1));
};

/** Every read this migration must leave as it was. */
async function reads(store: Store, days: readonly number[]) {
  const all = (relation: string) =>
    queryRows<Record<string, unknown>>(store.db, store.kind, `select * from ${relation}`);
  const ofWalletOnDay: unknown[] = [];
  // The whale flips' read (src/analytics/whales/whale-flips.ts): some wallets' snapshot on one day.
  for (const day of days)
    for (const wallet of WALLETS)
      ofWalletOnDay.push(
        sorted(
          await queryRows<Record<string, unknown>>(
            store.db,
            store.kind,
            "select wallet, condition_id, yes_cost, no_cost from position_snapshots where day = ? and wallet in (?)",
            [daySeconds(day), wallet],
          ),
        ),
      );
  const dailyFills = await Promise.all(
    WALLETS.map((wallet) =>
      walletFillTotals(store.db, store.kind, wallet, daySeconds(FIRST_DAY) - 1, daySeconds(FIRST_DAY + 3) - 1),
    ),
  );
  return {
    snapshots: sorted(numbers(await all("position_snapshots"), ["day", "yes_shares", "no_shares"])),
    runs: sorted(numbers(await all("position_snapshot_runs"), ["from_day", "until_day", "yes_shares", "no_shares"])),
    ofWalletOnDay,
    dailyFills: sorted(numbers(await all("wallet_daily_fills"), ["day", "fills", "usd"])),
    dailyFillTotals: dailyFills,
  };
}

/** The runs as stored, wallet and market as texts, the costs as read back from their prices (since 0065). */
async function storedRuns(store: Store) {
  const { yes_cost, no_cost } = SNAPSHOT_COST_CODES;
  const rows = await queryRows<Record<string, unknown>>(
    store.db,
    store.kind,
    `select a.address as wallet, c.condition_id, r.from_day, r.day_count, r.yes_shares,
      ${yes_cost.valueSql("r", store.kind)} as yes_cost, r.no_shares, ${no_cost.valueSql("r", store.kind)} as no_cost
      from ${SNAPSHOT_RUNS} r join address_ids a on a.id = r.wallet_id join condition_ids c on c.id = r.condition_ref`,
  );
  return sorted(numbers(rows, ["from_day", "day_count", "yes_shares", "no_shares"]));
}

const DAILY_FILLS: WalletDailyFillsTable[] = [0, 1, 2, 5].flatMap((d) =>
  WALLETS.map((wallet, w) => ({ wallet, day: FIRST_DAY + d, fills: d + w + 1, usd: 1_000_000 * (d + 1) + w })),
);

describe("day numbers", () => {
  it("number a UTC midnight's day, the day of any time, and refuse a stored day that is no midnight", () => {
    expect(dayNumber(daySeconds(FIRST_DAY))).toBe(FIRST_DAY);
    expect(dayNumberOf(daySeconds(FIRST_DAY) + DAY_SECONDS - 1)).toBe(FIRST_DAY);
    expect(() => dayNumber(daySeconds(FIRST_DAY) + 1)).toThrow(/not a UTC midnight/);
    expect(() => dayNumber(Number.NaN)).toThrow(/not a UTC midnight/);
  });
});

describe.each(storeBackends)("day numbers (migration 0058), on $kind", (backend) => {
  it("migration 0058 stores the runs' days as numbers and lengths: the views and the reads of a day answer as before", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(dayPositions, { minLength: 1, maxLength: 7 }), async (positions) => {
        const { store, dispose } = await backend.open({ migrations: migrationsBefore("0058_day_numbers") });
        try {
          // Days 0, 1, 2, then one not taken: a run goes on over it from one taken day to the next.
          const days = positions.map((p, i) => ({ day: FIRST_DAY + (i < 3 ? i : i + 1), positions: p }));
          const taken = days.map((d) => ({ day: d.day, rows: rowsOf(d.day, d.positions) }));
          const runs = runsOf(taken);
          await writeRunsAsBefore0058(
            store,
            runs,
            days.map((d) => d.day),
          );
          await store.transaction((tx) => upsertRows(tx, "wallet_daily_fills", DAILY_FILLS, "add"));
          const before = await reads(
            store,
            days.map((d) => d.day),
          );
          expect(before.snapshots).toEqual(sorted(taken.flatMap((t) => t.rows)));
          expect(before.dailyFillTotals.map((t) => t.fills)).toEqual([1 + 2 + 3, 2 + 3 + 4]);

          await migrateStore(store);
          expect(
            await reads(
              store,
              days.map((d) => d.day),
            ),
          ).toEqual(before);
          expect(await storedRuns(store)).toEqual(
            sorted(
              runs.map(({ from_day, until_day, ...run }) => ({
                wallet: run.wallet,
                condition_id: run.condition_id,
                from_day: from_day / DAY_SECONDS,
                day_count: (until_day - from_day) / DAY_SECONDS,
                yes_shares: run.yes_shares,
                yes_cost: run.yes_cost,
                no_shares: run.no_shares,
                no_cost: run.no_cost,
              })),
            ),
          );
          const [fills] = await queryRows<{ day: number }>(
            store.db,
            store.kind,
            "select min(day) as day from wallet_daily_fill_rows",
          );
          expect(Number(fills!.day)).toBe(FIRST_DAY);
        } finally {
          await dispose();
        }
      }),
      { numRuns: backend.kind === "sqlite" ? 12 : 3 },
    );
  });

  it("read rows written after the migration alike: a day merged in, one taken again, runs a first derivation writes, a day after 2038", async () => {
    const { store, dispose } = await backend.open();
    try {
      const expected = new Map<number, PositionSnapshotsTable[]>();
      const take = async (day: number, positions: number[]) => {
        const rows = rowsOf(day, positions);
        await store.transaction((tx) => replaceSnapshot(tx, { day: daySeconds(day), rows }));
        expected.set(day, rows);
      };
      await take(FIRST_DAY, [1, 1, 0, 2, 0, 1]);
      await take(FIRST_DAY + 1, [1, 2, 0, 2, 0, 0]);
      await take(FIRST_DAY + 2, [1, 2, 1, 2, 0, 0]);
      await take(FIRST_DAY + 1, [1, 1, 0, 2, 1, 0]);
      await take(DAY_AFTER_2038, [2, 0, 0, 0, 0, 1]);
      const snapshots = async () =>
        sorted(
          numbers(await queryRows<Record<string, unknown>>(store.db, store.kind, "select * from position_snapshots"), [
            "day",
            "yes_shares",
            "no_shares",
          ]),
        );
      expect(await snapshots()).toEqual(sorted([...expected.values()].flat()));
      // A position held the same on the first three days (the second taken again) is one run of three days.
      expect(await storedRuns(store)).toContainEqual({
        wallet: WALLETS[0],
        condition_id: MARKETS[0],
        from_day: FIRST_DAY,
        day_count: 3,
        ...positionOf(1),
      });
      const [late] = await queryRows<{ day: number }>(
        store.db,
        store.kind,
        "select max(day) as day from position_snapshots where wallet = ?",
        [WALLETS[0]],
      );
      expect(Number(late!.day)).toBe(daySeconds(DAY_AFTER_2038));

      // A first derivation writes whole runs (src/derive/snapshot-runs.ts); the view by the old name reads them back.
      const written: PositionSnapshotRunsTable[] = [
        {
          wallet: WALLETS[1],
          condition_id: DERIVED_MARKET,
          from_day: daySeconds(FIRST_DAY + 10),
          until_day: daySeconds(FIRST_DAY + 11),
          ...positionOf(1),
        },
        {
          wallet: WALLETS[1],
          condition_id: DERIVED_MARKET,
          from_day: daySeconds(FIRST_DAY + 11),
          until_day: daySeconds(DAY_AFTER_2038 + 1),
          ...positionOf(2),
        },
      ];
      await store.transaction((tx) => insertRowStream(tx, "position_snapshot_runs", written));
      const runs = await queryRows<Record<string, unknown>>(
        store.db,
        store.kind,
        "select * from position_snapshot_runs where wallet = ? and condition_id = ? order by from_day",
        [WALLETS[1], DERIVED_MARKET],
      );
      expect(numbers(runs, ["from_day", "until_day", "yes_shares", "no_shares"])).toEqual(written);
      const stored = (await storedRuns(store)).filter(
        (r) => r.wallet === WALLETS[1] && r.condition_id === DERIVED_MARKET,
      );
      expect(stored).toEqual([
        { wallet: WALLETS[1], condition_id: DERIVED_MARKET, from_day: FIRST_DAY + 10, day_count: 1, ...positionOf(1) },
        {
          wallet: WALLETS[1],
          condition_id: DERIVED_MARKET,
          from_day: FIRST_DAY + 11,
          day_count: DAY_AFTER_2038 - FIRST_DAY - 10,
          ...positionOf(2),
        },
      ]);

      // The daily fills of a wallet, written after, read alike.
      await store.transaction((tx) => upsertRows(tx, "wallet_daily_fills", DAILY_FILLS, "add"));
      const totals = await walletFillTotals(
        store.db,
        store.kind,
        WALLETS[1]!,
        daySeconds(FIRST_DAY) - 1,
        daySeconds(FIRST_DAY + 6) - 1,
      );
      expect(totals).toEqual({ fills: 2 + 3 + 4 + 7, usd: 1_000_000 * (1 + 2 + 3 + 6) + 4 });

      if (store.sqlite) {
        const plan = (query: string) =>
          store
            .sqlite!.prepare(`explain query plan ${query}`)
            .all(...Array.from(query.matchAll(/\?/g), () => 1))
            .map((r) => (r as { detail: string }).detail);
        // A wallet's snapshot on a day: the day by its key, the wallet's id, then its runs by the key's first column.
        const ofWallets = plan(
          "select wallet, condition_id, yes_cost, no_cost from position_snapshots where day = ? and wallet in (?, ?)",
        );
        expect(ofWallets).toContain("SEARCH d USING INTEGER PRIMARY KEY (rowid=?)");
        expect(ofWallets).toContain("SEARCH r USING PRIMARY KEY (wallet_id=?)");
        // The Smart Money's snapshot on a day (src/derive/signal-recorder.ts): the same, per smart wallet.
        const smart = plan(
          `select s.wallet, s.condition_id from position_snapshots s join wallet_stats w on w.wallet = s.wallet
            where s.day = ? and w.is_smart = 1 order by s.wallet, s.condition_id`,
        );
        expect(smart).toContain("SEARCH d USING INTEGER PRIMARY KEY (rowid=?)");
        expect(smart).toContain("SEARCH r USING PRIMARY KEY (wallet_id=?)");
        // One market's run on a day: a range of the key, its end filtered.
        expect(
          plan(
            `select * from ${SNAPSHOT_RUNS} where wallet_id = ? and condition_ref = ? and from_day <= ? and from_day + day_count > ?`,
          ),
        ).toEqual([`SEARCH ${SNAPSHOT_RUNS} USING PRIMARY KEY (wallet_id=? AND condition_ref=? AND from_day<?)`]);
      }
    } finally {
      await dispose();
    }
  });
});
