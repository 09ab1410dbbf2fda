/**
 * Issue 31, name lookups at scale: indexes for finding wallets by their venue name or pseudonym without reading
 * the whole `wallets` table (0.05-0.5 s per lookup and 0.2-4.7 s per search at 1,000,000 wallets before).
 *
 * - Lookups by name or pseudonym, exact or case-insensitive (`lower(name) = ?`): `wallets (lower(name))` and
 *   `wallets (lower(pseudonym))`. They replace 0004's indexes on the names as written (an exact lookup also
 *   compares the lowered names), so a wallet written keeps two name indexes to update, not four.
 * - Substring search (`lower(name) like '%q%'`): an index of every substring of 1 to GRAM_MAX (3) characters of
 *   the lowered name and pseudonym (src/store/wallet-names.ts asks it for the substrings of the query, then the
 *   search checks the query itself on the rows it names). `lower` is the store's own (ASCII letters only on both:
 *   SQLite's built-in, PostgreSQL's under COLLATE "C"), so the index holds exactly what the search compares.
 *   SQLite: a contentless FTS5 table keyed by the wallet's rowid (which VACUUM keeps: wallet-names.test.ts), one
 *   document of hex-encoded substrings per named wallet, following `wallets` through triggers (any writer:
 *   ingest's upserts, a test's insert, a delete).
 *   PostgreSQL: `wallet_names` (the named wallets' names, kept by triggers on `wallets`) with a GIN index over
 *   `wallet_name_grams(name) || wallet_name_grams(pseudonym)`.
 * - A search matching many wallets walks them by total P&L instead: `wallet_stats (total_pnl desc, wallet)`.
 */
import { sql, type Kysely } from "kysely";
import type { StoreKind, StoreMigration } from "./column-types.js";

/** Longest substring indexed (src/store/wallet-names.ts NAME_GRAM_MAX asks for the same). */
const GRAM_MAX = 3;

/**
 * SQLite: the substrings of 1 to GRAM_MAX characters of `lower(text)`, hex-encoded (one token each for the FTS5
 * ascii tokenizer, whatever the characters) and separated by spaces; null for a null text. The positions come from
 * json_each over an array of length(text) zeros (no table of numbers to outgrow).
 */
const sqliteGrams = (text: string) =>
  `(select group_concat(hex(substr(lower(${text}), p.key + 1, n.value)), ' ')
     from json_each('[' || replace(hex(zeroblob(length(${text}))), '00', '0,') || '0]') p,
          json_each('[${Array.from({ length: GRAM_MAX }, (_, i) => i + 1).join(",")}]') n
     where p.key + n.value <= length(${text}))`;

/**
 * The FTS5 index, and how it follows `wallets`. Writing it from a trigger would cost a flush of FTS5's pending
 * terms per statement (ingest writes one statement per wallet: 0.26 ms of CPU per new named wallet at 1,000,000
 * wallets, against 0.05 ms so), so
 * triggers only note which wallets' names changed (`wallet_name_changes`), and `indexNameChanges`
 * (src/store/wallet-names.ts) indexes them in two statements, at the end of every batch of sightings; a search
 * reads the noted wallets as candidates until then. `wallet_name_documents` holds the definition of a document.
 */
async function sqliteNameIndex(db: Kysely<unknown>): Promise<void> {
  const run = (text: string) => sql.raw(text).execute(db);
  await run(`create table wallet_name_changes (wallet_rowid integer primary key)`);
  await run(`create view wallet_name_documents as
    select w.rowid as wallet_rowid, coalesce(${sqliteGrams("w.name")}, '') || ' ' || coalesce(${sqliteGrams("w.pseudonym")}, '') as grams
    from wallets w where w.name is not null or w.pseudonym is not null`);
  await run(
    `create virtual table wallet_name_grams using fts5(grams, content='', contentless_delete=1, detail=none, tokenize='ascii')`,
  );
  await run(`insert into wallet_name_grams (rowid, grams) select wallet_rowid, grams from wallet_name_documents`);
  const noted = (row: "new" | "old") =>
    `begin insert or ignore into wallet_name_changes (wallet_rowid) values (${row}.rowid); end`;
  await run(
    `create trigger wallet_name_changes_insert after insert on wallets when new.name is not null or new.pseudonym is not null ${noted("new")}`,
  );
  // An upsert that keeps the names (coalesce with the stored ones) notes nothing.
  await run(`create trigger wallet_name_changes_update after update of name, pseudonym on wallets
    when old.name is not new.name or old.pseudonym is not new.pseudonym ${noted("new")}`);
  await run(
    `create trigger wallet_name_changes_delete after delete on wallets when old.name is not null or old.pseudonym is not null ${noted("old")}`,
  );
}

