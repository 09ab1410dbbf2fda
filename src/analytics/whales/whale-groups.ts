/**
 * The whale groups of the Smart Money copy: per resolved market, the whales that bought its winning side (the
 * missed opportunities' candidates); per open, unresolved (market, side), the whales that hold it (the active whale
 * markets' candidates). Made once per load of the copy, each group's whales in address order with their figure
 * (net P&L, cost), the groups ranked as an answer ranks them were every whale matched. A request marks its matched
 * whales and walks the ranking, counting each group's matched whales, and stops at the first group with fewer
 * whales in all than the `limit`-th kept one counts (or fewer than the minimum): no later group can rank above it,
 * since a group's matched whales are a subset of its whales. The sums add the matched whales' figures in address
 * order, as the answer always added them, so the answers are those of grouping the matched whales' positions.
 */

/** The whales of one (market, side), in address order, with their figure. */
export interface WhaleGroup {
  condition_id: string;
  outcome_index: number;
  /** Whale numbers (their rank by address). */
  whales: Int32Array;
  /** Each whale's figure, USD: net P&L (won groups) or cost of the shares held (active groups). */
  figures: Float64Array;
}

/** A group as matched whales make it: those of its whales that are matched, and the sum of their figures. */
export interface MatchedGroup {
  group: WhaleGroup;
  /** Matched whale numbers, in address order. */
  whales: number[];
  /** Their figures, in the same order. */
  figures: number[];
  sum: number;
}

/** Rank order of the answers: more whales first, then the larger sum, then market, then YES before NO. */
export function byRank(a: MatchedGroup, b: MatchedGroup): number {
  return (
    b.whales.length - a.whales.length ||
    b.sum - a.sum ||
    (a.group.condition_id < b.group.condition_id ? -1 : a.group.condition_id > b.group.condition_id ? 1 : 0) ||
    a.group.outcome_index - b.group.outcome_index
  );
}

/** Builds the groups of (market, side) → whale → figure, ranked as if every whale were matched. */
export function rankGroups(
  members: Map<string, { conditionId: string; outcomeIndex: number; whale: number; figure: number }[]>,
) {
  const groups: WhaleGroup[] = [];
  for (const rows of members.values()) {
    rows.sort((a, b) => a.whale - b.whale);
    groups.push({
      condition_id: rows[0]!.conditionId,
      outcome_index: rows[0]!.outcomeIndex,
      whales: Int32Array.from(rows, (r) => r.whale),
      figures: Float64Array.from(rows, (r) => r.figure),
    });
  }
  const all = groups.map((group) => ({
    group,
    whales: [...group.whales],
    figures: [...group.figures],
    sum: sumOf(group.figures),
  }));
  return all.sort(byRank).map((m) => m.group);
}

function sumOf(figures: Float64Array): number {
  let s = 0;
  for (const f of figures) s += f;
  return s;
}

/** What the walk of one request read: groups looked at and whale rows counted. */
export interface WalkCost {
  groups: number;
  rows: number;
}

/**
 * The first `limit` groups by rank, counting only matched whales, leaving out the groups `skip` names and those
 * with fewer than `minWhales` matched whales.
 */
export function topMatchedGroups(
  ranked: readonly WhaleGroup[],
  matched: Uint8Array,
  minWhales: number,
  limit: number,
  skip: (g: WhaleGroup) => boolean,
  cost?: WalkCost,
): MatchedGroup[] {
  const top: MatchedGroup[] = [];
  for (const group of ranked) {
    const size = group.whales.length;
    if (size < minWhales) break;
    if (top.length === limit && size < top[limit - 1]!.whales.length) break;
    if (skip(group)) continue;
    if (cost) {
      cost.groups++;
      cost.rows += size;
    }
    const whales: number[] = [];
    const figures: number[] = [];
    let sum = 0;
    for (let i = 0; i < size; i++) {
      const w = group.whales[i]!;
      if (matched[w] === 1) {
        whales.push(w);
        figures.push(group.figures[i]!);
        sum += group.figures[i]!;
      }
    }
    if (whales.length < minWhales) continue;
    const candidate = { group, whales, figures, sum };
    if (top.length === limit && byRank(candidate, top[limit - 1]!) >= 0) continue;
    let at = top.length;
    while (at > 0 && byRank(candidate, top[at - 1]!) < 0) at--;
    top.splice(at, 0, candidate);
    if (top.length > limit) top.pop();
  }
  return top;
}
