/**
 * The compact layout of fills (issue 49, migration 0029). `fill_rows` holds a fill with:
 * - its wallet, counterparty, market and token as small integer ids from three dictionaries (`address_ids`,
 *   `condition_ids`, `token_ids`): a 42-character address, a 66-character condition id and a 78-digit token id were
 *   written in the row and again in every index that holds them;
 * - its transaction hash as 32 bytes (`tx_hash`), or, for a hash not written as `0x` and 64 lower-case hex digits,
 *   as its text (`tx_text`), so that every stored text reads back exactly; since migration 0049, no order hash
 *   (nothing reads it: `src/store/migrations/0049_no_order_hashes.ts`);
 * - no key of its own where the key follows from its block and log (`chainFillKey`): `key_text` holds only the keys
 *   that do not (the Data API's fills);
 * - since migration 0042, its source, side and entry type as small integers (`FILL_CODES`), and no price where the
 *   price is its amount over its size (`storedPrice`), as it is for every fill the chain gives;
 * - since migration 0048, no transaction hash where it is the hash of the chain fill before it in its block
 *   (`fillsWithImpliedTx`, `fillTxHashSql`): a match's fills share one transaction, whose logs are consecutive;
 * - since migration 0050, its role as a code (`FILL_ROLES`) and its exchange version less one (today's version, 2, a 1):
 *   both then take no byte of a SQLite record beyond its header's (0 and 1 are stored in the header alone);
 * - since migration 0052, no index on its natural key: the writer finds a chain fill already stored among the stored
 *   fills of its time (src/store/fill-rows.ts), and a left-out hash is read at the ids just before the fill.
 * - since migration 0059, its source, side, entry type, role and exchange version packed into one small integer
 *   (`codes`, src/store/fill-codes.ts): five columns took five bytes of every row's record header.
 * The view `fills` gives every reader the row as it always was, text for text; only writes (src/store/fill-rows.ts)
 * and the queries that must reach the ids (docs/decisions.md, "Fills are stored compact, and read through a view")
 * address `fill_rows`.
 */
import { dictionaryValueSql } from "./dictionaries.js";
import { FILL_CODES_COLUMN, fillCodeSql } from "./fill-codes.js";
import type { StoreKind } from "./migrations/column-types.js";
import { FILL_ROLES, type FillsTable, isWhaleSizeMakerFill } from "./schema.js";

export const FILL_ROWS = "fill_rows";

/** Each dictionary's table and the column holding its values; a value's id is its row's `id`. */
export const FILL_DICTIONARIES = {
  addresses: { table: "address_ids", column: "address" },
  conditions: { table: "condition_ids", column: "condition_id" },
  tokens: { table: "token_ids", column: "token_id" },
} as const;

export const CHAIN_KEY_BLOCK_DIGITS = 10;
export const CHAIN_KEY_LOG_DIGITS = 6;

/**
 * A chain fill's natural key: its block and log index (a log's place on the chain), zero-padded so that keys sort
 * in chain order. Not less stable than the transaction hash: a log index counts within its block.
 */
export function chainFillKey(blockNumber: number, logIndex: number): string {
  return `chain:${String(blockNumber).padStart(CHAIN_KEY_BLOCK_DIGITS, "0")}:${String(logIndex).padStart(CHAIN_KEY_LOG_DIGITS, "0")}`;
}

const CANONICAL_HASH = /^0x[0-9a-f]{64}$/;

/** A hash as stored: its 32 bytes when written canonically, else its text (null stays null). */
export function storedHash(text: string | null | undefined): { bytes: Buffer | null; text: string | null } {
  if (text === null || text === undefined) return { bytes: null, text: null };
  return CANONICAL_HASH.test(text) ? { bytes: Buffer.from(text.slice(2), "hex"), text: null } : { bytes: null, text };
}

/** The key a fill stores: none when it follows from its block and log, else the key's text. */
export function storedFillKey(
  fill: Pick<FillsTable, "fill_key"> & Partial<Pick<FillsTable, "block_number" | "log_index">>,
): string | null {
  const { block_number: block, log_index: log } = fill;
  return block != null && log != null && fill.fill_key === chainFillKey(block, log) ? null : fill.fill_key;
}

