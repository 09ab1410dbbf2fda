/**
 * A row's values in a column order, for the bulk write paths (SQLite prepared statements, PostgreSQL COPY). The
 * copying function is compiled once per column list, one assignment per column (`values[0] = row["fill_key"] ??
 * null; ...`): looking each value up by a varying name in a loop cost about 250 ns per 20-column row against 30
 * (measured), 2.5 s of a 10,000,000-fill backfill.
 */
export type RowBinder = (row: object, values: unknown[]) => void;

const COLUMN_NAME = /^[a-z_][a-z0-9_]*$/;
const binders = new Map<string, RowBinder>();

/** Copies a row's values into `values` in `columns` order; an absent value becomes null. */
export function rowBinder(columns: readonly string[]): RowBinder {
  const key = columns.join(",");
  let bind = binders.get(key);
  if (!bind) {
    for (const column of columns) if (!COLUMN_NAME.test(column)) throw new Error(`unexpected column name ${column}`);
    bind = new Function(
      "row",
      "values",
      columns.map((c, i) => `values[${i}] = row["${c}"] ?? null;`).join("\n"),
    ) as RowBinder;
    binders.set(key, bind);
  }
  return bind;
}
