/**
 * Community lookups: every wallet overview lookup counts, per wallet and UTC hour, in the store (so every API
 * process adds to the same counts); the home page shows the most looked-up wallets of the last 24 hours.
 */
import { sql } from "kysely";
import type { Store } from "../store/database.js";

const HOUR = 3_600;
export const LOOKUP_WINDOW_SECONDS = 24 * HOUR;
/** Hour buckets older than this are deleted when the top list is computed. */
const KEEP_SECONDS = 2 * LOOKUP_WINDOW_SECONDS;

/** How often each process adds its counted lookups to the store. */
const FLUSH_MS = 5_000;
const FLUSH_ROWS_PER_STATEMENT = 500;

/**
 * Counts lookups in memory and adds them to the store every few seconds in one transaction (`count + n`, so
 * every process adds to the same rows): a write per overview request would cost more than the read it counts.
 */
export class LookupCounter {
  private pending = new Map<string, { wallet: string; hour: number; count: number }>();
  private readonly timer: NodeJS.Timeout;

  constructor(private readonly store: Store) {
    this.timer = setInterval(() => void this.flush().catch(() => undefined), FLUSH_MS);
    this.timer.unref();
  }

  record(wallet: string, now: number): void {
    const hour = now - (now % HOUR);
    const key = `${wallet}|${hour}`;
    const entry = this.pending.get(key);
    if (entry) entry.count++;
    else this.pending.set(key, { wallet, hour, count: 1 });
  }

  async flush(): Promise<void> {
    if (this.pending.size === 0) return;
    const rows = [...this.pending.values()];
    this.pending = new Map();
    // A few multi-row statements, not one per wallet: on SQLite the flush holds the event loop while it runs.
    await this.store.transaction(async (tx) => {
      for (let i = 0; i < rows.length; i += FLUSH_ROWS_PER_STATEMENT) {
        await tx.db
          .insertInto("wallet_lookups")
          .values(rows.slice(i, i + FLUSH_ROWS_PER_STATEMENT))
          .onConflict((oc) => oc.columns(["wallet", "hour"]).doUpdateSet({ count: sql`wallet_lookups.count + excluded.count` }))
          .execute();
      }
    });
  }

  /** Stops the timer and adds what is pending; a later lookup on the store starts a new counter. */
  async close(): Promise<void> {
    clearInterval(this.timer);
    if (counters.get(this.store) === this) counters.delete(this.store);
    await this.flush();
  }
}

const counters = new WeakMap<Store, LookupCounter>();

/** The one counter of a store in this process. */
export function lookupCounterOf(store: Store): LookupCounter {
  let counter = counters.get(store);
  if (!counter) counters.set(store, (counter = new LookupCounter(store)));
  return counter;
}

/**
 * The most looked-up wallets of the last 24 hours (every hour bucket that overlaps it), with profile names.
 * Ties by the most recent lookup hour, then address.
 */
export async function topLookups(store: Store, now: number, limit: number) {
  await lookupCounterOf(store).flush();
  await store.db.deleteFrom("wallet_lookups").where("hour", "<", now - KEEP_SECONDS).execute();
  const rows = await store.db
    .selectFrom("wallet_lookups as l")
    .leftJoin("wallets as w", "w.address", "l.wallet")
    .select(["l.wallet", "w.name", "w.pseudonym"])
    .select((eb) => [eb.fn.sum<number>("l.count").as("lookups"), eb.fn.max<number>("l.hour").as("last_hour")])
    .where("l.hour", ">", now - LOOKUP_WINDOW_SECONDS - HOUR)
    .groupBy(["l.wallet", "w.name", "w.pseudonym"])
    .orderBy("lookups", "desc")
    .orderBy("last_hour", "desc")
    .orderBy("l.wallet")
    .limit(limit)
    .execute();
  return rows.map((r) => ({ wallet: r.wallet, name: r.name ?? r.pseudonym ?? null, pseudonym: r.pseudonym, lookups: Number(r.lookups) }));
}
