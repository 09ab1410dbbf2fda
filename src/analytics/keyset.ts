/**
 * Keyset paging over fills in (timestamp desc, id desc) order: a page continues strictly before the last row of the
 * previous one, so rows stored meanwhile (newer ones, or late ones inside a page already read) never show a row
 * twice nor shift one out, as an offset would.
 */
import { sql, type SelectQueryBuilder } from "kysely";

export interface Keyset {
  /** The `before` of the next page (the last row's timestamp); null on the last page. */
  next_before: number | null;
  /** The `before_id` of the next page (the last row's id); null on the last page. */
  next_before_id: number | null;
}

export interface KeysetBound {
  /** Upper bound on the timestamp (unix s); 0 = none. */
  before: number;
  /** With `before`: only rows strictly before (before, beforeId); 0 = bound by `before` alone. */
  beforeId: number;
  /** Whether `before` alone includes its own second (timestamp <= before) or not (timestamp < before). */
  inclusive: boolean;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnySelect = SelectQueryBuilder<any, any, any>;

/** `query` restricted to the rows before the bound; `columns` name the timestamp and id columns (with their alias). */
export function keysetBefore<Q extends AnySelect>(
  query: Q,
  columns: { ts: string; id: string },
  bound: KeysetBound,
): Q {
  if (bound.before <= 0) return query;
  const ts = sql.ref(columns.ts);
  if (bound.beforeId > 0) {
    // The first term keeps an index range on the timestamp; the second breaks the tie inside `before`'s second.
    return query.where(
      sql<boolean>`${ts} <= ${bound.before} and (${ts} < ${bound.before} or ${sql.ref(columns.id)} < ${bound.beforeId})`,
    ) as Q;
  }
  return query.where(sql<boolean>`${ts} ${sql.raw(bound.inclusive ? "<=" : "<")} ${bound.before}`) as Q;
}