/**
 * `fill_rows`' enum columns as small integers (migration 0042): a value's code is its place in its list. The role is
 * coded since 0050 (`FILL_ROLES`), kept apart from these: the statements of the migrations before it read it as text.
 */
export const FILL_CODES = {
  source: ["chain", "data_api"],
  side: ["BUY", "SELL"],
  entry_type: ["MINT", "MERGE", "COMPLEMENTARY"],
} as const satisfies Record<string, readonly string[]>;

export type CodedFillColumn = keyof typeof FILL_CODES;

/** A coded column's value as stored (null stays null); a value outside its list is refused. */
export function storedCode<C extends Record<string, readonly string[]>>(
  codes: C,
  column: keyof C & string,
  value: string | null | undefined,
): number | null {
  if (value === null || value === undefined) return null;
  const list = codes[column] as readonly string[];
  const code = list.indexOf(value);
  if (code < 0) throw new Error(`store: ${column} ${JSON.stringify(value)} is not one of ${list.join(", ")}`);
  return code;
}

/** SQL: a coded column under alias `alias` read back as its text. */
export function codeTextSql<C extends Record<string, readonly string[]>>(
  codes: C,
  column: keyof C & string,
  alias: string,
): string {
  return listTextSql(codes[column]!, `${alias}.${column}`);
}

/** SQL: the code `code` (an expression) read back as its text in `list`. */
function listTextSql(list: readonly string[], code: string): string {
  const cases = list.map((value, at) => `when ${at} then '${value}'`).join(" ");
  return `(case ${code} ${cases} end)`;
}

/** SQL: a coded column's stored text under alias `alias` turned into its code (a text outside the list: null). */
export function textToCodeSql<C extends Record<string, readonly string[]>>(
  codes: C,
  column: keyof C & string,
  alias?: string,
): string {
  const cases = codes[column]!.map((value, code) => `when '${value}' then ${code}`).join(" ");
  return `case ${alias ? `${alias}.` : ""}${column} ${cases} end`;
}

/** A coded column of `fill_rows` as stored. */
export const fillCode = (column: CodedFillColumn, value: string | null | undefined): number | null =>
  storedCode(FILL_CODES, column, value);

/** SQL: a coded column of today's `fill_rows` (packed since 0059: src/store/fill-codes.ts) under alias `f`, as its text. */
export const fillCodeTextSql = (column: CodedFillColumn, f = "f"): string =>
  listTextSql(FILL_CODES[column], fillCodeSql(column, f));

/** `fill_rows.role`'s codes (0050), in the form `storedCode`, `codeTextSql` and `textToCodeSql` take. */
export const ROLE_CODES = { role: FILL_ROLES } as const;

/** A fill's role as `fill_rows` stores it (null stays null). */
export const storedRole = (role: string | null | undefined): number | null => storedCode(ROLE_CODES, "role", role);

/** SQL: today's `fill_rows` role (packed since 0059) under alias `f` read back as its text. */
export const roleTextSql = (f = "f"): string => listTextSql(FILL_ROLES, fillCodeSql("role", f));

/** SQL: today's `fill_rows` exchange version (packed since 0059, as the version itself) under alias `f`. */
export const exchangeVersionSql = (f = "f"): string => fillCodeSql("exchange_version", f);

/**
 * The price a fill stores: none (null) when it is exactly its amount over its size, as the stores divide them
 * (`fillPriceSql`), else the price as given.
 */
export function storedPrice(fill: { price: number; usd: number; size: number }): number | null {
  const [price, usd, size] = [Number(fill.price), Number(fill.usd), Number(fill.size)];
  return size > 0 && usd / size === price ? null : price;
}

/**
 * SQL: the price of a `fill_rows` row under alias `f`, stored or computed as `storedPrice` left it out (SQLite reads
 * `double precision` as REAL: both stores divide two doubles, as JavaScript does).
 */
export function fillPriceSql(f = "f"): string {
  return `coalesce(${f}.price, cast(${f}.usd as double precision) / nullif(${f}.size, 0))`;
}

/** `fill_rows`' columns written as they come, after the key, hash and dictionary columns. */
export const PLAIN_FILL_COLUMNS = [
  "log_index",
  "block_number",
  "outcome_index",
  "size",
  "usd",
  "price",
  "fee",
  "ts",
  FILL_CODES_COLUMN,
] as const;

