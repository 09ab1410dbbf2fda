/**
 * Wallet search over two stored sources: the wallet profiles synced from the venue (`wallets`: address,
 * display name, pseudonym) and the ledger's traders (`wallet_stats`: every wallet with fills, found by address
 * prefix even before a profile exists). Matches are case-insensitive: an address by prefix, a name or
 * pseudonym by substring; best first (exact address, then name or pseudonym prefix, then the rest), then by
 * total P&L (then address). Case-insensitive means the stores' `lower`, which lowers ASCII letters only.
 *
 * Read through indexes (issue 31; docs/decisions.md, "Name lookups at scale"), in up to four parts, each "the first
 * k by total P&L among the wallets passing a test": the profile with that address (its key); the best
 * WALLET_SEARCH_MAX_RESULTS profiles whose name or pseudonym starts with the query (ranges of the lowered-name
 * indexes); when those are fewer, as many more of every match (the name index of src/store/wallet-names.ts, the
 * address keys); the traders by address prefix. Each part first asks how many wallets its indexes name (SQLite
 * counts them, up to WALLET_SEARCH_INDEX_MATCHES; PostgreSQL's planner estimates them). Fewer: they are read,
 * tested and sorted. More (one or two letters, "0x"): wallets are walked by total P&L (`wallet_stats_pnl_order`)
 * and tested until k pass, which comes soon when so many match; the walk reads pages, the event loop free between
 * them, and after WALLET_SEARCH_WALK_ROWS wallets (matches mostly without statistics) reads every indexed one.
 */
import { sql, type RawBuilder, type SqlBool } from "kysely";
import type { Config } from "../../config/index.js";
import type { Store } from "../../store/database.js";
import { estimateNameIndexed, estimateRows, storeLower, textGrams, walletsNamed } from "../../store/wallet-names.js";
import { yieldToLoop } from "../../platform/yield-to-loop.js";

export type SearchSource = "profile" | "traders";

export interface SearchResult {
  address: string;
  name: string | null;
  source: SearchSource;
}

export type WalletSearchSettings = Pick<
  Config["insights"],
  "searchMaxResults" | "searchIndexMatches" | "searchWalkRows"
>;

export interface SearchCandidate {
  address: string;
  name: string | null;
  pseudonym: string | null;
  total_pnl: number | null;
}

/**
 * Wallets passing `test`, a condition over `wallets as w` (and `wallet_stats as s`) or over `wallet_stats as s`.
 * The indexes give a superset of them: `from` (a FROM clause giving `w` or `s`) where `indexed`. `indexedRows`: how
 * many rows the indexes give, counted or estimated up to a cap.
 */
interface Part {
  table: "wallets" | "wallet_stats";
  from: RawBuilder<unknown>;
  indexed: RawBuilder<SqlBool>;
  test: RawBuilder<SqlBool>;
  indexedRows(cap: number): Promise<number>;
}

const WALLETS = sql`wallets w`;

/** A LIKE pattern matching `text` literally (with `\` as the escape character). */
export const likeLiteral = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/** The first text after every text starting with `prefix`, in code point order (the stores compare bytes of UTF-8); null when none is. */
function afterPrefix(prefix: string): string | null {
  const chars = [...prefix];
  const last = chars.pop()!.codePointAt(0)!;
  if (last === 0x10ffff) return null;
  return chars.join("") + String.fromCodePoint(last + 1 === 0xd800 ? 0xe000 : last + 1);
}

/** `column` in [from, to) (to null: unbounded). */
const inRange = (column: RawBuilder<unknown>, from: string, to: string | null) =>
  to === null ? sql<SqlBool>`${column} >= ${from}` : sql<SqlBool>`(${column} >= ${from} and ${column} < ${to})`;

export async function searchWallets(
  store: Store,
  query: string,
  settings: WalletSearchSettings,
): Promise<SearchResult[]> {
  const q = query.trim().toLowerCase();
  if (q === "") return [];
  const max = settings.searchMaxResults;
  const parts = searchParts(store, q);
  const best = [
    ...(parts.exact ? await readCandidates(store, parts.exact, 1) : []),
    ...(await firstByPnl(store, parts.prefixed, max, settings)),
  ];
  // The others rank after every prefix match: the best `max` of them are among the best `max + prefix matches` of all.
  const others = best.length < max ? await firstByPnl(store, parts.matching, max + best.length, settings) : [];
  const traders = parts.trading ? await firstByPnl(store, parts.trading, max, settings) : [];
  return rankedResults(q, [...best, ...others], traders, max);
}

