/**
 * Where a store's bytes go (issue 49: at most 200 bytes per fill, all in), for the bench world of BENCH_FILLS fills
 * (support/world-store.ts, built once and kept in BENCH_DIR):
 *   npm run bench store-size                     (BENCH_FILLS=1000000; BENCH_FILLS=1000000,10000000 measures each)
 * 1. SQLite: the world's file, its WAL checkpointed into it: its size, its fills, bytes per fill all in, and every
 *    table and index (SQLite's dbstat: the pages of each b-tree) with its bytes, bytes per fill and share of the file;
 *    then each table with its indexes.
 * 2. PostgreSQL, when BENCH_DATABASE_URL (default `postgres://postgres@127.0.0.1:5432/pelagic_bench`) answers: the same
 *    world copied there as for the scaled mode of `npm run bench api` (support/scaled-world.ts, reused while it holds
 *    this world), vacuumed and checkpointed: `pg_database_size`, bytes per fill all in, and the same two tables
 *    (`fills`' monthly partitions summed under it; pg_total_relation_size, pg_relation_size, pg_indexes_size).
 * 3. Whether each store keeps within the goal.
 * How each store is read: support/store-size.ts. Figures only; nothing is asserted.
 */
import { preparePostgresWorld, BENCH_DATABASE_URL } from "./support/scaled-world.js";
import { postgresAnswers, postgresStoreSize, sqliteStoreSize, type StoreSize } from "./support/store-size.js";
import { prepareWorldStore } from "./support/world-store.js";

const FILLS = (process.env.BENCH_FILLS ?? "1000000").split(",").filter(Boolean).map(Number);
const GOAL_BYTES_PER_FILL = 200;
/** Rows under this share of the store are summed into one line. */
const SMALL_SHARE = 0.001;

const fmt = (n: number) => Math.round(n).toLocaleString("en-US");
const perFill = (bytes: number, fills: number) => (fills > 0 ? (bytes / fills).toFixed(1) : "-");
const share = (bytes: number, total: number) => `${((100 * bytes) / total).toFixed(1)}%`;

/** Rows in columns as wide as their widest cell: the first left-aligned, the others right-aligned. */
function printColumns(rows: string[][]): void {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  for (const r of rows)
    console.log(`  ${r.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join("  ")}`.trimEnd());
}

function printRelations(size: StoreSize): void {
  const small = size.relations.filter((r) => r.bytes < SMALL_SHARE * size.bytes);
  const cells = (name: string, kind: string, bytes: number) => [
    name,
    kind,
    fmt(bytes),
    perFill(bytes, size.fills),
    share(bytes, size.bytes),
  ];
  const rows = [["table or index", "kind", "bytes", "per fill", "share"]];
  for (const r of size.relations.filter((r) => r.bytes >= SMALL_SHARE * size.bytes))
    rows.push(cells(r.name, r.kind === "index" ? `index on ${r.table}` : "table", r.bytes));
  if (small.length > 0) {
    const bytes = small.reduce((sum, r) => sum + r.bytes, 0);
    rows.push(cells(`(${small.length} smaller, under ${SMALL_SHARE * 100}% each)`, "", bytes));
  }
  for (const { label, bytes } of size.rest) rows.push(cells(`(${label})`, "", bytes));
  printColumns(rows);
}

function printTables(size: StoreSize): void {
  const postgres = size.store === "PostgreSQL";
  console.log(`\n  each table with its indexes${postgres ? " (pg_total_relation_size)" : ""}:`);
  const rows = [["table", "total", "per fill", "share", "data", ...(postgres ? ["TOAST, maps"] : []), "indexes"]];
  for (const t of size.tables.filter((t) => t.total >= SMALL_SHARE * size.bytes))
    rows.push([
      t.table,
      fmt(t.total),
      perFill(t.total, size.fills),
      share(t.total, size.bytes),
      fmt(t.data),
      ...(postgres ? [fmt(t.other)] : []),
      fmt(t.indexes),
    ]);
  printColumns(rows);
}

function print(size: StoreSize): void {
  console.log(`\n${size.store}:`);
  for (const note of size.notes) console.log(`  (${note})`);
  console.log(`  size, all in:            ${fmt(size.bytes)} bytes`);
  console.log(`  fills:                   ${fmt(size.fills)}`);
  console.log(`  bytes per fill, all in:  ${perFill(size.bytes, size.fills)}\n`);
  if (size.relations.length === 0) return;
  printRelations(size);
  printTables(size);
}

function verdict(size: StoreSize): string {
  const bytesPerFill = size.bytes / size.fills;
  const against =
    bytesPerFill <= GOAL_BYTES_PER_FILL
      ? "meets it"
      : `misses it by ${(bytesPerFill - GOAL_BYTES_PER_FILL).toFixed(1)} (${(bytesPerFill / GOAL_BYTES_PER_FILL).toFixed(2)}x)`;
  return `  ${size.store.padEnd(11)} ${bytesPerFill.toFixed(1)} bytes per fill: ${against}`;
}

const postgresUp = await postgresAnswers(BENCH_DATABASE_URL);
for (const fills of FILLS) {
  console.log(`\n--- the ${fmt(fills)}-fill world ---`);
  const { sqlitePath } = await prepareWorldStore(fills);
  const sizes = [sqliteStoreSize(sqlitePath)];
  print(sizes[0]!);
  if (postgresUp) {
    sizes.push(await postgresStoreSize(await preparePostgresWorld(sqlitePath)));
    print(sizes[1]!);
  } else console.log(`\nPostgreSQL: skipped, nothing answers at ${new URL(BENCH_DATABASE_URL).host}`);
  console.log(`\ngoal: at most ${GOAL_BYTES_PER_FILL} bytes per fill, all in`);
  for (const size of sizes) console.log(verdict(size));
}