/** SQL: a hash's text column as `storedHash` stores it: its 32 bytes when canonical, else its text (for migrations). */
export function storedHashSql(kind: StoreKind, column: string): { bytes: string; text: string } {
  const canonical =
    kind === "postgres"
      ? `${column} ~ '^0x[0-9a-f]{64}$'`
      : `(length(${column}) = 66 and substr(${column}, 1, 2) = '0x' and substr(${column}, 3) not glob '*[^0-9a-f]*')`;
  const decoded = kind === "postgres" ? `decode(substr(${column}, 3), 'hex')` : `unhex(substr(${column}, 3))`;
  return {
    bytes: `case when ${canonical} then ${decoded} end`,
    text: `case when ${canonical} then null else ${column} end`,
  };
}

/** SQL: a stored hash (`<column>` blob, `<text column>` text) read back as the text it was written as. */
export function hashText(kind: StoreKind, column: string, textColumn: string): string {
  const hex = kind === "sqlite" ? `lower(hex(${column}))` : `encode(${column}, 'hex')`;
  // SQLite's hex(null) is '', not null.
  return `coalesce(${textColumn}, case when ${column} is not null then '0x' || ${hex} end)`;
}

/** SQL: `n` as text, zero-padded on the left to `digits` (never cut: as `padStart`). */
function zeroPadded(kind: StoreKind, n: string, digits: number): string {
  return kind === "sqlite"
    ? `printf('%0${digits}d', ${n})`
    : `repeat('0', greatest(0, ${digits} - length(${n}::text))) || ${n}::text`;
}

/** SQL: `chainFillKey` of the columns `block_number` and `log_index` under alias `f`. */
export function chainFillKeySql(kind: StoreKind, f: string): string {
  return `'chain:' || ${zeroPadded(kind, `${f}.block_number`, CHAIN_KEY_BLOCK_DIGITS)} || ':' || ${zeroPadded(kind, `${f}.log_index`, CHAIN_KEY_LOG_DIGITS)}`;
}

/** SQL over `fill_rows` under alias `f`: the fill's natural key, as `chainFillKey` writes it where not stored. */
export function fillKeySql(kind: StoreKind, f = "f"): string {
  return `coalesce(${f}.key_text, ${chainFillKeySql(kind, f)})`;
}

/**
 * Which `fill_rows` the view reads: enums and prices as text, every price stored (0029); coded (0042); and every
 * transaction hash stored, or (0048) only the first of each run of a transaction's fills in its block, found by the
 * natural key's index; the role coded and the exchange version less one (0050); (0052) the run's hash found among
 * the ids just before the fill, the natural key's index gone; and (0059, today's) the five codes packed in `codes`.
 */
export type FillRowsVersion = "text" | "coded" | "implied-tx" | "coded-role" | "tx-by-id" | "packed-codes";

const FILL_ROWS_VERSIONS: readonly FillRowsVersion[] = [
  "text",
  "coded",
  "implied-tx",
  "coded-role",
  "tx-by-id",
  "packed-codes",
];

/** Whether `fill_rows` of `version` has the change `since` brought. */
const hasSince = (version: FillRowsVersion, since: FillRowsVersion): boolean =>
  FILL_ROWS_VERSIONS.indexOf(version) >= FILL_ROWS_VERSIONS.indexOf(since);

const CANONICAL_TX = /^0x[0-9a-f]{64}$/;

/**
 * How many ids before a fill the view looks for the hash a fill leaves out (`fillTxHashSql`): a run of a
 * transaction's fills that is longer stores its hash again (`fillsWithImpliedTx`). A match on the venue fills a
 * handful of orders; 64 is far above.
 */
export const IMPLIED_TX_REACH = 64;

/**
 * The fills of a batch, in the order they are stored, whose transaction hash `fill_rows` leaves out: a chain fill
 * (no stored key) stored just after a chain fill of the same block, an earlier log, the same time and the same
 * transaction. Stored one after the other, they have consecutive ids, so the hash is that of the nearest earlier id of
 * the block that stores one, fewer than `IMPLIED_TX_REACH` ids back (`fillTxHashSql`). A whale-size maker fill
 * (`isWhaleSizeMakerFill`) keeps its hash: the whale makers' index covers the pages of whale trades with the hash,
 * and a hash read at another fill would read that fill's table page, cold on a large store.
 */