/**
 * What a (lowered) query reads: the profile with that address (an 0x query); the profiles whose name or pseudonym
 * starts with it; every matching profile (address prefix, name or pseudonym substring); the traders by address
 * prefix (an 0x query).
 */
function searchParts(
  store: Store,
  q: string,
): { exact: Part | null; prefixed: Part; matching: Part; trading: Part | null } {
  const isAddress = /^0x[0-9a-f]{0,40}$/.test(q);
  const contains = `%${likeLiteral(q)}%`;
  const prefix = `${likeLiteral(q)}%`;
  const after = afterPrefix(q);
  const names = [sql`lower(w.name)`, sql`lower(w.pseudonym)`];
  const rowsOf = (query: RawBuilder<unknown>) => (cap: number) => estimateRows(store, query, cap);
  const prefixRanges = names.map((n) => inRange(n, q, after));
  const prefixed: Part = {
    table: "wallets",
    from: WALLETS,
    indexed: sql`(${sql.join(prefixRanges, sql` or `)})`,
    test: sql`(${sql.join(
      names.map((n) => sql`${n} like ${prefix} escape '\\'`),
      sql` or `,
    )})`,
    indexedRows: summed(prefixRanges.map((range) => rowsOf(sql`select 1 from wallets w where ${range}`))),
  };
  const grams = textGrams(q);
  const namedRows = (cap: number) => estimateNameIndexed(store, grams, cap);
  const contained = names.map((n) => sql`${n} like ${contains} escape '\\'`);
  if (!isAddress) {
    const matching: Part = {
      table: "wallets",
      from: walletsNamed(store.kind, grams),
      indexed: sql`true`,
      test: sql`(${sql.join(contained, sql` or `)})`,
      indexedRows: namedRows,
    };
    return { exact: null, prefixed, matching, trading: null };
  }
  const traders = inRange(sql`s.wallet`, q, after);
  return {
    exact: {
      table: "wallets",
      from: WALLETS,
      indexed: sql`w.address = ${q}`,
      test: sql`true`,
      indexedRows: async () => 1,
    },
    prefixed,
    matching: {
      table: "wallets",
      from: walletsNamed(store.kind, grams, inRange(sql`a.address`, q, after)),
      indexed: sql`true`,
      test: sql`(${sql.join([sql`w.address like ${prefix} escape '\\'`, ...contained], sql` or `)})`,
      indexedRows: summed([namedRows, rowsOf(sql`select 1 from wallets w where ${inRange(sql`w.address`, q, after)}`)]),
    },
    trading: {
      table: "wallet_stats",
      from: sql`wallet_stats s`,
      indexed: traders,
      test: sql`s.wallet like ${prefix} escape '\\'`,
      indexedRows: rowsOf(sql`select 1 from wallet_stats s where ${traders}`),
    },
  };
}

/** Counts (or estimates) of several index reads, summed until `cap`. */
const summed = (counts: ((cap: number) => Promise<number>)[]) => async (cap: number) => {
  let rows = 0;
  for (const count of counts) if (rows < cap) rows += await count(cap - rows);
  return rows;
};

function rank(q: string, row: { address: string; name: string | null; pseudonym: string | null }): number {
  if (row.address === q) return 0;
  if ((row.name && storeLower(row.name).startsWith(q)) || (row.pseudonym && storeLower(row.pseudonym).startsWith(q)))
    return 1;
  return 2;
}

/** The answer from the matching profiles and traders: best first, `max` at most (a profile wins over the same trader). */
export function rankedResults(
  q: string,
  profiles: readonly SearchCandidate[],
  traders: readonly SearchCandidate[],
  max: number,
): SearchResult[] {
  const found = new Map<string, SearchResult & { rank: number; pnl: number }>();
  for (const p of profiles) {
    found.set(p.address, {
      address: p.address,
      name: p.name || p.pseudonym || null,
      source: "profile",
      rank: rank(q, p),
      pnl: p.total_pnl ?? -Infinity,
    });
  }
  for (const t of traders) {
    if (!found.has(t.address))
      found.set(t.address, {
        address: t.address,
        name: null,
        source: "traders",
        rank: t.address === q ? 0 : 2,
        pnl: t.total_pnl ?? -Infinity,
      });
  }
  return [...found.values()]
    .sort((a, b) => a.rank - b.rank || b.pnl - a.pnl || (a.address < b.address ? -1 : a.address > b.address ? 1 : 0))
    .slice(0, max)
    .map(({ address, name, source }) => ({ address, name, source }));
}

