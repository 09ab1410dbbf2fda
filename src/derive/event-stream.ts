/**
 * Stored fills and activity streamed ORDER BY wallet, ts in bounded memory, merged per wallet by
 * `compareEventOrder`. Wallets in wallet order keep each wallet's ledger records in cache (the ledger replays
 * about 3x faster than in time order), and give each wallet's rows in one run, so per-wallet aggregates need
 * only the current wallet in memory.
 *
 * SQLite: keyset pages of each table on its (wallet, ts) index (ties by id); every wallet's fills as pages of ids
 * read ahead on a thread of their own (fill-pages.ts). PostgreSQL: a cursor over each table in one repeatable-read
 * transaction, so the stream is one snapshot and the planner sees the whole scan.
 *
 * The merge compares wallet addresses in JavaScript; the store's order agrees because addresses are
 * lower-case hexadecimal (byte order and every collation agree on those characters).
 */
import type { Store, StoreTransaction } from "../store/database.js";
import { preparedStatement } from "../store/sqlite-statements.js";
import { activityColumnsSql, activityInWalletOrderSql } from "../store/activity-layout.js";
import type SqliteDatabase from "better-sqlite3";
import { readFillPages, type FillPages } from "./replay-reads.js";
import { FillPageDecoder, type FillPagePlan } from "./fill-pages.js";
import { dialectText } from "../store/raw-sql.js";
import {
  ACTIVITY_COLUMNS,
  FILL_COLUMNS,
  activityFromArray,
  compareEventOrder,
  fillFromArray,
  type StoredActivity,
  type StoredFill,
} from "./stored-events.js";

export interface StreamScope {
  /** Only rows strictly before this time. */
  readonly before?: number;
  /** Only rows at or after this time. */
  readonly from?: number;
  /** Only this wallet's rows. */
  readonly wallet?: string;
  /**
   * Natural keys are read only for rows with a higher id (per table), the few a batch may still hand over:
   * long keys are a large part of reading a row. Other rows come with an empty key.
   */
  readonly keysAbove?: { readonly fills: number; readonly activity: number };
}

export type StreamedRow =
  | { readonly kind: 0; readonly row: StoredFill & { id: number } }
  | { readonly kind: 1; readonly row: StoredActivity & { id: number } };

interface KeyedRow {
  readonly id: number;
  readonly wallet: string;
  readonly ts: number;
}

interface TableSpec<R> {
  readonly table: "fills" | "wallet_activity";
  /** The natural key first. */
  readonly columns: readonly string[];
  readonly keysAbove: number;
  readonly decode: (values: readonly unknown[]) => R;
}

const DEFAULT_PAGE_ROWS = 20_000;

const waitTurn = () => new Promise((resolve) => setImmediate(resolve));

/**
 * Where a table's rows are read from: the view itself, or, for every wallet's activity on SQLite, the rows table with
 * wallets in address order (`activityInWalletOrderSql`), its columns as the view's.
 */
interface RowSource {
  readonly from: string;
  readonly column: (name: string) => string;
}

function rowSource(store: Store, spec: TableSpec<unknown>, scope: StreamScope): RowSource {
  if (store.kind !== "sqlite" || scope.wallet !== undefined || spec.table === "fills")
    return { from: spec.table, column: (name) => name };
  const columns = activityColumnsSql("sqlite") as Record<string, string>;
  return { from: activityInWalletOrderSql(), column: (name) => columns[name] ?? name };
}

/** The select list (natural keys of recent rows only) and the scope's conditions, after an optional keyset condition. */
function scoped(
  spec: TableSpec<unknown>,
  source: RowSource,
  scope: StreamScope,
  keyset?: { condition: string; params: unknown[] },
): { text: string; params: unknown[] } {
  const [key] = spec.columns as [string];
  const c = source.column;
  const select = ["id", ...spec.columns].map((name) =>
    name === key ? `case when ${c("id")} > ? then ${c(name)} else '' end as ${name}` : c(name),
  );
  const params: unknown[] = [spec.keysAbove];
  const where: string[] = [];
  if (scope.wallet !== undefined) {
    where.push(`${c("wallet")} = ?`);
    params.push(scope.wallet);
  }
  if (keyset) {
    where.push(keyset.condition);
    params.push(...keyset.params);
  }
  if (scope.before !== undefined) {
    where.push(`${c("ts")} < ?`);
    params.push(scope.before);
  }
  if (scope.from !== undefined) {
    where.push(`${c("ts")} >= ?`);
    params.push(scope.from);
  }
  return {
    text: `select ${select.join(", ")} from ${source.from}${where.length ? ` where ${where.join(" and ")}` : ""} order by ${c("wallet")}, ${c("ts")}, ${c("id")}`,
    params,
  };
}

