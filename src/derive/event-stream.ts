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
 * The merge compares each row's wallet key in JavaScript: on SQLite's every-wallet path the wallet's id, else its
 * address, where the store's order agrees because addresses are lower-case hexadecimal (byte order and every
 * collation agree on those characters).
 */
import type { Store, StoreTransaction } from "../store/database.js";
import { preparedStatement } from "../store/sqlite-statements.js";
import { activityColumnsSql, activityInWalletOrderSql } from "../store/activity-layout.js";
import type SqliteDatabase from "better-sqlite3";
import { readFillPages, type FillPages } from "./replay-reads.js";
import { FillPageDecoder, type FillPagePlan, pageWalletIds } from "./fill-pages.js";
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
 * Where a table's rows are read from, and the wallet order they come in: the view by address; or, for every wallet's
 * activity on SQLite, the rows table with wallets in the order of their ids (`activityInWalletOrderSql`), its columns
 * as the view's, as every wallet's fills come there (fill-pages.ts).
 */
interface RowSource {
  readonly from: string;
  readonly column: (name: string) => string;
  /** SQL: what orders the wallets (each row's key in the merge). */
  readonly walletOrder: string;
}

function rowSource(store: Store, spec: TableSpec<unknown>, scope: StreamScope): RowSource {
  if (store.kind !== "sqlite" || scope.wallet !== undefined || spec.table === "fills")
    return { from: spec.table, column: (name) => name, walletOrder: "wallet" };
  const columns = activityColumnsSql("sqlite") as Record<string, string>;
  return { from: activityInWalletOrderSql(), column: (name) => columns[name] ?? name, walletOrder: "w.id" };
}

/**
 * The select list (natural keys of recent rows only, the wallet's order last) and the scope's conditions, after an
 * optional keyset condition.
 */
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
  select.push(`${source.walletOrder} as wallet_order`);
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
    text: `select ${select.join(", ")} from ${source.from}${where.length ? ` where ${where.join(" and ")}` : ""} order by ${source.walletOrder}, ${c("ts")}, ${c("id")}`,
    params,
  };
}

/** A row's wallet in the stream's wallet order: its address, or on SQLite's every-wallet path its id. */
type WalletKey = string | number;

/**
 * A page of rows, each made when the stream reaches it (a page's rows made at once outlive the young generation while
 * the replay works through them: garbage for the old one), and each row's wallet key.
 */
interface Page<R> {
  readonly length: number;
  row(index: number): R;
  key(index: number): WalletKey;
}

const EMPTY_PAGE: Page<never> = {
  length: 0,
  row: () => {
    throw new RangeError("an empty page has no rows");
  },
  key: () => 0,
};

/** Rows as the store returned them (arrays), each decoded when asked for; the wallet key is the last value. */
function arrayPage<R>(values: unknown[][], decode: (values: readonly unknown[]) => R): Page<R> {
  return {
    length: values.length,
    row: (index) => decode(values[index]!),
    key: (index) => values[index]![values[index]!.length - 1] as WalletKey,
  };
}

/** One table's rows in (wallet, ts, id) order, a page at a time. */
abstract class Pager<R extends KeyedRow> {
  private page: Page<R> = EMPTY_PAGE;
  private at = 0;
  private current: R | undefined;
  protected exhausted = false;

  constructor(protected readonly pageRows: number) {}

  get head(): R | undefined {
    return this.current;
  }

  get headKey(): WalletKey {
    return this.page.key(this.at);
  }

  /** Moves past the head; true when the page is used up and the next must be loaded (an await per page, not per row). */
  advance(): boolean {
    this.at++;
    this.current = this.at < this.page.length ? this.page.row(this.at) : undefined;
    return this.current === undefined;
  }

  async load(): Promise<void> {
    this.at = 0;
    this.page = this.exhausted ? EMPTY_PAGE : await this.next();
    this.current = this.page.length > 0 ? this.page.row(0) : undefined;
    if (this.page.length < this.pageRows) this.exhausted = true;
  }

  protected abstract next(): Promise<Page<R>>;
}

/**
 * SQLite: keyset pages from the raw handle as arrays (objects cost a third more), read synchronously when no
 * transaction is open on the shared connection, so that a read never sees another part of the process's
 * uncommitted rows.
 */
class SqlitePager<R extends KeyedRow> extends Pager<R> {
  private last: { ts: number; id: number; key: WalletKey } | undefined;

  constructor(
    private readonly store: Store,
    private readonly spec: TableSpec<R>,
    private readonly scope: StreamScope,
    pageRows: number,
  ) {
    super(pageRows);
  }

  protected async next(): Promise<Page<R>> {
    const last = this.last;
    const source = rowSource(this.store, this.spec, this.scope);
    const [ts, id] = ["ts", "id"].map(source.column) as [string, string];
    const wallet = source.walletOrder;
    const handle = this.store.sqlite!;
    while (handle.inTransaction) await waitTurn();
    const read = (keyset: { condition: string; params: unknown[] } | undefined, limit: number): unknown[][] => {
      const { text, params } = scoped(this.spec, source, this.scope, keyset);
      return preparedStatement(handle, `${text} limit ${limit}`).raw(true).all(params) as unknown[][];
    };
    // After the last row read: that wallet's later rows, then the next wallets' (two seeks; one condition with an
    // OR would scan the wallet's rows from its first for each page, pages of a busy wallet growing quadratic).
    const laterOfWallet = last && { condition: `(${ts}, ${id}) > (?, ?)`, params: [last.ts, last.id] };
    let values: unknown[][];
    if (!last) values = read(undefined, this.pageRows);
    else if (this.scope.wallet !== undefined) values = read(laterOfWallet, this.pageRows);
    else {
      values = read(
        { condition: `${wallet} = ? and ${laterOfWallet!.condition}`, params: [last.key, ...laterOfWallet!.params] },
        this.pageRows,
      );
      if (values.length < this.pageRows)
        values = values.concat(read({ condition: `${wallet} > ?`, params: [last.key] }, this.pageRows - values.length));
    }
    const page = arrayPage(values, this.spec.decode);
    if (values.length > 0) {
      const { ts, id } = page.row(values.length - 1);
      this.last = { ts, id, key: page.key(values.length - 1) };
    }
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

  protected async next(): Promise<Page<StoredFill & { id: number }>> {
    this.pages ??= readFillPages(this.handle, this.plan);
    const page = await this.pages.next();
    if (!page) return EMPTY_PAGE;
    const walletIds = pageWalletIds(page);
    const rows = this.decoder.rows(page);
    return { length: rows.length, row: rows.row, key: (index) => walletIds[index]! };
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

  protected async next(): Promise<Page<R>> {
    const client = this.tx.raw.client;
    if (!this.declared) {
      const source = { from: this.spec.table, column: (name: string) => name, walletOrder: "wallet" };
      const { text, params } = scoped(this.spec, source, this.scope);
      await client.query(`declare ${this.name} no scroll cursor for ${dialectText("postgres", text)}`, params);
      this.declared = true;
    }
    const result = await client.query({ text: `fetch forward ${this.pageRows} from ${this.name}`, rowMode: "array" });
    return arrayPage(result.rows as unknown[][], this.spec.decode);
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
        (fills.headKey < activity.headKey ||
          (fills.headKey === activity.headKey &&
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
 * Calls `visit` with every stored fill and activity row in the scope, each wallet's rows in ledger order, wallets
 * in ascending address order (on SQLite, every wallet's rows: in the order of the wallets' ids, the order of the
 * derived tables' keys, so that a rebuild's writes append). Holds at most one page of each table.
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
