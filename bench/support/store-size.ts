/**
 * Where a store's bytes go, for bench/store-size.bench.ts: the store's whole size on disk, its fills, and every table
 * and index with its bytes, read from the store itself.
 *   SQLite: the file after its WAL is checkpointed into it (TRUNCATE, on a writable handle), read through a read-only
 *     handle: each b-tree's pages from the `dbstat` virtual table (SQLITE_ENABLE_DBSTAT_VTAB, which the better-sqlite3
 *     build has); free pages from `pragma freelist_count`. Without dbstat only the totals are measured.
 *   PostgreSQL: `pg_database_size` of the database (not the cluster's WAL nor its other databases), after
 *     `VACUUM (ANALYZE)` and a `CHECKPOINT`; a table's bytes are its own and its partitions' (`fill_rows` is
 *     partitioned by month), a partitioned index's its partitions' indexes'. Catalogs and the like are the rest of the database.
 */
import { statSync } from "node:fs";
import SqliteDatabase from "better-sqlite3";
import pg from "pg";

/** One table or index: `bytes` is its own (a PostgreSQL table's heap, TOAST and maps: `pg_table_size`). */
export interface SizedRelation {
  readonly name: string;
  /** The table an index is on, or the table itself. */
  readonly table: string;
  readonly kind: "table" | "index";
  readonly bytes: number;
}

/** A table with its indexes: `total` = `data` + `other` + `indexes`. */
export interface SizedTable {
  readonly table: string;
  readonly total: number;
  /** Its rows' own b-tree (SQLite) or heap's main fork (PostgreSQL: `pg_relation_size`). */
  readonly data: number;
  /** PostgreSQL: its TOAST and free-space and visibility maps. */
  readonly other: number;
  readonly indexes: number;
}

export interface StoreSize {
  readonly store: string;
  /** All in: the SQLite file (with its WAL, empty after the checkpoint), or the PostgreSQL database. */
  readonly bytes: number;
  readonly fills: number;
  /** Every table and index, largest first; empty when the store cannot tell them apart. */
  readonly relations: SizedRelation[];
  /** Each table with its indexes, largest first. */
  readonly tables: SizedTable[];
  /** What the store holds beside its tables and indexes (free pages, catalogs), by what it is. */
  readonly rest: Array<{ label: string; bytes: number }>;
  /** How the figures were read, one line each. */
  readonly notes: string[];
}

const fileBytes = (path: string) => {
  try {
    return statSync(path).size;
  } catch {
    return 0;
  }
};

function hasDbstat(db: SqliteDatabase.Database): boolean {
  const options = (db.pragma("compile_options") as Array<{ compile_options: string }>).map((r) => r.compile_options);
  return options.includes("ENABLE_DBSTAT_VTAB");
}

export function sqliteStoreSize(sqlitePath: string): StoreSize {
  const writable = new SqliteDatabase(sqlitePath);
  try {
    writable.pragma("wal_checkpoint(TRUNCATE)");
  } finally {
    writable.close();
  }
  const db = new SqliteDatabase(sqlitePath, { readonly: true });
  try {
    const pageSize = db.pragma("page_size", { simple: true }) as number;
    const pages = db.pragma("page_count", { simple: true }) as number;
    const free = (db.pragma("freelist_count", { simple: true }) as number) * pageSize;
    const fills = (db.prepare("select count(*) as n from fills").get() as { n: number }).n;
    const bytes = fileBytes(sqlitePath) + fileBytes(`${sqlitePath}-wal`);
    const notes = [
      `${pages.toLocaleString("en-US")} pages of ${pageSize.toLocaleString("en-US")} bytes, WAL checkpointed`,
    ];
    if (!hasDbstat(db)) {
      notes.push("this better-sqlite3 build has no dbstat (SQLITE_ENABLE_DBSTAT_VTAB): totals only");
      const rest = [{ label: "free pages", bytes: free }];
      return { store: "SQLite", bytes, fills, relations: [], tables: [], rest, notes };
    }
    notes.push("per table and index: dbstat, the pages of each b-tree");
    const schema = new Map(
      (db.prepare("select name, type, tbl_name as tbl from sqlite_schema").all() as SchemaRow[]).map((r) => [
        r.name,
        r,
      ]),
    );
    const trees = db
      .prepare("select name, sum(pgsize) as bytes from dbstat group by name order by 2 desc")
      .all() as Array<{ name: string; bytes: number }>;
    const relations = trees.map(({ name, bytes }): SizedRelation => {
      const entry = schema.get(name);
      const kind = entry?.type === "index" ? "index" : "table";
      return { name, table: entry?.tbl ?? name, kind, bytes };
    });
    const counted = relations.reduce((sum, r) => sum + r.bytes, 0) + free;
    const rest = [{ label: "free pages", bytes: free }];
    if (bytes !== counted) rest.push({ label: "other pages (lock byte, pointer maps)", bytes: bytes - counted });
    return { store: "SQLite", bytes, fills, relations, tables: sqliteTables(relations), rest, notes };
  } finally {
    db.close();
  }
}