export function fillsWithImpliedTx<F extends ChainPlace>(fills: readonly F[]): Set<F> {
  const implied = new Set<F>();
  const chain = fills.map(isCanonicalChainFill);
  let sinceStored = 0;
  for (let i = 1; i < fills.length; i++) {
    const [before, fill] = [fills[i - 1]!, fills[i]!];
    const sameRun =
      chain[i - 1]! &&
      chain[i]! &&
      before.block_number === fill.block_number &&
      before.log_index! < fill.log_index! &&
      before.ts === fill.ts &&
      before.tx_hash === fill.tx_hash;
    sinceStored = sameRun && implied.has(before) ? sinceStored + 1 : 1;
    if (sameRun && sinceStored < IMPLIED_TX_REACH && !isWhaleSizeMakerFill(fill)) implied.add(fill);
  }
  return implied;
}

const isCanonicalChainFill = (f: ChainPlace): boolean =>
  f.block_number != null && f.log_index != null && storedFillKey(f) === null && CANONICAL_TX.test(f.tx_hash);

type ChainPlace = Pick<FillsTable, "fill_key" | "tx_hash"> &
  Partial<Pick<FillsTable, "block_number" | "log_index" | "role">> & { ts: number | bigint; usd: number | bigint };

/**
 * SQL: the transaction hash of the `fill_rows` row under alias `f`, as text: stored, or (a chain fill that stores
 * none: `fillsWithImpliedTx`) the hash of the nearest earlier chain fill of its block and time that stores one:
 * before 0052 by log index, through the natural key's index; since, by id, among the `IMPLIED_TX_REACH` before it.
 */
export function fillTxHashSql(kind: StoreKind, f = "f", version: FillRowsVersion = "tx-by-id"): string {
  const earlier = hasSince(version, "tx-by-id")
    ? `select ${hashText(kind, "p.tx_hash", "p.tx_text")} from ${FILL_ROWS} p
      where p.id < ${f}.id and p.id >= ${f}.id - ${IMPLIED_TX_REACH} and p.key_text is null
        and p.block_number = ${f}.block_number and p.ts = ${f}.ts and (p.tx_hash is not null or p.tx_text is not null)
      order by p.id desc limit 1`
    : `select ${hashText(kind, "p.tx_hash", "p.tx_text")} from ${FILL_ROWS} p
      where p.key_text is null and p.block_number = ${f}.block_number and p.log_index < ${f}.log_index
        and p.ts = ${f}.ts and (p.tx_hash is not null or p.tx_text is not null)
      order by p.log_index desc limit 1`;
  return `coalesce(${hashText(kind, `${f}.tx_hash`, `${f}.tx_text`)}, case when ${f}.key_text is null then (${earlier}) end)`;
}

/**
 * The view `fills`: `fill_rows` with its dictionaries' values and its hashes and keys as text, columns in
 * FillsTable's order. The wallet and market by outer joins on the dictionaries' primary keys: both stores leave out a
 * join whose columns a query does not read, and turn it into an inner join (searched from the value) where a query
 * filters on it. The counterparty and token, which no query filters on, by subqueries: a query that does not read
 * them does not read their ids either, so an index without those ids still covers it (SQLite counts the columns of
 * a left-out join's condition as read). Migrations 0029, 0042, 0048, 0049, 0050, 0052 and 0059 create it from here: a change to it is a new
 * migration that creates it again.
 */
export function fillsViewSql(kind: StoreKind, version: FillRowsVersion): string {
  const columns = fillColumnsSql(kind, version);
  return `create view fills as select
    ${Object.entries(columns)
      .map(([name, expression]) => `${expression} as ${name}`)
      .join(",\n    ")}
  from ${FILLS_JOINED}`;
}

/**
 * `fill_rows` as `f` with its wallet's dictionary row as `w` and its market's as `m`: the view's FROM, and the FROM of
 * the reads that filter `fill_rows` by a dictionary id (`idOf`) and select with `fillSelectSql`.
 */