/** The first `want` wallets of a part by total P&L (those without statistics last, by address). */
async function firstByPnl(
  store: Store,
  part: Part,
  want: number,
  settings: WalletSearchSettings,
): Promise<SearchCandidate[]> {
  if ((await part.indexedRows(settings.searchIndexMatches)) >= settings.searchIndexMatches) {
    const walked = await walkByPnl(store, part.test, want, settings.searchWalkRows);
    if (walked) return walked;
  }
  return readCandidates(store, part, want);
}

/** The first `want` wallets of a part by total P&L, from every wallet its indexes name. */
async function readCandidates(store: Store, part: Part, want: number): Promise<SearchCandidate[]> {
  const query =
    part.table === "wallet_stats"
      ? sql<SearchCandidate>`select s.wallet as address, null as name, null as pseudonym, s.total_pnl from ${part.from}
          where ${part.indexed} and ${part.test} order by s.total_pnl desc, s.wallet limit ${want}`
      : sql<SearchCandidate>`select w.address, w.name, w.pseudonym, s.total_pnl from ${part.from} left join wallet_stats s on s.wallet = w.address
          where ${part.indexed} and ${part.test} order by coalesce(s.total_pnl, -1e18) desc, w.address limit ${want}`;
  return (await query.execute(store.db)).rows;
}

/** Rows of the walk's first page; each next page doubles, up to WALK_PAGE_ROWS (a few milliseconds of SQLite each). */
const WALK_FIRST_PAGE_ROWS = 100;
const WALK_PAGE_ROWS = 2_000;

type WalkedRow = SearchCandidate & { total_pnl: number; hit: number };

/** One page of the walk: `rows` wallets of wallet_stats after `after` by total P&L (then address), each with its test. */
function walkPage(
  store: Store,
  test: RawBuilder<SqlBool>,
  after: { pnl: number; wallet: string } | null,
  rows: number,
): Promise<WalkedRow[]> {
  const page = store.db
    .selectFrom("wallet_stats")
    .select(["wallet", "total_pnl"])
    // The bound on total_pnl alone is what lets both stores start the index scan where the last page ended.
    .$if(after !== null, (qb) =>
      qb
        .where("total_pnl", "<=", after!.pnl)
        .where((eb) => eb.or([eb("total_pnl", "<", after!.pnl), eb("wallet", ">", after!.wallet)])),
    )
    .orderBy("total_pnl", "desc")
    .orderBy("wallet")
    .limit(rows);
  return store.db
    .selectFrom(page.as("s"))
    .leftJoin("wallets as w", "w.address", "s.wallet")
    .select([
      "s.wallet as address",
      "s.total_pnl",
      "w.name",
      "w.pseudonym",
      sql<number>`case when ${test} then 1 else 0 end`.as("hit"),
    ])
    .orderBy("s.total_pnl", "desc")
    .orderBy("s.wallet")
    .execute();
}

/**
 * The first `want` wallets passing `test` (over `wallet_stats as s` and its profile `wallets as w`), walking
 * wallet_stats by total P&L (then address); null when `maxRows` wallets or the whole table were read without
 * finding them (the wallets without statistics come after all of these).
 */
async function walkByPnl(
  store: Store,
  test: RawBuilder<SqlBool>,
  want: number,
  maxRows: number,
): Promise<SearchCandidate[] | null> {
  const found: SearchCandidate[] = [];
  let after: { pnl: number; wallet: string } | null = null;
  let pageRows = WALK_FIRST_PAGE_ROWS;
  for (let read = 0; read < maxRows; ) {
    const rows = Math.min(pageRows, maxRows - read);
    const walked = await walkPage(store, test, after, rows);
    for (const { hit, ...row } of walked) {
      if (hit && found.push(row) === want) return found;
    }
    if (walked.length < rows) return null;
    read += walked.length;
    const last = walked[walked.length - 1]!;
    after = { pnl: last.total_pnl, wallet: last.address };
    pageRows = Math.min(WALK_PAGE_ROWS, pageRows * 2);
    await yieldToLoop();
  }
  return null;
}