interface SchemaRow {
  readonly name: string;
  readonly type: string;
  readonly tbl: string;
}

/** Whether a PostgreSQL server answers at `url`'s host (through its `postgres` database: `url`'s may not exist yet). */
export async function postgresAnswers(url: string): Promise<boolean> {
  const admin = new URL(url);
  admin.pathname = "/postgres";
  const client = new pg.Client({ connectionString: admin.toString(), connectionTimeoutMillis: 3_000 });
  client.on("error", () => undefined);
  try {
    await client.connect();
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** A relation and its partitions (a plain table or index: itself alone). */
const TREE = "lateral (select relid from pg_partition_tree(c.oid) union select c.oid) t";

export async function postgresStoreSize(url: string): Promise<StoreSize> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query("vacuum (analyze)");
    await client.query("checkpoint");
    const number = async (text: string) => Number((await client.query<{ n: string }>(text)).rows[0]!.n);
    const bytes = await number("select pg_database_size(current_database()) as n");
    const fills = await number("select count(*) as n from fills");
    const tables = await client.query<{ name: string; total: string; heap: string; indexes: string }>(
      `select c.relname as name, sum(pg_total_relation_size(t.relid)) as total, sum(pg_relation_size(t.relid)) as heap,
          sum(pg_indexes_size(t.relid)) as indexes
        from pg_class c cross join ${TREE}
        where c.relnamespace = 'public'::regnamespace and c.relkind in ('r', 'p') and not c.relispartition
        group by c.relname`,
    );
    const indexes = await client.query<{ name: string; tbl: string; bytes: string }>(
      `select c.relname as name, tc.relname as tbl, sum(pg_relation_size(t.relid)) as bytes
        from pg_index x join pg_class c on c.oid = x.indexrelid join pg_class tc on tc.oid = x.indrelid
        cross join ${TREE}
        where c.relnamespace = 'public'::regnamespace and not c.relispartition group by c.relname, tc.relname`,
    );
    const sized = tables.rows
      .map((r) => {
        const [total, data, indexes] = [Number(r.total), Number(r.heap), Number(r.indexes)];
        return { table: r.name, total, data, other: total - data - indexes, indexes };
      })
      .sort((a, b) => b.total - a.total);
    const relations = [
      ...sized.map(
        (t): SizedRelation => ({ name: t.table, table: t.table, kind: "table", bytes: t.total - t.indexes }),
      ),
      ...indexes.rows.map(
        (r): SizedRelation => ({ name: r.name, table: r.tbl, kind: "index", bytes: Number(r.bytes) }),
      ),
    ].sort((a, b) => b.bytes - a.bytes);
    const counted = relations.reduce((sum, r) => sum + r.bytes, 0);
    const partitions = await number(
      "select count(*) as n from pg_inherits where inhparent = to_regclass(current_schema() || '.fill_rows')",
    );
    return {
      store: "PostgreSQL",
      bytes,
      fills,
      relations,
      tables: sized,
      rest: [{ label: "catalogs and the rest of the database", bytes: bytes - counted }],
      notes: [
        `database ${new URL(url).pathname.slice(1)}, after vacuum (analyze) and a checkpoint; the cluster's WAL not counted`,
        `fill_rows: ${partitions} partitions (its default one among them), summed under it`,
        "a table's own bytes: pg_table_size (heap, TOAST, maps); an index's: pg_relation_size",
      ],
    };
  } finally {
    await client.end();
  }
}

/** Each table's b-tree with its indexes' (a virtual table's shadow tables are tables of their own). */
function sqliteTables(relations: SizedRelation[]): SizedTable[] {
  const tables = new Map<string, { data: number; indexes: number }>();
  for (const r of relations) {
    const entry = tables.get(r.table) ?? { data: 0, indexes: 0 };
    if (r.kind === "index") entry.indexes += r.bytes;
    else entry.data += r.bytes;
    tables.set(r.table, entry);
  }
  return [...tables]
    .map(([table, { data, indexes }]) => ({ table, total: data + indexes, data, other: 0, indexes }))
    .sort((a, b) => b.total - a.total);
}
