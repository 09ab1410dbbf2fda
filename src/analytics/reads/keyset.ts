/**
 * Keyset paging over fills in (timestamp desc, id desc) order: a page continues strictly before the last row of the
 * previous one, so rows stored meanwhile (newer ones, or late ones inside a page already read) never show a row
 * twice nor shift one out, as an offset would.
 */
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

/** The bound as SQL text (empty when there is none) and its parameters, for reads written as plain text. */
export function keysetBeforeText(
  columns: { ts: string; id: string },
  bound: KeysetBound,
): { text: string; params: number[] } {
  if (bound.before <= 0) return { text: "", params: [] };
  const { ts, id } = columns;
  // The first term keeps an index range on the timestamp; the second breaks the tie inside `before`'s second.
  if (bound.beforeId > 0)
    return {
      text: ` and ${ts} <= ? and (${ts} < ? or ${id} < ?)`,
      params: [bound.before, bound.before, bound.beforeId],
    };
  return { text: ` and ${ts} ${bound.inclusive ? "<=" : "<"} ?`, params: [bound.before] };
}