/** One table's rows in (wallet, ts, id) order, a page at a time. */
abstract class Pager<R extends KeyedRow> {
  private page: R[] = [];
  private at = 0;
  protected exhausted = false;

  constructor(protected readonly pageRows: number) {}

  get head(): R | undefined {
    return this.page[this.at];
  }

  /** Moves past the head; true when the page is used up and the next must be loaded (an await per page, not per row). */
  advance(): boolean {
    this.at++;
    return this.at >= this.page.length;
  }

  async load(): Promise<void> {
    this.at = 0;
    this.page = this.exhausted ? [] : await this.next();
    if (this.page.length < this.pageRows) this.exhausted = true;
  }

  protected abstract next(): Promise<R[]>;
}

/**
 * SQLite: keyset pages from the raw handle as arrays (objects cost a third more), read synchronously when no
 * transaction is open on the shared connection, so that a read never sees another part of the process's
 * uncommitted rows.
 */
class SqlitePager<R extends KeyedRow> extends Pager<R> {
  private last: R | undefined;

  constructor(
    private readonly store: Store,
    private readonly spec: TableSpec<R>,
    private readonly scope: StreamScope,
    pageRows: number,
  ) {
    super(pageRows);
  }

  protected async next(): Promise<R[]> {
    const last = this.last;
    const source = rowSource(this.store, this.spec, this.scope);
    const [wallet, ts, id] = ["wallet", "ts", "id"].map(source.column) as [string, string, string];
    const handle = this.store.sqlite!;
    while (handle.inTransaction) await waitTurn();
    const read = (keyset: { condition: string; params: unknown[] } | undefined, limit: number): R[] => {
      const { text, params } = scoped(this.spec, source, this.scope, keyset);
      return (preparedStatement(handle, `${text} limit ${limit}`).raw(true).all(params) as unknown[][]).map(
        this.spec.decode,
      );
    };
    // After the last row read: that wallet's later rows, then the next wallets' (two seeks; one condition with an
    // OR would scan the wallet's rows from its first for each page, pages of a busy wallet growing quadratic).
    const laterOfWallet = last && { condition: `(${ts}, ${id}) > (?, ?)`, params: [last.ts, last.id] };
    let page: R[];
    if (!last) page = read(undefined, this.pageRows);
    else if (this.scope.wallet !== undefined) page = read(laterOfWallet, this.pageRows);
    else {
      page = read(
        { condition: `${wallet} = ? and ${laterOfWallet!.condition}`, params: [last.wallet, last.ts, last.id] },
        this.pageRows,
      );
      if (page.length < this.pageRows)
        page = page.concat(read({ condition: `${wallet} > ?`, params: [last.wallet] }, this.pageRows - page.length));
    }
    this.last = page[page.length - 1] ?? this.last;
    return page;
  }
}

/**
 * What one caller's streams share: on SQLite, the dictionaries' texts every wallet's fills are decoded with (read once
 * for a rebuild's many time ranges, and let go with the caller).
 */
export class StreamCache {
  private decoder: { handle: SqliteDatabase.Database; decoder: FillPageDecoder } | null = null;

  fillDecoder(handle: SqliteDatabase.Database): FillPageDecoder {
    if (this.decoder?.handle !== handle) this.decoder = { handle, decoder: new FillPageDecoder(handle) };
    return this.decoder.decoder;
  }
}

/** SQLite, every wallet's fills: pages read ahead on a read thread (replay-reads.ts), decoded here. */
class SqliteFillPager extends Pager<StoredFill & { id: number }> {
  private pages: FillPages | null = null;

  constructor(
    private readonly handle: SqliteDatabase.Database,
    private readonly plan: FillPagePlan,
    private readonly decoder: FillPageDecoder,
  ) {
    super(plan.pageRows);
  }

