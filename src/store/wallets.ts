/**
 * Wallets seen by ingest: one row per address, with first and last activity and the profile fields the venue
 * sends along (kept when a later row omits them). Callers pass sightings; this aggregates them per address and
 * upserts in one statement per dialect path. Never given a protocol address: the ingest's batch writer filters those.
 * On SQLite the name index then takes the wallets whose names changed (src/store/wallet-names.ts).
 */
import type { Store, StoreTransaction } from "./database.js";
import { firstRow } from "./raw-sql.js";
import { preparedStatement } from "./sqlite-statements.js";
import { indexNameChanges } from "./wallet-names.js";

export interface WalletSighting {
  readonly address: string;
  /** Unix seconds of the row that showed the wallet. */
  readonly ts: number;
  readonly name?: string | null;
  readonly pseudonym?: string | null;
  readonly bio?: string | null;
  readonly profileImage?: string | null;
}

interface WalletRow {
  address: string;
  name: string | null;
  pseudonym: string | null;
  bio: string | null;
  profile_image: string | null;
  first_seen: number;
  last_seen: number;
}

const COLUMNS = [
  "address",
  "name",
  "pseudonym",
  "bio",
  "profile_image",
  "first_seen",
  "last_seen",
  "updated_at",
] as const;
const PG_TYPES = ["text", "text", "text", "text", "text", "bigint", "bigint", "bigint"] as const;

const ON_CONFLICT = `on conflict (address) do update set
  name = coalesce(excluded.name, wallets.name),
  pseudonym = coalesce(excluded.pseudonym, wallets.pseudonym),
  bio = coalesce(excluded.bio, wallets.bio),
  profile_image = coalesce(excluded.profile_image, wallets.profile_image),
  first_seen = case when wallets.first_seen is null or excluded.first_seen < wallets.first_seen then excluded.first_seen else wallets.first_seen end,
  last_seen = case when wallets.last_seen is null or excluded.last_seen > wallets.last_seen then excluded.last_seen else wallets.last_seen end,
  updated_at = excluded.updated_at`;

/**
 * The merge of a wallet's times from its fills (no profile fields to keep): it sets only the times, and only on rows
 * they change. Setting the names to themselves (the upsert of sightings) rewrote each row's entries in the name
 * indexes and tested the name triggers of 0013_name_lookups; a row a first sync inserted when it first saw a wallet
 * it saw only once is already right (500,000 fills, 150,000 wallets: 0.6-0.7 s of CPU before, 0.3 s after).
 */
const TIMES_ON_CONFLICT = `on conflict (address) do update set
  first_seen = case when wallets.first_seen is null or excluded.first_seen < wallets.first_seen then excluded.first_seen else wallets.first_seen end,
  last_seen = case when wallets.last_seen is null or excluded.last_seen > wallets.last_seen then excluded.last_seen else wallets.last_seen end,
  updated_at = excluded.updated_at
  where wallets.first_seen is null or excluded.first_seen < wallets.first_seen
    or wallets.last_seen is null or excluded.last_seen > wallets.last_seen`;

function aggregate(sightings: Iterable<WalletSighting>): WalletRow[] {
  const rows = new Map<string, WalletRow>();
  for (const s of sightings) {
    const row = rows.get(s.address);
    if (!row) {
      rows.set(s.address, {
        address: s.address,
        name: s.name ?? null,
        pseudonym: s.pseudonym ?? null,
        bio: s.bio ?? null,
        profile_image: s.profileImage ?? null,
        first_seen: s.ts,
        last_seen: s.ts,
      });
      continue;
    }
    if (s.ts < row.first_seen) row.first_seen = s.ts;
    if (s.ts > row.last_seen) row.last_seen = s.ts;
    row.name = s.name ?? row.name;
    row.pseudonym = s.pseudonym ?? row.pseudonym;
    row.bio = s.bio ?? row.bio;
    row.profile_image = s.profileImage ?? row.profile_image;
  }
  // One lock order for every writer: concurrent upserts on PostgreSQL cannot deadlock on each other.
  return [...rows.values()].sort((a, b) => (a.address < b.address ? -1 : a.address > b.address ? 1 : 0));
}

/** Upserts the wallets of `sightings`; returns how many distinct addresses were written. */
export async function recordWalletSightings(
  tx: StoreTransaction,
  sightings: Iterable<WalletSighting>,
  now: number,
): Promise<number> {
  const rows = aggregate(sightings);
  if (rows.length === 0) return 0;
  const width = COLUMNS.length;
  if (tx.raw.kind === "sqlite") {
    const statement = preparedStatement(
      tx.raw.handle,
      `insert into wallets (${COLUMNS.join(", ")}) values (${COLUMNS.map(() => "?").join(", ")}) ${ON_CONFLICT}`,
    );
    const values: unknown[] = new Array(width);
    for (const row of rows) {
      writeValues(row, now, values);
      statement.run(values);
    }
    indexNameChanges(tx);
    return rows.length;
  }
  const arrays: unknown[][] = COLUMNS.map(() => new Array(rows.length));
  const values: unknown[] = new Array(width);
  rows.forEach((row, r) => {
    writeValues(row, now, values);
    for (let c = 0; c < width; c++) (arrays[c] as unknown[])[r] = values[c];
  });
  await tx.raw.client.query(
    `insert into wallets (${COLUMNS.join(", ")}) select * from unnest(${PG_TYPES.map((t, i) => `$${i + 1}::${t}[]`).join(", ")}) ${ON_CONFLICT}`,
    arrays,
  );
  return rows.length;
}

