/**
 * The daily position snapshots, stored as runs (issue 49, migration 0046). A snapshot is every wallet's open
 * position per market at 00:00 UTC of a day; about two thirds of a day's rows equal the day before's, so each
 * (wallet, market) is stored once per run of taken days over which it stayed the same:
 *   `position_snapshot_run_rows`: wallet and market ids, `from_day` and `day_count` (since 0058 the first day's
 *     number and the run's length in days, src/store/day-numbers.ts: the run holds on the taken days numbered n
 *     with from_day <= n < from_day + day_count) and the position's four values;
 *   `position_snapshot_days`: the days taken (a day with no open position is taken too), as unix seconds;
 *   `position_snapshot_rows`: only the rows of the days being written (unix seconds), merged into the runs and
 *     emptied in the same transaction.
 * Since 0065 both the runs and the staged rows store each cost as the average price its shares cost it at, the cost
 * itself only where that price does not give it back (src/store/snapshot-costs.ts): a run's values are compared and
 * copied as stored, the views read the costs back.
 * The view `position_snapshots` joins the days to the runs and reads as the table of one row per day always did;
 * `position_snapshot_runs` reads the runs with their days in unix seconds (`from_day`, `until_day`).
 * Invariant: no run ends after the day after the latest taken day, so a day after the latest is covered by no run.
 * Decisions: docs/decisions.md, "Snapshots are stored as runs of days",
 * "Snapshot runs store day numbers and their length" and "Snapshot runs store their costs as average prices".
 */
import type { Store, StoreKind, StoreTransaction } from "./database.js";
import { dayNumber, dayNumberSql, runEndSql } from "./day-numbers.js";
import { insertRowStream } from "./derived-tables.js";
import type { DictionaryIdCache } from "./dictionaries.js";
import { type ExactCode, exactCodeColumns } from "./exact-codes.js";
import { FILL_DICTIONARIES } from "./fill-layout.js";
import { ID_KEYED } from "./id-keyed.js";
import { queryRows } from "./raw-sql.js";
import type { PositionSnapshotsTable } from "./schema.js";
import { SNAPSHOT_COST_CODES } from "./snapshot-costs.js";

export const SNAPSHOT_STAGE = ID_KEYED.position_snapshots.rows;
export const SNAPSHOT_RUNS = ID_KEYED.position_snapshot_runs.rows;
export const SNAPSHOT_DAYS = "position_snapshot_days";

/** A position's values as the views read them. */
const VALUES = ["yes_shares", "yes_cost", "no_shares", "no_cost"] as const;
/**
 * The values as the runs and the staged rows store them: each cost null where its price gives it back. Equal
 * positions are stored alike, so two rows hold the same position where each stored value is the same, null or not.
 */
const STORED_VALUES = [...VALUES, ...exactCodeColumns(SNAPSHOT_COST_CODES)];
const RUN_COLUMNS = `wallet_id, condition_ref, from_day, day_count, ${STORED_VALUES.join(", ")}`;

const keyMatch = (a: string, b: string) =>
  `${a}.wallet_id = ${b}.wallet_id and ${a}.condition_ref = ${b}.condition_ref`;
const valuesMatch = (a: string, b: string) =>
  STORED_VALUES.map((c) => `${a}.${c} is not distinct from ${b}.${c}`).join(" and ");
const valuesOf = (a: string) => STORED_VALUES.map((c) => `${a}.${c}`).join(", ");

/** The positions open at 00:00 UTC of a day. */
export interface DaySnapshot {
  readonly day: number;
  readonly rows: Iterable<PositionSnapshotsTable>;
}

/**
 * How the runs store their days: in unix seconds, `from_day` and `until_day`, as 0046 made them; or since 0058 as
 * day numbers, `from_day` and `day_count`.
 */
export type RunDays = "seconds" | "day numbers";

/**
 * The view by the old table's name: each taken day with the runs that hold on it, wallet and market as texts. The
 * taken days stay in seconds, so a read of one day (`day = ?`) seeks their key; each run is found by its key
 * (wallet, market, `from_day`), its end filtered. `costsOn`: the store on which a view made since 0065 reads the
 * costs back from their prices; without it the view reads them as stored, as the views made before did.
 */
