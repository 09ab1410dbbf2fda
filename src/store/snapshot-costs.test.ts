/**
 * Migration 0065 (src/store/migrations/0065_compact_snapshot_costs.ts): the snapshot runs and the staged rows store
 * each side's cost as the average price its shares cost it at (src/store/snapshot-costs.ts), the cost kept as it was
 * where no price gives it back. A store whose runs were written before migrates: the views, a wallet's snapshot on a
 * day and the taken days read every value as before (doubles bit for bit); the runs hold the prices, or the costs
 * where they cannot; a day taken again or after merges into the migrated runs as it did, and the runs a first
 * derivation writes are stored as migrated. On SQLite, and on PostgreSQL with TEST_DATABASE_URL.
 */
import { describe, expect, it } from "vitest";
import { migrationsBefore, storeBackends } from "../../test/support/backends.js";
import type { Store } from "./database.js";
import { daySeconds } from "./day-numbers.js";
import { deleteAll, insertRowStream } from "./derived-tables.js";
import { idOf } from "./id-keyed.js";
import { migrateStore } from "./migrate.js";
import { recordSnapshotDays, replaceSnapshot, SNAPSHOT_RUNS, snapshotDaysFrom } from "./position-snapshots.js";
import { queryRows } from "./raw-sql.js";
import type { PositionSnapshotRunsTable, PositionSnapshotsTable } from "./schema.js";
import { SNAPSHOT_COST_CODES } from "./snapshot-costs.js";
import { exactRows } from "./testing/exact-rows.js";
import { Rng, seedWords } from "../sim/world/random.js";

const WALLETS = [`0x${"a".repeat(40)}`, `0x${"b".repeat(40)}`, `0x${"c".repeat(40)}`];
/** 2026-10-01, the first day taken; three days are. */
const FIRST_DAY = 20_727;
const DAYS = [FIRST_DAY, FIRST_DAY + 1, FIRST_DAY + 2];

/** A side of a position: its shares (micro-shares) and cost, and the price it must be stored as (null: kept). */
type Side = readonly [shares: number, cost: number, price: number | null];

/** The ledger's cost of shares at an average price (`positionCostUsd`), stored as that price. */
const ledgerSide = (shares: number, price: number): Side => [shares, (shares * price) / (1_000_000 * 1_000_000), price];

const CODED: readonly Side[] = [
  ledgerSide(88_234_560_000, 534_900),
  ledgerSide(47_195_835_538, 999_999),
  ledgerSide(1, 1),
  ledgerSide(12_000_000, 1_000_000),
  [0, 0, 0], // a side without shares
  ledgerSide(9_007_199_254_740_991, 538_683), // the largest safe shares
  ledgerSide(5_000_000, -168_352), // a negative average price, as the ledger keeps a few
  ledgerSide(3, 2 ** 31 - 1),
];

/** Costs no price gives back: each is kept as it is. */
const KEPT: readonly Side[] = [
  [3_000_000, 1 / 3, null],
  [3_000_000, 1, null], // integral, but 3,000,000 × 333,333 / 10^12 is not 1
  [0, 0.5, null], // a cost without shares
  [1, 0.003, null], // its price, 3,000,000,000, is beyond a 4-byte integer
  [7, 1.7976931348623157e308, null],
  [1_000_000, 0.1 + 0.2, null],
];

/**
 * -0 is kept by the code (its price 0 gives back 0), but reaches neither store as written: node-postgres sends it
 * as "0", and SQLite's REAL column keeps no sign. Both read it as 0 before 0065, and store it as the price 0.
 */
const NEGATIVE_ZERO: Side = [0, -0, 0];

/** Sides as the ledger writes them, of every magnitude: shares up to 10^13 micro-shares, prices 0 to 1. */
function ledgerSides(count: number): Side[] {
  const rng = Rng.derive(seedWords(65), "sides");
  const random = () => rng.next();
  return Array.from({ length: count }, () =>
    ledgerSide(1 + Math.floor(random() * 10 ** Math.ceil(random() * 13)), Math.floor(random() * 1_000_001)),
  );
}

const SIDES = [...CODED, ...KEPT, NEGATIVE_ZERO, ...ledgerSides(300)];

/**
 * A run per side: its yes side, and another side as its no side, over one, two or three of the taken days; each
 * wallet holds the runs of a market in turn.
 */
