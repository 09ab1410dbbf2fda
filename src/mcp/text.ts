/** The words of a tool's summary: amounts, percentages, who, and how to get the rest of a list. */
import type { RouteShape } from "./route-shapes.js";

type Maybe<T> = T | null | undefined;

export function usd(value: Maybe<number>): string {
  if (value === null || value === undefined) return "n/a";
  const rounded = Math.abs(value) >= 100 ? Math.round(Math.abs(value)) : Math.round(Math.abs(value) * 100) / 100;
  return `${value < 0 ? "-" : ""}$${rounded.toLocaleString("en-US")}`;
}

export function percent(value: Maybe<number>): string {
  return value === null || value === undefined ? "n/a" : `${Math.round(value * 10) / 10}%`;
}

/** A price 0..1 as cents. */
export function cents(value: Maybe<number>): string {
  return value === null || value === undefined ? "n/a" : `${Math.round(value * 1000) / 10}¢`;
}

/** A wallet as an agent can quote it and call tools with: its name, if any, and its full address. */
export function who(wallet: string, name?: Maybe<string>): string {
  return name ? `${name} (${wallet})` : wallet;
}

export function when(unixSeconds: Maybe<number>): string {
  return unixSeconds ? new Date(unixSeconds * 1000).toISOString().slice(0, 16).replace("T", " ") : "n/a";
}

/** A heading, then one line per row (numbered), or `empty` when there is none. */
export function listing(heading: string, rows: readonly string[], empty = "none"): string {
  if (rows.length === 0) return `${heading}: ${empty}.`;
  return [`${heading}:`, ...rows.map((row, i) => `${i + 1}. ${row}`)].join("\n");
}

/**
 * How to get the rest of a list an answer holds `shown` rows of: the next offset or cursor to call again with, read
 * from the answer (`has_more`, `total`, `next_before_ts`, `next_before`/`next_before_id`) and the call's arguments.
 */
export function pagingNote(
  shape: RouteShape,
  args: Readonly<Record<string, unknown>>,
  body: Readonly<Record<string, unknown>>,
  shown: number,
  maxPageSize: number,
): string | undefined {
  const more = body.has_more === true;
  if (more && typeof body.next_before_ts === "number") return `More: call again with before_ts=${body.next_before_ts}.`;
  if (more && typeof body.next_before === "number")
    return `More: call again with before=${body.next_before} and before_id=${body.next_before_id}.`;
  const total = typeof body.total === "number" ? body.total : undefined;
  if (shape.queryParams.includes("offset")) {
    const offset = Number(args.offset ?? 0);
    const hasMore = more || (total !== undefined && offset + shown < total);
    const range = shown ? `rows ${offset + 1}-${offset + shown}` : "no rows";
    const of = total === undefined ? "" : ` of ${total}`;
    return hasMore ? `Showing ${range}${of}. More: call again with offset=${offset + shown}.` : undefined;
  }
  const limit = Number(args.limit ?? shape.defaultLimit);
  if (shape.queryParams.includes("limit") && shown >= limit && limit < maxPageSize)
    return `Showing the first ${shown}${total === undefined ? "" : ` of ${total}`}; a larger limit (up to ${maxPageSize}) shows more.`;
  return undefined;
}