export function snapshotViewSql(runDays: RunDays = "seconds", costsOn?: StoreKind): string {
  const { addresses, conditions } = FILL_DICTIONARIES;
  const day = runDays === "seconds" ? "d.day" : dayNumberSql("d.day");
  const end = runDays === "seconds" ? "r.until_day" : runEndSql("r");
  const costs: Readonly<Record<string, ExactCode>> = SNAPSHOT_COST_CODES;
  const value = (c: string) => {
    const cost = costs[c];
    return costsOn && cost ? `${cost.valueSql("r", costsOn)} as ${c}` : `r.${c} as ${c}`;
  };
  return `create view position_snapshots as select d.day as day, w.${addresses.column} as wallet,
      c.${conditions.column} as condition_id, ${VALUES.map(value).join(", ")}
    from ${SNAPSHOT_DAYS} d join ${SNAPSHOT_RUNS} r on r.from_day <= ${day} and ${end} > ${day}
    left join ${addresses.table} w on w.id = r.wallet_id left join ${conditions.table} c on c.id = r.condition_ref`;
}

/** A day as the taken days and the staged rows hold it (unix seconds), for SQL text. */
const secondsLiteral = (day: number): string => {
  if (!Number.isSafeInteger(day)) throw new Error(`not a day: ${day}`);
  return String(day);
};

async function run(tx: StoreTransaction, text: string): Promise<void> {
  await queryRows(tx.db, tx.kind, text);
}

/**
 * Takes `day` out of every run that holds on it: a run over it and later days keeps its later part as a run of its
 * own. The day is no longer taken.
 */
async function detachDay(tx: StoreTransaction, day: number): Promise<void> {
  const latest = await latestSnapshotDay(tx.db, tx.kind);
  if (latest === null || day > latest) return;
  const n = dayNumber(day);
  const next = n + 1;
  if (day < latest)
    await run(
      tx,
      `insert into ${SNAPSHOT_RUNS} (${RUN_COLUMNS})
        select wallet_id, condition_ref, ${next}, ${runEndSql()} - ${next}, ${STORED_VALUES.join(", ")} from ${SNAPSHOT_RUNS}
        where from_day <= ${n} and ${runEndSql()} > ${next}`,
    );
  await run(
    tx,
    `update ${SNAPSHOT_RUNS} set day_count = ${n} - from_day where from_day < ${n} and ${runEndSql()} > ${n}`,
  );
  await run(tx, `delete from ${SNAPSHOT_RUNS} where from_day = ${n}`);
  await run(tx, `delete from ${SNAPSHOT_DAYS} where day = ${secondsLiteral(day)}`);
}

/**
 * Merges the staged rows of `day` into the runs: a run that held the same position on the day before goes on,
 * any other row starts a run. `split`: the day is not after the latest taken day, so the staged markets' runs over
 * it are cut around it first, and a run that then meets the same position's next run is joined to it.
 */
async function mergeStagedDay(tx: StoreTransaction, day: number, split: boolean): Promise<void> {
  const d = secondsLiteral(day);
  const n = dayNumber(day);
  const next = n + 1;
  const staged = `${SNAPSHOT_STAGE} s`;
  if (split) {
    await run(
      tx,
      `insert into ${SNAPSHOT_RUNS} (${RUN_COLUMNS})
        select r.wallet_id, r.condition_ref, ${next}, ${runEndSql("r")} - ${next}, ${valuesOf("r")}
        from ${staged} join ${SNAPSHOT_RUNS} r on ${keyMatch("r", "s")}
        where s.day = ${d} and r.from_day <= ${n} and ${runEndSql("r")} > ${next}`,
    );
    await run(
      tx,
      `update ${SNAPSHOT_RUNS} as r set day_count = ${n} - r.from_day from ${staged}
        where s.day = ${d} and ${keyMatch("r", "s")} and r.from_day < ${n} and ${runEndSql("r")} > ${n}`,
    );
    await run(
      tx,
      `delete from ${SNAPSHOT_RUNS} where (wallet_id, condition_ref, from_day) in
        (select wallet_id, condition_ref, ${n} from ${SNAPSHOT_STAGE} where day = ${d})`,
    );
  }
  await run(
    tx,
    `update ${SNAPSHOT_RUNS} as r set day_count = ${next} - r.from_day from ${staged}
      where s.day = ${d} and ${keyMatch("r", "s")} and ${runEndSql("r")} = ${n} and ${valuesMatch("r", "s")}`,
  );
  await run(
    tx,
    `insert into ${SNAPSHOT_RUNS} (${RUN_COLUMNS})
      select s.wallet_id, s.condition_ref, ${n}, 1, ${valuesOf("s")} from ${staged}
      where s.day = ${d} and not exists (select 1 from ${SNAPSHOT_RUNS} r
        where ${keyMatch("r", "s")} and r.from_day <= ${n} and ${runEndSql("r")} = ${next})`,
  );
  if (!split) return;
  // A run that now ends where the same position's next run starts goes on through it.
  await run(
    tx,
    `update ${SNAPSHOT_RUNS} as l set day_count = ${runEndSql("r")} - l.from_day from ${SNAPSHOT_RUNS} as r
      where ${runEndSql("l")} = ${next} and r.from_day = ${next} and ${keyMatch("l", "r")} and ${valuesMatch("l", "r")}`,
  );
  await run(
    tx,
    `delete from ${SNAPSHOT_RUNS} as r where r.from_day = ${next} and exists (select 1 from ${SNAPSHOT_RUNS} l
      where ${keyMatch("l", "r")} and l.from_day < ${next} and ${runEndSql("l")} = ${runEndSql("r")})`,
  );
}