export const FILLS_JOINED = `${FILL_ROWS} f
  left join ${FILL_DICTIONARIES.addresses.table} w on w.id = f.wallet_id
  left join ${FILL_DICTIONARIES.conditions.table} m on m.id = f.condition_ref`;

/**
 * SQL: a select list of the view's columns over `FILLS_JOINED`, each read as the view reads it. For the per-request
 * reads that must filter by the ids: through the view, PostgreSQL plans a filter on a dictionary's text as a join
 * whose value it does not know, and read every fill of a busy wallet (or every Smart Money fill) to keep a page.
 */
export function fillSelectSql(kind: StoreKind, names: readonly (keyof FillsTable)[]): string {
  const columns = fillColumnsSql(kind);
  return names.map((name) => `${columns[name]} as ${name}`).join(", ");
}

/** A statement's text for each store, written once per process (`sql(kind)` reads the kind's column expressions). */
export const textPerStore = (sql: (kind: StoreKind) => string): Readonly<Record<StoreKind, string>> => ({
  sqlite: sql("sqlite"),
  postgres: sql("postgres"),
});

/**
 * SQL: the view's columns over `fill_rows` under alias `f`, the wallet's dictionary row `w` and the market's `m`, in
 * FillsTable's order.
 */
export function fillColumnsSql(
  kind: StoreKind,
  version: FillRowsVersion = "packed-codes",
): Record<keyof FillsTable, string> {
  const { addresses, tokens } = FILL_DICTIONARIES;
  const text = kind === "postgres" ? ' collate "C"' : "";
  const codedEnums = hasSince(version, "coded");
  const codedRole = hasSince(version, "coded-role");
  const packed = hasSince(version, "packed-codes");
  const coded = (column: CodedFillColumn) =>
    packed
      ? `${fillCodeTextSql(column)}${text}`
      : codedEnums
        ? `${codeTextSql(FILL_CODES, column, "f")}${text}`
        : `f.${column}`;
  const role = packed ? roleTextSql() : codedRole ? codeTextSql(ROLE_CODES, "role", "f") : undefined;
  const txHash = hasSince(version, "implied-tx")
    ? fillTxHashSql(kind, "f", version)
    : hashText(kind, "f.tx_hash", "f.tx_text");
  return {
    id: "f.id",
    fill_key: `(${fillKeySql(kind)})${text}`,
    source: coded("source"),
    tx_hash: `(${txHash})${text}`,
    log_index: "f.log_index",
    block_number: "f.block_number",
    wallet: "w.address",
    counterparty: dictionaryValueSql(addresses, "f.counterparty_id", "c"),
    role: role ? `${role}${text}` : "f.role",
    condition_id: "m.condition_id",
    token_id: dictionaryValueSql(tokens, "f.token_ref", "t"),
    outcome_index: "f.outcome_index",
    side: coded("side"),
    size: "f.size",
    usd: "f.usd",
    price: codedEnums ? fillPriceSql() : "f.price",
    fee: "f.fee",
    ts: "f.ts",
    entry_type: coded("entry_type"),
    exchange_version: packed ? exchangeVersionSql() : codedRole ? "(f.exchange_version + 1)" : "f.exchange_version",
  };
}

/** Which layout a statement over every stored fill runs on: today's, or the `fills` table the migrations before 0029 ran on. */
export type FillsLayout = "compact" | "table";

/**
 * SQL: a fills column (not one stored as a dictionary id) as readers know it, over the stored fills of `layout` under
 * alias `f`: the column itself, but for those `fill_rows` codes (0042, 0050), read back as their text or value.
 * "compact" is today's `fill_rows`: only the runtime's statements read it so (the migrations' read the `fills` table).
 */
export function storedFillSql(layout: FillsLayout, column: string, f: string): string {
  if (layout === "table") return `${f}.${column}`;
  if (Object.hasOwn(FILL_CODES, column)) return fillCodeTextSql(column as CodedFillColumn, f);
  return COMPACT_READS[column]?.(f) ?? `${f}.${column}`;
}

/** Today's `fill_rows` columns stored otherwise than read, beside the coded enums: each read back over alias `f`. */
const COMPACT_READS: Readonly<Record<string, (f: string) => string>> = {
  price: fillPriceSql,
  role: roleTextSql,
  exchange_version: exchangeVersionSql,
};
