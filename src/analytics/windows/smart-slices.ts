/**
 * Reads over the smart whales' fills or positions, a slice of whales at a time. SQLite plans these reads from the
 * whales outwards (each one's rows by index), so they cost as much as there are whales, whatever the time range: read
 * at once they held the event loop 30-200 ms on the 10,000,000-fill world (2,724 whales), in the minute and
 * five-minute aggregates. A slice of SLICE whales at a time, with the event loop let run between two, keeps each
 * block to a few milliseconds; the caller merges the slices' rows.
 */
import { inSlices, placeholders, queryRows } from "../../store/raw-sql.js";
import type { Store } from "../../store/database.js";
import { smartSql } from "../../store/smart-wallets.js";

const SLICE = 100;

/**
 * Runs `run` once per slice of the smart whales (`s` the wallet_stats alias of the read): `inSlice` is the
 * condition `s.wallet in (?, ...)`, whose parameters, the slice's wallets, come last.
 */
export async function inSmartSlices<R>(
  store: Store,
  run: (inSlice: string, slice: string[]) => Promise<R[]>,
): Promise<R[]> {
  const whales = await queryRows<{ wallet: string }>(
    store.db,
    store.kind,
    `select s.wallet from wallet_stats s where ${smartSql("s")} order by s.wallet`,
  );
  return inSlices(
    whales.map((w) => w.wallet),
    (slice) => run(`s.wallet in ${placeholders(slice.length)}`, slice),
    SLICE,
    true,
  );
}