/** Records days as taken. */
export async function recordSnapshotDays(tx: StoreTransaction, days: Iterable<number>): Promise<void> {
  for (const day of days)
    await run(tx, `insert into ${SNAPSHOT_DAYS} (day) values (${secondsLiteral(day)}) on conflict (day) do nothing`);
}

/** Adds rows to their days' snapshots (markets a day does not hold yet), and records those days as taken. */
export async function addSnapshotRows(
  tx: StoreTransaction,
  rows: Iterable<PositionSnapshotsTable>,
  ids?: DictionaryIdCache,
): Promise<void> {
  await insertRowStream(tx, "position_snapshots", rows, ids);
  const days = (
    await queryRows<{ day: number }>(tx.db, tx.kind, `select distinct day from ${SNAPSHOT_STAGE} order by day`)
  ).map((r) => Number(r.day));
  if (days.length === 0) return;
  const latest = await latestSnapshotDay(tx.db, tx.kind);
  for (const day of days) await mergeStagedDay(tx, day, latest !== null && day <= latest);
  await recordSnapshotDays(tx, days);
  await run(tx, tx.kind === "postgres" ? `truncate ${SNAPSHOT_STAGE}` : `delete from ${SNAPSHOT_STAGE}`);
}

/** A day's snapshot in place of the stored one, each row made as it is written when the rows are a stream. */
export async function replaceSnapshot(tx: StoreTransaction, snapshot: DaySnapshot, ids?: DictionaryIdCache) {
  await detachDay(tx, snapshot.day);
  await addSnapshotRows(tx, snapshot.rows, ids);
  await recordSnapshotDays(tx, [snapshot.day]);
}

/**
 * Forgets the days before `day`, and the runs that held on those days only (a scan of the runs, so only when a day
 * is forgotten: once a day, though the refresh asks every hour).
 */
export async function pruneSnapshots(tx: StoreTransaction, day: number): Promise<void> {
  const d = secondsLiteral(day);
  const due = await queryRows(tx.db, tx.kind, `select 1 from ${SNAPSHOT_DAYS} where day < ${d} limit 1`);
  if (due.length === 0) return;
  await run(tx, `delete from ${SNAPSHOT_DAYS} where day < ${d}`);
  await run(tx, `delete from ${SNAPSHOT_RUNS} where ${runEndSql()} <= ${dayNumber(day)}`);
}

/** Forgets every snapshot. */
export async function deleteAllSnapshots(tx: StoreTransaction): Promise<void> {
  for (const table of [SNAPSHOT_RUNS, SNAPSHOT_DAYS, SNAPSHOT_STAGE]) await run(tx, `delete from ${table}`);
}

/** The taken days from `from` on, oldest first. */
export async function snapshotDaysFrom(store: Pick<Store, "db" | "kind">, from: number): Promise<number[]> {
  const rows = await queryRows<{ day: number }>(
    store.db,
    store.kind,
    `select day from ${SNAPSHOT_DAYS} where day >= ? order by day`,
    [from],
  );
  return rows.map((r) => Number(r.day));
}

/** The latest taken day (at or before `day`, if given), or null. */
export async function latestSnapshotDay(
  db: Store["db"],
  kind: StoreKind,
  day = Number.MAX_SAFE_INTEGER,
): Promise<number | null> {
  const [row] = await queryRows<{ day: number | null }>(
    db,
    kind,
    `select max(day) as day from ${SNAPSHOT_DAYS} where day <= ?`,
    [day],
  );
  return row?.day === null || row?.day === undefined ? null : Number(row.day);
}
