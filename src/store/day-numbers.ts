/**
 * Days as the store keeps them compact (issue 49): a day's number, days since 1970-01-01 UTC (about 20,700 today),
 * where readers know a day as the unix seconds of its midnight (1,792,195,200). A SQLite record takes an integer in
 * 1, 2, 3, 4, 6 or 8 bytes by its magnitude: the number in 2, the seconds in 4. The one conversion every writer and
 * view uses, in TypeScript and in SQL: `wallet_daily_fills` numbers its days so (since 0021), and since 0058 the
 * daily position snapshots' runs store their first day's number and their length in days (`RUN_DAY_CODES`),
 * which the views by the old names read back as seconds.
 * Decision: docs/decisions.md, "Snapshot runs store day numbers and their length".
 */
import { type ColumnCode, qualified } from "./coded-columns.js";

export const DAY_SECONDS = 86_400;

/** The number of the UTC day that contains unix time `t`. */
export function dayNumberOf(t: number): number {
  return Math.floor(t / DAY_SECONDS);
}

/** A UTC midnight's day number; a time that is not one is refused (a stored day must read back as it was). */
export function dayNumber(midnight: number): number {
  if (!Number.isSafeInteger(midnight) || midnight % DAY_SECONDS !== 0)
    throw new Error(`store: ${midnight} is not a UTC midnight in unix seconds`);
  return midnight / DAY_SECONDS;
}

/** A day number's midnight, in unix seconds. */
export function daySeconds(day: number): number {
  return day * DAY_SECONDS;
}

/**
 * SQL: the number of the UTC day that contains an integer unix time (integer division, which floors a time after
 * 1970 alike on both stores; exact for a midnight).
 */
export function dayNumberSql(seconds: string): string {
  return `(${seconds} / ${DAY_SECONDS})`;
}

/**
 * SQL: a day number's midnight in unix seconds, a 64-bit integer on both stores (PostgreSQL stores the numbers as
 * 4-byte `integer`s, and their product with 86,400 in 4 bytes would overflow in 2038).
 */
export function daySecondsSql(day: string): string {
  return `(cast(${day} as bigint) * ${DAY_SECONDS})`;
}

/**
 * SQL: the day number a stored snapshot run (`position_snapshot_run_rows`, under alias `alias`) ends before, the
 * day after its last: its first day's number plus its length in days.
 */
export function runEndSql(alias?: string): string {
  return `(${qualified(alias, "from_day")} + ${qualified(alias, "day_count")})`;
}

/**
 * `position_snapshot_runs`' two days as stored since 0058, as the derived tables' writer and the view by the old
 * name code them (`codedColumns`, src/store/id-keyed.ts): `from_day` as its day number, `until_day` as the run's
 * length in days (`day_count`: 1 for half the runs, which a SQLite record keeps in its header alone, at most the
 * days kept, in a byte). Every read finds a run by its key (wallet, market, `from_day`) and filters on its end,
 * which no index holds, so the end can be a sum.
 */
export const RUN_DAY_CODES = {
  from_day: {
    number: true,
    stored: (value) => dayNumber(value as number),
    textSql: (alias) => daySecondsSql(`${alias}.from_day`),
    codeSql: (alias?: string) => dayNumberSql(qualified(alias, "from_day")),
  },
  until_day: {
    number: true,
    storedAs: "day_count",
    stored: (value, row) => {
      if (!row) throw new Error("store: a run's length is stored from its row");
      return dayNumber(value as number) - dayNumber(row.from_day as number);
    },
    textSql: (alias) => daySecondsSql(runEndSql(alias)),
    codeSql: (alias?: string) =>
      `(${dayNumberSql(qualified(alias, "until_day"))} - ${dayNumberSql(qualified(alias, "from_day"))})`,
  },
} as const satisfies Record<string, ColumnCode>;