const RUNS: PositionSnapshotRunsTable[] = SIDES.map(([yesShares, yesCost], n) => {
  const [noShares, noCost] = SIDES[(n * 7 + 3) % SIDES.length]!;
  const from = DAYS[n % DAYS.length]!;
  return {
    wallet: WALLETS[n % WALLETS.length]!,
    condition_id: `0x${n.toString(16).padStart(64, "0")}`,
    from_day: daySeconds(from),
    until_day: daySeconds(FIRST_DAY + DAYS.length),
    yes_shares: yesShares,
    yes_cost: yesCost,
    no_shares: noShares,
    no_cost: noCost,
  };
});

const run = (store: Pick<Store, "db" | "kind">, text: string, params: readonly unknown[] = []) =>
  queryRows<Record<string, unknown>>(store.db, store.kind, text, params);

/** The runs as the layout before 0065 held them (0058's: day numbers, the costs as they are), and the days taken. */
async function writeRunsBefore0065(store: Store): Promise<void> {
  for (const wallet of WALLETS) await run(store, "insert into address_ids (address) values (?)", [wallet]);
  for (const r of RUNS) {
    await run(store, "insert into condition_ids (condition_id) values (?)", [r.condition_id]);
    await run(
      store,
      `insert into ${SNAPSHOT_RUNS} (wallet_id, condition_ref, from_day, day_count, yes_shares, yes_cost, no_shares, no_cost)
        values (${idOf("wallet")}, ${idOf("condition_id")}, ?, ?, ?, ?, ?, ?)`,
      [
        r.wallet,
        r.condition_id,
        r.from_day / 86_400,
        (r.until_day - r.from_day) / 86_400,
        r.yes_shares,
        r.yes_cost,
        r.no_shares,
        r.no_cost,
      ],
    );
  }
  await store.transaction((tx) => recordSnapshotDays(tx, DAYS.map(daySeconds)));
}

const SNAPSHOTS = "select * from position_snapshots order by day, wallet, condition_id";
const RUNS_READ = "select * from position_snapshot_runs order by wallet, condition_id, from_day";

/** Every read of the snapshots, each value told apart exactly. */
async function reads(store: Store) {
  const ofWalletOnDay: string[][] = [];
  // The whale flips' read (src/analytics/whales/whale-flips.ts): some wallets' snapshot on one day.
  for (const day of DAYS)
    ofWalletOnDay.push(
      exactRows(
        await run(
          store,
          `select wallet, condition_id, yes_cost, no_cost from position_snapshots where day = ? and wallet in (?, ?)
            order by wallet, condition_id`,
          [daySeconds(day), WALLETS[0], WALLETS[2]],
        ),
      ),
    );
  return {
    snapshots: exactRows(await run(store, SNAPSHOTS)),
    runs: exactRows(await run(store, RUNS_READ)),
    ofWalletOnDay,
    days: await snapshotDaysFrom(store, 0),
  };
}

/** The runs as stored: market by text, each value as a number (ids and wallet left out). */
async function storedRuns(store: Store) {
  const rows = await run(
    store,
    `select c.condition_id, r.* from ${SNAPSHOT_RUNS} r join condition_ids c on c.id = r.condition_ref
      order by c.condition_id, r.from_day`,
  );
  const number = (v: unknown) => (v === null ? null : Number(v));
  return rows.map(({ wallet_id: _w, condition_ref: _c, ...row }) =>
    Object.fromEntries(Object.entries(row).map(([c, v]) => [c, c === "condition_id" ? v : number(v)])),
  );
}

/** What each run must be stored as: each side's price, or its cost kept where it has none. */
function expectStored(rows: readonly Record<string, unknown>[]): void {
  expect(rows).toHaveLength(RUNS.length);
  const sides = new Map<string, Side>();
  const side = (shares: number, cost: number) => SIDES.find(([s, c]) => s === shares && Object.is(c, cost))!;
  for (const [n, r] of RUNS.entries()) {
    sides.set(`${r.condition_id} yes`, side(r.yes_shares, r.yes_cost));
    sides.set(`${r.condition_id} no`, side(r.no_shares, r.no_cost));
    expect(side(r.yes_shares, r.yes_cost), `run ${n}`).toBeDefined();
  }
  for (const row of rows)
    for (const name of ["yes", "no"]) {
      const [shares, cost, price] = sides.get(`${row.condition_id} ${name}`)!;
      const stored = [row[`${name}_shares`], row[`${name}_cost`], row[`${name}_avg_price_micro`]];
      expect(stored, `${row.condition_id} ${name}`).toEqual([shares, price === null ? cost : null, price]);
    }
}

