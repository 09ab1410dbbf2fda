/**
 * A snapshot's costs as the store keeps them (since migration 0065, issue 49): the ledger writes each side's cost as
 * its shares (micro-shares) times its average price (an integer of micro-units) over 10^12 (`positionCostUsd`,
 * src/ledger/valuation.ts), a double that takes 8 bytes in a SQLite record (47195.83553872) where the price takes 3
 * (at most 1,000,000) and a side without shares none. So the runs and the staged rows of a day being written
 * (src/store/position-snapshots.ts) store the price, and each store reads the cost back with the ledger's own two
 * operations on doubles; the cost is kept as it is only where no price gives it back exactly (an exact code,
 * src/store/exact-codes.ts: the writer and the migration code a row by `storedExactly`, the views read it back).
 * Decision: docs/decisions.md, "Snapshot runs store their costs as average prices".
 */
import { doubleSql, type ExactCode } from "./exact-codes.js";

/** Micro-shares times micro-units: the cost in USD is their product over this. */
const SHARE_PRICE_UNITS = 1_000_000 * 1_000_000;

/** The largest price a code holds: a PostgreSQL `integer`. */
const MAX_PRICE_CODE = 2 ** 31 - 1;

/**
 * The cost in column `column` as the price in micro-units in column `code` at which the shares in column `shares`
 * cost it: the integer nearest cost × 10^12 / shares, kept only where shares × price / 10^12 is the cost itself
 * (`Object.is`: -0 is kept), which both stores compute as JavaScript does (the integers are exact doubles, and the
 * product and the quotient are each correctly rounded). A side without shares costs 0 at the price 0. Any other cost
 * (no price gives it back, a price beyond a 4-byte integer, shares that are no safe integer) is kept as it is.
 */
function priceTimesSharesCode(column: string, shares: string, code: string): ExactCode {
  return {
    codes: [code],
    number: true,
    stored(value, row) {
      const held = row[shares];
      if (typeof value !== "number" || typeof held !== "number" || !Number.isSafeInteger(held))
        return [value ?? null, null];
      // `+ 0` turns a -0 into 0, which reads back as 0: a cost of -0 is then kept.
      const price = held === 0 ? 0 : Math.round((value * SHARE_PRICE_UNITS) / held) + 0;
      const exact = Math.abs(price) <= MAX_PRICE_CODE && Object.is((held * price) / SHARE_PRICE_UNITS, value);
      return exact ? [null, price] : [value, null];
    },
    valueSql(alias) {
      const [held, price] = [doubleSql(`${alias}.${shares}`), doubleSql(`${alias}.${code}`)];
      return `coalesce(${alias}.${column}, ${held} * ${price} / ${doubleSql(String(SHARE_PRICE_UNITS))})`;
    },
  };
}

/** The costs of a snapshot's two sides (`position_snapshots`, `position_snapshot_runs`), each by its shares. */
export const SNAPSHOT_COST_CODES = {
  yes_cost: priceTimesSharesCode("yes_cost", "yes_shares", "yes_avg_price_micro"),
  no_cost: priceTimesSharesCode("no_cost", "no_shares", "no_avg_price_micro"),
} as const satisfies Record<string, ExactCode>;
