/**
 * Community lookups: the home page shows the most looked-up wallets of the last 24 hours. A wallet overview
 * lookup counts once per client, wallet and UTC hour, in the store (so every API process adds to the same
 * counts): a client is its IPv4 address or its IPv6 /64 (one subscriber's usual allocation), never a header it
 * chooses, so repeating lookups or sending them under invented sessions adds nothing; pushing a wallet up the
 * list takes as many addresses as the lookups it adds per hour.
 */
import { createHash } from "node:crypto";
import { isIPv6 } from "node:net";
import { sql } from "kysely";
import type { BackgroundWork } from "../../platform/background-work.js";
import type { Store } from "../../store/database.js";

const HOUR = 3_600;
export const LOOKUP_WINDOW_SECONDS = 24 * HOUR;
/** Hour buckets older than this are deleted when the top list is computed. */
const KEEP_SECONDS = 2 * LOOKUP_WINDOW_SECONDS;
/** Who looked a wallet up matters only within the hour (and a flush late across its end). */
const CLIENTS_KEEP_SECONDS = 2 * HOUR;

/** How often each process adds its counted lookups to the store. */
const FLUSH_MS = 5_000;
const FLUSH_ROWS_PER_STATEMENT = 500;

/** Clients of recent addresses, so that a busy client's every request does not hash its address again. */
const recentClients = new Map<string, string>();
const RECENT_CLIENTS = 10_000;

/** The client a lookup counts for: its IPv4 address, or the /64 of its IPv6 address, hashed (16 hex digits). */
export function lookupClient(ip: string): string {
  const known = recentClients.get(ip);
  if (known !== undefined) return known;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  const address = mapped ? mapped[1]! : isIPv6(ip) ? ipv6Prefix64(ip) : ip;
  const client = createHash("sha256").update(address).digest("hex").slice(0, 16);
  if (recentClients.size >= RECENT_CLIENTS) recentClients.clear();
  recentClients.set(ip, client);
  return client;
}

/** The first four groups of an IPv6 address, written out ("2001:db8::1" is "2001:db8:0:0"). */
function ipv6Prefix64(ip: string): string {
  const [head = "", tail] = ip.toLowerCase().split("%")[0]!.split("::");
  const left = head ? head.split(":") : [];
  const right = tail ? tail.split(":") : [];
  const groups =
    tail === undefined ? left : [...left, ...Array<string>(8 - left.length - right.length).fill("0"), ...right];
  return groups
    .slice(0, 4)
    .map((g) => g.replace(/^0+(?=.)/, ""))
    .join(":");
}

/**
 * Gathers lookups in memory (each client once per wallet and hour) and writes them to the store every few
 * seconds in one transaction: a client row is inserted unless another request or process recorded it first, and
 * the hour's count grows by the rows inserted. A write per overview request would cost more than the read it counts.
 */
export class LookupCounter {
  private pending = new Map<string, { wallet: string; hour: number; client: string }>();
  private readonly stopFlushing: () => void;

  constructor(
    private readonly store: Store,
    background: BackgroundWork,
  ) {
    this.stopFlushing = background.every("lookup counts", FLUSH_MS, () => this.flush());
  }

  /** A lookup of `wallet` at `now` by the client at IP address `ip`. */
  record(wallet: string, now: number, ip: string): void {
    const hour = now - (now % HOUR);
    const client = lookupClient(ip);
    this.pending.set(`${wallet}|${hour}|${client}`, { wallet, hour, client });
  }

  async flush(): Promise<void> {
    if (this.pending.size === 0) return;
    const rows = [...this.pending.values()];
    this.pending = new Map();
    // A few multi-row statements, not one per wallet: on SQLite the flush holds the event loop while it runs.
    await this.store.transaction(async (tx) => {
      for (let i = 0; i < rows.length; i += FLUSH_ROWS_PER_STATEMENT) {
        const added = await tx.db
          .insertInto("wallet_lookup_clients")
          .values(rows.slice(i, i + FLUSH_ROWS_PER_STATEMENT))
          .onConflict((oc) => oc.columns(["wallet", "hour", "client"]).doNothing())
          .returning(["wallet", "hour"])
          .execute();
        const counts = new Map<string, { wallet: string; hour: number; count: number }>();
        for (const { wallet, hour } of added) {
          const entry = counts.get(`${wallet}|${hour}`);
          if (entry) entry.count++;
          else counts.set(`${wallet}|${hour}`, { wallet, hour: Number(hour), count: 1 });
        }
        if (counts.size === 0) continue;
        await tx.db
          .insertInto("wallet_lookups")
          .values([...counts.values()])
          .onConflict((oc) =>
            oc.columns(["wallet", "hour"]).doUpdateSet({ count: sql`wallet_lookups.count + excluded.count` }),
          )
          .execute();
      }
    });
  }

  /** Stops the timer and adds what is pending; a later lookup on the store starts a new counter. */
  async close(): Promise<void> {
    this.stopFlushing();
    if (counters.get(this.store) === this) counters.delete(this.store);
    await this.flush();
  }
}

const counters = new WeakMap<Store, LookupCounter>();

/** The one counter of a store in this process; its timed writes run as the background work of the app that made it. */
export function lookupCounterOf(store: Store, background: BackgroundWork): LookupCounter {
  let counter = counters.get(store);
  if (!counter) counters.set(store, (counter = new LookupCounter(store, background)));
  return counter;
}

/** Writes what this process's counter of `store` still holds and stops it (nothing when it never counted). */
export async function closeLookupCounter(store: Store): Promise<void> {
  await counters.get(store)?.close();
}

/**
 * The most looked-up wallets of the last 24 hours (every hour bucket that overlaps it), with profile names.
 * Ties by the most recent lookup hour, then address.
 */
export async function topLookups(store: Store, now: number, limit: number) {
  await counters.get(store)?.flush();
  await store.db
    .deleteFrom("wallet_lookups")
    .where("hour", "<", now - KEEP_SECONDS)
    .execute();
  await store.db
    .deleteFrom("wallet_lookup_clients")
    .where("hour", "<", now - CLIENTS_KEEP_SECONDS)
    .execute();
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
  return rows.map((r) => ({
    wallet: r.wallet,
    name: r.name ?? r.pseudonym ?? null,
    pseudonym: r.pseudonym,
    lookups: Number(r.lookups),
  }));
}