/** Today's runs as the view reads them, as a first derivation hands them to the writer. */
async function viewRuns(store: Store): Promise<PositionSnapshotRunsTable[]> {
  return (await run(store, RUNS_READ)).map((r) => ({
    ...(r as unknown as PositionSnapshotRunsTable),
    from_day: Number(r.from_day),
    until_day: Number(r.until_day),
    yes_shares: Number(r.yes_shares),
    no_shares: Number(r.no_shares),
  }));
}

/** A taken day's rows as the view reads them, as the Deriver takes them. */
async function dayRows(store: Store, day: number): Promise<PositionSnapshotsTable[]> {
  return (await run(store, "select * from position_snapshots where day = ?", [daySeconds(day)])).map((r) => ({
    ...(r as unknown as PositionSnapshotsTable),
    day: Number(r.day),
    yes_shares: Number(r.yes_shares),
    no_shares: Number(r.no_shares),
  }));
}

describe("a snapshot's costs as average prices", () => {
  it("store a cost as the price its shares cost it at where that gives it back exactly, else the cost", () => {
    const { yes_cost: code } = SNAPSHOT_COST_CODES;
    for (const [shares, cost, price] of [...CODED, ...KEPT, [0, -0, null] as const]) {
      const stored = code.stored(cost, { yes_shares: shares });
      expect(stored, `${shares} ${cost}`).toEqual([price === null ? cost : null, price]);
      if (price !== null) expect((shares * price) / 1e12).toBe(cost);
    }
    // -0 with shares (its price would be -0, stored as 0), and a cost given with shares that are no safe integer,
    // or none: kept.
    expect(code.stored(-0, { yes_shares: 5 })).toEqual([-0, null]);
    expect(code.stored(0.5, { yes_shares: 2 ** 53 })).toEqual([0.5, null]);
    expect(code.stored(0.5, {})).toEqual([0.5, null]);
  });
});

describe.each(storeBackends)("snapshot costs as average prices (migration 0065), on $kind", (backend) => {
  it("migration 0065 stores each cost as the price that gives it back: reads as before, days merge as before, writes alike", async () => {
    const { store, dispose } = await backend.open({ migrations: migrationsBefore("0065_compact_snapshot_costs") });
    try {
      await writeRunsBefore0065(store);
      const before = await reads(store);
      expect(before.runs).toHaveLength(RUNS.length);

      await migrateStore(store);
      expect(await reads(store)).toEqual(before);
      const migrated = await storedRuns(store);
      expectStored(migrated);
      if (store.sqlite) {
        const types = store.sqlite
          .prepare(
            `select distinct typeof(yes_avg_price_micro) || ' ' || typeof(no_avg_price_micro) from ${SNAPSHOT_RUNS}
              where yes_cost is null and no_cost is null`,
          )
          .pluck()
          .all();
        expect(types).toEqual(["integer integer"]);
      }

      // The latest day taken again with the same positions, and the middle one: every run is cut around it and
      // joined again, its stored values (nulls among them) compared as stored.
      for (const day of [DAYS[2]!, DAYS[1]!]) {
        const rows = await dayRows(store, day);
        await store.transaction((tx) => replaceSnapshot(tx, { day: daySeconds(day), rows }));
      }
      expect(await reads(store)).toEqual(before);
      expect(await storedRuns(store)).toEqual(migrated);

      // A day after the last with the same positions: every run goes on over it.
      const next = FIRST_DAY + DAYS.length;
      const nextRows = (await dayRows(store, DAYS[2]!)).map((r) => ({ ...r, day: daySeconds(next) }));
      await store.transaction((tx) => replaceSnapshot(tx, { day: daySeconds(next), rows: nextRows }));
      const longer = await storedRuns(store);
      expect(longer).toEqual(migrated.map((r) => ({ ...r, day_count: Number(r.day_count) + 1 })));
      const positionsOn = async (day: number) =>
        exactRows(
          await run(
            store,
            `select wallet, condition_id, yes_shares, yes_cost, no_shares, no_cost from position_snapshots
              where day = ? order by wallet, condition_id`,
            [daySeconds(day)],
          ),
        );
      expect(await positionsOn(next)).toEqual(await positionsOn(DAYS[2]!));

      // The runs a first derivation writes (src/derive/snapshot-runs.ts): stored as the migration stored them.
      const runs = await viewRuns(store);
      await store.transaction(async (tx) => {
        await deleteAll(tx, "position_snapshot_runs");
        await insertRowStream(tx, "position_snapshot_runs", [...runs].reverse());
      });
      expect(await storedRuns(store)).toEqual(longer);
      expect(exactRows(await run(store, RUNS_READ))).toEqual(exactRows(runs as unknown as Record<string, unknown>[]));
    } finally {
      await dispose();
    }
  });
});