  protected async next(): Promise<Array<StoredFill & { id: number }>> {
    this.pages ??= readFillPages(this.handle, this.plan);
    const page = await this.pages.next();
    return page ? this.decoder.rows(page) : [];
  }

  close(): void {
    this.pages?.close();
  }
}

class PostgresCursor<R extends KeyedRow> extends Pager<R> {
  private declared = false;

  constructor(
    private readonly tx: StoreTransaction & { raw: { kind: "postgres" } },
    private readonly name: string,
    private readonly spec: TableSpec<R>,
    private readonly scope: StreamScope,
    pageRows: number,
  ) {
    super(pageRows);
  }

  protected async next(): Promise<R[]> {
    const client = this.tx.raw.client;
    if (!this.declared) {
      const { text, params } = scoped(this.spec, { from: this.spec.table, column: (name) => name }, this.scope);
      await client.query(`declare ${this.name} no scroll cursor for ${dialectText("postgres", text)}`, params);
      this.declared = true;
    }
    const result = await client.query({ text: `fetch forward ${this.pageRows} from ${this.name}`, rowMode: "array" });
    return (result.rows as unknown[][]).map(this.spec.decode);
  }
}

async function merge(
  fills: Pager<StoredFill & { id: number }>,
  activity: Pager<StoredActivity & { id: number }>,
  visit: (row: StreamedRow) => void,
): Promise<void> {
  await fills.load();
  await activity.load();
  for (;;) {
    const fill = fills.head;
    const act = activity.head;
    if (!fill && !act) return;
    const fillFirst =
      !act ||
      (fill !== undefined &&
        (fill.wallet < act.wallet ||
          (fill.wallet === act.wallet &&
            compareEventOrder(
              { ts: fill.ts, logIndex: fill.log_index, kind: 0 },
              { ts: act.ts, logIndex: act.log_index, kind: 1 },
            ) <= 0)));
    if (fillFirst) {
      visit({ kind: 0, row: fill! });
      if (fills.advance()) await fills.load();
    } else {
      visit({ kind: 1, row: act });
      if (activity.advance()) await activity.load();
    }
  }
}

/**
 * Calls `visit` with every stored fill and activity row in the scope, each wallet's rows in ledger order,
 * wallets in ascending address order. Holds at most one page of each table.
 */
export async function streamWalletEvents(
  store: Store,
  scope: StreamScope,
  visit: (row: StreamedRow) => void,
  pageRows = DEFAULT_PAGE_ROWS,
  cache = new StreamCache(),
): Promise<void> {
  const fills: TableSpec<StoredFill & { id: number }> = {
    table: "fills",
    columns: FILL_COLUMNS,
    keysAbove: scope.keysAbove?.fills ?? 0,
    decode: fillFromArray,
  };
  const activity: TableSpec<StoredActivity & { id: number }> = {
    table: "wallet_activity",
    columns: ACTIVITY_COLUMNS,
    keysAbove: scope.keysAbove?.activity ?? 0,
    decode: activityFromArray,
  };
  if (store.kind === "sqlite") {
    const fillPager =
      scope.wallet === undefined
        ? new SqliteFillPager(
            store.sqlite!,
            {
              pageRows,
              ...(scope.before !== undefined ? { before: scope.before } : {}),
              ...(scope.from !== undefined ? { from: scope.from } : {}),
              keysAbove: fills.keysAbove,
            },
            cache.fillDecoder(store.sqlite!),
          )
        : new SqlitePager(store, fills, scope, pageRows);
    try {
      return await merge(fillPager, new SqlitePager(store, activity, scope, pageRows), visit);
    } finally {
      if (fillPager instanceof SqliteFillPager) fillPager.close();
    }
  }
  await store.transaction(async (tx) => {
    if (tx.raw.kind !== "postgres") throw new Error("expected a PostgreSQL transaction");
    const pg = tx as StoreTransaction & { raw: { kind: "postgres" } };
    await pg.raw.client.query("set transaction isolation level repeatable read, read only");
    await merge(
      new PostgresCursor(pg, "derive_fills", fills, scope, pageRows),
      new PostgresCursor(pg, "derive_activity", activity, scope, pageRows),
      visit,
    );
  });
}
