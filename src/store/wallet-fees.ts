/**
 * `wallet_fees` (src/store/schema.ts): what a wallet's fills sum to per UTC month, entry type and role. The rows are
 * computed by src/derive/wallet-fees.ts (the Deriver and `rebuild`); here are the rule that names a fill's row (in
 * TypeScript and, for the migration that fills the table from stored fills, in SQL), that fill, and the read. Since
 * migration 0056 the rows store the month, entry type and role as codes (src/store/coded-columns.ts), which the view
 * `wallet_fees` reads back as these texts.
 */
import { sql, type Kysely } from "kysely";
import { FEE_CODES, monthCodeSql } from "./coded-columns.js";
import { fillCodeSql } from "./fill-codes.js";
import { storedCode, type FillsLayout } from "./fill-layout.js";
import { filledFrom } from "./id-keyed.js";
import type { StoreKind } from "./migrations/column-types.js";
import type { Database, EntryType, WalletFeesTable } from "./schema.js";

/** The UTC month (`YYYY-MM`) of a unix time. */
export function feeMonth(ts: number): string {
  return new Date(ts * 1000).toISOString().slice(0, 7);
}

/** A fill's entry type as a row of the table names it. */
export function feeEntryType(entryType: EntryType | null): WalletFeesTable["entry_type"] {
  return entryType ?? "UNCLASSIFIED";
}

/** A fill's role as a row of the table names it. */
export function feeRole(role: "maker" | "taker" | null): WalletFeesTable["role"] {
  return role ?? "unknown";
}

/**
 * `feeMonth`, `feeEntryType` and `feeRole` as SQL over the stored fills of `layout` (`table`: their table or its
 * alias): as texts from the `fills` table of the migrations before 0029; as the codes the rows store from today's
 * `fill_rows` (packed: src/store/fill-codes.ts), whose entry type and role codes are the table's own (`FEE_CODES`), a
 * missing one the label's code.
 */
function feeKeySql(kind: StoreKind, layout: FillsLayout, table: string) {
  const month =
    kind === "sqlite"
      ? "strftime('%Y-%m', ts, 'unixepoch')"
      : "to_char(to_timestamp(ts) at time zone 'UTC', 'YYYY-MM')";
  const labelled = (column: keyof typeof FEE_CODES, none: string) =>
    sql.raw(
      layout === "table"
        ? `coalesce(${table}.${column}, '${none}')`
        : `coalesce(${fillCodeSql(column, table)}, ${storedCode(FEE_CODES, column, none)})`,
    );
  return {
    month: sql.raw(layout === "table" ? month : monthCodeSql(month)),
    entryType: labelled("entry_type", feeEntryType(null)),
    role: labelled("role", feeRole(null)),
  };
}

/**
 * Replaces the table's rows with the sums of every stored fill, in one statement (the migration that adds the table,
 * on the fills of its day's layout; tests compare it with what the Deriver writes).
 */
export async function fillWalletFeesFromFills(
  // biome-ignore lint/suspicious/noExplicitAny: a migration's Kysely<unknown> and a store's Kysely<Database> alike
  db: Kysely<any>,
  kind: StoreKind,
  layout: FillsLayout = "compact",
): Promise<void> {
  const target = filledFrom("wallet_fees", layout);
  const table = target.source;
  const key = feeKeySql(kind, layout, table);
  const wallet = sql.raw(target.column("wallet"));
  await sql`delete from ${sql.raw(target.name)}`.execute(db);
  await sql`insert into ${sql.raw(target.name)} (${wallet}, month, entry_type, role, fees, volume, fills, charged)
    select ${wallet}, ${key.month}, ${key.entryType}, ${key.role}, sum(fee), sum(usd), count(*),
      sum(case when fee > 0 then 1 else 0 end)
    from ${sql.raw(table)} group by ${wallet}, ${key.month}, ${key.entryType}, ${key.role}`.execute(db);
}

/** The wallet's rows (one indexed read over the primary key), numbers as numbers on either store. */
export async function readWalletFees(db: Kysely<Database>, wallet: string): Promise<WalletFeesTable[]> {
  const rows = await db.selectFrom("wallet_fees").selectAll().where("wallet", "=", wallet).execute();
  return rows.map((r) =>
    Object.assign({}, r, {
      fees: Number(r.fees),
      volume: Number(r.volume),
      fills: Number(r.fills),
      charged: Number(r.charged),
    }),
  );
}
