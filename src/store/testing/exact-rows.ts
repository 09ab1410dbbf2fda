/**
 * Rows as texts that tell every stored value apart (tests of migrations that must give back every value as it was):
 * each value's type, a number by its shortest exact text (-0 too), a bigint by its digits, anything else as JSON.
 */
export function exactText(value: unknown): string {
  if (typeof value === "number") return `number ${Object.is(value, -0) ? "-0" : String(value)}`;
  if (typeof value === "bigint") return `bigint ${value}`;
  return `${typeof value} ${JSON.stringify(value)}`;
}

/** Each row as one text, its columns in their order, each `column=` its value's `exactText`. */
export const exactRows = (rows: readonly Record<string, unknown>[]): string[] =>
  rows.map((row) =>
    Object.entries(row)
      .map(([column, value]) => `${column}=${exactText(value)}`)
      .join(" "),
  );