/**
 * PostgreSQL: `wallet_names`, the names of the wallets that have any, kept by triggers on `wallets`, and GIN over
 * their substrings. The index is not on `wallets` itself: ingest updates a wallet at every sighting (last_seen), and
 * an update that finds no room on its page (not HOT) computes every index key again, 0.12 ms a wallet for this one;
 * a sighting that keeps the names now touches neither. `wallet_name_grams` gives the same substrings as an array
 * (repeats left to GIN, which keeps each key once per row), in PL/pgSQL: half the time of a set-returning SQL
 * query, about 15 µs for a pseudonym. Its local text has the argument's collation: `lower` is the "C" one.
 */
async function postgresNameIndex(db: Kysely<unknown>): Promise<void> {
  const lengths = Array.from({ length: GRAM_MAX }, (_, i) => `substr(t, i, ${i + 1})`).join(" || ");
  const run = (text: string) => sql.raw(text).execute(db);
  await run(`create function wallet_name_grams(text) returns text[] language plpgsql immutable strict parallel safe as $$
    declare t text := lower($1); grams text[] := '{}';
    begin
      for i in 1..length(t) loop grams := grams || ${lengths}; end loop;
      return grams;
    end $$`);
  await run(
    `create table wallet_names (wallet text collate "C" primary key, name text collate "C", pseudonym text collate "C")`,
  );
  await run(
    `insert into wallet_names select address, name, pseudonym from wallets where name is not null or pseudonym is not null`,
  );
  await run(
    `create index wallet_names_grams on wallet_names using gin ((wallet_name_grams(name) || wallet_name_grams(pseudonym)))`,
  );
  await run(`create function wallet_names_follow() returns trigger language plpgsql as $$
    begin
      if tg_op <> 'INSERT' then delete from wallet_names where wallet = old.address; end if;
      if tg_op <> 'DELETE' and (new.name is not null or new.pseudonym is not null) then
        insert into wallet_names (wallet, name, pseudonym) values (new.address, new.name, new.pseudonym);
      end if;
      return null;
    end $$`);
  await run(`create trigger wallet_names_insert after insert on wallets for each row
    when (new.name is not null or new.pseudonym is not null) execute function wallet_names_follow()`);
  // An upsert that keeps the names (coalesce with the stored ones) does not fire it.
  await run(`create trigger wallet_names_update after update of name, pseudonym on wallets for each row
    when (old.name is distinct from new.name or old.pseudonym is distinct from new.pseudonym) execute function wallet_names_follow()`);
  await run(
    `create trigger wallet_names_delete after delete on wallets for each row when (old.name is not null or old.pseudonym is not null) execute function wallet_names_follow()`,
  );
  // The planner's statistics of the new index expressions (lowered names, substrings), at once: the search asks it
  // how many rows a range or a text names, and without them it guesses 0.5% of the table.
  await run(`analyze wallets`);
  await run(`analyze wallet_names`);
}

export const nameLookups: StoreMigration = {
  async up(db: Kysely<unknown>, kind: StoreKind) {
    await sql`drop index wallets_name_lookup`.execute(db);
    await sql`drop index wallets_pseudonym_lookup`.execute(db);
    await sql`create index wallets_lower_name on wallets (lower(name))`.execute(db);
    await sql`create index wallets_lower_pseudonym on wallets (lower(pseudonym))`.execute(db);
    await sql`create index wallet_stats_pnl_order on wallet_stats (total_pnl desc, wallet)`.execute(db);
    await (kind === "sqlite" ? sqliteNameIndex(db) : postgresNameIndex(db));
  },
};
