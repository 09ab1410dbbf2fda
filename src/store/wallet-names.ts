/**
 * The name index of `wallets` (migration 0013_name_lookups): which wallets may have a name or pseudonym containing a
 * text. It holds every substring of 1 to NAME_GRAM_MAX characters of each lowered name and pseudonym. A text lies
 * in a name only if all of its own substrings of that length (the text itself when shorter) lie there too, so the
 * wallets the index names are all the matches and possibly a few more: the caller tests the text itself on them.
 * Characters are code points on both sides (JavaScript's string iterator, SQLite's and PostgreSQL's substr).
 *
 * SQLite's index (FTS5) is brought up to date by `indexNameChanges`, which ingest runs after each batch of sightings;
 * until then the wallets whose names changed are named whatever the text (`wallet_name_changes`), so the index
 * names every match at any time. PostgreSQL's (GIN over `wallet_names`, which triggers keep) is always up to date.
 */
import { sql, type RawBuilder, type SqlBool } from "kysely";
import type { Store, StoreKind, StoreTransaction } from "./database.js";
import { preparedStatement } from "./sqlite-statements.js";

/** The stores' lower-casing: ASCII letters only (SQLite's `lower`, PostgreSQL's under COLLATE "C"). */
export const storeLower = (text: string) => text.replace(/[A-Z]+/g, (letters) => letters.toLowerCase());

/** Longest substring the index holds (as 0013_name_lookups built it; another length needs a migration that rebuilds it). */
export const NAME_GRAM_MAX = 3;

/** The substrings of `text` (already lowered) the index is asked for: each of NAME_GRAM_MAX characters, or the text itself. */
export function textGrams(text: string): string[] {
  const chars = [...text];
  if (chars.length <= NAME_GRAM_MAX) return chars.length ? [text] : [];
  const grams = new Set<string>();
  for (let i = 0; i + NAME_GRAM_MAX <= chars.length; i++) grams.add(chars.slice(i, i + NAME_GRAM_MAX).join(""));
  return [...grams];
}

/** An FTS5 query naming the documents that hold every gram (the SQLite index stores them hex-encoded). */
const ftsQuery = (grams: readonly string[]) =>
  grams.map((g) => `"${Buffer.from(g, "utf8").toString("hex")}"`).join(" AND ");

/** PostgreSQL: a condition on `wallet_names as n`, true where the GIN index holds every gram. */
const postgresGrams = (grams: readonly string[]) =>
  sql<SqlBool>`(wallet_name_grams(n.name) || wallet_name_grams(n.pseudonym)) @> ${[...grams]}::text[]`;

/**
 * A FROM clause giving `wallets as w` for the wallets the index names for these grams (at least one gram), and for
 * those whose address passes `alsoAddresses` (a condition over `wallets as a`). The index's keys drive, each wallet
 * once: as a condition on `wallets` (an OR with the addresses, or a semi-join), PostgreSQL may read every wallet.
 */
export function walletsNamed(
  kind: StoreKind,
  grams: readonly string[],
  alsoAddresses?: RawBuilder<SqlBool>,
): RawBuilder<unknown> {
  if (kind === "sqlite") {
    const also = alsoAddresses ? sql` union select a.rowid from wallets a where ${alsoAddresses}` : sql``;
    const keys = sql`select rowid as wallet_key from wallet_name_grams where wallet_name_grams match ${ftsQuery(grams)} union select wallet_rowid from wallet_name_changes${also}`;
    return sql`(${keys}) k join wallets w on w.rowid = k.wallet_key`;
  }
  const also = alsoAddresses ? sql` union select a.address from wallets a where ${alsoAddresses}` : sql``;
  return sql`(select n.wallet as wallet_key from wallet_names n where ${postgresGrams(grams)}${also}) k join wallets w on w.address = k.wallet_key`;
}

/**
 * How many rows a query (`select 1 from ... where ...`) gives, to choose how to read them: SQLite counts them, up to
 * `cap`; PostgreSQL's planner estimates them from its statistics (counting would visit every row).
 */
export async function estimateRows(store: Store, query: RawBuilder<unknown>, cap: number): Promise<number> {
  if (store.kind === "postgres") {
    const { rows } = await sql<{
      "QUERY PLAN": [{ Plan: { "Plan Rows": number } }];
    }>`explain (format json) ${query}`.execute(store.db);
    return rows[0]!["QUERY PLAN"][0].Plan["Plan Rows"];
  }
  const { rows } = await sql<{ n: number }>`select count(*) as n from (${query} limit ${cap}) m`.execute(store.db);
  return Number(rows[0]!.n);
}

/** Grams PostgreSQL's estimate looks at: the rows holding all of them are at most the rows holding the rarest. */
const ESTIMATED_GRAMS = 3;

/**
 * How many wallets the index names for these grams. SQLite: counted from the index alone, up to `cap`. PostgreSQL:
 * the smallest of the planner's estimates for single grams (it multiplies the frequencies of several grams, as if
 * they were independent, which they are not: "heron" is estimated at a handful of the 25,000 wallets holding it).
 */
export async function estimateNameIndexed(store: Store, grams: readonly string[], cap: number): Promise<number> {
  if (store.kind === "sqlite") {
    const indexed = await estimateRows(
      store,
      sql`select rowid from wallet_name_grams where wallet_name_grams match ${ftsQuery(grams)}`,
      cap,
    );
    return indexed < cap
      ? indexed + (await estimateRows(store, sql`select wallet_rowid from wallet_name_changes`, cap - indexed))
      : indexed;
  }
  const step = Math.max(1, Math.ceil(grams.length / ESTIMATED_GRAMS));
  let fewest = Infinity;
  for (let i = 0; i < grams.length; i += step) {
    fewest = Math.min(
      fewest,
      await estimateRows(store, sql`select 1 from wallet_names n where ${postgresGrams([grams[i]!])}`, cap),
    );
  }
  return fewest;
}

/**
 * SQLite: indexes the names of the wallets written since the last call (noted by the triggers of 0013_name_lookups),
 * in two statements whatever their number (FTS5 flushes its pending terms once per statement); nothing on PostgreSQL.
 */
export function indexNameChanges(tx: StoreTransaction): void {
  const raw = tx.raw;
  if (raw.kind !== "sqlite") return;
  const run = (text: string) => preparedStatement(raw.handle, text);
  if (!run("select 1 from wallet_name_changes limit 1").get()) return;
  run("delete from wallet_name_grams where rowid in (select wallet_rowid from wallet_name_changes)").run();
  run(`insert into wallet_name_grams (rowid, grams)
    select d.wallet_rowid, d.grams from wallet_name_changes c join wallet_name_documents d on d.wallet_rowid = c.wallet_rowid`).run();
  run("delete from wallet_name_changes").run();
}