/** A wallet a first sync has just seen in its fills: the time of the first fill that showed it. */
export interface FirstSighting {
  readonly address: string;
  readonly ts: number;
}

/**
 * Inserts the wallets of `sightings` that `wallets` does not hold yet, first and last seen at the sighting's time,
 * and leaves the others as they are (a deferring first sync: its end merges every fill's times in). No names, so
 * the name index has nothing to take. One statement per call on SQLite, the rows as one JSON array in address order:
 * a statement per row cost 2.5 times as much, as each execution of an insert into `wallets` (which has triggers)
 * opens and closes a statement journal (150,000 wallets: 2.5 s of CPU against 1.0 s, measured).
 */
export async function recordFirstSightings(
  tx: StoreTransaction,
  sightings: readonly FirstSighting[],
  now: number,
): Promise<void> {
  if (sightings.length === 0) return;
  const rows = [...sightings].sort((a, b) => (a.address < b.address ? -1 : a.address > b.address ? 1 : 0));
  if (tx.raw.kind === "sqlite") {
    // `where true`: SQLite needs a WHERE before an upsert's ON CONFLICT when the rows come from a SELECT.
    preparedStatement(
      tx.raw.handle,
      `insert into wallets (address, first_seen, last_seen, updated_at)
       select value ->> 0, value ->> 1, value ->> 1, ? from json_each(?) where true on conflict (address) do nothing`,
    ).run(now, JSON.stringify(rows.map((r) => [r.address, r.ts])));
    return;
  }
  await tx.raw.client.query(
    `insert into wallets (address, first_seen, last_seen, updated_at)
     select address, ts, ts, $3::bigint from unnest($1::text[], $2::bigint[]) as s (address, ts)
     on conflict (address) do nothing`,
    [rows.map((r) => r.address), rows.map((r) => r.ts), now],
  );
}

/** A row's values in COLUMNS order, into a reused array (no array per row and column). */
function writeValues(r: WalletRow, now: number, out: unknown[]): void {
  out[0] = r.address;
  out[1] = r.name;
  out[2] = r.pseudonym;
  out[3] = r.bio;
  out[4] = r.profile_image;
  out[5] = r.first_seen;
  out[6] = r.last_seen;
  out[7] = now;
}

/** Each wallet's first and last fill, grouped by its id over the wallet index (the view would group by text). */
const WALLET_SPANS = "select wallet_id, min(ts) as first_seen, max(ts) as last_seen from fill_rows group by wallet_id";

/**
 * Records the wallet of every stored fill (first and last seen from the fills), merged with what `wallets` holds:
 * a first sync that left its fills' wallets to its end does this once, over the wallet index built just before.
 */
export async function recordWalletsOfFills(tx: StoreTransaction, now: number): Promise<void> {
  // Both stores insert in address order: the inserts walk the wallets' key index instead of jumping.
  if (tx.raw.kind === "sqlite") {
    // Grouped over the wallet index, then sorted by address. `where true`: SQLite needs a WHERE before an
    // upsert's ON CONFLICT when the rows come from a SELECT.
    const select = `select a.address, null, null, null, null, g.first_seen, g.last_seen, ? from (${WALLET_SPANS}) g
      join address_ids a on a.id = g.wallet_id where true order by a.address`;
    tx.raw.handle.prepare(`insert into wallets (${COLUMNS.join(", ")}) ${select} ${TIMES_ON_CONFLICT}`).run(now);
    return;
  }
  // PostgreSQL groups by hashing a full scan (work_mem and JIT as completeDeferredFills's transaction set them);
  // CREATE TABLE AS may run that with parallel workers, an INSERT's SELECT may not (10,000,000 fills: 5.4 s and 1.2 s for the insert, against 8.7-9.3 s in one statement).
  const client = tx.raw.client;
  await client.query(
    `create temporary table fill_wallets as select a.address as wallet, g.first_seen, g.last_seen from (${WALLET_SPANS}) g
      join address_ids a on a.id = g.wallet_id`,
  );
  const select =
    "select wallet, null, null, null, null, first_seen, last_seen, $1::bigint from fill_wallets order by wallet";
  await client.query(`insert into wallets (${COLUMNS.join(", ")}) ${select} ${TIMES_ON_CONFLICT}`, [now]);
  // A failure above aborts the transaction, which takes the temporary table with it.
  await client.query("drop table fill_wallets");
}

/** Whether the store has ever seen this wallet (address lower-cased). */
export async function walletExists(store: Store, address: string): Promise<boolean> {
  return (
    (await firstRow(store.db, store.kind, "select address from wallets where address = ?", [address])) !== undefined
  );
}

/** Records who signs for a proxy wallet (a 1-of-1 Safe's owner, as the chain answered). */
export async function recordWalletSigner(store: Store, proxy: string, signer: string): Promise<void> {
  await store.db.updateTable("wallets").set({ signer }).where("address", "=", proxy).execute();
}
